// What a page costs a shopper: the bytes Chromium fetches for a page, pictures apart, on a phone
// (390 × 844 at 2× density, as a mid-range Android) and a desktop (1366 × 900 at 1×), until the
// network is idle. Pictures below the fold that load lazily are not counted: they cost nothing
// until the shopper scrolls. `pageWeights(origin)` is part of `npm run bench`; run alone
// (`node scripts/run.mjs scripts/page-weight.ts`) it builds the working tree, serves the demo
// catalogue and prints the table.
import { randomBytes } from 'node:crypto';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { preview } from 'vite';
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { buildForPreview } from '#local/build.ts';
import { chromiumLaunch, launchOptions } from '#local/chromium.ts';
import { freePort } from '#local/free-port.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { pgliteBackend } from '#local/neon/pglite-backend.ts';
import { enterWorkingCopy } from '#local/working-copy.ts';

/** The pages weighed: the home page, the shop and a product page with sizes, colours and pictures. */
export const WEIGHED_PAGES = ['/', '/shop', '/products/ankara-wrap-dress'] as const;
/** The screens: budgets.json's `pictures` hold the phone's picture bytes (tests/e2e/picture-budget). */
export const SCREENS = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true },
  desktop: { viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1, isMobile: false },
} as const;

export type PageWeight = {
  page: string;
  screen: keyof typeof SCREENS;
  /** Bytes over the wire (as served locally: no CDN compression of images either way). */
  imageBytes: number;
  images: number;
  totalBytes: number;
  requests: number;
};

/** The bytes of one visit by the kind of thing fetched, as DevTools counts them on the wire
 * (`encodedDataLength`: compressed body and headers), until the network is idle. */
export type VisitBytes = {
  total: number;
  requests: number;
  /** By DevTools' resource type: Document, Script, Stylesheet, Font, Image, Fetch... */
  byType: Record<string, number>;
  /** Each response counted: its address, type and bytes (for a listing of what a visit costs). */
  responses: { url: string; type: string; bytes: number }[];
};

/** Opens `url` in `tab` and counts what crosses the network until it is idle. A second call on
 * the same tab is a second visit: what the HTTP cache (and a service worker) keep is not fetched.
 * What the shop's service worker fetches for the page counts too, under the page's type for it:
 * the page's own record of a response the worker gave says 0 bytes, the worker's record says what
 * crossed the network (0 when its cache or the HTTP cache had it). */
export async function visitBytes(tab: Page, url: URL | string): Promise<VisitBytes> {
  const client = await tab.context().newCDPSession(tab);
  await client.send('Network.enable');
  const seen = new Map<string, { url: string; type: string; fromWorker: boolean }>();
  const finished: { url: string; type: string; bytes: number; fromWorker: boolean }[] = [];
  client.on('Network.responseReceived', (event) =>
    seen.set(event.requestId, {
      url: event.response.url,
      type: event.type,
      fromWorker: event.response.fromServiceWorker === true,
    }),
  );
  client.on('Network.loadingFinished', (event) => {
    const response = seen.get(event.requestId) ?? { url: '', type: 'Other', fromWorker: false };
    finished.push({ ...response, bytes: event.encodedDataLength });
  });
  const fetchedByWorker: Promise<[string, number]>[] = [];
  const workerFetched = (request: Request) => {
    if (request.serviceWorker()) {
      fetchedByWorker.push(workerBytes(request).then((bytes) => [request.url(), bytes]));
    }
  };
  tab.context().on('requestfinished', workerFetched);
  try {
    await tab.goto(url.toString(), { waitUntil: 'networkidle' });
  } finally {
    tab.context().off('requestfinished', workerFetched);
    await client.detach();
  }
  const byWorker = await Promise.all(fetchedByWorker);
  const visit: VisitBytes = { total: 0, requests: 0, byType: {}, responses: [] };
  const count = (response: { url: string; type: string; bytes: number }) => {
    visit.requests += 1;
    visit.total += response.bytes;
    visit.byType[response.type] = (visit.byType[response.type] ?? 0) + response.bytes;
    visit.responses.push(response);
  };
  for (const { fromWorker, ...response } of finished) {
    if (!fromWorker) {
      count(response);
      continue;
    }
    const index = byWorker.findIndex(([address]) => address === response.url);
    const bytes = index < 0 ? 0 : (byWorker.splice(index, 1)[0]?.[1] ?? 0);
    count({ ...response, bytes });
  }
  // The worker's own script (installing it) is the one the page never asked for.
  for (const [address, bytes] of byWorker) count({ url: address, type: 'Script', bytes });
  return visit;
}

