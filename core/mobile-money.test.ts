import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  displayNumber,
  failureText,
  mobileMoneyNumber,
  networkOf,
  PAYMENT_TEXT,
  startPaymentInput,
} from './mobile-money.ts';

describe('which network a number is on', () => {
  it.each([
    ['0772 123 456', 'mtn'],
    ['+256 781 123456', 'mtn'],
    ['256761123456', 'mtn'],
    ['(0701) 123-456', 'airtel'],
    ['0752123456', 'airtel'],
    ['+256744123456', 'airtel'],
    ['0712123456', null],
    ['0414123456', null],
    ['077212345', null],
    ['07721234567', null],
    ['+254722123456', null],
    ['0772\u0000123456', null],
    ['', null],
  ])('%s → %s', (input, network) => {
    expect(networkOf(input)).toBe(network);
  });

  it('normalises to +256 and shows it as Ugandans write it', () => {
    expect(mobileMoneyNumber('0772 123 456')).toBe('+256772123456');
    expect(displayNumber('+256772123456')).toBe('0772 123 456');
    expect(mobileMoneyNumber('x'.repeat(40))).toBeNull();
  });
});

describe('payment texts', () => {
  it('asks for the amount in UGX and tells each failure in plain words', () => {
    expect(PAYMENT_TEXT.approve(150_000)).toBe('Approve the payment of UGX 150,000 on your phone');
    expect(failureText('not-enough-funds')).toBe(
      'There is not enough money on this mobile money account.',
    );
    // The shop's own set-up is wrong: not the shopper's doing, so another method is offered.
    expect(failureText('setup')).toBe(
      'Mobile money is unavailable right now. Please try another payment method.',
    );
    expect(failureText('refund-due')).toBe(PAYMENT_TEXT.failed);
    expect(failureText(null)).toBe(PAYMENT_TEXT.failed);
  });

  it('refuses a number of another network at input, with its reason', () => {
    const orderId = '5b0e8a3e-8f0c-4d59-9a43-6c1f8f1b2a77';
    const issue = (phone: unknown) =>
      v.safeParse(startPaymentInput, { orderId, phone }).issues?.[0]?.message;
    expect(issue('0712 123 456')).toBe(PAYMENT_TEXT.unsupportedNetwork);
    expect(issue('hello')).toBe(PAYMENT_TEXT.invalidNumber);
    expect(issue(772123456)).toBe(PAYMENT_TEXT.invalidNumber);
    expect(issue('0772 123 456')).toBeUndefined();
  });
});
