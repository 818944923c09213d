// Returns, exchanges and refunds (issue 36, decision 0086): the reasons, states and windows, what
// a return is worth as paid and where its money goes, the inputs the procedures accept and the
// texts they answer with. Pure: no I/O.
import * as v from 'valibot';
import { PHOTO_TYPES, type PhotoType } from './desk-photos.ts';
import { kampalaDay, MONTHS } from './kampala-time.ts';
import { formatUGX } from './money.ts';
import type { PickupFeeRule, ReturnWindows } from './return-windows.ts';
import { objectMessage, typedText } from './text.ts';

export const RETURN_REASONS = [
  'too_small',
  'too_big',
  'not_as_pictured',
  'damaged',
  'wrong_item',
  'changed_mind',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_REASON_LABEL: Record<ReturnReason, string> = {
  too_small: 'Too small',
  too_big: 'Too big',
  not_as_pictured: 'Not as pictured',
  damaged: 'Arrived damaged',
  wrong_item: 'Wrong piece sent',
  changed_mind: 'Changed my mind',
};

/** The shop's fault: the pickup is free whatever the shop's rule (decision 0086). */
export const SHOPS_FAULT: readonly ReturnReason[] = ['damaged', 'wrong_item'];

export const RETURN_STATES = [
  'requested',
  'approved',
  'received',
  'refunded',
  'exchanged',
  'refused',
] as const;
export type ReturnState = (typeof RETURN_STATES)[number];

export const RETURN_STATE_LABEL: Record<ReturnState, string> = {
  requested: 'Requested',
  approved: 'Approved',
  received: 'Received',
  refunded: 'Refunded',
  exchanged: 'Exchanged',
  refused: 'Refused',
};

export const RESOLUTIONS = ['exchange', 'refund'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const REFUND_DESTINATIONS = ['original', 'store_credit'] as const;
export type RefundDestination = (typeof REFUND_DESTINATIONS)[number];
export const HANDOVERS = ['pickup', 'drop_off'] as const;
export type Handover = (typeof HANDOVERS)[number];
export const CONDITIONS = ['resellable', 'damaged'] as const;
export type Condition = (typeof CONDITIONS)[number];
export const EXCHANGE_STATES = ['preparing', 'out_for_delivery', 'delivered'] as const;
export type ExchangeState = (typeof EXCHANGE_STATES)[number];

/** A refund's states (docs/payments.md): requested → sent → succeeded | failed. */
export const REFUND_STATES = ['requested', 'sent', 'succeeded', 'failed'] as const;
export type RefundState = (typeof REFUND_STATES)[number];
/** Who sends it: the payment's own provider, staff by hand (bank, cash), or store credit. */
export const REFUND_METHODS = [
  'mtn',
  'airtel',
  'pesapal',
  'bank_transfer',
  'cash_on_delivery',
  'cash',
  'store_credit',
] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];
/** Sent by hand: staff pay it outside the shop and record it (desk.markRefunded). */
export const REFUNDED_BY_HAND: readonly RefundMethod[] = [
  'bank_transfer',
  'cash_on_delivery',
  'cash',
];

export const RETURN_PHOTOS_MAX = 3;
export const RETURN_NOTE_MAX = 500;
export const RETURN_LINES_MAX = 50;

/**
 * A shopper's return photo in the bucket: returns/{userId}/{uuid}.{ext}, the shopper's own id in
 * it, so a return accepts only keys its shopper uploaded (a key is never reused, as a product's).
 */
export const returnPhotoKey = (userId: string, id: string, type: PhotoType) =>
  `returns/${userId}/${id}.${PHOTO_TYPES[type]}`;
export const RETURN_PHOTO_KEY =
  /^returns\/[A-Za-z0-9_-]{1,64}\/[0-9a-f-]{36}\.(jpg|png|webp|heic)$/;
/** Whether this key is a return photo this shopper uploaded. */
export const isReturnPhotoOf = (key: string, userId: string) =>
  RETURN_PHOTO_KEY.test(key) && key.startsWith(`returns/${userId}/`);

/** 'CRN-' and the first 8 characters of the refund's id (as a receipt is RCP-). */
export const creditNoteNumber = (refundId: string) => `CRN-${refundId.slice(0, 8)}`;

const DAY_MS = 86_400_000;

/**
 * The last day a window is open, in Kampala: the delivery's day is day 0, so a 14-day window
 * accepts through the end of day 14 and refuses from day 15.
 */
export function windowLastDay(deliveredAt: Date | string, days: number): Date {
  // Midnight UTC of that Kampala day stands for the day itself (see kampalaDate).
  return new Date((kampalaDay(new Date(deliveredAt)) + days) * DAY_MS);
}

/** Whether the window is open on `now`. */
export function windowOpen(deliveredAt: Date | string, days: number, now: Date | number): boolean {
  return kampalaDay(now) <= kampalaDay(new Date(deliveredAt)) + days;
}

/** The statuses of an order that reached its shopper (its delivered_at set): returnable. */
export const RECEIVED_STATUSES = ['delivered', 'collected', 'completed'] as const;

/** An order's two windows on `now`: when it reached her (null: not yet, nothing opens), each
 * window's last day and whether it is open. */
export function orderWindows(
  order: { status: string; deliveredAt: Date | null },
  days: ReturnWindows,
  now: Date | number,
) {
  const received =
    order.deliveredAt !== null && (RECEIVED_STATUSES as readonly string[]).includes(order.status);
  const at = received ? order.deliveredAt : null;
  return {
    at,
    returnLast: at ? windowLastDay(at, days.returnDays) : null,
    exchangeLast: at ? windowLastDay(at, days.exchangeDays) : null,
    returnOpen: at !== null && windowOpen(at, days.returnDays, now),
    exchangeOpen: at !== null && windowOpen(at, days.exchangeDays, now),
  };
}

/** '14 December 2026', for a day from windowLastDay. */
export function kampalaDate(day: Date): string {
  return `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${day.getUTCFullYear()}`;
}

/**
 * What returned pieces are worth as paid: their price less their share of the order's discount,
 * shared by value and rounded down (the shop never sends back more than it took for them).
 */
export function returnedValue(
  order: { subtotal: number; discount: number },
  lines: readonly { price: number; quantity: number }[],
): number {
  const value = lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  if (order.subtotal <= 0 || order.discount <= 0) return value;
  return value - Math.ceil((order.discount * value) / order.subtotal);
}

/**
 * Where a refund's money goes. To store credit: all of it. To the original payment: as much as
 * that payment still holds (what it took less what was refunded from it), the rest (the part
 * paid by gift card or credit, or what a payment already refunded cannot take again) to credit.
 */
export function refundSplit(input: {
  amount: number;
  to: RefundDestination;
  /** What the order's payment can still send back, or 0 when there is none (a total of 0). */
  paymentLeft: number;
}): { original: number; credit: number } {
  if (input.to === 'store_credit') return { original: 0, credit: input.amount };
  const original = Math.max(0, Math.min(input.amount, input.paymentLeft));
  return { original, credit: input.amount - original };
}

/** The pickup's fee under the shop's rule: free for the shop's fault, else the zone's fee. */
export function pickupFee(rule: PickupFeeRule, reasons: readonly ReturnReason[], zoneFee: number) {
  if (rule === 'free' || reasons.some((reason) => SHOPS_FAULT.includes(reason))) return 0;
  return zoneFee;
}

export const RETURN_TEXT = {
  returnNotFound: 'Return not found',
  orderNotFound: 'Order not found',
  lineNotFound: 'That piece is not in this order.',
  notDelivered: 'Only a delivered or collected order can be returned or exchanged.',
  windowClosed: (last: string) => `The return window for this order closed on ${last}.`,
  exchangeWindowClosed: (last: string) =>
    `The exchange window for this order closed on ${last}. You can still ask for a refund.`,
  notReturnable: (name: string) => `${name} cannot be returned or exchanged.`,
  tooMany: (name: string, left: number) =>
    left > 0 ? `Only ${left} of ${name} can still be returned.` : `${name} is already in a return.`,
  badQuantity: 'Choose how many of each piece, from 1.',
  noLines: 'Choose at least one piece to return.',
  badReason: 'Choose why you are returning each piece.',
  exchangeNeedsPiece: 'Choose the size, colour or piece you want instead.',
  exchangeNotOffered: 'Only an exchange takes a new piece.',
  exchangeTooDear: (name: string) =>
    `${name} costs more than the piece you return. Choose one up to the same price.`,
  exchangeNotFound: 'That piece is no longer sold.',
  soldOut: (label: string, left: readonly string[] = []) =>
    left.length > 0
      ? `${label} is sold out. Still in stock: ${left.join(', ')}. Choose one or ask for a refund.`
      : `${label} is sold out. Choose another size or ask for a refund.`,
  badResolution: 'Choose an exchange or a refund.',
  badRefundTo: 'Choose where the refund goes: your payment or store credit.',
  badNote: `Your note is at most ${RETURN_NOTE_MAX} characters of plain text.`,
  tooManyPhotos: `Add at most ${RETURN_PHOTOS_MAX} photos.`,
  badPhoto: 'That photo was not uploaded. Add it again.',
  badRequest: 'This return request could not be read. Reload the page and try again.',
  replayMismatch: 'This return was already sent for another order.',
  alreadyDecided: 'This return was already decided.',
  notApproved: 'Only an approved return can be received.',
  refusalNeedsReason: 'Say why the return is refused: the shopper reads it.',
  badStaffReason: 'The reason is at most 300 characters of plain text.',
  badCondition: 'Say for each piece whether it can be sold again or is damaged.',
  badHandover: 'Choose a pickup by the rider or a drop-off at the shop.',
  requested: 'Return requested. We will text you when it is approved.',
  notRequested: 'Only a requested return can be approved or refused.',
  notPreparing: 'The exchange is not ready to go out yet: receive the return first.',
  badMove: 'An exchange goes out for delivery, then is delivered.',
  conditionMissing: 'Say for each piece of this return whether it can be sold again or is damaged.',
  instructionsPickup: (fee: number) =>
    fee > 0
      ? `Our rider will call you to collect it. The pickup costs ${formatUGX(fee)}, taken off your refund.`
      : 'Our rider will call you to collect it, free of charge.',
  instructionsDropOff: (address: string) =>
    `Bring it to our shop, ${address}, with its tags and your receipt.`,
  refundDone: (amount: number) => `${formatUGX(amount)} refunded`,
} as const;

/**
 * Where the shopper sends a return's photo: POST, the picture itself as the body, under the
 * desk's photo rules (core/desk-photos.ts: JPEG, PNG, WebP or HEIC, up to 10 MB, at least 400 px
 * on its short side). Answers { key, url }: `key` (returnPhotoKey) goes in returns.request.
 */
export const RETURN_PHOTO_UPLOAD_PATH = '/api/returns/photos';

/** Where the shopper and the desk see it: /api/returns/{userId}/{file}, private to them. */
export const returnPhotoUrl = (key: string) => `/api/${key}`;

/** What the shopper's screens say (the order page, the return form). */
export const RETURN_SCREEN_TEXT = {
  formTitle: 'Return or exchange',
  formIntro: 'Choose the pieces, tell us why, and how you would like it put right.',
  loading: 'Loading your order...',
  failed: 'Your order could not be loaded. Please try again.',
  piecesLegend: 'Which pieces?',
  alreadyReturned: 'Already in a return',
  notReturnable: 'This piece cannot be returned (earrings, underwear and the like)',
  reasonLabel: 'Why?',
  reasonPlaceholder: 'Choose a reason',
  resolutionLegend: 'How should we put it right?',
  exchange: 'Exchange',
  exchangeNote: 'Another size or colour, held for you now',
  refund: 'Refund',
  refundNote: 'Your money back',
  insteadLegend: (variant: string) => (variant ? `Instead of ${variant}` : 'Instead'),
  noChoices: 'No other size or colour of this piece. Ask for a refund instead.',
  soldOutTag: 'sold out',
  sizesLeft: 'Still available:',
  refundInstead: 'Ask for a refund instead',
  refundToLegend: 'Where should the money go?',
  toPayment: 'To my payment',
  toPaymentNote: 'Sent back the way you paid, once we receive the piece',
  toCredit: 'To store credit',
  toCreditNote: 'Spend it on your next order, as soon as we receive the piece',
  noteLabel: 'Anything we should know? (optional)',
  photosLabel: `Photos (optional, up to ${RETURN_PHOTOS_MAX})`,
  photosNote: 'A picture of the fault or the label helps us decide quickly.',
  addPhoto: 'Add a photo',
  removePhoto: (n: number) => `Remove photo ${n}`,
  uploading: 'Uploading...',
  pickupFee: (fee: string) =>
    `A rider can collect it for ${fee} (free when the piece is damaged or not what you ordered), or bring it to the shop for free.`,
  choosePieces: 'Choose at least one piece to return.',
  send: 'Send request',
  sending: 'Sending...',
  returnHeading: (ref: string) => `Return #${ref}`,
  progress: 'Return progress',
  handoverPickup: 'Our rider collects it',
  handoverDropOff: 'Bring it to the shop',
  staffReason: 'Why:',
  refundLine: (amount: string, to: string) => `${amount} to ${to}`,
  creditNote: (number: string) => `Credit note ${number}`,
  exchangeTrip: 'Your new piece',
} as const;

/** A refund's state as the shopper reads it. */
export const REFUND_STATE_LABEL: Record<RefundState, string> = {
  requested: 'Being prepared',
  sent: 'Sent, waiting for the provider',
  succeeded: 'Refunded',
  failed: 'Delayed: the shop is sending it again',
};

/** Where a refund goes, in the shopper's words ("sent to your card"). */
export const REFUND_GOES_TO: Record<RefundMethod, string> = {
  mtn: 'MTN Mobile Money',
  airtel: 'Airtel Money',
  pesapal: 'your card',
  bank_transfer: 'your bank account',
  cash_on_delivery: 'you in cash',
  cash: 'you in cash',
  store_credit: 'store credit',
};

/** The exchange's own trip. */
export const EXCHANGE_STATE_LABEL: Record<ExchangeState, string> = {
  preparing: 'Being prepared',
  out_for_delivery: 'On its way',
  delivered: 'Delivered',
};

const uuidOf = (message: string) => v.pipe(v.string(message), v.uuid(message));

const note = typedText({
  notText: RETURN_TEXT.badNote,
  max: RETURN_NOTE_MAX,
  tooLong: RETURN_TEXT.badNote,
  invisible: RETURN_TEXT.badNote,
  lines: true,
});

/** returns.request's input (the issue's contract; `photos` added: the uploaded pictures' keys). */
export const returnRequestInput = v.pipe(
  v.strictObject(
    {
      returnId: uuidOf(RETURN_TEXT.badRequest),
      orderId: uuidOf(RETURN_TEXT.orderNotFound),
      lines: v.pipe(
        v.array(
          v.strictObject(
            {
              orderItemId: uuidOf(RETURN_TEXT.lineNotFound),
              quantity: v.pipe(
                v.number(RETURN_TEXT.badQuantity),
                v.integer(RETURN_TEXT.badQuantity),
                v.minValue(1, RETURN_TEXT.badQuantity),
                v.maxValue(999, RETURN_TEXT.badQuantity),
              ),
              reason: v.picklist(RETURN_REASONS, RETURN_TEXT.badReason),
              exchangeVariantId: v.optional(
                v.pipe(
                  v.number(RETURN_TEXT.exchangeNotFound),
                  v.integer(RETURN_TEXT.exchangeNotFound),
                  v.minValue(1, RETURN_TEXT.exchangeNotFound),
                  v.maxValue(2_147_483_647, RETURN_TEXT.exchangeNotFound),
                ),
              ),
            },
            objectMessage(RETURN_TEXT.badRequest),
          ),
          RETURN_TEXT.noLines,
        ),
        v.minLength(1, RETURN_TEXT.noLines),
        v.maxLength(RETURN_LINES_MAX, RETURN_TEXT.badRequest),
      ),
      resolution: v.picklist(RESOLUTIONS, RETURN_TEXT.badResolution),
      refundTo: v.optional(v.picklist(REFUND_DESTINATIONS, RETURN_TEXT.badRefundTo)),
      note: v.optional(
        v.pipe(v.string(RETURN_TEXT.badNote), v.maxLength(5000, RETURN_TEXT.badNote), note),
      ),
      photos: v.optional(
        v.pipe(
          v.array(
            v.pipe(
              v.string(RETURN_TEXT.badPhoto),
              v.maxLength(300, RETURN_TEXT.badPhoto),
              v.regex(RETURN_PHOTO_KEY, RETURN_TEXT.badPhoto),
            ),
            RETURN_TEXT.badPhoto,
          ),
          v.maxLength(RETURN_PHOTOS_MAX, RETURN_TEXT.tooManyPhotos),
        ),
      ),
    },
    objectMessage(RETURN_TEXT.badRequest),
  ),
  v.check(
    (input) =>
      input.resolution === 'exchange'
        ? input.lines.every((line) => line.exchangeVariantId !== undefined)
        : input.lines.every((line) => line.exchangeVariantId === undefined),
    (issue) =>
      (issue.input as { resolution?: string }).resolution === 'exchange'
        ? RETURN_TEXT.exchangeNeedsPiece
        : RETURN_TEXT.exchangeNotOffered,
  ),
  v.check(
    (input) => input.resolution === 'refund' || input.refundTo === undefined,
    RETURN_TEXT.badRefundTo,
  ),
  v.check(
    (input) => new Set(input.lines.map((line) => line.orderItemId)).size === input.lines.length,
    RETURN_TEXT.badRequest,
  ),
);
export type ReturnRequestInput = v.InferOutput<typeof returnRequestInput>;

export const returnOptionsInput = v.strictObject(
  { orderId: uuidOf(RETURN_TEXT.orderNotFound) },
  objectMessage(RETURN_TEXT.orderNotFound),
);

export const returnByIdInput = v.strictObject(
  { id: uuidOf(RETURN_TEXT.returnNotFound) },
  objectMessage(RETURN_TEXT.returnNotFound),
);

const staffReason = typedText({
  notText: RETURN_TEXT.badStaffReason,
  max: 300,
  tooLong: RETURN_TEXT.badStaffReason,
  invisible: RETURN_TEXT.badStaffReason,
});

export const deskReturnsInput = v.optional(
  v.strictObject(
    { status: v.optional(v.picklist(RETURN_STATES, RETURN_TEXT.returnNotFound)) },
    objectMessage(RETURN_TEXT.badRequest),
  ),
  {},
);

/** desk.decideReturn's input (the issue's contract; `handover` added: pickup or drop-off). */
export const decideReturnInput = v.pipe(
  v.strictObject(
    {
      returnId: uuidOf(RETURN_TEXT.returnNotFound),
      decision: v.picklist(['approve', 'refuse'], RETURN_TEXT.badRequest),
      reason: v.optional(
        v.pipe(
          v.string(RETURN_TEXT.badStaffReason),
          v.maxLength(3000, RETURN_TEXT.badStaffReason),
          staffReason,
        ),
      ),
      handover: v.optional(v.picklist(HANDOVERS, RETURN_TEXT.badHandover)),
    },
    objectMessage(RETURN_TEXT.badRequest),
  ),
  v.check(
    (input) => input.decision === 'approve' || Boolean(input.reason),
    RETURN_TEXT.refusalNeedsReason,
  ),
);

export const receiveReturnInput = v.strictObject(
  {
    returnId: uuidOf(RETURN_TEXT.returnNotFound),
    lines: v.pipe(
      v.array(
        v.strictObject(
          {
            orderItemId: uuidOf(RETURN_TEXT.lineNotFound),
            condition: v.picklist(CONDITIONS, RETURN_TEXT.badCondition),
          },
          objectMessage(RETURN_TEXT.badCondition),
        ),
        RETURN_TEXT.badCondition,
      ),
      v.minLength(1, RETURN_TEXT.badCondition),
      v.maxLength(RETURN_LINES_MAX, RETURN_TEXT.badCondition),
    ),
  },
  objectMessage(RETURN_TEXT.badRequest),
);

/**
 * Why a provider's refund failed, in the shop's words for the staff (the refund's `reason`). The
 * provider's own words are logged; these say what to do next (Retry, by hand, or a setting).
 */
export const REFUND_FAILURES = [
  'already-refunded',
  'over-paid',
  'partial-mobile',
  'not-completed',
  'wrong-pin',
  'payee-not-found',
  'not-enough-balance',
  'declined',
  'setup',
  'not-configured',
  'no-payment',
] as const;
export type RefundFailure = (typeof REFUND_FAILURES)[number];

export const REFUND_FAILURE_TEXT: Record<RefundFailure, string> = {
  'already-refunded':
    'The provider already refunded this payment (one refund per payment): record any rest as store credit.',
  'over-paid': 'The refund is more than the payment took: the provider refuses it.',
  'partial-mobile':
    'Pesapal refunds a mobile-money payment only in full: refund the rest as store credit, or all of it by hand.',
  'not-completed': 'The provider says this payment is not completed: it cannot be refunded.',
  'wrong-pin':
    'Airtel refused the shop’s disbursement PIN: check AIRTEL_DISBURSEMENT_PIN, then Retry.',
  'payee-not-found': 'The number is not registered for mobile money: refund by hand.',
  'not-enough-balance':
    'The shop’s disbursement account has not enough money: top it up, then Retry.',
  declined: 'The provider refused the refund. Retry, or refund by hand.',
  setup: 'The provider refused the shop’s set-up (keys, currency): fix the settings, then Retry.',
  'not-configured':
    'Refunds through this provider are not set up: set its disbursement keys, or refund by hand.',
  'no-payment': 'The payment this refund sends back is gone: refund by hand.',
};

export const REFUND_TEXT = {
  refundNotFound: 'Refund not found',
  paymentNotFound: 'Payment not found',
  creditNoteNotFound: 'Credit note not found',
  byHand:
    'Bank transfers and cash are refunded by hand: pay it, then record it with its reference.',
  storeCredit: 'Store credit is granted when the return is received, not sent again.',
  notRefundDue: 'Only money due back to a customer can be refunded.',
  notByHand: 'This refund is being sent by its provider: wait for it, or Retry if it fails.',
} as const;

const refundId = uuidOf(REFUND_TEXT.refundNotFound);

export const refundByIdInput = v.strictObject(
  { refundId },
  objectMessage(REFUND_TEXT.refundNotFound),
);

export const refundPaymentInput = v.strictObject(
  { paymentId: uuidOf(REFUND_TEXT.paymentNotFound) },
  objectMessage(REFUND_TEXT.paymentNotFound),
);

export const creditNoteInput = v.strictObject(
  { refundId: uuidOf(REFUND_TEXT.creditNoteNotFound) },
  objectMessage(REFUND_TEXT.creditNoteNotFound),
);

/** Where a refund's money went, as the credit note says it. */
export const REFUND_METHOD_LABEL: Record<RefundMethod, string> = {
  mtn: 'MTN Mobile Money',
  airtel: 'Airtel Money',
  pesapal: 'Card (Pesapal)',
  bank_transfer: 'Bank transfer',
  cash_on_delivery: 'Cash',
  cash: 'Cash',
  store_credit: 'Store credit',
};

/** A succeeded refund's credit note: the screen's and the PDF's data. */
export type CreditNote = {
  refundId: string;
  /** CRN-… */
  number: string;
  orderId: string;
  /** The order's receipt number (RCP-…). */
  orderRef: string;
  /** When the refund succeeded (ISO). */
  date: string;
  customerName: string;
  /** The returned pieces, for a return's refund; none for money the order did not need. */
  lines: { name: string; variantLabel: string; quantity: number; price: number }[];
  amount: number;
  method: RefundMethod;
  methodLabel: string;
  reference: string | null;
};

/** The credit note's words (screen and PDF). */
export const CREDIT_NOTE_TEXT = {
  title: 'Credit note',
  forOrder: 'For order',
  date: 'Refunded on',
  customer: 'Customer',
  method: 'Refunded to',
  reference: 'Reference',
  pieces: 'Pieces returned',
  noPieces: 'Money the order did not need, sent back.',
  total: 'Refunded',
  download: 'Download PDF',
  back: 'Back to the order',
} as const;

/** '14 December 2026': the Kampala day a refund succeeded (the credit note's date). */
export const creditNoteDay = (iso: string) =>
  kampalaDate(new Date(kampalaDay(new Date(iso)) * DAY_MS));

export const deskReturnByIdInput = v.strictObject(
  { returnId: uuidOf(RETURN_TEXT.returnNotFound) },
  objectMessage(RETURN_TEXT.returnNotFound),
);

export const moveExchangeInput = v.strictObject(
  {
    returnId: uuidOf(RETURN_TEXT.returnNotFound),
    to: v.picklist(['out_for_delivery', 'delivered'], RETURN_TEXT.badMove),
  },
  objectMessage(RETURN_TEXT.badRequest),
);
