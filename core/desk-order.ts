// One order on the desk (issue 34, decision 0075): what `desk.order` and `desk.addOrderNote`
// accept, the page's texts, the next sensible move for an order of its kind, the text each status
// move sends the customer, the links that call or WhatsApp them, and how the order's record
// reads. Pure: no I/O.
import * as v from 'valibot';
import { isDeliveryKind, ORDER_STEPS } from './delivery-rules.ts';
import { canMarkPaid } from './desk-money.ts';
import { type OrderStatus, orderIdHead, statusLabel } from './order-rules.ts';
import { normalisePhone } from './phone.ts';
import { SMS_TEXT, type SmsKind } from './sms.ts';

export const NOTE_MAX = 1000;

export const DESK_ORDER_TEXT = {
  notFound: 'No order has this number: it may have been deleted. Go back to the orders.',
  badOrderId: 'That is not an order’s number. Open the order from the orders list.',
  badNote: `A note is 1 to ${NOTE_MAX} characters of plain text (line breaks are fine).`,
  noteSaved: 'Note saved',
  back: 'Back to orders',
  packingSlip: 'Packing slip',
  notesPrivate: 'Only the desk sees these notes: never the customer.',
  noText: 'This move sends the customer no text.',
  waitingForPayment: 'Waiting for the payment before packing.',
  finished: 'Nothing more to do: this order is finished.',
  textsCustomer: 'Texts the customer:',
  textSent: 'The customer is texted:',
  noTextsTo:
    'The customer gets no text: no phone number on the order, or they switched order texts off.',
  moved: (status: string) => `The order is now ${statusLabel(status).toLowerCase()}.`,
  noItems: 'No pieces on this order.',
  noPayments: 'No payment recorded yet.',
  noTexts: 'No texts sent for this order yet.',
  noNotes: 'No notes yet.',
  noRecord: 'Nothing has been done to this order at the desk yet.',
  noAccount: 'No account: ordered as a guest of the desk.',
  removedProduct: 'No longer in the shop',
} as const;

const uuid = (message: string) => v.pipe(v.string(message), v.uuid(message));

export const deskOrderInput = v.strictObject(
  { id: uuid(DESK_ORDER_TEXT.badOrderId) },
  DESK_ORDER_TEXT.badOrderId,
);

/** Line breaks are a note's own; every other control character (NUL, escapes) is refused. */
const NOTE_CHARACTERS = /^(?:[^\p{Cc}\p{Cs}\u2028\u2029]|\n)*$/u;

/** A note's text as stored: line breaks made \n, trimmed, 1–1000 plain characters. */
export const noteText = v.pipe(
  v.string(DESK_ORDER_TEXT.badNote),
  // Refused before any work, so a megabyte costs nothing.
  v.maxLength(NOTE_MAX * 4, DESK_ORDER_TEXT.badNote),
  v.transform((text) => text.replace(/\r\n?/g, '\n').trim()),
  v.minLength(1, DESK_ORDER_TEXT.badNote),
  v.maxLength(NOTE_MAX, DESK_ORDER_TEXT.badNote),
  v.regex(NOTE_CHARACTERS, DESK_ORDER_TEXT.badNote),
);

export const addOrderNoteInput = v.strictObject(
  {
    orderId: uuid(DESK_ORDER_TEXT.badOrderId),
    text: noteText,
    /** The client's key for this note: a retry (a double tap, a dropped answer) saves it once. */
    requestKey: v.optional(uuid(DESK_ORDER_TEXT.badNote)),
  },
  DESK_ORDER_TEXT.badNote,
);

export const NOTE_ACTION = 'order.noted';

/** How an order is named in the desk's record: "Order #1a2b3c4d". */
export const orderSubject = (orderId: string) => `Order #${orderIdHead(orderId)}`;

/** Each status that texts the customer, and the text's kind (the outbox's `kind`). */
export const STATUS_TEXTS: Partial<Record<OrderStatus, SmsKind>> = {
  shipped: 'shipped',
  delivered: 'delivered',
  cancelled: 'cancelled',
  ready_for_pickup: 'ready-for-pickup',
  out_for_delivery: 'out-for-delivery',
};

