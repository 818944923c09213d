// JavaScript per route on a first load, within its budget (budgets.json `routes`), measured as
// issue 38 defines it: the production build served compressed as Cloudflare serves it (brotli,
// local/compressing-proxy.ts), Chromium at 390 × 844 and 2× density, the bytes of every script
// on the wire as DevTools counts them (headers included) from asking for the page until the
// network is idle. Scripts loaded after hydration (a lazy toast, a prefetched route) count too:
// the shopper's bundle pays for them all the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { compressingProxy } from '#local/compressing-proxy.ts';
import budgets from '../../budgets.json' with { type: 'json' };
import { SCREENS, visitBytes } from '../../scripts/page-weight.ts';
import { closeBrowser, openBrowser } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { sessionCookie, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
let proxy: Awaited<ReturnType<typeof compressingProxy>>;
let cookie = '';

beforeAll(async () => {
  proxy = await compressingProxy(shop().url);
  const shopper = await verifiedShopper(db, 'Budget Shopper', { phone: '+256772123459' });
  cookie = await sessionCookie(shopper);
});
afterAll(async () => {
  await proxy?.close();
  await closeBrowser();
});

/** The scripts' bytes of a first visit to `route` on a phone, and each script's share. */
async function firstLoadJs(route: string, signedIn: boolean) {
  const context = await (await openBrowser()).newContext({
    ...SCREENS.phone,
    hasTouch: true,
  });
  try {
    if (signedIn) {
      const [name = '', ...value] = cookie.split('=');
      await context.addCookies([{ name, value: value.join('='), url: proxy.origin }]);
    }
    const visit = await visitBytes(await context.newPage(), new URL(route, proxy.origin));
    const scripts = visit.responses.filter((r) => r.type === 'Script');
    const bytes = scripts.reduce((n, r) => n + r.bytes, 0);
    return { kib: Math.round((bytes / 1024) * 10) / 10, files: scripts.length };
  } finally {
    await context.close();
  }
}

describe('client JS budgets (brotli on the wire, first load of a phone)', () => {
  const measured: Record<string, string> = {};
  afterAll(() => console.log('client JS (KiB on the wire, files):', JSON.stringify(measured)));
  for (const [route, { kib: budget, signedIn }] of Object.entries(budgets.routes)) {
    it(`${route} loads at most ${budget} KiB of JS`, async () => {
      const { kib, files } = await firstLoadJs(route, signedIn);
      measured[route] = `${kib} (${files})`;
      expect(files).toBeGreaterThan(0);
      expect(kib).toBeLessThanOrEqual(budget);
    });
  }
});
