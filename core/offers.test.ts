// The offers engine (issue 35): each kind and target, how offers combine, the dates at their
// boundaries to the millisecond in Kampala time, the per-shopper rules, gift cards and credit.
import { describe, expect, it } from 'vitest';
import {
  firstRefusal,
  isRunning,
  kampalaMoment,
  OFFER_TEXT,
  type Offer,
  type OfferLine,
  offersFor,
  problemsOf,
  type ShopperFacts,
  spendValue,
  splitCodes,
} from './offers.ts';

let nextId = 1;
const offer = (o: Partial<Offer>): Offer => ({
  id: nextId++,
  name: 'Offer',
  code: null,
  kind: 'percent',
  value: 10,
  appliesTo: null,
  minSubtotal: null,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  used: 0,
  perShopperLimit: null,
  firstOrderOnly: false,
  combinable: false,
  buyQuantity: null,
  getQuantity: null,
  tag: null,
  active: true,
  version: 1,
  ...o,
});

const line = (variantId: number, price: number, quantity = 1, categoryIds: number[] = []) =>
  ({ variantId, productId: variantId * 10, categoryIds, price, quantity }) satisfies OfferLine;

const signedIn: ShopperFacts = { id: 'u1', uses: new Map(), ordered: false };
const visitor: ShopperFacts = { id: null, uses: new Map(), ordered: false };
const NOW = new Date('2026-11-28T12:00:00.000Z');

const run = (
  offers: Offer[],
  lines: OfferLine[],
  codes: string[] = [],
  more: { fee?: number; shopper?: ShopperFacts; now?: Date } = {},
) =>
  offersFor({
    lines,
    offers,
    codes,
    deliveryFee: more.fee ?? 5000,
    now: more.now ?? NOW,
    shopper: more.shopper ?? signedIn,
  });

describe('kinds', () => {
  it('percent off the whole order, per line, rounded down to the shilling', () => {
    const answer = run(
      [offer({ code: 'NAKATO10', value: 10 })],
      [line(1, 145_005), line(2, 35_000, 2)],
      ['nakato10'],
    );
    expect(answer.discount).toBe(14_500 + 7_000);
    expect(answer.lines).toEqual([
      { variantId: 1, discount: 14_500 },
      { variantId: 2, discount: 7_000 },
    ]);
    expect(answer.given.map((g) => [g.code, g.amount])).toEqual([['NAKATO10', 21_500]]);
    expect(answer.refused).toEqual([]);
  });

  it('fixed off, never more than the pieces it covers, shared across lines', () => {
    const answer = run(
      [offer({ code: 'FIVE', kind: 'fixed', value: 50_000 })],
      [line(1, 20_000), line(2, 10_000)],
      ['FIVE'],
    );
    expect(answer.discount).toBe(30_000);
    expect(answer.lines.map((l) => l.discount)).toEqual([20_000, 10_000]);
    const smaller = run(
      [offer({ code: 'F', kind: 'fixed', value: 10_000 })],
      [line(1, 20_000), line(2, 10_000)],
      ['F'],
    );
    expect(smaller.lines.map((l) => l.discount)).toEqual([6_666, 3_334]);
  });

  it('free delivery takes the fee and combines with a discount', () => {
    const answer = run(
      [
        offer({ code: 'RIDE', kind: 'free_delivery', value: 0 }),
        offer({ value: 20, name: 'Weekend' }),
      ],
      [line(1, 100_000)],
      ['RIDE'],
    );
    expect(answer.deliveryFee).toBe(0);
    expect(answer.discount).toBe(20_000);
    expect(answer.given.map((g) => [g.name, g.amount])).toEqual([
      ['Weekend', 20_000],
      ['Offer', 5000],
    ]);
  });

  it('free delivery where delivery is already free is a note, not a refusal', () => {
    const answer = run(
      [offer({ code: 'RIDE', kind: 'free_delivery', value: 0 })],
      [line(1, 100)],
      ['RIDE'],
      {
        fee: 0,
      },
    );
    expect(answer.given).toEqual([]);
    expect(answer.refused).toEqual([{ code: 'RIDE', refusal: { why: 'delivery-free' } }]);
    expect(firstRefusal(answer.refused)).toBeNull();
  });

  it('buy 1 get 1 at half price: the cheaper of each two tops; a lone third pays in full', () => {
    const tops = offer({
      kind: 'buy_x_get_y',
      value: 50,
      buyQuantity: 1,
      getQuantity: 1,
      appliesTo: { categoryIds: [7] },
    });
    const answer = run(
      [tops],
      [line(1, 60_000, 1, [7]), line(2, 40_000, 2, [7]), line(3, 90_000, 1, [8])],
    );
    // Dearest first: 60,000 + 40,000 (half off 40,000), then 40,000 alone.
    expect(answer.discount).toBe(20_000);
    expect(answer.lines).toEqual([
      { variantId: 1, discount: 0 },
      { variantId: 2, discount: 20_000 },
      { variantId: 3, discount: 0 },
    ]);
  });

  it('3 for 2 (buy 2 get 1 free): the cheapest of each three', () => {
    const deal = offer({
      kind: 'buy_x_get_y',
      value: 100,
      buyQuantity: 2,
      getQuantity: 1,
      code: 'TATU',
    });
    const answer = run([deal], [line(1, 30_000, 3), line(2, 10_000, 3)], ['TATU']);
    // 30,30,30 | 10,10,10: the cheapest of each group free.
    expect(answer.discount).toBe(40_000);
    const short = run([deal], [line(1, 30_000, 2)], ['TATU']);
    expect(short.refused).toEqual([{ code: 'TATU', refusal: { why: 'not-for-these' } }]);
  });
});