/**
 * The text a move to `status` sends the customer, word for word as core/sms.ts writes it (the
 * rider, tracking number and reason as typed so far); null when that status sends none.
 */
export function statusTextPreview(
  orderId: string,
  status: OrderStatus,
  change: {
    rider?: { name: string; phone: string } | null;
    tracking?: string | null;
    reason?: string | null;
    refund?: boolean;
    days?: { minDays: number; maxDays: number } | null;
  } = {},
): string | null {
  switch (STATUS_TEXTS[status]) {
    case 'shipped':
      return SMS_TEXT.shipped({ orderId, tracking: change.tracking, days: change.days });
    case 'delivered':
      return SMS_TEXT.delivered({ orderId });
    case 'ready-for-pickup':
      return SMS_TEXT.readyForPickup({ orderId });
    case 'out-for-delivery':
      return SMS_TEXT.outForDelivery({
        orderId,
        riderName: change.rider?.name || 'the rider',
        // As the server stores it (+256…) once it looks like a number; as typed until then.
        riderPhone: riderNumber(change.rider?.phone ?? ''),
      });
    case 'cancelled':
      return SMS_TEXT.cancelled({ orderId, reason: change.reason, refund: change.refund ?? false });
    default:
      return null;
  }
}

const riderNumber = (phone: string) =>
  phone.replace(/\D/g, '').length >= 9 ? normalisePhone(phone) : phone;

/** The big button's move: the status it sets and what it says. */
export type NextMove = { status: OrderStatus; label: string };

/** What the big button says for each move. */
const MOVE_LABELS: Partial<Record<OrderStatus, string>> = {
  processing: 'Start packing',
  ready_for_pickup: 'Ready for pickup',
  out_for_delivery: 'Out for delivery',
  shipped: 'Mark shipped',
  delivered: 'Delivered',
  collected: 'Collected',
  completed: 'Complete the order',
};

/**
 * The next sensible move for an order, from the steps its kind allows (core/delivery-rules.ts
 * ORDER_STEPS): a paid (or pay-on-delivery) pending order is packed; a packed one goes out, is
 * shipped, or waits for pickup by its kind; one delivered or collected is completed. A pending
 * order still waiting for its money, a completed or cancelled one: none (`why` says so).
 */
export function nextMove(order: {
  status: string;
  deliveryKind: string;
  paymentMethod: string;
  paid: boolean;
}): NextMove | { status: null; why: string } {
  const kind = isDeliveryKind(order.deliveryKind) ? order.deliveryKind : 'delivery';
  const steps = ORDER_STEPS[kind] as readonly OrderStatus[];
  if (order.status === 'completed' || order.status === 'cancelled') {
    return { status: null, why: DESK_ORDER_TEXT.finished };
  }
  if (order.status === 'pending' && !order.paid && order.paymentMethod !== 'cash_on_delivery') {
    return { status: null, why: DESK_ORDER_TEXT.waitingForPayment };
  }
  // An old order's status outside its kind's steps counts as the step it stands for.
  const stand: Record<string, OrderStatus> = {
    shipped: steps[2] ?? 'shipped',
    out_for_delivery: steps[2] ?? 'out_for_delivery',
    ready_for_pickup: steps[2] ?? 'ready_for_pickup',
    delivered: steps[3] ?? 'delivered',
    collected: steps[3] ?? 'collected',
  };
  const at = steps.indexOf((stand[order.status] ?? order.status) as OrderStatus);
  const next: OrderStatus =
    at >= 0 && at < steps.length - 1 ? (steps[at + 1] ?? 'completed') : 'completed';
  return { status: next, label: MOVE_LABELS[next] ?? statusLabel(next) };
}

/** Whether the desk confirms this order's money by hand now ("Mark paid"). */
export const markPaidOffered = (order: { status: string; paymentMethod: string; paid: boolean }) =>
  !order.paid && canMarkPaid(order);

/** `tel:+256772123456` for a number as stored or typed. */
export const callLink = (phone: string) => `tel:${normalisePhone(phone)}`;

/** `https://wa.me/256772123456`: WhatsApp's chat link takes the digits alone. */
export const whatsAppLink = (phone: string) =>
  `https://wa.me/${normalisePhone(phone).replace(/\D/g, '')}`;
