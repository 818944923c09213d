import { describe, expect, it } from 'vitest';
import { offerInstructions, offerLine, runningCodes } from './chat-offers.ts';
import type { Offer } from './offers.ts';

const base: Offer = {
  id: 1,
  name: 'Welcome',
  code: 'KARIBU10',
  kind: 'percent',
  value: 10,
  appliesTo: null,
  minSubtotal: null,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  used: 0,
  perShopperLimit: 1,
  firstOrderOnly: true,
  combinable: false,
  buyQuantity: null,
  getQuantity: null,
  tag: null,
  active: true,
  version: 1,
};
const now = new Date('2026-11-28T12:00:00Z');

describe('what the assistant says about offers', () => {
  it('states each offer in one line', () => {
    expect(offerLine(base, now)).toBe(
      'code KARIBU10, Welcome: 10% off, first order only, 1 use(s) per shopper',
    );
    expect(
      offerLine(
        {
          ...base,
          code: null,
          name: 'Two tops',
          kind: 'buy_x_get_y',
          value: 50,
          buyQuantity: 2,
          getQuantity: 1,
          appliesTo: { categoryIds: [3] },
          firstOrderOnly: false,
          perShopperLimit: null,
          endsAt: '2026-11-29T21:00:00Z',
        },
        now,
      ),
    ).toBe(
      'automatic, no code needed, Two tops: Buy 2, get 1 half price, on selected pieces only, this weekend',
    );
  });

  it('names only the codes running now', () => {
    const offers = [
      base,
      { ...base, id: 2, code: 'LATER', startsAt: '2026-12-01T00:00:00Z' },
      { ...base, id: 3, code: 'ENDED', endsAt: '2026-11-28T12:00:00Z' },
      { ...base, id: 4, code: 'OFF', active: false },
      { ...base, id: 5, code: null },
    ];
    expect(runningCodes(offers, now)).toEqual(['KARIBU10']);
    const said = offerInstructions(offers, 30_000, now);
    expect(said).toContain('The only discount codes that exist are: KARIBU10.');
    expect(said).not.toMatch(/LATER|ENDED|OFF\b/);
    expect(said).toContain('UGX 30,000');
  });

  it('says no code exists when none runs, and nothing of credit it does not know', () => {
    const said = offerInstructions([], null, now);
    expect(said).toContain('No discount code exists right now');
    expect(said).not.toContain('store credit:');
    expect(offerInstructions(null, 0, now)).toContain('Never name a discount code');
  });
});
