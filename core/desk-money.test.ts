import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { canMarkPaid, MONEY_TEXT, markPaidInput, waitedFor } from './desk-money.ts';

const orderId = '3f2a9c1e-7b4d-4e8a-9c3b-1d2e3f4a5b6c';

describe('the reference the desk types', () => {
  it('is trimmed and kept as typed', () => {
    expect(v.parse(markPaidInput, { orderId, reference: '  FT26329XK81 ' })).toEqual({
      orderId,
      reference: 'FT26329XK81',
    });
    expect(
      v.parse(markPaidInput, { orderId, reference: 'Rider Okello, receipt №118' }).reference,
    ).toBe('Rider Okello, receipt №118');
  });

  it('refuses empty, too long, multi-line and control characters with one clear text', () => {
    for (const reference of ['', '  ', 'x'.repeat(101), 'a\nb', 'a\u0000b', 'a\tb', 'a\u2029b']) {
      const result = v.safeParse(markPaidInput, { orderId, reference });
      expect(result.success, JSON.stringify(reference)).toBe(false);
      expect(result.issues?.[0]?.message).toBe(MONEY_TEXT.badReference);
    }
  });
});

describe('what the desk may mark paid', () => {
  it('a pending bank transfer; cash until delivered; never mobile money, card or a cancelled order', () => {
    expect(canMarkPaid({ paymentMethod: 'bank_transfer', status: 'pending' })).toBe(true);
    expect(canMarkPaid({ paymentMethod: 'bank_transfer', status: 'processing' })).toBe(false);
    expect(canMarkPaid({ paymentMethod: 'cash_on_delivery', status: 'delivered' })).toBe(true);
    expect(canMarkPaid({ paymentMethod: 'cash_on_delivery', status: 'completed' })).toBe(false);
    expect(canMarkPaid({ paymentMethod: 'cash_on_delivery', status: 'cancelled' })).toBe(false);
    expect(canMarkPaid({ paymentMethod: 'mobile_money', status: 'pending' })).toBe(false);
    expect(canMarkPaid({ paymentMethod: 'card', status: 'pending' })).toBe(false);
  });
});

describe('how long money has waited', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('reads in minutes, hours, then days', () => {
    expect(waitedFor('2026-11-25T11:59:30Z', now)).toBe('just now');
    expect(waitedFor('2026-11-25T11:48:00Z', now)).toBe('12 min');
    expect(waitedFor('2026-11-25T09:00:00Z', now)).toBe('3 h');
    expect(waitedFor('2026-11-22T12:00:00Z', now)).toBe('3 d');
    expect(waitedFor('not a date', now)).toBe('just now');
  });
});
