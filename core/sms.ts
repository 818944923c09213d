// The shop's text messages (spec: account §7 "SMS notifications", constants): the eleven
// templates, how many SMS parts each costs, and the rules of delivery. Pure: the outbox and the
// gateway are server/services/sms-service.ts and server/services/sms/.
import * as v from 'valibot';
import { wholeSchema } from './bounds.ts';
import {
  DELIVERY_TEXT,
  type DeliveryOption,
  daysText,
  RIDER_NAME_MAX,
  ugandanNumber,
} from './delivery-rules.ts';
import { GIFT_CARD_DELIVERY } from './gift-cards.ts';
import { KAMPALA_OFFSET_MS } from './kampala-time.ts';
import { displayNumber } from './mobile-money.ts';
import { formatUGX } from './money.ts';
import { ORDER_STATUSES, receiptNumber } from './order-rules.ts';
import { SHOP_NAME } from './shop-name.ts';
import { DEFAULT_ADDRESS, DEFAULT_PICKUP_HOURS } from './store-details.ts';
import { invisibleCharacters, typedText } from './text.ts';

/** Spec: 1 s between messages sent in a row. */
export const SMS_GAP_MS = 1000;
/** Spec: priority 1 (EgoSMS: 0 highest … 4). */
export const SMS_PRIORITY = 1;
/** A gateway that has not answered by then has failed this attempt. */
export const SMS_TIMEOUT_MS = 10_000;
/** Attempts for a transient failure (HTTP 5xx, time-out) before the row is failed for good. */
export const SMS_MAX_ATTEMPTS = 4;
/** Waits before attempt 2, 3, 4 (the Cron Trigger runs each minute, so at least that). */
export const SMS_RETRY_DELAYS_S = [60, 300, 900] as const;
/** A row claimed for sending longer ago than this was abandoned (the Worker stopped): re-queued. */
export const SMS_STUCK_AFTER_S = 120;
/** Spec: the SMS history's default length. */
export const SMS_HISTORY_LIMIT = 50;
/** Spec: the welcome text's code, 10 % off the first order. */
export const WELCOME_CODE = 'KARIBU10';

export const SMS_KINDS = [
  'order-confirmation',
  'admin-new-order',
  'seller-new-order',
  'shipped',
  'delivered',
  'payment-received',
  'low-stock',
  'welcome',
  'cancelled',
  'promotional',
  'ready-for-pickup',
  'back-in-stock',
  'out-for-delivery',
  'gift-card',
  'cart-reminder',
  // Issue 36: the return's steps and the refund.
  'return-requested',
  'return-approved',
  'return-refused',
  'refund-sent',
  'exchange-shipped',
] as const;
export type SmsKind = (typeof SMS_KINDS)[number];
export type RecipientType = 'customer' | 'admin' | 'seller';

const ref = (orderId: string) => receiptNumber(orderId);

/**
 * EgoSMS's plain API takes at most 160 characters a message (decision 0021): every text is built
 * to fit one. Fixed words are short; what varies (names, a reason, a list) is made plain GSM-7
 * and clipped to the room left, and lists end with "+N more". One text is one outbox row and is
 * exactly what went out.
 */
export const SMS_MAX_CHARS = 160;
/** What a name (a customer, a business) may take in a text. */
const NAME_CHARS = 28;
/** What a piece's name may take in a list (the seller's, the low-stock one). */
const PIECE_CHARS = 22;
/** What a variant's label may take in a text ("M/Indigo"): kept whole in practice. */
const LABEL_CHARS = 24;
/** Pieces the customer's confirmation names at most; more and it counts them as today. */
const CONFIRMATION_PIECES = 2;

/** The text clipped to `max` characters, ending '...' when cut. */
export function clip(text: string, max: number): string {
  const plain = plainText(text);
  if (plain.length <= max) return plain;
  if (max <= 3) return plain.slice(0, Math.max(0, max));
  return `${plain.slice(0, max - 3).trimEnd()}...`;
}

/** `make(part)` with the part clipped to the room the rest of the text leaves. */
function fitted(make: (part: string) => string, part: string): string {
  return make(clip(part, SMS_MAX_CHARS - make('').length));
}

