// Interaction to Next Paint of three taps on a cheap phone (issue 38), part of `npm run bench`
// (`BENCH_ONLY=inp npm run bench` alone): Chromium at 390 × 844, 2× density, touch, its CPU slowed
// 6× through the DevTools protocol from the page's first byte. Each tap is a real touch tap on a
// fresh page once React has hydrated it and the network is idle; the page's own Event Timing
// entries (a PerformanceObserver on 'event' entries from 16 ms, buffered) are grouped by
// interactionId, and the tap's INP is the longest entry of its interaction. Median of INP_RUNS.
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumLaunch, launchOptions } from '#local/chromium.ts';

export const INP_RUNS = Number(process.env.BENCH_INP_RUNS ?? 5);
export const INP_SLOWDOWN = 6;
/** The target for each tap at 6×. */
export const INP_TARGET_MS = 200;
const PRODUCT = '/products/ankara-wrap-dress';

export type InpRow = { interaction: string; path: string; runs: number[]; median: number };

/** The longest Event Timing entry of each interaction so far, by interactionId (in the page). */
function observeInteractions() {
  const seen: Record<number, number> = {};
  Object.assign(window, { __interactions: seen });
  new PerformanceObserver((list) => {
    // interactionId: in Chromium's Event Timing, not yet in TypeScript's DOM types.
    for (const entry of list.getEntries() as (PerformanceEntry & { interactionId?: number })[]) {
      const id = entry.interactionId;
      if (id) seen[id] = Math.max(seen[id] ?? 0, entry.duration);
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
}

const interactions = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __interactions: Record<string, number> }).__interactions,
  );

/** Taps what `target` finds and returns the INP of that tap (ms). An interaction under 16 ms
 * reports no entry: it counts as 16. */
async function tapped(page: Page, target: () => ReturnType<Page['locator']>): Promise<number> {
  const before = new Set(Object.keys(await interactions(page)));
  await target().tap();
  const started = Date.now();
  let longest = 0;
  // Entries arrive after the next paint: wait for this tap's, then a little for the rest of it.
  while (Date.now() - started < 5_000) {
    const now = Object.entries(await interactions(page)).filter(([id]) => !before.has(id));
    longest = Math.max(0, ...now.map(([, duration]) => duration));
    if (longest > 0) break;
    await page.waitForTimeout(100);
  }
  await page.waitForTimeout(500);
  const all = Object.entries(await interactions(page)).filter(([id]) => !before.has(id));
  return Math.max(16, longest, ...all.map(([, duration]) => duration));
}

/** A fresh phone page at 6×, opened at `path` and hydrated, the network idle. */
async function phonePage(browser: Browser, url: string, cookie?: string) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: cookie ? { cookie } : {},
  });
  const page = await context.newPage();
  await page.addInitScript(observeInteractions);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: INP_SLOWDOWN });
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 120_000 });
  await page.waitForLoadState('networkidle', { timeout: 120_000 });
  return { page, close: () => context.close() };
}

const sizeChoice = (page: Page, size: string) =>
  page
    .getByRole('radiogroup', { name: 'Size', exact: true })
    .locator('label')
    .filter({ has: page.locator(`input[value="${size}"]`) });

/** INP of Add to Cart (a signed-in shopper, a colour and size chosen first), the Size choice and
 * opening the filters sheet (/products: the shop's listing with the filter bar). `clearCart`
 * empties the shopper's cart before each Add to Cart, so every run adds the same. */
export async function inpRows(
  origin: string,
  cookie: string,
  clearCart: () => Promise<unknown>,
): Promise<InpRow[]> {
  const browser = await chromium.launch(launchOptions(await chromiumLaunch()));
  const cases: {
    interaction: string;
    path: string;
    cookie?: string;
    measure: (page: Page) => Promise<number>;
  }[] = [
    {
      interaction: 'Add to Cart',
      path: PRODUCT,
      cookie,
      measure: async (page) => {
        await page
          .getByRole('radiogroup', { name: 'Colour', exact: true })
          .locator('label')
          .filter({ has: page.locator('input[value="Indigo"]') })
          .tap();
        await sizeChoice(page, 'L').tap();
        await page.waitForLoadState('networkidle');
        return tapped(page, () =>
          page.getByTestId('product-details').getByRole('button', { name: 'Add 1 to Cart' }),
        );
      },
    },
    {
      interaction: 'Size choice',
      path: PRODUCT,
      measure: (page) => tapped(page, () => sizeChoice(page, 'M')),
    },
    {
      interaction: 'Filters sheet',
      path: '/products',
      measure: (page) =>
        tapped(page, () => page.getByRole('button', { name: /^Filters/, exact: false })),
    },
  ];
  const rows: InpRow[] = [];
  try {
    for (const c of cases) {
      const runs: number[] = [];
      for (let run = 0; run < INP_RUNS; run++) {
        if (c.cookie) await clearCart();
        const { page, close } = await phonePage(browser, new URL(c.path, origin).href, c.cookie);
        try {
          runs.push(Math.round(await c.measure(page)));
        } finally {
          await close();
        }
      }
      const sorted = [...runs].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
      rows.push({ interaction: c.interaction, path: c.path, runs, median });
      console.log(`  INP ${c.interaction} at ${INP_SLOWDOWN}×: ${median} ms (${runs.join(', ')})`);
    }
  } finally {
    await browser.close();
  }
  return rows;
}

export function inpTable(rows: InpRow[]): string[] {
  return [
    `| interaction | page | INP ms at ${INP_SLOWDOWN}× (median of ${INP_RUNS}) | runs | target ≤ ${INP_TARGET_MS} ms |`,
    '| --- | --- | ---: | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.interaction} | \`${r.path}\` | ${r.median} | ${r.runs.join(', ')} | ${r.median <= INP_TARGET_MS ? 'met' : '**over**'} |`,
    ),
  ];
}
