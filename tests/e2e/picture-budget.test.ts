// The pictures a phone downloads (issue 25): a 390 px phone at 2× density, as a mid-range Android,
// on Home, the shop and a product page, until the network is idle (pictures below the fold that
// load lazily cost nothing until the shopper scrolls). Within budgets.json's `pictures`; the bench
// weighs the same pages the same way (scripts/page-weight.ts).
import { afterAll, describe, expect, it } from 'vitest';
import budgets from '../../budgets.json' with { type: 'json' };
import { weigh } from '../../scripts/page-weight.ts';
import { closeBrowser, openBrowser } from '../support/browser.ts';
import { shop } from '../support/shop.ts';

afterAll(closeBrowser);

describe('pictures on a phone', () => {
  const measured: Record<string, number> = {};
  afterAll(() => console.log('pictures on a phone (KiB):', JSON.stringify(measured)));
  for (const [route, budget] of Object.entries(budgets.pictures.phone)) {
    it(`${route} downloads at most ${budget} KiB of pictures at 390 px`, async () => {
      const weight = await weigh(await openBrowser(), 'phone', new URL(route, shop().url));
      const kib = Math.round((weight.imageBytes / 1024) * 10) / 10;
      measured[route] = kib;
      expect(weight.images).toBeGreaterThan(0);
      expect(kib).toBeLessThanOrEqual(budget);
    });
  }
});
