// What the shopper reads about an order's payment, on the checkout and the order screens: paid,
// waiting (and how to pay), declined, expired, pay on delivery. Pure: the order's method and
// status and its latest payment (server/services/orders-service.ts) in, one standing out.
import { CARD_TEXT, cardFailureText } from './card-payments.ts';
import { failureText, PAYMENT_TEXT } from './mobile-money.ts';
import type { PaymentMethod } from './order-rules.ts';

/** The order's latest payment as the order screens receive it (null: none started). */
export type OrderPayment = {
  /** pending | successful | failed | expired | refund_due | refunded | short | reversed */
  state: string;
  reason: string | null;
  /** mtn, airtel, pesapal, bank_transfer, cash_on_delivery */
  network: string;
  /** The provider's transaction id, or the bank's reference for a transfer. */
  transactionId: string | null;
} | null;

export type PaymentStanding =
  | { kind: 'paid'; transactionId: string | null }
  /** Nothing received yet; `started`: a request is out (on the phone, or the card page opened). */
  | { kind: 'waiting'; started: boolean }
  /** Refused: on the phone, by the bank, for want of funds, or the number has no wallet. */
  | { kind: 'declined'; message: string }
  /** Did not go through for another reason (the provider not answering, the shop's set-up). */
  | { kind: 'failed'; message: string }
  | { kind: 'expired'; message: string }
  | { kind: 'pay-on-delivery' }
  /** Money arrived that the order did not need, or less than the total, or was taken back. */
  | { kind: 'refund'; message: string }
  | { kind: 'short'; message: string }
  | { kind: 'reversed'; message: string }
  | { kind: 'cancelled' };

export const PAYMENT_STATE_TEXT = {
  // The checkout once the order exists.
  waitingTitle: 'Order placed — waiting for your payment',
  /** The heading follows the payment (issue 32): it never says "waiting" above "received". */
  paidTitle: 'Order placed — payment received',
  notPaidTitle: 'Order placed — not paid yet',
  payOnDeliveryTitle: 'Order placed — pay when it is delivered',
  payOnDeliveryNote: 'Pay in cash when your order is delivered. We will call you before we come.',
  cardRedirect: 'Taking you to the secure card payment page…',
  cardRedirectNote: 'You pay on Pesapal’s secure page and come straight back here.',
  cardStartFailed:
    'Your order is saved, but the card payment page did not open. You can pay from your orders with Pay now.',
  cardLater: 'You can pay for it from your order whenever you are ready.',
  viewOrder: 'View your order',
  // Bank transfer.
  bankTitle: 'Pay by bank transfer',
  bankBefore:
    'After you place the order, transfer the total to this account. Your order reference appears once the order is placed: quote it with your transfer.',
  bankAfter: (total: string) =>
    `Transfer ${total} to the account below and quote your order reference. We confirm your order as soon as the money arrives.`,
  bankReference: 'Order reference to quote',
  bankDetailsLabel: 'Our bank details',
  bankDetailsUnset: (reference: string) =>
    `Our bank details will be sent to you by the shop. Quote your order reference ${reference}.`,
  bankDetailsUnsetBefore:
    'Our bank details will be sent to you by the shop, with the order reference to quote.',
  // The order screens.
  heading: 'Payment',
  paid: 'Paid',
  paidWith: (method: string) => `Paid with ${method}`,
  transactionId: 'Transaction ID',
  reference: 'Reference',
  waiting: 'Waiting for your payment',
  waitingMobileMoney:
    'Not paid yet. Ask for the mobile money payment again and approve it on your phone.',
  waitingCard: 'Not paid yet. Pay by card on Pesapal’s secure page.',
  payNow: 'Pay now',
  declined: 'Declined',
  declinedTitle: 'Payment declined',
  failed: 'Not paid',
  failedTitle: 'Payment did not go through',
  expired: 'Expired',
  expiredTitle: 'Payment expired',
  expiredText: 'The payment was not approved within 5 minutes.',
  payOnDelivery: 'Pay on delivery',
  refund: 'Refund due',
  short: 'Part paid',
  reversed: 'Reversed',
  checking: 'Checking your payment…',
} as const;

/** The short word a badge shows for a standing. */
export const STANDING_LABEL: Record<PaymentStanding['kind'], string> = {
  paid: PAYMENT_STATE_TEXT.paid,
  waiting: 'Awaiting payment',
  declined: PAYMENT_STATE_TEXT.declined,
  failed: PAYMENT_STATE_TEXT.failed,
  expired: PAYMENT_STATE_TEXT.expired,
  'pay-on-delivery': PAYMENT_STATE_TEXT.payOnDelivery,
  refund: PAYMENT_STATE_TEXT.refund,
  short: PAYMENT_STATE_TEXT.short,
  reversed: PAYMENT_STATE_TEXT.reversed,
  cancelled: 'Cancelled',
};

/** The reasons that mean the payer (or their bank) refused; any other failure is not a decline. */
const DECLINES = ['declined', 'not-enough-funds', 'not-registered'];

/** Who moves the money for each way to pay (payments.network). */
const METHOD_NETWORKS: Record<PaymentMethod, readonly string[]> = {
  mobile_money: ['mtn', 'airtel'],
  card: ['pesapal'],
  bank_transfer: ['bank_transfer'],
  cash_on_delivery: ['cash_on_delivery'],
};

/** What the order's payment stands at, from its method, its status and its latest payment. */
export function paymentStanding(
  order: { paymentMethod: string; status: string },
  payment: OrderPayment,
): PaymentStanding {
  if (payment?.state === 'successful') {
    return { kind: 'paid', transactionId: payment.transactionId };
  }
  const card = payment?.network === 'pesapal';
  if (payment?.state === 'refund_due' || payment?.state === 'refunded') {
    return { kind: 'refund', message: card ? CARD_TEXT.refundDue : PAYMENT_TEXT.refundDue };
  }
  if (order.status === 'cancelled') return { kind: 'cancelled' };
  // A mobile-money attempt that failed before the shopper chose cash says nothing about cash.
  const current =
    payment && METHOD_NETWORKS[order.paymentMethod as PaymentMethod]?.includes(payment.network)
      ? payment
      : null;
  switch (current?.state) {
    case 'failed':
      return {
        kind: DECLINES.includes(current.reason ?? '') ? 'declined' : 'failed',
        message: card ? cardFailureText(current.reason) : failureText(current.reason),
      };
    case 'expired':
      return {
        kind: 'expired',
        message: card ? CARD_TEXT.reasons.expired : PAYMENT_STATE_TEXT.expiredText,
      };
    case 'short':
      return { kind: 'short', message: CARD_TEXT.reasons.short };
    case 'reversed':
      return { kind: 'reversed', message: CARD_TEXT.reasons.reversed };
  }
  if ((order.paymentMethod as PaymentMethod) === 'cash_on_delivery') {
    return { kind: 'pay-on-delivery' };
  }
  return { kind: 'waiting', started: current?.state === 'pending' };
}