/** A service worker's request as DevTools' encodedDataLength: Playwright's two sizes add up to it.
 * Two requests' sizes it never settles, the worker's own script and the page it asks for while
 * starting (navigation preload): those come from the network, as long as their headers say. */
async function workerBytes(request: Request): Promise<number> {
  const ownScript = request.url() === request.serviceWorker()?.url();
  if (ownScript || 'service-worker-navigation-preload' in request.headers()) {
    const response = await request.response();
    const headers = Object.entries(response?.headers() ?? {});
    const head = headers.reduce((n, [name, value]) => n + name.length + value.length + 4, 19);
    return head + Number(response?.headers()['content-length'] ?? 0);
  }
  const size = await request.sizes();
  return size.responseHeadersSize + size.responseBodySize;
}

/** What Chromium fetches for one page on one screen, until the network is idle. */
export async function weigh(browser: Browser, screen: keyof typeof SCREENS, url: URL) {
  const options = SCREENS[screen];
  const context = await browser.newContext({ ...options, hasTouch: options.isMobile });
  try {
    const visit = await visitBytes(await context.newPage(), url);
    const images = visit.responses.filter((r) => r.type === 'Image');
    return {
      imageBytes: images.reduce((n, r) => n + r.bytes, 0),
      images: images.length,
      totalBytes: visit.total,
      requests: visit.requests,
    };
  } finally {
    await context.close();
  }
}

export async function pageWeights(origin: string): Promise<PageWeight[]> {
  const browser = await chromium.launch(launchOptions(await chromiumLaunch()));
  const weights: PageWeight[] = [];
  try {
    for (const screen of Object.keys(SCREENS) as (keyof typeof SCREENS)[]) {
      for (const page of WEIGHED_PAGES) {
        weights.push({ page, screen, ...(await weigh(browser, screen, new URL(page, origin))) });
      }
    }
  } finally {
    await browser.close();
  }
  return weights;
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export function pageWeightTable(weights: PageWeight[]): string {
  return [
    '| page | screen | pictures | picture bytes | all bytes (requests) |',
    '| ---- | ------ | -------- | ------------- | -------------------- |',
    ...weights.map(
      (w) =>
        `| \`${w.page}\` | ${w.screen} | ${w.images} | ${kib(w.imageBytes)} | ${kib(w.totalBytes)} (${w.requests}) |`,
    ),
  ].join('\n');
}

async function main() {
  process.env.WRANGLER_SEND_METRICS = 'false';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
  const copy = await enterWorkingCopy('duuka-weight');
  const backend = await pgliteBackend();
  const endpoint = await startLocalNeon({ backend });
  try {
    await buildForPreview({ logLevel: 'warn' });
    const db = createDb(endpoint.databaseUrl);
    await migrateDatabase(db);
    await seedDemoCatalogue(db);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    process.env.DATABASE_URL = endpoint.databaseUrl;
    process.env.BETTER_AUTH_URL = origin;
    process.env.BETTER_AUTH_SECRET = randomBytes(32).toString('hex');
    process.env.MAIL_TRANSPORT = 'outbox';
    const server = await preview({ preview: { port, strictPort: true }, logLevel: 'warn' });
    try {
      console.log(pageWeightTable(await pageWeights(origin)));
    } finally {
      await new Promise((resolve) => server.httpServer.close(resolve));
    }
  } finally {
    await endpoint.close();
    await backend.close();
    await copy.leave();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
  process.exit(0); // vite/workerd leave handles open
}