/** `make(list)` with as many entries as fit, then '+N more'. Entries are short already. */
function listed(make: (list: string) => string, entries: string[]): string {
  for (let shown = entries.length; shown > 1; shown--) {
    const rest = entries.length - shown;
    const text = make(`${entries.slice(0, shown).join(', ')}${rest ? `, +${rest} more` : ''}`);
    if (text.length <= SMS_MAX_CHARS) return text;
  }
  const rest = entries.length - 1;
  return fitted((first) => make(`${first}${rest ? `, +${rest} more` : ''}`), entries[0] ?? '');
}

/**
 * A variant's label as a text carries it: "M · Indigo" → "M/Indigo" ('·' is not GSM-7, and a
 * slash reads as one choice of two options); '' for a piece without options.
 */
export function smsLabel(label: string | null | undefined): string {
  if (!label?.trim()) return '';
  return clip(
    label
      .split('·')
      .map((part) => part.trim())
      .filter(Boolean)
      .join('/'),
    LABEL_CHARS,
  );
}

/**
 * A piece as a text names it: the name clipped to `max`, the label kept whole —
 * "Ankara Wrap Dress (M/Indigo)", or the clipped name alone for a piece without options.
 */
export function smsPiece(name: string, label: string | null | undefined, max: number): string {
  const size = smsLabel(label);
  const clipped = clip(name, max);
  return size ? `${clipped} (${size})` : clipped;
}

/** The first text that fits one SMS, else the last (the shortest by construction). */
function firstFitting(texts: string[]): string {
  return texts.find((text) => text.length <= SMS_MAX_CHARS) ?? texts[texts.length - 1] ?? '';
}

