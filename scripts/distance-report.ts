// What distance to the database costs a shopper (issue 25): each page and change of the bench,
// with the local endpoint holding every database request 0 ms, then 150 ms (Neon's region seen
// from Kampala): time to first byte p50 and p90, the database trips and how many ran in a row,
// and the ratio to the static ceiling's first byte at the same distance. Part of `npm run bench`.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import type { Db } from '#db/client.ts';
import { chromiumLaunch, launchOptions } from '#local/chromium.ts';
import { tripsOf } from '#local/distance.ts';

/** The distances measured: none, and Frankfurt from Kampala. */
export const DISTANCES = [0, 150] as const;
const RUNS = 12;
/** placeOrder places real orders (10 a minute per shopper): fewer runs. */
const ORDER_RUNS = 4;
/** A code without limits, for "placeOrder with a code". */
const BENCH_CODE = 'BENCH10';

type Request = { path: string; method?: 'POST'; body?: () => string; before?: () => Promise<void> };

export type DistanceRow = {
  request: string;
  trips: number;
  inARow: number;
  /** By distance (ms): first byte p50 and p90, and p50 ÷ the ceiling's p50 at that distance. */
  at: Record<number, { p50: number; p90: number; ratio: number | null }>;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;

/** The signed-in shopper's pages, the anonymous ones, cart.add and placeOrder. */
function requests(db: Db, shopper: { id: string }, slug: string, variantId: number) {
  const trpc = (procedure: string, input: () => unknown) => ({
    path: `/api/trpc/${procedure}`,
    method: 'POST' as const,
    body: () => JSON.stringify(input()),
  });
  /** An order of one piece (its stock topped up first, not timed), with these codes. */
  const placing = (codes?: string[], also?: () => Promise<void>) => ({
    anonymous: false,
    runs: ORDER_RUNS,
    request: {
      ...trpc('checkout.placeOrder', () => ({
        orderId: randomUUID(),
        items: [{ variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
        deliveryArea: 'Ntinda',
        ...(codes ? { codes } : {}),
      })),
      before: async () => {
        await db.execute(sql`update product_variants set stock = 50 where id = ${variantId}`);
        await also?.();
      },
    },
  });
  const signedIn = ['/', '/shop', '/cart', '/checkout', '/orders', '/order-history', '/profile'];
  return {
    ceiling: { anonymous: true, request: { path: '/__bench-ceiling' } },
    '/ (rendered)': { anonymous: true, request: { path: '/' }, rendered: true },
    '/shop (rendered)': { anonymous: true, request: { path: '/shop' }, rendered: true },
    'product page (rendered)': {
      anonymous: true,
      request: { path: `/products/${slug}` },
      rendered: true,
    },
    ...Object.fromEntries(
      [...signedIn, '/settings'].map((path) => [
        `${path} (signed in)`,
        { anonymous: false, request: { path } },
      ]),
    ),
    'cart.add': {
      anonymous: false,
      request: {
        ...trpc('cart.add', () => ({ variantId })),
        // Each add starts from an empty cart (not timed), so none is refused at the stock.
        before: async () => {
          await db.execute(sql`delete from cart_items where user_id = ${shopper.id}`);
        },
      },
    },
    'checkout.placeOrder': placing(),
    // Issue 35: a code read, priced and counted in the same two trips in a row.
    'checkout.placeOrder with a code': placing([BENCH_CODE], async () => {
      await db.execute(sql`insert into promotions (name, code, kind, value)
        select 'Bench 10%', ${BENCH_CODE}, 'percent', 10
        where not exists (select 1 from promotions where lower(code) = lower(${BENCH_CODE}))`);
      // The plain placeOrder rows took this shopper's 10 checkouts a minute: start afresh.
      await db.execute(sql`delete from rate_limit where key = ${`checkout:user:${shopper.id}`}`);
    }),
  } satisfies Record<
    string,
    { anonymous: boolean; request: Request; rendered?: boolean; runs?: number }
  >;
}

/** First byte (the answer's headers), then the body read to its end. */
async function firstByte(origin: string, request: Request, headers: Record<string, string>) {
  const started = performance.now();
  const answer = await fetch(new URL(request.path, origin), {
    method: request.method ?? 'GET',
    headers: { ...headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    body: request.body?.(),
  });
  const ms = performance.now() - started;
  await answer.arrayBuffer();
  if (answer.status >= 400) throw new Error(`${request.path} answered ${answer.status}`);
  return ms;
}

export async function distanceRows(
  origin: string,
  databaseUrl: string,
  db: Db,
  shopper: { id: string; cookie: string },
  slug: string,
): Promise<DistanceRow[]> {
  const trips = tripsOf(databaseUrl);
  const [variant] = (
    await db.execute<{ id: number }>(
      sql`select v.id from product_variants v join products p on p.id = v.product_id
          where p.slug = ${slug} order by v.id limit 1`,
    )
  ).rows;
  if (!variant) throw new Error(`no variant for ${slug}`);
  const rows: DistanceRow[] = [];
  const all = requests(db, shopper, slug, Number(variant.id));
  try {
    for (const [label, target] of Object.entries(all)) {
      const headers: Record<string, string> = { origin };
      // A cookie named like the session's skips the edge cache for anonymous pages, without
      // being a session (server/http/page-cache.ts): the page is rendered every time.
      if (!target.anonymous) headers.cookie = shopper.cookie;
      else if ('rendered' in target) headers.cookie = 'duuka.bench=1';
      const request: Request = target.request;
      const row: DistanceRow = { request: label, trips: 0, inARow: 0, at: {} };
      for (const distance of DISTANCES) {
        await trips.setLatency(distance);
        await request.before?.();
        await firstByte(origin, request, headers); // warm: the Worker compiles the route
        const runs = 'runs' in target ? target.runs : RUNS;
        const samples: number[] = [];
        for (let run = 0; run < runs; run++) {
          await request.before?.(); // not counted, not timed
          const mark = await trips.mark();
          samples.push(await firstByte(origin, request, headers));
          if (distance === 150 && run === 0) {
            const seen = await trips.since(mark);
            Object.assign(row, { trips: seen.count, inARow: seen.depth });
          }
        }
        samples.sort((a, b) => a - b);
        row.at[distance] = {
          p50: Math.round(percentile(samples, 0.5)),
          p90: Math.round(percentile(samples, 0.9)),
          ratio: null,
        };
      }
      rows.push(row);
      console.log(
        `  ${label}: ${row.trips} trips, ${row.inARow} in a row; first byte p50 ${DISTANCES.map((d) => `${row.at[d]?.p50} ms at ${d}`).join(', ')}`,
      );
    }
  } finally {
    await trips.setLatency(0);
  }
  const ceiling = rows.find((row) => row.request === 'ceiling');
  for (const row of rows) {
    for (const distance of DISTANCES) {
      const at = row.at[distance];
      const base = ceiling?.at[distance]?.p50;
      if (at) at.ratio = base ? Math.round((at.p50 / base) * 10) / 10 : null;
    }
  }
  return rows;
}

/** The signed-in pages timed in Chromium until they answer a tap. */
const INTERACTIVE_PAGES = ['/cart', '/orders'];
const INTERACTIVE_RUNS = 5;

export type InteractiveRow = { path: string; at: Record<number, number> };

/**
 * How long a signed-in shopper waits in Chromium, at each distance, from asking for the page until
 * it is interactive: React has hydrated it (`html[data-hydrated]`, set by the root), so a tap
 * reaches the app. Median of 5 loads in a fresh tab (the browser's cache kept, as on a phone
 * coming back to the shop).
 */
export async function interactiveRows(
  origin: string,
  databaseUrl: string,
  cookie: string,
): Promise<InteractiveRow[]> {
  const trips = tripsOf(databaseUrl);
  const browser = await chromium.launch(launchOptions(await chromiumLaunch()));
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { cookie },
  });
  const rows = INTERACTIVE_PAGES.map((path) => ({ path, at: {} as Record<number, number> }));
  try {
    for (const distance of DISTANCES) {
      await trips.setLatency(distance);
      for (const row of rows) {
        const samples: number[] = [];
        for (let run = 0; run <= INTERACTIVE_RUNS; run++) {
          const page = await context.newPage();
          const started = performance.now();
          await page.goto(new URL(row.path, origin).href, { waitUntil: 'commit' });
          await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
          // The first load (not counted) fills the browser's cache with the page's scripts.
          if (run > 0) samples.push(performance.now() - started);
          await page.close();
        }
        samples.sort((a, b) => a - b);
        row.at[distance] = Math.round(percentile(samples, 0.5));
      }
    }
  } finally {
    await trips.setLatency(0);
    await browser.close();
  }
  for (const row of rows) {
    console.log(
      `  ${row.path} interactive in Chromium: ${DISTANCES.map((d) => `${row.at[d]} ms at ${d}`).join(', ')}`,
    );
  }
  return rows;
}

export function interactiveTable(rows: InteractiveRow[]): string[] {
  return [
    `| signed-in page | interactive in Chromium at ${DISTANCES.join(' / ')} ms (median of ${INTERACTIVE_RUNS}, ms) |`,
    '|---|---|',
    ...rows.map((row) => `| ${row.path} | ${DISTANCES.map((d) => row.at[d]).join(' / ')} |`),
  ];
}

export function distanceTable(rows: DistanceRow[]): string[] {
  const lines = [
    '| request | database trips | in a row | first byte p50 / p90 at 0 ms | ÷ ceiling | at 150 ms | ÷ ceiling |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const [near, far] = [row.at[0], row.at[150]];
    lines.push(
      `| ${row.request} | ${row.trips} | ${row.inARow} | ${near?.p50} / ${near?.p90} | ${near?.ratio ?? ''} | ${far?.p50} / ${far?.p90} | ${far?.ratio ?? ''} |`,
    );
  }
  return lines;
}
