// The desk's returns (issue 36, decision 0086): the queue's chips, the words its cards and the
// return's page use, what each return asks of the staff next, and how a return's desk record
// and its refunds read. The rules themselves (states, reasons, inputs) are in core/returns.ts.
// Pure: no I/O.
import type { StatusTone } from './order-rules.ts';
import {
  type Condition,
  type ExchangeState,
  type Handover,
  REFUND_METHOD_LABEL,
  REFUNDED_BY_HAND,
  RETURN_REASON_LABEL,
  RETURN_STATE_LABEL,
  RETURN_STATES,
  type RefundMethod,
  type ReturnState,
} from './returns.ts';

/** The queue's chips: every return, then each state (counts from desk.returns). */
export const RETURN_CHIPS: readonly { key: ReturnState | 'all'; label: string }[] = [
  { key: 'all', label: 'All' },
  ...RETURN_STATES.map((state) => ({ key: state, label: RETURN_STATE_LABEL[state] })),
];

/** A return's badge: waiting for the desk yellow, closed green, refused red, on its way grey. */
export function returnTone(status: string): StatusTone {
  switch (status) {
    case 'requested':
      return 'yellow';
    case 'refunded':
    case 'exchanged':
      return 'green';
    case 'refused':
      return 'red';
    default:
      return 'grey';
  }
}

export const returnStateLabel = (status: string) =>
  RETURN_STATE_LABEL[status as ReturnState] ?? status;

export const reasonLabel = (reason: string) =>
  RETURN_REASON_LABEL[reason as keyof typeof RETURN_REASON_LABEL] ?? reason;

export const HANDOVER_LABEL: Record<Handover, string> = {
  pickup: 'Rider picks it up',
  drop_off: 'Drop-off at the shop',
};

export const CONDITION_LABEL: Record<Condition, string> = {
  resellable: 'Can be sold again',
  damaged: 'Damaged',
};

export const EXCHANGE_STATE_LABEL: Record<ExchangeState, string> = {
  preparing: 'Preparing',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
};

export const REFUND_STATE_LABEL: Record<string, string> = {
  requested: 'Waiting to be sent',
  sent: 'Sent, waiting for the provider',
  succeeded: 'Refunded',
  failed: 'Failed',
};

export const refundMethodLabel = (method: string) =>
  REFUND_METHOD_LABEL[method as RefundMethod] ?? method;

/** The providers the shop sends money back through, by the payment's network (the button's name). */
const REFUND_PROVIDER: Partial<Record<string, string>> = {
  mtn: 'MTN MoMo',
  airtel: 'Airtel Money',
  pesapal: 'Pesapal',
};
/** The provider a payment's refund goes through; null: refunded by hand (bank, cash). */
export const refundProvider = (network: string) => REFUND_PROVIDER[network] ?? null;

/** A refund staff pay outside the shop and record (bank transfer, cash), not yet recorded. */
export const recordedByHand = (refund: { method: string; status: string }) =>
  (REFUNDED_BY_HAND as readonly string[]).includes(refund.method) &&
  (refund.status === 'requested' || refund.status === 'sent');

/** What a return asks of the desk now; null: nothing, it is closed or waits for the shopper. */
export type ReturnStep = 'decide' | 'receive' | 'ship' | 'deliver' | null;

export function returnStep(ret: {
  status: string;
  resolution: string;
  exchangeStatus: string | null;
}): ReturnStep {
  if (ret.status === 'requested') return 'decide';
  if (ret.status === 'approved') return 'receive';
  if (ret.resolution !== 'exchange') return null;
  if (ret.status === 'received' && (ret.exchangeStatus ?? 'preparing') === 'preparing') {
    return 'ship';
  }
  if (ret.exchangeStatus === 'out_for_delivery') return 'deliver';
  return null;
}