/** A line of an order as texts name it. */
export type TextLine = { name: string; label?: string | null; quantity: number };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How the customer pays (the order's payment method) and, for a transfer, the shop's bank. */
export type OrderPayment = { method: string; bankDetails?: string | null };

/** How the order reaches the customer (issue 23): the option's kind and name as the order keeps it. */
export type OrderDelivery = { kind: string; name: string };
/** What an option's name may take in the confirmation. */
const OPTION_CHARS = 40;

/** "3-5 days", "2 days", "the same or the next day": an option's days as a text says them. */
function smsDays(days: Pick<DeliveryOption, 'minDays' | 'maxDays'>): string {
  const text = plainText(daysText(days));
  return text.startsWith('the ') ? text : `in ${text}`;
}

/** The texts. Each names the order's reference (RCP-xxxxxxxx) and amounts as 'UGX 1,250,000'. */
export const SMS_TEXT = {
  /**
   * The customer's, straight after the order: what happens next depends on how they pay. An
   * order of one or two lines where a piece has a size or colour names them ("Ankara Wrap Dress
   * (M/Indigo)") when that fits one SMS; any other order counts its items as before.
   */
  orderConfirmation: (o: {
    orderId: string;
    total: number;
    items: number;
    payment: OrderPayment;
    lines?: readonly TextLine[];
    delivery?: OrderDelivery | null;
    /** The order's discount (issue 35): "You saved UGX 2,000." only when one SMS still holds it. */
    saved?: number;
  }) => {
    const named = piecesOf(o.lines);
    const saving = o.saved && o.saved > 0 ? ` You saved ${formatUGX(o.saved)}.` : null;
    // Each opening with the saving first, then without it: the first that fits one SMS is sent.
    const withSaving = (texts: string[]) =>
      texts.flatMap((text) => (saving ? [`${text}${saving}`, text] : [text]));
    const thanks = named
      ? [`${SHOP_NAME}: Thank you for order ${ref(o.orderId)}: ${named}, ${formatUGX(o.total)}.`]
      : [];
    const heads = withSaving([
      ...thanks,
      `${SHOP_NAME}: Thank you! Order ${ref(o.orderId)} (${plural(o.items, 'item')}, ${formatUGX(o.total)}) is received.`,
    ]);
    if (o.payment.method === 'bank_transfer') {
      const details = plainText(o.payment.bankDetails ?? '');
      const quote = `Please pay by bank transfer quoting ${ref(o.orderId)}.`;
      const asks = withSaving([
        ...thanks,
        `${SHOP_NAME}: Order ${ref(o.orderId)} (${formatUGX(o.total)}) is received.`,
      ]).map((ask) => `${ask} ${quote}`);
      return firstFitting([
        ...(details ? asks.map((ask) => `${ask} ${details}`) : []),
        ...asks.map((ask) => `${ask} Bank details are on your receipt.`),
      ]);
    }
    // A pickup order is texted when it is ready, not when it ships; the option is named when
    // the text still fits one SMS ("Pick up at the boutique: we will text you when it is ready.").
    const pickup = o.delivery?.kind === 'pickup';
    // A gift card goes to its recipient by text (issue 35), never to the buyer.
    const when =
      o.delivery?.name === GIFT_CARD_DELIVERY
        ? 'we text it to its recipient.'
        : pickup
          ? 'we will text you when it is ready.'
          : 'we will text you when it ships.';
    const option = o.delivery?.name.trim()
      ? `${clip(o.delivery.name, OPTION_CHARS)}: ${when}`
      : null;
    const plain = `W${when.slice(1)}`;
    const nexts =
      o.payment.method === 'mobile_money' || o.payment.method === 'card'
        ? [
            ...(option ? [`We will confirm when your payment arrives. ${option}`] : []),
            'We will confirm when your payment arrives.',
          ]
        : o.payment.method === 'cash_on_delivery'
          ? [
              ...(option
                ? [`${pickup ? 'Pay when you collect it' : 'Pay on delivery'}. ${option}`]
                : []),
              `${pickup ? 'Pay when you collect it' : 'Pay on delivery'}. ${plain}`,
            ]
          : o.payment.method === 'cash'
            ? // Paid at the counter (issue 34): the money is in; the order follows as any other.
              [...(option ? [`Paid in cash. ${option}`] : []), 'Paid in cash.']
            : [...(option ? [option.charAt(0).toUpperCase() + option.slice(1)] : []), plain];
    // The pieces named first (with their sizes), then the option, as long as one SMS holds them.
    return firstFitting(heads.flatMap((head) => nexts.map((next) => `${head} ${next}`)));
  },
  adminNewOrder: (o: {
    orderId: string;
    total: number;
    customer: string;
    items: number;
    payment: string;
  }) =>
    `${SHOP_NAME} NEW ORDER ${ref(o.orderId)}: ${clip(o.customer, NAME_CHARS)}, ${plural(o.items, 'item')}, ${formatUGX(o.total)}, ${clip(o.payment, 24)}. See the admin dashboard.`,
  /** Each of the seller's pieces with its size and colour: "2 x Ankara Wrap Dress (M/Indigo)". */
  sellerNewOrder: (o: { orderId: string; business: string; lines: TextLine[] }) =>
    listed(
      (list) =>
        `${SHOP_NAME}: New order ${ref(o.orderId)} for ${clip(o.business, 24)}: ${list}. Please prepare.`,
      o.lines.map((l) => `${l.quantity} x ${smsPiece(l.name, l.label, PIECE_CHARS)}`),
    ),
  /** With the order's option's days when known ("Expect it in 3-5 days."), else the spec's. */
  shipped: (o: {
    orderId: string;
    tracking?: string | null;
    days?: Pick<DeliveryOption, 'minDays' | 'maxDays'> | null;
  }) =>
    `${SHOP_NAME}: Order ${ref(o.orderId)} has shipped${o.tracking ? ` (tracking ${clip(o.tracking, 40)})` : ''}. ${
      o.days
        ? `Expect it ${smsDays(o.days)}.`
        : 'Expect it in 1-3 days in Kampala, 3-5 days elsewhere.'
    }`,
  delivered: (o: { orderId: string }) =>
    `${SHOP_NAME}: Order ${ref(o.orderId)} was delivered. Enjoy it! Returns within 14 days, unworn with tags.`,
  /**
   * The recipient's gift card (issue 35): who it is from, the amount, the code (only ever in this
   * text: the shop keeps its hash) and where to spend it; the giver's message with what room is left.
   */
  giftCard: (g: { from: string; amount: number; code: string; message?: string | null }) => {
    const text = `${SHOP_NAME}: ${clip(g.from, 24)} sent you a ${formatUGX(g.amount)} gift card. Code ${g.code}. Spend it at checkout on ${SHOP_NAME}.`;
    const room = SMS_MAX_CHARS - text.length - 3;
    return g.message && room > 8 ? `${text} "${clip(g.message, room)}"` : text;
  },
  paymentReceived: (o: { orderId: string; amount: number; transactionId: string }) =>
    `${SHOP_NAME}: Payment of ${formatUGX(o.amount)} received for order ${ref(o.orderId)} (ref ${clip(o.transactionId, 40)}). Thank you!`,
  /** Per variant: "Ankara Wrap Dress (M/Indigo, 2 left)"; "Brass Earrings (2 left)" without one. */
  lowStock: (products: { name: string; label?: string | null; left: number }[]) =>
    listed(
      (list) => `${SHOP_NAME} LOW STOCK: ${list}. Restock soon.`,
      products.map((p) => {
        const size = smsLabel(p.label);
        return `${clip(p.name, PIECE_CHARS)} (${size ? `${size}, ` : ''}${p.left} left)`;
      }),
    ),
  welcome: (name: string) =>
    `Welcome to ${SHOP_NAME}, ${clip(name, 40)}! Use code ${WELCOME_CODE} for 10% off your first order.`,
  /** A reason of up to 100 characters is sent whole; a longer one (the desk takes 120) is cut. */
  cancelled: (o: { orderId: string; reason?: string | null; refund: boolean }) => {
    const refund = o.refund ? ' Refund in 3-5 days.' : '';
    if (!o.reason?.trim()) return `${SHOP_NAME}: Order ${ref(o.orderId)} was cancelled.${refund}`;
    return fitted(
      (reason) => `${SHOP_NAME}: Order ${ref(o.orderId)} cancelled: ${reason}.${refund}`,
      o.reason.trim().replace(/[.!]+$/, ''),
    );
  },
  /**
   * A campaign's text (issue 35, decision 0085): the desk's message, the offer's code, and the
   * stop link instead of the spec's "Reply STOP to opt out." (EgoSMS's sender is one-way: nobody
   * reads a reply). The link is never cut: the message gives way (the desk is told its room).
   */
  promotional: (o: { message: string; code?: string | null; stopLink: string }) => {
    const code = o.code ? ` Use code ${clip(o.code, 20)}.` : '';
    return fitted((message) => `${SHOP_NAME}: ${message}${code} Stop: ${o.stopLink}`, o.message);
  },
  /**
   * The one reminder of a cart left 24 hours (issue 35): how many pieces wait, the cart's link
   * when it fits beside the stop link (which is never cut), and the stop link.
   */
  cartReminder: (o: { pieces: number; cartLink: string; stopLink: string }) => {
    const waiting = `${SHOP_NAME}: ${o.pieces === 1 ? 'Your piece is' : `Your ${o.pieces} pieces are`} still in your cart`;
    return firstFitting([
      `${waiting}: ${o.cartLink} Stop: ${o.stopLink}`,
      `${waiting}. Stop: ${o.stopLink}`,
    ]);
  },
  /**
   * The spec's text, word for word, until the owner sets her pickup hours or address (issue 34);
   * then it names them (the address clipped to fit one text).
   */
  readyForPickup: (o: { orderId: string; shop?: { address: string; pickupHours: string } }) => {
    const hours = clip(o.shop?.pickupHours ?? DEFAULT_PICKUP_HOURS, 40);
    const address = o.shop?.address ?? DEFAULT_ADDRESS;
    if (address === DEFAULT_ADDRESS) {
      return `${SHOP_NAME}: Order ${ref(o.orderId)} is ready for pickup at our Kampala shop, ${hours}. Bring your receipt.`;
    }
    return fitted(
      (place) =>
        `${SHOP_NAME}: Order ${ref(o.orderId)} is ready for pickup at our shop, ${place}, ${hours}. Bring your receipt.`,
      address,
    );
  },
  /** The rider on the way (issue 23): their name (clipped to fit) and the number to expect. */
  outForDelivery: (o: { orderId: string; riderName: string; riderPhone: string }) =>
    fitted(
      (name) =>
        `${SHOP_NAME}: Order ${ref(o.orderId)} is out for delivery with ${name} (${displayNumber(o.riderPhone)}). Please keep your phone on.`,
      o.riderName,
    ),
  /** A return asked for (issue 36): what comes next. */
  returnRequested: (o: { orderId: string; exchange: boolean }) =>
    `${SHOP_NAME}: We received your ${o.exchange ? 'exchange' : 'return'} request for order ${ref(o.orderId)}. We will text you once it is approved.`,
  /** Approved, with the handover: the rider comes (and what the pickup costs), or where to bring it. */
  returnApproved: (o: {
    orderId: string;
    handover: 'pickup' | 'drop_off';
    fee: number;
    address: string;
  }) => {
    const head = `${SHOP_NAME}: Your return for order ${ref(o.orderId)} is approved.`;
    if (o.handover === 'pickup') {
      return o.fee > 0
        ? `${head} Our rider will call to collect it (pickup ${formatUGX(o.fee)}, off your refund).`
        : `${head} Our rider will call to collect it, free.`;
    }
    return fitted((place) => `${head} Bring it with its tags to our shop, ${place}.`, o.address);
  },
  /** Refused, with the staff's reason shortened to fit. */
  returnRefused: (o: { orderId: string; reason: string }) =>
    fitted(
      (reason) => `${SHOP_NAME}: Your return for order ${ref(o.orderId)} was refused: ${reason}.`,
      o.reason.trim().replace(/[.!]+$/, ''),
    ),
  /** Money sent back (the refunds' part queues it): the amount and the provider's reference. */
  refundSent: (o: {
    orderId: string;
    amount: number;
    reference?: string | null;
    credit: boolean;
  }) =>
    o.credit
      ? `${SHOP_NAME}: ${formatUGX(o.amount)} for order ${ref(o.orderId)} is now store credit on your account. Spend it at checkout.`
      : `${SHOP_NAME}: Refund of ${formatUGX(o.amount)} for order ${ref(o.orderId)} sent${o.reference ? ` (ref ${clip(o.reference, 40)})` : ''}.`,
  /** The exchange's piece on its way, named with its size. */
  exchangeShipped: (o: { orderId: string; pieces: readonly { name: string; label: string }[] }) =>
    listed(
      (list) =>
        `${SHOP_NAME}: Your exchange for order ${ref(o.orderId)} is on its way: ${list}. Please keep your phone on.`,
      o.pieces.map((p) => smsPiece(p.name, p.label, PIECE_CHARS)),
    ),
  /**
   * "Tell me when it's back" answered (decision 0040): the piece, its size and a link that opens
   * that size. The link is never cut: the name gives way first, down to 12 characters; a link too
   * long even then gives way to the shop's address.
   */
  backInStock: (o: { name: string; label: string; link: string; shop: string }) => {
    const size = smsLabel(o.label);
    const make = (name: string, link: string) =>
      `${SHOP_NAME}: Good news! ${name}${size ? ` in ${size}` : ''} is back in stock: ${link}`;
    for (const link of [o.link, o.shop]) {
      const room = SMS_MAX_CHARS - make('', link).length;
      if (room >= 12) return make(clip(o.name, room), link);
    }
    return make(clip(o.name, 12), '').trimEnd();
  },
} as const;

/** One or two lines, at least one with a size or colour, as the confirmation names them. */
function piecesOf(lines: readonly TextLine[] | undefined): string | null {
  if (!lines || lines.length === 0 || lines.length > CONFIRMATION_PIECES) return null;
  if (!lines.some((line) => smsLabel(line.label))) return null;
  return lines
    .map(
      (l) => `${l.quantity > 1 ? `${l.quantity} x ` : ''}${smsPiece(l.name, l.label, PIECE_CHARS)}`,
    )
    .join(' and ');
}

/** A number as EgoSMS takes it: 256XXXXXXXXX, no '+' (the shop keeps +256… in its rows). */
export function egoSmsNumber(phone: string): string {
  return phone.replace(/^\+/, '');
}

// GSM 03.38: the basic set and the extension table (each extension character takes 2 septets).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

/**
 * How many SMS parts a text costs: GSM-7 fits 160 septets in one and 153 per part after that;
 * any other character makes it UCS-2 (70, then 67 per part).
 */
export function smsSegments(text: string): {
  encoding: 'GSM-7' | 'UCS-2';
  units: number;
  segments: number;
} {
  let septets = 0;
  for (const char of text) {
    if (GSM_BASIC.includes(char)) septets += 1;
    else if (GSM_EXTENDED.includes(char)) septets += 2;
    else {
      // UTF-16 code units: an emoji takes two.
      const units = text.length;
      return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return {
    encoding: 'GSM-7',
    units: septets,
    segments: septets <= 160 ? 1 : Math.ceil(septets / 153),
  };
}

/** Plain stand-ins for characters outside GSM-7's basic set (the extension table takes 2 units). */
const PLAIN_FOR: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '–': '-',
  '—': '-',
  '−': '-',
  '…': '...',
  '[': '(',
  ']': ')',
  '{': '(',
  '}': ')',
  '~': '-',
  '|': '/',
  '\\': '/',
  '^': '',
  '€': 'EUR',
  '\f': ' ',
};

/**
 * Texts go out in GSM-7's basic set, one unit per character, so 160 characters are one SMS:
 * typographic quotes and dashes become their plain forms, accented letters GSM-7 lacks lose
 * their accent ('ń' → 'n'; 'é' and 'ñ' stay), anything else (an emoji) becomes '?'.
 */
export function plainText(text: string): string {
  let plain = '';
  for (const char of text.replace(/\s+/g, ' ').trim()) {
    if (GSM_BASIC.includes(char)) plain += char;
    else if (char in PLAIN_FOR) plain += PLAIN_FOR[char];
    else {
      const bare = char.normalize('NFD').replace(/\p{M}/gu, '');
      plain += [...bare].every((c) => GSM_BASIC.includes(c)) && bare ? bare : '?';
    }
  }
  return plain;
}

export type SmsStatistics = {
  totalSent: number;
  totalFailed: number;
  sentToday: number;
  /** failed / (sent + failed) as a percentage with 2 decimals, e.g. '12.50'. */
  failureRate: string;
};

/** The statistics' failure rate: '0.00' when nothing was sent or failed. */
export function failureRate(sent: number, failed: number): string {
  const done = sent + failed;
  return done === 0 ? '0.00' : ((failed / done) * 100).toFixed(2);
}

/** Midnight in Kampala (UTC+3 all year) that starts the day `at` falls in, as a UTC instant. */
export function kampalaDayStart(at: Date): Date {
  const offset = KAMPALA_OFFSET_MS;
  const local = new Date(at.getTime() + offset);
  return new Date(
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offset,
  );
}

/** What the desk's procedures accept. */
const uuid = (message: string) => v.pipe(v.string(message), v.uuid(message));
const note = (max: number, message: string) =>
  v.optional(
    v.pipe(
      v.string(message),
      v.trim(),
      v.maxLength(max, message),
      v.regex(/^[^\p{Cc}<>]*$/u, message),
    ),
  );

export const DESK_ORDERS_TEXT = {
  orderNotFound: 'Order not found',
  /** Issue 35: its offers' uses and its gift card or credit went back when it was cancelled. */
  givenBack:
    'This order was cancelled and its offers and gift card or credit were given back: it cannot be reopened. Take a new order instead.',
  /** Issue 35: a gift card sold by the order is texted and spends: the sale stands. */
  cardIssued:
    'This order sold a gift card that has been sent: it cannot be cancelled. Grant store credit instead if the buyer is owed.',
  smsNotFound: 'Only a failed text can be sent again.',
  badStatus: 'Choose one of the order statuses.',
  badTracking: 'A tracking number is at most 40 plain characters.',
  badReason: 'A reason is at most 120 plain characters.',
  badLimit: 'Ask for 1 to 200 rows.',
} as const;

export const setStatusInput = v.pipe(
  v.strictObject(
    {
      orderId: uuid(DESK_ORDERS_TEXT.orderNotFound),
      status: v.picklist(ORDER_STATUSES, DESK_ORDERS_TEXT.badStatus),
      tracking: note(40, DESK_ORDERS_TEXT.badTracking),
      reason: note(120, DESK_ORDERS_TEXT.badReason),
      /** Out for delivery (issue 23): who carries it, and the number the customer should expect. */
      riderName: v.optional(
        typedText({
          notText: DELIVERY_TEXT.riderNeeded,
          max: RIDER_NAME_MAX,
          tooLong: DELIVERY_TEXT.riderNameTooLong,
          invisible: invisibleCharacters('The rider’s name'),
        }),
      ),
      riderPhone: v.optional(
        v.union(
          [v.literal(''), ugandanNumber(DELIVERY_TEXT.riderPhoneInvalid)],
          DELIVERY_TEXT.riderPhoneInvalid,
        ),
      ),
    },
    DESK_ORDERS_TEXT.orderNotFound,
  ),
  v.check(
    (input) => input.status !== 'out_for_delivery' || Boolean(input.riderName && input.riderPhone),
    DELIVERY_TEXT.riderNeeded,
  ),
);

export const smsHistoryInput = v.optional(
  v.strictObject(
    {
      orderId: v.optional(uuid(DESK_ORDERS_TEXT.orderNotFound)),
      limit: v.optional(wholeSchema(1, 200, DESK_ORDERS_TEXT.badLimit)),
    },
    DESK_ORDERS_TEXT.badLimit,
  ),
);

export const resendInput = v.strictObject(
  { id: uuid(DESK_ORDERS_TEXT.smsNotFound) },
  DESK_ORDERS_TEXT.smsNotFound,
);
