import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { offerEnd, offerWords, pieceOfferOf } from './offer-badge.ts';
import {
  fromKampalaInput,
  kampalaWhen,
  saveOfferInput,
  DESK_OFFERS_TEXT as T,
  thisWeekend,
  toKampalaInput,
} from './offer-form.ts';
import type { Offer } from './offers.ts';

const base = {
  name: 'Weekend sale',
  code: null,
  kind: 'percent',
  value: 20,
  appliesTo: { categoryIds: [3] },
  combinable: false,
  active: true,
};
const parse = (input: unknown) => v.safeParse(saveOfferInput, input);
const message = (input: unknown) => {
  const result = parse(input);
  return result.success ? null : result.issues[0].message;
};

describe('saveOfferInput', () => {
  it('takes the issue’s shape and stores what it means', () => {
    const result = parse({
      ...base,
      startsAt: '2026-11-28T00:00:00+03:00',
      endsAt: '2026-11-30T00:00:00+03:00',
      buyQuantity: 2,
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.output).toMatchObject({
      code: null,
      startsAt: '2026-11-27T21:00:00.000Z',
      endsAt: '2026-11-29T21:00:00.000Z',
      buyQuantity: null,
      appliesTo: { categoryIds: [3], productIds: [] },
      firstOrderOnly: false,
      usageLimit: null,
    });
  });

  it('keeps a code as typed; blank is automatic; an empty target is the whole order', () => {
    const typed = parse({ ...base, code: ' Nakato10 ', appliesTo: { categoryIds: [] } });
    expect(typed.success && typed.output).toMatchObject({ code: 'Nakato10', appliesTo: null });
    const blank = parse({ ...base, code: '  ' });
    expect(blank.success && blank.output.code).toBe(null);
  });

  it('refuses codes that are not 2–20 letters or digits, or look like a gift card', () => {
    expect(message({ ...base, code: 'A' })).toBe(T.codeInvalid);
    expect(message({ ...base, code: 'NAKATO-10' })).toBe(T.codeInvalid);
    expect(message({ ...base, code: 'X'.repeat(21) })).toBe(T.codeInvalid);
    expect(message({ ...base, code: 'GIFTABCDEFGHJKMN' })).toBe(T.codeLikeGiftCard);
  });

  it('checks the value for each kind', () => {
    expect(message({ ...base, value: 0 })).toBe(T.percentInvalid);
    expect(message({ ...base, value: 101 })).toBe(T.percentInvalid);
    expect(message({ ...base, kind: 'fixed', value: 0 })).toBe(T.fixedInvalid);
    expect(message({ ...base, kind: 'buy_x_get_y', value: 50 })).toBe(T.quantitiesNeeded);
    expect(
      parse({ ...base, kind: 'buy_x_get_y', value: 50, buyQuantity: 2, getQuantity: 1 }).success,
    ).toBe(true);
    const free = parse({ ...base, kind: 'free_delivery', value: 7 });
    expect(free.success && free.output.value).toBe(0);
    expect(message({ ...base, kind: 'bogof' })).toBe(T.kindInvalid);
  });

  it('refuses wrong types, NUL, huge text and numbers, unknown fields, end before start', () => {
    expect(message({ ...base, value: '20' })).toBe(T.valueInvalid);
    expect(message({ ...base, value: 1.5 })).toBe(T.valueInvalid);
    expect(message({ ...base, name: 'Sale\u0000' })).toBe(
      'Name cannot contain invisible control characters.',
    );
    expect(message({ ...base, name: 'x'.repeat(81) })).toBe(T.nameTooLong);
    expect(message({ ...base, name: ' ' })).toBe(T.nameNeeded);
    expect(message({ ...base, usageLimit: 2 ** 31 })).toBe(T.usageLimitInvalid);
    expect(message({ ...base, appliesTo: { categoryIds: [2 ** 31] } })).toBe(T.targetsInvalid);
    expect(message({ ...base, appliesTo: { productIds: Array(501).fill(1) } })).toBe(
      T.targetsTooMany,
    );
    expect(message({ ...base, admin: true })).toBe(T.unknownField);
    expect(message({ ...base, startsAt: 'Saturday' })).toBe(T.dateInvalid);
    expect(
      message({ ...base, startsAt: '2026-11-30T00:00:00Z', endsAt: '2026-11-28T00:00:00Z' }),
    ).toBe(T.endBeforeStart);
    expect(
      message({ ...base, startsAt: '2026-11-30T00:00:00Z', endsAt: '2026-11-30T00:00:00Z' }),
    ).toBe(T.endBeforeStart);
    expect(message({ ...base, active: 'yes' })).toBe(T.checkboxInvalid);
  });
});

describe('Kampala time', () => {
  it('reads and writes the form’s inputs in Kampala’s clock', () => {
    expect(fromKampalaInput('2026-11-28T00:00')).toBe('2026-11-27T21:00:00.000Z');
    expect(toKampalaInput('2026-11-27T21:00:00.000Z')).toBe('2026-11-28T00:00');
    expect(fromKampalaInput('')).toBe(null);
    expect(toKampalaInput(null)).toBe('');
    expect(kampalaWhen('2026-11-27T21:00:00.000Z')).toBe('Sat 28 Nov, 00:00');
  });

  it('this weekend is Saturday 00:00 to Monday 00:00 in Kampala', () => {
    const weekend = { startsAt: '2026-11-27T21:00:00.000Z', endsAt: '2026-11-29T21:00:00.000Z' };
    expect(thisWeekend(new Date('2026-11-25T10:00:00Z'))).toEqual(weekend); // Wednesday
    expect(thisWeekend(new Date('2026-11-27T21:00:00Z'))).toEqual(weekend); // Sat 00:00 Kampala
    expect(thisWeekend(new Date('2026-11-29T20:59:00Z'))).toEqual(weekend); // Sun 23:59 Kampala
    // Friday 23:30 in Kampala is still Friday: the coming weekend.
    expect(thisWeekend(new Date('2026-11-27T20:30:00Z'))).toEqual(weekend);
    // Monday 00:30 in Kampala (Sunday 21:30 UTC): the next one.
    expect(thisWeekend(new Date('2026-11-29T21:30:00Z')).startsAt).toBe('2026-12-04T21:00:00.000Z');
  });
});

const offer = (over: Partial<Offer>): Offer => ({
  id: 1,
  name: 'Weekend sale',
  code: null,
  kind: 'percent',
  value: 20,
  appliesTo: { categoryIds: [3] },
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
  ...over,
});

describe('the badge', () => {
  const saturday = new Date('2026-11-28T09:00:00Z');
  it('says what the offer gives and when it ends', () => {
    expect(offerWords(offer({}))).toBe('20% off');
    expect(offerWords(offer({ kind: 'fixed', value: 5000 }))).toBe('UGX 5,000 off');
    expect(
      offerWords(offer({ kind: 'buy_x_get_y', value: 50, buyQuantity: 2, getQuantity: 1 })),
    ).toBe('Buy 2, get 1 half price');
    expect(offerEnd('2026-11-29T21:00:00.000Z', saturday)).toBe('this weekend');
    // A weekend sale seen on the Thursday before: its last day.
    expect(offerEnd('2026-11-29T21:00:00.000Z', new Date('2026-11-26T09:00:00Z'))).toBe(
      'until Sun 29 Nov',
    );
    expect(offerEnd('2026-12-01T09:00:00.000Z', saturday)).toBe('until Tue 1 Dec');
    expect(offerEnd(null, saturday)).toBe('');
  });

  it('a piece shows the best offer that covers it, with its price', () => {
    const weekend = offer({ endsAt: '2026-11-29T21:00:00.000Z' });
    const dress = { productId: 7, categoryIds: [3], price: 85_000 };
    expect(pieceOfferOf([weekend], dress, saturday)).toMatchObject({
      label: '20% off this weekend',
      price: 68_000,
    });
    expect(pieceOfferOf([weekend], { ...dress, categoryIds: [4] }, saturday)).toBe(null);
    // A fixed amount is taken once per order, across its pieces: no piece's price says it.
    const fixed = offer({ id: 2, kind: 'fixed', value: 30_000, appliesTo: null });
    expect(pieceOfferOf([fixed], dress, saturday)).toMatchObject({
      label: 'UGX 30,000 off',
      price: null,
    });
    expect(pieceOfferOf([weekend, fixed], dress, saturday)?.price).toBe(68_000);
    const withMinimum = offer({ minSubtotal: 100_000 });
    expect(pieceOfferOf([withMinimum], dress, saturday)?.price).toBe(null);
  });
});
