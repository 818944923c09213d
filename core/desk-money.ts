// The desk's money (decision 0037): what the desk accepts when the desk confirms a bank
// transfer or cash handed over by the rider, or records a refund, and the texts it answers with.
// Pure: no I/O.
import * as v from 'valibot';
import { CASH_LABEL, ORDER_STATUSES, type OrderStatus } from './order-rules.ts';

export const MONEY_TEXT = {
  orderNotFound: 'Order not found',
  paymentNotFound: 'Payment not found',
  refundNotFound: 'Refund not found',
  paymentOrRefund: 'Name the payment or the refund refunded by hand, one of the two.',
  badReference: 'Enter the reference: 1 to 100 characters, no line breaks or control characters.',
  alreadyPaid: 'This order is already marked paid.',
  cancelled: 'This order is cancelled: it cannot be marked paid.',
  paidByProvider:
    'This order is paid by mobile money or card: the provider confirms it, not the desk.',
  paymentWaiting:
    'A mobile-money or card payment for this order is still waiting. Try again in a few minutes.',
  alreadyRefunded: 'This refund is already recorded.',
  notRefundable: 'Only money due back to a customer can be marked refunded.',
  markedPaid: (orderHead: string) => `Order #${orderHead} is marked paid`,
  markedRefunded: 'Refund recorded',
} as const;

/** The ways to pay that the desk confirms by hand (the others confirm themselves). */
export const CONFIRMED_AT_DESK = ['bank_transfer', 'cash_on_delivery'] as const;
export type DeskConfirmed = (typeof CONFIRMED_AT_DESK)[number];

export const isConfirmedAtDesk = (method: string): method is DeskConfirmed =>
  (CONFIRMED_AT_DESK as readonly string[]).includes(method);

/**
 * Cash on delivery is handed over after the rider delivers: such an order may already be
 * processing, out for delivery, collected or delivered when the desk records the money. A bank transfer is
 * confirmed while the order waits (pending).
 */
export function canMarkPaid(order: { status: string; paymentMethod: string }): boolean {
  if (!isConfirmedAtDesk(order.paymentMethod)) return false;
  return (MARK_PAID_STATUSES[order.paymentMethod] as readonly string[]).includes(order.status);
}

/** canMarkPaid's rule as a table: the statuses in which each way the desk confirms may be marked
 * paid (the order book's "to confirm" queue is written in SQL from the same table). */
export const MARK_PAID_STATUSES: Record<DeskConfirmed, readonly OrderStatus[]> = {
  bank_transfer: ['pending'],
  cash_on_delivery: ORDER_STATUSES.filter((s) => s !== 'completed' && s !== 'cancelled'),
};

/** A payment whose money goes back to the customer once the desk records the refund. */
export const REFUNDABLE_STATUSES = ['refund_due', 'short'] as const;

export const REFERENCE_MAX = 100;

/** The bank's, the rider's or the refund's reference: one line of plain text, 1–100 characters. */
const reference = v.pipe(
  v.string(MONEY_TEXT.badReference),
  // Refused before trimming, so a megabyte of spaces costs nothing.
  v.maxLength(1000, MONEY_TEXT.badReference),
  v.trim(),
  v.minLength(1, MONEY_TEXT.badReference),
  v.maxLength(REFERENCE_MAX, MONEY_TEXT.badReference),
  v.regex(/^[^\p{Cc}\p{Cs}\u2028\u2029]*$/u, MONEY_TEXT.badReference),
);

export const markPaidInput = v.strictObject(
  {
    orderId: v.pipe(v.string(MONEY_TEXT.orderNotFound), v.uuid(MONEY_TEXT.orderNotFound)),
    reference,
  },
  MONEY_TEXT.badReference,
);

/**
 * A refund paid by hand: a payment's money due back (`paymentId`), or a return's refund staff pay
 * themselves (`refundId`, issue 36): one of the two, with its reference.
 */
export const markRefundedInput = v.pipe(
  v.strictObject(
    {
      paymentId: v.optional(
        v.pipe(v.string(MONEY_TEXT.paymentNotFound), v.uuid(MONEY_TEXT.paymentNotFound)),
      ),
      refundId: v.optional(
        v.pipe(v.string(MONEY_TEXT.refundNotFound), v.uuid(MONEY_TEXT.refundNotFound)),
      ),
      reference,
    },
    MONEY_TEXT.badReference,
  ),
  v.check(
    (input) => (input.paymentId === undefined) !== (input.refundId === undefined),
    MONEY_TEXT.paymentOrRefund,
  ),
);

/** How long something has waited, short: '5 min', '3 h', '2 d' ('just now' under a minute). */
export function waitedFor(since: string | Date, now: Date | number = Date.now()): string {
  const ms = new Date(now).getTime() - new Date(since).getTime();
  if (!Number.isFinite(ms) || ms < 60_000) return 'just now';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** Who moved the money, as the desk and the receipt name it. */
export function payerNetworkLabel(network: string): string {
  switch (network) {
    case 'mtn':
      return 'MTN Mobile Money';
    case 'airtel':
      return 'Airtel Money';
    case 'pesapal':
      return 'Card (Pesapal)';
    case 'bank_transfer':
      return 'Bank Transfer';
    case 'cash_on_delivery':
      return 'Cash on Delivery';
    case 'cash':
      return CASH_LABEL;
    default:
      return network;
  }
}

/** A payment's state as the desk reads it: 'refund_due' → 'refund due'. */
export function paymentStateLabel(status: string): string {
  switch (status) {
    case 'pending':
      return 'waiting for approval';
    case 'successful':
      return 'paid';
    case 'refund_due':
      return 'refund due';
    default:
      return status.replace(/_/g, ' ');
  }
}
