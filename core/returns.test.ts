import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  creditNoteNumber,
  kampalaDate,
  pickupFee,
  RETURN_TEXT,
  refundSplit,
  returnedValue,
  returnRequestInput,
  windowLastDay,
  windowOpen,
} from './returns.ts';

describe('the windows', () => {
  // Delivered at 22:30 in Kampala on 1 December (19:30 UTC): day 0 is 1 December in Kampala.
  const delivered = '2026-12-01T19:30:00Z';
  it('accepts on day 14 and refuses on day 15, in Kampala days', () => {
    // 23:59 in Kampala on 15 December is day 14.
    expect(windowOpen(delivered, 14, Date.parse('2026-12-15T20:59:00Z'))).toBe(true);
    // 00:00 in Kampala on 16 December (21:00 UTC on the 15th) is day 15.
    expect(windowOpen(delivered, 14, Date.parse('2026-12-15T21:00:00Z'))).toBe(false);
    expect(kampalaDate(windowLastDay(delivered, 14))).toBe('15 December 2026');
    expect(kampalaDate(windowLastDay(delivered, 7))).toBe('8 December 2026');
  });
  it('counts the delivery day in Kampala, not UTC', () => {
    // 01:00 in Kampala on 2 December is 22:00 UTC on 1 December: day 0 is 2 December.
    expect(kampalaDate(windowLastDay('2026-12-01T22:00:00Z', 0))).toBe('2 December 2026');
  });
});

describe('what a return is worth', () => {
  it('takes off its share of the order discount, never sending back more than was paid', () => {
    expect(
      returnedValue({ subtotal: 200_000, discount: 0 }, [{ price: 85_000, quantity: 1 }]),
    ).toBe(85_000);
    // 10% off the order: one of two 100,000 dresses comes back at 90,000.
    expect(
      returnedValue({ subtotal: 200_000, discount: 20_000 }, [{ price: 100_000, quantity: 1 }]),
    ).toBe(90_000);
    // A share that is not whole is rounded against the refund: 3 pieces of 1 under 1 off.
    expect(returnedValue({ subtotal: 3, discount: 1 }, [{ price: 1, quantity: 1 }])).toBe(0);
  });
  it('splits a refund between the payment and store credit', () => {
    expect(refundSplit({ amount: 50_000, to: 'original', paymentLeft: 80_000 })).toEqual({
      original: 50_000,
      credit: 0,
    });
    // Paid 30,000 by phone and the rest by gift card: the rest comes back as credit.
    expect(refundSplit({ amount: 50_000, to: 'original', paymentLeft: 30_000 })).toEqual({
      original: 30_000,
      credit: 20_000,
    });
    expect(refundSplit({ amount: 50_000, to: 'store_credit', paymentLeft: 80_000 })).toEqual({
      original: 0,
      credit: 50_000,
    });
  });
  it('charges the pickup only when nothing was the shop’s fault', () => {
    expect(pickupFee('zone', ['too_small'], 5_000)).toBe(5_000);
    expect(pickupFee('zone', ['too_small', 'damaged'], 5_000)).toBe(0);
    expect(pickupFee('zone', ['wrong_item'], 5_000)).toBe(0);
    expect(pickupFee('free', ['changed_mind'], 5_000)).toBe(0);
  });
  it('numbers a credit note after its refund', () => {
    expect(creditNoteNumber('1a2b3c4d-0000-4000-8000-000000000000')).toBe('CRN-1a2b3c4d');
  });
});

describe('the request', () => {
  const base = {
    returnId: '6f1c1a52-3b7e-4c5e-9a0b-1d2e3f4a5b6c',
    orderId: '7f1c1a52-3b7e-4c5e-9a0b-1d2e3f4a5b6c',
    lines: [
      { orderItemId: '8f1c1a52-3b7e-4c5e-9a0b-1d2e3f4a5b6c', quantity: 1, reason: 'too_small' },
    ],
    resolution: 'refund',
  };
  const problem = (input: unknown) => {
    const result = v.safeParse(returnRequestInput, input);
    return result.success ? null : result.issues[0].message;
  };
  it('takes a refund or an exchange with its piece', () => {
    expect(problem(base)).toBeNull();
    expect(
      problem({ ...base, refundTo: 'store_credit', note: ' Too tight at the waist ' }),
    ).toBeNull();
    expect(
      problem({
        ...base,
        resolution: 'exchange',
        lines: [{ ...base.lines[0], exchangeVariantId: 12 }],
      }),
    ).toBeNull();
  });
  it('refuses what a person could not have meant, each with its text', () => {
    expect(problem({ ...base, resolution: 'exchange' })).toBe(RETURN_TEXT.exchangeNeedsPiece);
    expect(problem({ ...base, lines: [{ ...base.lines[0], exchangeVariantId: 12 }] })).toBe(
      RETURN_TEXT.exchangeNotOffered,
    );
    expect(
      problem({
        ...base,
        resolution: 'exchange',
        refundTo: 'original',
        lines: [{ ...base.lines[0], exchangeVariantId: 1 }],
      }),
    ).toBe(RETURN_TEXT.badRefundTo);
    expect(problem({ ...base, lines: [] })).toBe(RETURN_TEXT.noLines);
    expect(problem({ ...base, lines: [base.lines[0], base.lines[0]] })).toBe(
      RETURN_TEXT.badRequest,
    );
    expect(problem({ ...base, lines: [{ ...base.lines[0], quantity: 0 }] })).toBe(
      RETURN_TEXT.badQuantity,
    );
    expect(problem({ ...base, lines: [{ ...base.lines[0], quantity: '1' }] })).toBe(
      RETURN_TEXT.badQuantity,
    );
    expect(problem({ ...base, lines: [{ ...base.lines[0], reason: 'bored' }] })).toBe(
      RETURN_TEXT.badReason,
    );
    expect(problem({ ...base, note: 'a\u0000b' })).toBe(RETURN_TEXT.badNote);
    expect(problem({ ...base, note: 'x'.repeat(1_000_000) })).toBe(RETURN_TEXT.badNote);
    const photo = (n: number) => `returns/u1/${n}f1c1a52-3b7e-4c5e-9a0b-1d2e3f4a5b6c.jpg`;
    expect(problem({ ...base, photos: [1, 2, 3].map(photo) })).toBeNull();
    expect(problem({ ...base, photos: [1, 2, 3, 4].map(photo) })).toBe(RETURN_TEXT.tooManyPhotos);
    expect(problem({ ...base, photos: ['../../etc/passwd'] })).toBe(RETURN_TEXT.badPhoto);
    expect(problem({ ...base, orderId: 'nope' })).toBe(RETURN_TEXT.orderNotFound);
    expect(problem({ ...base, price: 1 })).toBe(RETURN_TEXT.badRequest);
  });
});
