// The shop's text messages (spec: account §7 "SMS notifications", constants): the eleven
// templates, how many SMS parts each costs, and the rules of delivery. Pure: the outbox and the
// gateway are server/services/sms.ts and server/services/sms/.
import * as v from 'valibot';
import { formatUGX } from './money.ts';
import { ORDER_STATUSES, receiptNumber } from './orders.ts';

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
/** The shop's name in texts (and EgoSMS's default sender, at most 11 characters). */
export const SHOP_NAME = 'duuka';
/** After an order, a product at or below this many pieces is reported to the admin. */
export const LOW_STOCK_ALERT_AT = 3;
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
] as const;
export type SmsKind = (typeof SMS_KINDS)[number];
export type RecipientType = 'customer' | 'admin' | 'seller';

const ref = (orderId: string) => receiptNumber(orderId);

/** The texts. Each names the order's reference (RCP-xxxxxxxx) and amounts as 'UGX 1,250,000'. */
export const SMS_TEXT = {
  orderConfirmation: (o: { orderId: string; total: number; items: number }) =>
    `${SHOP_NAME}: Thank you! Order ${ref(o.orderId)} (${o.items} item${o.items === 1 ? '' : 's'}, ${formatUGX(o.total)}) is received. We will text you when it ships. Delivery 1-3 days in Kampala.`,
  adminNewOrder: (o: {
    orderId: string;
    total: number;
    customer: string;
    items: number;
    payment: string;
  }) =>
    `${SHOP_NAME} NEW ORDER ${ref(o.orderId)}: ${o.customer}, ${o.items} item${o.items === 1 ? '' : 's'}, ${formatUGX(o.total)}, ${o.payment}. See the admin dashboard.`,
  sellerNewOrder: (o: {
    orderId: string;
    business: string;
    lines: { name: string; quantity: number }[];
  }) =>
    `${SHOP_NAME}: New order ${ref(o.orderId)} for ${o.business}: ${o.lines.map((l) => `${l.quantity} x ${l.name}`).join(', ')}. Please prepare. See your seller dashboard.`,
  shipped: (o: { orderId: string; tracking?: string | null }) =>
    `${SHOP_NAME}: Order ${ref(o.orderId)} has shipped${o.tracking ? ` (tracking ${o.tracking})` : ''}. Expect it in 1-3 days in Kampala, 3-5 days elsewhere.`,
  delivered: (o: { orderId: string }) =>
    `${SHOP_NAME}: Order ${ref(o.orderId)} was delivered. Enjoy it! Returns within 14 days, unworn with tags.`,
  paymentReceived: (o: { orderId: string; amount: number; transactionId: string }) =>
    `${SHOP_NAME}: Payment of ${formatUGX(o.amount)} received for order ${ref(o.orderId)} (ref ${o.transactionId}). Thank you!`,
  lowStock: (products: { name: string; left: number }[]) =>
    `${SHOP_NAME} LOW STOCK: ${products.map((p) => `${p.name} (${p.left} left)`).join(', ')}. Restock soon.`,
  welcome: (name: string) =>
    `Welcome to ${SHOP_NAME}, ${name}! Use code ${WELCOME_CODE} for 10% off your first order.`,
  cancelled: (o: { orderId: string; reason?: string | null; refund: boolean }) =>
    `${SHOP_NAME}: Order ${ref(o.orderId)} was cancelled${o.reason ? `: ${o.reason}` : ''}.${o.refund ? ' Your refund arrives in 3-5 days.' : ''}`,
  promotional: (o: { message: string; code?: string | null }) =>
    `${SHOP_NAME}: ${o.message}${o.code ? ` Use code ${o.code}.` : ''} Reply STOP to opt out.`,
  readyForPickup: (o: { orderId: string }) =>
    `${SHOP_NAME}: Order ${ref(o.orderId)} is ready for pickup at our Kampala shop, 9AM-6PM daily. Bring your receipt.`,
} as const;

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

/** Texts go out in GSM-7: typographic quotes and dashes become their plain forms. */
export function plainText(text: string): string {
  return text
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/…/g, '...')
    .replace(/\s+/g, ' ')
    .trim();
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
  const offset = 3 * 60 * 60 * 1000;
  const local = new Date(at.getTime() + offset);
  return new Date(
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offset,
  );
}

/** What the operator's procedures accept. */
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

export const OPERATOR_TEXT = {
  orderNotFound: 'Order not found',
  smsNotFound: 'Only a failed text can be sent again.',
  badStatus: 'Choose one of the order statuses.',
  badTracking: 'A tracking number is at most 40 plain characters.',
  badReason: 'A reason is at most 120 plain characters.',
  badLimit: 'Ask for 1 to 200 rows.',
} as const;

export const setStatusInput = v.strictObject(
  {
    orderId: uuid(OPERATOR_TEXT.orderNotFound),
    status: v.picklist(ORDER_STATUSES, OPERATOR_TEXT.badStatus),
    tracking: note(40, OPERATOR_TEXT.badTracking),
    reason: note(120, OPERATOR_TEXT.badReason),
  },
  OPERATOR_TEXT.orderNotFound,
);

export const smsHistoryInput = v.optional(
  v.strictObject(
    {
      orderId: v.optional(uuid(OPERATOR_TEXT.orderNotFound)),
      limit: v.optional(
        v.pipe(
          v.number(OPERATOR_TEXT.badLimit),
          v.integer(OPERATOR_TEXT.badLimit),
          v.minValue(1, OPERATOR_TEXT.badLimit),
          v.maxValue(200, OPERATOR_TEXT.badLimit),
        ),
      ),
    },
    OPERATOR_TEXT.badLimit,
  ),
);

export const resendInput = v.strictObject(
  { id: uuid(OPERATOR_TEXT.smsNotFound) },
  OPERATOR_TEXT.smsNotFound,
);