export const DESK_RETURN_TEXT = {
  title: 'Returns',
  chips: 'Show returns',
  loading: 'Loading the returns…',
  loadingOne: 'Loading the return…',
  loadFailed: 'The returns could not be loaded.',
  none: 'No returns yet.',
  noneIn: (label: string) => `No returns are ${label.toLowerCase()}.`,
  shown: (count: number) =>
    count >= 100 ? 'The newest 100' : `${count} return${count === 1 ? '' : 's'}`,
  back: 'Back to returns',
  notLoaded: 'The return could not be loaded.',
  exchange: 'Exchange',
  refund: 'Refund',
  refundTo: (to: string | null) =>
    to === 'store_credit' ? 'Refund to store credit' : 'Refund to the payment',
  pieces: (count: number) => `${count} piece${count === 1 ? '' : 's'}`,
  noNote: 'No note from the shopper.',
  noPhotos: 'No photos.',
  decide: 'Decide',
  approve: 'Approve',
  refuse: 'Refuse',
  handover: 'How it comes back',
  pickupFee: (fee: string | null) =>
    fee ? `The rider’s fee, ${fee}, is taken from the refund.` : 'The rider’s pickup is free.',
  dropOffFree: 'She brings it to the shop: no fee.',
  refuseReason: 'Why it is refused (the shopper reads this)',
  confirmRefuse: 'Refuse the return',
  approved: 'Return approved',
  refused: 'Return refused',
  receive: 'Receive the pieces',
  receiveIntro:
    'For each piece: can it be sold again (back in stock) or is it damaged (kept out, logged)?',
  received: 'Pieces received',
  exchangeDelivery: 'The exchange’s delivery',
  ship: 'Ship the exchange (out for delivery)',
  delivered: 'Mark the exchange delivered',
  shipped: 'The exchange is out for delivery',
  deliveredDone: 'The exchange is delivered',
  refunds: 'Refunds',
  noRefunds: 'No refund yet: it starts when the pieces are received.',
  exchangeNoMoney:
    'An exchange sends no money back (a cheaper piece’s difference goes to store credit).',
  retry: 'Retry',
  retried: 'Refund sent again',
  recordRefund: 'Record refund',
  recorded: 'Refund recorded',
  record: 'Record',
  noRecord: 'Nothing has been done to this return at the desk yet.',
  orderReturns: 'Returns',
  refundThrough: (provider: string) => `Refund through ${provider}`,
  refundStarted: (provider: string) => `Refund sent through ${provider}`,
  refundWaiting: 'Refund sent: waiting for the provider.',
  refundFailed: 'The refund failed: see why on the order, then retry or refund by hand.',
  waitingForShopper: 'Nothing to do now.',
  closed: 'Nothing more to do: this return is closed.',
} as const;

/** How a return's desk record line reads: "return.approved" → "Approved". */
const RECORD_LABEL: Record<string, string> = {
  'return.approved': 'Approved',
  'return.refused': 'Refused',
  'return.decided': 'Decided',
  'return.received': 'Received',
  'return.exchange': 'Exchange moved',
  'return.exchange-moved': 'Exchange moved',
  'refund.retried': 'Refund sent again',
  'refund.recorded': 'Refund recorded by hand',
  'order.refunded': 'Refund recorded by hand',
};

export function returnRecordLabel(action: string): string {
  const known = RECORD_LABEL[action];
  if (known) return known;
  // An action this screen has no words for: its own name, read as words.
  const words = action.replace(/^[a-z]+\./, '').replace(/[-_.]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The details of a record line that say something to staff (a reason, a handover, a condition). */
export function returnRecordDetail(details: unknown): string | null {
  const d = (details ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof d.handover === 'string') {
    parts.push(HANDOVER_LABEL[d.handover as Handover] ?? d.handover);
  }
  if (typeof d.reason === 'string' && d.reason) parts.push(`reason: ${d.reason}`);
  if (typeof d.to === 'string') {
    parts.push(EXCHANGE_STATE_LABEL[d.to as ExchangeState] ?? returnStateLabel(d.to));
  }
  if (typeof d.reference === 'string' && d.reference) parts.push(`ref ${d.reference}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}