describe('targets', () => {
  it('categories and chosen pieces: only their lines', () => {
    const answer = run(
      [offer({ code: 'DRESS', value: 50, appliesTo: { categoryIds: [3], productIds: [20] } })],
      [line(1, 10_000, 1, [3]), line(2, 20_000), line(3, 40_000, 1, [4])],
      ['DRESS'],
    );
    expect(answer.lines.map((l) => l.discount)).toEqual([5_000, 10_000, 0]);
  });

  it('a code for other pieces, and a minimum of the covered pieces, are refused with texts', () => {
    const shoes = offer({ code: 'SHOES', appliesTo: { categoryIds: [9] } });
    const big = offer({ code: 'BIG', minSubtotal: 200_000, appliesTo: { categoryIds: [3] } });
    const answer = run(
      [shoes, big],
      [line(1, 150_000, 1, [3]), line(2, 100_000)],
      ['SHOES', 'BIG'],
    );
    expect(answer.discount).toBe(0);
    expect(problemsOf(answer.refused)).toEqual([
      { code: 'SHOES', message: OFFER_TEXT.notForThese('SHOES') },
      {
        code: 'BIG',
        message: 'BIG needs at least UGX 200,000 of the pieces it covers in your cart.',
      },
    ]);
  });
});

describe('combining', () => {
  it('the best single offer wins; a typed code that loses is a note naming the better one', () => {
    const auto = offer({ value: 20, name: 'Weekend 20%' });
    const code = offer({ code: 'NAKATO10', value: 10 });
    const answer = run([auto, code], [line(1, 100_000)], ['NAKATO10']);
    expect(answer.discount).toBe(20_000);
    expect(answer.refused).toEqual([
      { code: 'NAKATO10', refusal: { why: 'better-offer', name: 'Weekend 20%' } },
    ]);
    expect(firstRefusal(answer.refused)).toBeNull();
  });

  it('combinable offers add on top; a line never goes below 0', () => {
    const best = offer({ value: 60, name: 'Sale' });
    const extra = offer({ code: 'MORE', value: 50, combinable: true, name: 'More' });
    const answer = run([best, extra], [line(1, 100_000), line(2, 1_000)], ['MORE']);
    // 60% then 50% of each line's price, capped at what is left: 60,000 + 40,000; 600 + 400.
    expect(answer.lines.map((l) => l.discount)).toEqual([100_000, 1_000]);
    expect(answer.discount).toBe(101_000);
    expect(answer.subtotal - answer.discount).toBe(0);
  });

  it('an automatic offer the shopper cannot have is not given, and says nothing', () => {
    const welcome = offer({ value: 10, firstOrderOnly: true });
    expect(
      run([welcome], [line(1, 10_000)], [], { shopper: { ...signedIn, ordered: true } }),
    ).toMatchObject({
      discount: 0,
      refused: [],
    });
  });

  it('a code given twice is refused the second time, in any case or spacing', () => {
    const answer = run(
      [offer({ code: 'NAKATO10' })],
      [line(1, 10_000)],
      ['NAKATO10', ' nakato10 '],
    );
    expect(answer.discount).toBe(1_000);
    expect(answer.refused).toEqual([{ code: 'nakato10', refusal: { why: 'twice' } }]);
  });
});

