// Mobile money (MTN MoMo, Airtel Money): which network a number is on, the states a payment goes
// through and how each is told to the shopper. Pure: the adapters and the service are in
// server/services/payments/ and server/services/payments/service.ts; docs/payments.md has the diagram.
import * as v from 'valibot';
import { formatUGX } from './money.ts';
import { PAYMENT_METHODS } from './order-rules.ts';
import { isValidPhone, normalisePhone } from './phone.ts';

export const NETWORKS = ['mtn', 'airtel'] as const;
export type Network = (typeof NETWORKS)[number];

export const NETWORK_LABEL: Record<Network, string> = {
  mtn: 'MTN Mobile Money',
  airtel: 'Airtel Money',
};

/**
 * Ugandan mobile prefixes (after 0 or +256) of the two networks that collect payments: MTN 076,
 * 077 and 078; Airtel 070, 074 and 075. Others (Lyca, UTL) have no collection API here.
 */
const PREFIXES: Record<Network, readonly string[]> = {
  mtn: ['76', '77', '78'],
  airtel: ['70', '74', '75'],
};

/** '+256772123456' for a Ugandan mobile number in any usual spelling, else null. */
export function mobileMoneyNumber(input: string): string | null {
  if (!/^[\d\s+().-]{1,30}$/.test(input)) return null;
  const phone = normalisePhone(input);
  return /^\+256\d{9}$/.test(phone) && isValidPhone(phone) ? phone : null;
}

/** The network of a Ugandan mobile number (any usual spelling), or null. */
export function networkOf(input: string | null | undefined): Network | null {
  const phone = input ? mobileMoneyNumber(input) : null;
  if (!phone) return null;
  const prefix = phone.slice(4, 6);
  return NETWORKS.find((network) => PREFIXES[network].includes(prefix)) ?? null;
}

/** '+256772123456' → '0772 123 456', as Ugandans write it. */
export function displayNumber(phone: string): string {
  const local = `0${phone.replace(/^\+256/, '')}`;
  return /^0\d{9}$/.test(local)
    ? `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`
    : phone;
}

/**
 * refund_due: the provider took money the order did not need (it was already paid by another
 * payment, or deleted while the request waited): kept for the desk to refund.
 */
export const PAYMENT_STATES = ['pending', 'successful', 'failed', 'expired', 'refund_due'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** Why a payment did not go through, in the shop's words (providers' codes map onto these). */
export const FAILURE_REASONS = [
  'declined',
  'not-enough-funds',
  'not-registered',
  'expired',
  'unavailable',
  /** The shop's own set-up is wrong (keys, currency, environment): logged for the desk. */
  'setup',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** The shopper is asked on their phone; with no answer after this, the payment expires. */
export const PAYMENT_EXPIRY_MS = 5 * 60 * 1000;
/**
 * An expired or unanswered payment is still read from its provider for this long after it
 * started: the provider's approval window starts after the shop's clock, so money can arrive
 * late, and it must be counted (docs/payments.md, decision 0035).
 */
export const LATE_MONEY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long the shop waits for a provider's answer before telling the shopper. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** A status read asks the provider at most this often per payment; between, the row answers. */
export const STATUS_CHECK_INTERVAL_MS = 3_000;
/** The checkout asks for the payment's state this often while it waits. */
export const STATUS_POLL_MS = 2_000;

export const PAYMENT_TEXT = {
  approve: (amount: number) => `Approve the payment of ${formatUGX(amount)} on your phone`,
  approveHint: (network: Network, phone: string) =>
    `${NETWORK_LABEL[network]} is sending a prompt to ${displayNumber(phone)}. Enter your PIN there to pay.`,
  waiting: 'Waiting for your approval...',
  paid: 'Payment received. Thank you!',
  failed: 'The payment did not go through.',
  reasons: {
    declined: 'The payment was declined on the phone.',
    'not-enough-funds': 'There is not enough money on this mobile money account.',
    'not-registered': 'This number is not registered for mobile money.',
    expired: 'The payment was not approved within 5 minutes.',
    unavailable:
      'The mobile money service is not answering right now. Your order is saved: try again in a moment.',
    setup: 'Mobile money is unavailable right now. Please try another payment method.',
  } satisfies Record<FailureReason, string>,
  noAnswer:
    'No answer from your phone yet. Your order is saved as pending: you can retry the payment from your orders.',
  tryAgain: 'Try again',
  chooseAnother: 'Choose another method',
  retryPayment: 'Retry payment',
  payerNumber: 'Mobile money number',
  invalidNumber: 'Enter an MTN or Airtel Uganda number, e.g. 0772 123 456.',
  unsupportedNetwork: 'Mobile money works with MTN and Airtel Uganda numbers only.',
  notMobileMoney: 'This order is not paid by mobile money.',
  alreadyPaid: 'This order is already paid.',
  notPending: 'This order can no longer be paid.',
  notConfigured: (network: Network) =>
    `${NETWORK_LABEL[network]} payments are not available right now. Please choose another method.`,
  orderNotFound: 'Order not found',
  methodChanged: 'Payment method updated.',
  refundDue:
    'This payment was not needed for the order and will be refunded to your mobile money account.',
} as const;

/** What the shopper reads for a payment that did not go through. */
export function failureText(reason: string | null | undefined): string {
  return reason && reason in PAYMENT_TEXT.reasons
    ? PAYMENT_TEXT.reasons[reason as FailureReason]
    : PAYMENT_TEXT.failed;
}

const orderId = v.pipe(v.string(PAYMENT_TEXT.orderNotFound), v.uuid(PAYMENT_TEXT.orderNotFound));

export const startPaymentInput = v.strictObject(
  {
    orderId,
    /** Another number than the profile's; any usual spelling. */
    phone: v.optional(
      v.pipe(
        v.string(PAYMENT_TEXT.invalidNumber),
        v.maxLength(30, PAYMENT_TEXT.invalidNumber),
        v.check((phone) => mobileMoneyNumber(phone) !== null, PAYMENT_TEXT.invalidNumber),
        v.check((phone) => networkOf(phone) !== null, PAYMENT_TEXT.unsupportedNetwork),
      ),
    ),
  },
  PAYMENT_TEXT.orderNotFound,
);

export const paymentStatusInput = v.strictObject({ orderId }, PAYMENT_TEXT.orderNotFound);

/** After a failed mobile-money payment: pay another way (recorded as chosen, pending). */
export const changeMethodInput = v.strictObject(
  {
    orderId,
    paymentMethod: v.picklist(
      PAYMENT_METHODS.filter((method) => method !== 'mobile_money'),
      'Please choose a payment method.',
    ),
  },
  PAYMENT_TEXT.orderNotFound,
);
