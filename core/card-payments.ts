// Card payments on Pesapal's hosted page: the states a card payment goes through beyond mobile
// money's, and how each is told to the shopper. Pure: the adapter is
// server/services/payments/pesapal.ts, the flow server/services/payments/card.ts; docs/payments.md
// ("Card (Pesapal)") has the states.
import type { PaymentState } from './mobile-money.ts';

/**
 * short: Pesapal completed a payment for less than the order's total (or in another currency),
 * so the order is not paid and the desk refunds it; reversed: Pesapal took back a payment.
 */
export type CardPaymentState = PaymentState | 'short' | 'reversed' | 'refunded';

/** Why a card payment did not pay the order, in the shop's words. */
export const CARD_FAILURE_REASONS = [
  'declined',
  'invalid',
  'expired',
  'unavailable',
  'short',
  'reversed',
] as const;
export type CardFailureReason = (typeof CARD_FAILURE_REASONS)[number];

/**
 * A card attempt unanswered for this long expires, so Pay now can start a new one. Pesapal's page
 * has no stated lifetime; 30 minutes leaves time for 3-D Secure and a bank's app, and a late
 * Completed is still read and counted (docs/payments.md).
 */
export const CARD_PAYMENT_EXPIRY_MS = 30 * 60 * 1000;

/** The currency the shop charges in; Pesapal's answer in anything else never pays an order. */
export const CARD_CURRENCY = 'UGX';

export const CARD_TEXT = {
  reasons: {
    declined: 'The card payment was declined. No money was taken.',
    invalid: 'The card payment could not be completed.',
    expired: 'The card payment was not completed within 30 minutes.',
    unavailable:
      'Card payments are not answering right now. Your order is saved: try again in a moment.',
    short: 'Less than the order total was paid, so the order is not paid. We will refund it.',
    reversed: 'The card payment was reversed by the bank. We will contact you.',
  } satisfies Record<CardFailureReason, string>,
  refundDue: 'This payment was not needed for the order and will be refunded to your card.',
  notConfigured: 'Card payments are not available right now. Please choose another method.',
  notCard: 'This order is not paid by card.',
} as const;

/** What the shopper reads for a card payment that did not pay the order. */
export function cardFailureText(reason: string | null | undefined): string {
  return reason && reason in CARD_TEXT.reasons
    ? CARD_TEXT.reasons[reason as CardFailureReason]
    : CARD_TEXT.reasons.invalid;
}