describe('dates, in Kampala time, to the millisecond', () => {
  // Saturday 28 November 2026, 18:00 in Kampala is 15:00 UTC.
  const startsAt = '2026-11-28T15:00:00.000Z';
  const endsAt = '2026-11-29T21:00:00.000Z'; // Monday 00:00 in Kampala
  const weekend = offer({ code: 'WIKENDI', startsAt, endsAt });
  const at = (iso: string) =>
    run([weekend], [line(1, 10_000)], ['WIKENDI'], { now: new Date(iso) });

  it('runs from its start (inclusive) to its end (exclusive)', () => {
    expect(at('2026-11-28T14:59:59.999Z').refused).toEqual([
      { code: 'WIKENDI', refusal: { why: 'not-started', startsAt } },
    ]);
    expect(at('2026-11-28T15:00:00.000Z').discount).toBe(1_000);
    expect(at('2026-11-29T20:59:59.999Z').discount).toBe(1_000);
    expect(at('2026-11-29T21:00:00.000Z').refused).toEqual([
      { code: 'WIKENDI', refusal: { why: 'ended' } },
    ]);
    expect(isRunning(weekend, new Date(endsAt))).toBe(false);
  });

  it('says when it starts in Kampala time', () => {
    expect(kampalaMoment(startsAt)).toBe('28 November 2026 at 18:00');
    expect(problemsOf(at('2026-11-28T10:00:00.000Z').refused)[0]?.message).toBe(
      'WIKENDI starts on 28 November 2026 at 18:00 (Kampala time).',
    );
  });
});

describe('limits and shoppers', () => {
  it('used up, used already, first order only, sign in: each its own text', () => {
    const usedUp = offer({ code: 'GONE', usageLimit: 50, used: 50 });
    const once = offer({ code: 'ONCE', perShopperLimit: 1 });
    const welcome = offer({ code: 'KARIBU10', firstOrderOnly: true, perShopperLimit: 1 });
    const lines = [line(1, 10_000)];
    const shopper = { id: 'u1', uses: new Map([[once.id, 1]]), ordered: true };
    const answer = run([usedUp, once, welcome], lines, ['GONE', 'ONCE', 'KARIBU10'], { shopper });
    expect(problemsOf(answer.refused).map((p) => p.message)).toEqual([
      OFFER_TEXT.usedUp('GONE'),
      OFFER_TEXT.alreadyUsed('ONCE'),
      OFFER_TEXT.firstOrderOnly('KARIBU10'),
    ]);
    const signedOut = run([welcome], lines, ['karibu10'], { shopper: visitor });
    expect(problemsOf(signedOut.refused)).toEqual([
      { code: 'karibu10', message: OFFER_TEXT.signIn('karibu10') },
    ]);
    expect(run([welcome], lines, ['KARIBU10']).discount).toBe(1_000);
  });

  it('an unknown code and a switched-off one', () => {
    const off = offer({ code: 'OLD', active: false });
    expect(run([off], [line(1, 100)], ['NOPE', 'OLD']).refused).toEqual([
      { code: 'NOPE', refusal: { why: 'unknown' } },
      { code: 'OLD', refusal: { why: 'ended' } },
    ]);
  });
});

describe('gift cards and credit', () => {
  it('sorts gift card codes from discount codes', () => {
    expect(splitCodes(['GIFT-ABCD-EFGH-JKMN', 'nakato10', 'gift abcd efgh jkmn'])).toEqual({
      discountCodes: [{ typed: 'nakato10', code: 'NAKATO10' }],
      giftCards: [{ typed: 'GIFT-ABCD-EFGH-JKMN', key: 'ABCDEFGHJKMN' }],
      refused: [{ code: 'gift abcd efgh jkmn', refusal: { why: 'twice' } }],
    });
  });

  it('spends gift cards first, then credit, never more than due or held', () => {
    const spent = spendValue(
      120_000,
      [
        { typed: 'A', account: { id: 1, balance: 50_000 } },
        { typed: 'B', account: { id: 2, balance: 0 } },
        { typed: 'C', account: null },
      ],
      { id: 3, balance: 100_000 },
    );
    expect(spent.spends).toEqual([
      { accountId: 1, amount: 50_000 },
      { accountId: 3, amount: 70_000 },
    ]);
    expect(spent.credit).toBe(120_000);
    expect(problemsOf(spent.refused).map((p) => p.message)).toEqual([
      OFFER_TEXT.giftCardEmpty('B'),
      OFFER_TEXT.unknown('C'),
    ]);
    expect(spendValue(0, [{ typed: 'A', account: { id: 1, balance: 5 } }], null)).toEqual({
      spends: [],
      credit: 0,
      refused: [],
    });
  });
});
