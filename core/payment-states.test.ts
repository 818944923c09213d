import { describe, expect, it } from 'vitest';
import { CARD_TEXT } from './card-payments.ts';
import { PAYMENT_TEXT } from './mobile-money.ts';
import { paymentStanding } from './payment-states.ts';

const pending = { status: 'pending' };
const payment = (state: string, network = 'mtn', extra = {}) => ({
  state,
  reason: null,
  network,
  transactionId: null,
  ...extra,
});

describe('paymentStanding', () => {
  it('paid only with a successful payment, whatever the method', () => {
    for (const [method, network] of [
      ['mobile_money', 'mtn'],
      ['card', 'pesapal'],
      ['bank_transfer', 'bank_transfer'],
      ['cash_on_delivery', 'cash_on_delivery'],
    ]) {
      expect(
        paymentStanding(
          { paymentMethod: method as string, status: 'processing' },
          payment('successful', network, { transactionId: 'T1' }),
        ),
      ).toEqual({ kind: 'paid', transactionId: 'T1' });
    }
    // Shipped without a recorded payment is not told as paid.
    expect(paymentStanding({ paymentMethod: 'card', status: 'shipped' }, null).kind).toBe(
      'waiting',
    );
  });

  it('declined with the reason, expired, waiting; cash is paid on delivery', () => {
    expect(
      paymentStanding(
        { paymentMethod: 'mobile_money', ...pending },
        payment('failed', 'airtel', { reason: 'declined' }),
      ),
    ).toEqual({ kind: 'declined', message: PAYMENT_TEXT.reasons.declined });
    expect(
      paymentStanding({ paymentMethod: 'mobile_money', ...pending }, payment('expired')).kind,
    ).toBe('expired');
    // A service not answering is not a decline.
    expect(
      paymentStanding(
        { paymentMethod: 'mobile_money', ...pending },
        payment('failed', 'mtn', { reason: 'unavailable' }),
      ),
    ).toEqual({ kind: 'failed', message: PAYMENT_TEXT.reasons.unavailable });
    expect(paymentStanding({ paymentMethod: 'card', ...pending }, null)).toEqual({
      kind: 'waiting',
      started: false,
    });
    expect(
      paymentStanding({ paymentMethod: 'card', ...pending }, payment('pending', 'pesapal')),
    ).toEqual({ kind: 'waiting', started: true });
    expect(paymentStanding({ paymentMethod: 'cash_on_delivery', ...pending }, null).kind).toBe(
      'pay-on-delivery',
    );
  });

  it('a mobile-money failure before the shopper chose cash does not make cash declined', () => {
    expect(
      paymentStanding(
        { paymentMethod: 'cash_on_delivery', ...pending },
        payment('failed', 'mtn', { reason: 'not-enough-funds' }),
      ).kind,
    ).toBe('pay-on-delivery');
    expect(
      paymentStanding(
        { paymentMethod: 'bank_transfer', ...pending },
        payment('failed', 'mtn', { reason: 'declined' }),
      ),
    ).toEqual({ kind: 'waiting', started: false });
  });

  it('a cancelled order asks for nothing; money to give back is said', () => {
    expect(paymentStanding({ paymentMethod: 'card', status: 'cancelled' }, null).kind).toBe(
      'cancelled',
    );
    expect(
      paymentStanding(
        { paymentMethod: 'mobile_money', status: 'cancelled' },
        payment('refund_due'),
      ),
    ).toEqual({ kind: 'refund', message: PAYMENT_TEXT.refundDue });
  });
});

describe('card payments', () => {
  it('declined, expired, short and reversed in the card’s own words', () => {
    const order = { paymentMethod: 'card', status: 'pending' };
    const card = (state: string, reason: string | null) => ({
      state,
      reason,
      network: 'pesapal',
      transactionId: null,
    });
    expect(paymentStanding(order, card('failed', 'declined'))).toEqual({
      kind: 'declined',
      message: CARD_TEXT.reasons.declined,
    });
    expect(paymentStanding(order, card('expired', 'expired'))).toEqual({
      kind: 'expired',
      message: CARD_TEXT.reasons.expired,
    });
    expect(paymentStanding(order, card('short', 'short')).kind).toBe('short');
    expect(paymentStanding(order, card('reversed', 'reversed')).kind).toBe('reversed');
  });
});
