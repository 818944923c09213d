// Order rules shared by the screens and the server (spec: storefront §4, §8, §9; account §2, §4,
// §8, §9). Pure: no I/O, no dependence on the machine's clock zone.

import * as v from 'valibot';
import { idSchema, wholeSchema } from './bounds.ts';
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from './cart-rules.ts';
import { deliveryOrderFields } from './delivery-rules.ts';
import { KAMPALA_OFFSET_MS, MONTHS } from './kampala-time.ts';
import { BAD_CODE_TEXT, CODE_MAX, MAX_CODES, TOO_MANY_CODES_TEXT } from './offers.ts';
import { ORDER_ID } from './order-id.ts';

/** The spec's delivery fee: Kampala delivery's, and an order's that names no option (issue 23). */
export const DELIVERY_FEE = 5000;
/** No discounts at checkout. */
export const CHECKOUT_DISCOUNT = 0;
/** Tax defaults to 0 and is shown only above 0. */
export const DEFAULT_TAX = 0;

export const PAYMENT_METHODS = [
  'mobile_money',
  'card',
  'bank_transfer',
  'cash_on_delivery',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The checkout's choices and the receipt's label (spec: account §3, Payment method labels). */
export const PAYMENT_METHOD_CHOICES: Record<
  PaymentMethod,
  { label: string; description?: string }
> = {
  mobile_money: {
    label: 'Mobile Money',
    description: 'MTN Mobile Money, Airtel Money and similar',
  },
  card: { label: 'Credit Card' },
  bank_transfer: { label: 'Bank Transfer' },
  cash_on_delivery: { label: 'Cash on Delivery' },
};

/**
 * The ways the desk takes an order by phone, on WhatsApp or at the counter (issue 34, decision
 * 0076): the checkout's but card, and cash handed over at the counter. Its own list: the
 * checkout's radio list (PAYMENT_METHODS) never offers cash.
 */
export const DESK_PAYMENT_METHODS = [
  'cash',
  'mobile_money',
  'bank_transfer',
  'cash_on_delivery',
] as const;
export type DeskPaymentMethod = (typeof DESK_PAYMENT_METHODS)[number];
/** Any way an order may be paid: the checkout's and the desk's. */
export type OrderPaymentMethod = PaymentMethod | DeskPaymentMethod;
/** Cash's label wherever a way of paying is named (receipt, orders, desk, texts, PDF). */
export const CASH_LABEL = 'Cash (paid at the counter)';

/** Where an order came from (issue 34): the site, or the desk taking it by phone, on WhatsApp or
 * at the counter. */
export const ORDER_SOURCES = ['web', 'phone', 'whatsapp', 'counter'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];
export const SOURCE_LABELS: Record<OrderSource, string> = {
  web: 'Online',
  phone: 'Phone',
  whatsapp: 'WhatsApp',
  counter: 'Counter',
};
/** Where an order came from, as the desk says it. */
export function sourceLabel(source: string): string {
  return (SOURCE_LABELS as Record<string, string>)[source] ?? source;
}

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** 'Mobile Money'; an unknown stored value is shown as it is. */
export function paymentMethodLabel(method: string): string {
  if (method === 'cash') return CASH_LABEL;
  return isPaymentMethod(method) ? PAYMENT_METHOD_CHOICES[method].label : method;
}

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'ready_for_pickup',
  'out_for_delivery',
  'shipped',
  'delivered',
  'collected',
  'completed',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const NEW_ORDER_STATUS: OrderStatus = 'pending';

export type StatusTone = 'yellow' | 'green' | 'red' | 'grey';

/** The history table's badge colour: pending yellow, completed green, cancelled red, else grey. */
export function statusTone(status: string): StatusTone {
  switch (status) {
    case 'pending':
      return 'yellow';
    case 'completed':
      return 'green';
    case 'cancelled':
      return 'red';
    default:
      return 'grey';
  }
}

const STATUS_LABELS: Record<string, string> = {
  ready_for_pickup: 'Ready for pickup',
  out_for_delivery: 'Out for delivery',
};

/** 'pending' → 'Pending', 'ready_for_pickup' → 'Ready for pickup'. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.charAt(0).toUpperCase() + status.slice(1);
}

/** The order id as the two-panel screen shows it: its first 8 characters. */
export function orderIdHead(id: string): string {
  return id.slice(0, 8);
}

/** The order id as the history table shows it: its last 8 characters. */
export function orderIdTail(id: string): string {
  return id.slice(-8);
}

/** 'RCP-' plus the first 8 characters of the order id. */
export function receiptNumber(orderId: string): string {
  return `RCP-${orderId.slice(0, 8)}`;
}

export type PricedLine = { price: number; quantity?: number };
export type OrderTotals = {
  subtotal: number;
  deliveryFee: number;
  discount: number;
  total: number;
};

/**
 * Item sum + delivery − 0 discount; a line's missing quantity counts as 1. The fee is the chosen
 * option's (core/delivery-rules.ts deliveryFee), the spec's 5,000 when none is chosen.
 */
export function orderTotals(
  lines: readonly PricedLine[],
  deliveryFee: number = DELIVERY_FEE,
): OrderTotals {
  const subtotal = lines.reduce((sum, l) => sum + l.price * (l.quantity ?? 1), 0);
  return {
    subtotal,
    deliveryFee,
    discount: CHECKOUT_DISCOUNT,
    total: subtotal + deliveryFee - CHECKOUT_DISCOUNT,
  };
}

// Dates are shown in Kampala time: East Africa Time, UTC+3 all year (no daylight saving), worked
// out from UTC so the server's and the browser's clock zones don't matter.
const pad = (n: number) => String(n).padStart(2, '0');

function inKampala(date: Date | string | number): Date | null {
  const at = new Date(date);
  const ms = at.getTime();
  return Number.isFinite(ms) ? new Date(ms + KAMPALA_OFFSET_MS) : null;
}

/** 'dd.mm.yyyy' (the history table); '' for a missing or broken date. */
export function formatOrderDate(date: Date | string | number): string {
  const k = inKampala(date);
  if (!k) return '';
  return `${pad(k.getUTCDate())}.${pad(k.getUTCMonth() + 1)}.${k.getUTCFullYear()}`;
}

/** '14 November 2026' (the order details and the receipt). */
export function formatLongDate(date: Date | string | number): string {
  const k = inKampala(date);
  if (!k) return '';
  return `${k.getUTCDate()} ${MONTHS[k.getUTCMonth()]} ${k.getUTCFullYear()}`;
}

/** The year in Kampala (the footer's ©): at 21:00 UTC on 31 December it is already the next. */

/** '14:05 EAT' (the receipt's time, 24-hour, Kampala). */
export function formatTime(date: Date | string | number): string {
  const k = inKampala(date);
  if (!k) return '';
  return `${pad(k.getUTCHours())}:${pad(k.getUTCMinutes())} EAT`;
}

/** Texts of the checkout (spec: storefront §2, §4, §8). */
export const CHECKOUT_TEXT = {
  notLoggedIn: 'You need to be logged in to checkout',
  mustLogIn: 'You must be logged in to checkout.',
  profileFailed: 'Could not load user profile. Please try again.',
  emptyCart: 'Your cart is empty.',
  productNotFound: (name: string) => `Product ${name} not found.`,
  insufficientStock: (name: string, available: number) =>
    `Insufficient stock for ${name}. Available: ${available}`,
  orderFailed: 'Failed to create order. Please try again.',
  /** The order id sent is another kind of her orders' (a gift card's, an order's, the desk's). */
  orderIdOtherKind:
    'This order number is already used by another of your orders. Please reload the page and try again.',
  itemsFailed: 'Failed to save order items. Please try again.',
  stockUpdateNotFound: (name: string) => `Product ${name} not found for stock update.`,
  checkoutError: 'An error occurred during checkout.',
  unexpected: 'An unexpected error occurred.',
  placed: 'Order placed successfully!',
  profileIncomplete: 'Please complete your profile (full name and phone) before checkout.',
  placedTitle: 'ORDER PLACED SUCCESSFULLY',
} as const;

/** Texts of the orders screens (spec: account §2, §8). */
export const ORDERS_TEXT = {
  /** The after-sale on an order (issue 36); the return's own texts are in core/returns.ts. */
  askReturn: 'Return or exchange',
  returnUntil: (last: string) => `Until ${last}`,
  returns: 'Returns and exchanges',
  found: (count: number) => `${count} order(s) found`,
  noOrdersYet: 'No orders yet',
  shopNow: 'Shop Now',
  selectAnOrder: 'Select an Order',
  noOrdersYetTitle: 'No Orders Yet',
  loading: 'Loading your orders...',
  confirmation: 'Order Confirmation',
  receiptUnavailable: '(Unavailable)',
  backToDetails: 'Back to Order Details',
  printReceipt: 'Print Receipt',
  downloadPdf: 'Download PDF',
  fetchFailed: 'Failed to fetch orders.',
  detailsFailed: 'Failed to fetch order details.',
  deleted: 'Order deleted successfully',
  deleteFailed: 'Failed to delete order',
  historyTitle: 'ORDER HISTORY',
  historyLoading: 'Loading orders...',
  historyEmptyTitle: 'No Orders Found',
  historyEmpty: "You haven't placed any orders yet.",
  startShopping: 'Start Shopping',
  viewDetails: 'View Details',
  loginToView: 'Please login to view this page',
} as const;

/** The name shown on an order: the order's customer name, else the profile's, else 'You'. */
export function orderCustomerName(orderName?: string | null, profileName?: string | null): string {
  return orderName?.trim() || profileName?.trim() || 'You';
}

/** Print in a new window: the window opens and prints after this delay. */
export const PRINT_WINDOW_DELAY_MS = 500;

// What checkout.placeOrder accepts: the client's order id, products and quantities, how the
// shopper pays and how it reaches them (the option's id and the address, never its fee). Prices,
// totals and anything else are refused: the server prices the order.
const orderId = (message: string) => v.pipe(v.string(message), v.regex(ORDER_ID, message));

const anId = idSchema(CHECKOUT_TEXT.checkoutError);
const lineQuantity = wholeSchema(1, MAX_LINE_QUANTITY, CHECKOUT_TEXT.checkoutError);

/** The lines as the checkout takes them (placeOrder and preview alike). */
const orderItems = v.pipe(
  v.array(
    // A variant; `{ productId }` still names a product sold in one variant (older clients).
    v.union(
      [
        v.strictObject({ variantId: anId, quantity: lineQuantity }, CHECKOUT_TEXT.checkoutError),
        v.strictObject({ productId: anId, quantity: lineQuantity }, CHECKOUT_TEXT.checkoutError),
      ],
      CHECKOUT_TEXT.checkoutError,
    ),
    CHECKOUT_TEXT.checkoutError,
  ),
  v.minLength(1, CHECKOUT_TEXT.emptyCart),
  v.maxLength(MAX_CART_LINES, CHECKOUT_TEXT.checkoutError),
);

/** Codes typed in "Discount or gift card code" (issue 35): a few short printable texts. */
const offerCodes = v.optional(
  v.pipe(
    v.array(
      v.pipe(
        v.string(BAD_CODE_TEXT),
        v.maxLength(CODE_MAX, BAD_CODE_TEXT),
        // Printable, one line: no NUL, no control characters.
        v.regex(/^[^\p{Cc}\p{Cf}]*$/u, BAD_CODE_TEXT),
      ),
      BAD_CODE_TEXT,
    ),
    v.maxLength(MAX_CODES, TOO_MANY_CODES_TEXT),
  ),
);

/** The offers' part of a checkout: the codes, and whether to spend the shopper's credit. */
const offerFields = {
  codes: offerCodes,
  useCredit: v.optional(v.boolean(CHECKOUT_TEXT.checkoutError)),
};

export const placeOrderInput = v.strictObject(
  {
    orderId: orderId(CHECKOUT_TEXT.orderFailed),
    items: orderItems,
    paymentMethod: v.picklist(PAYMENT_METHODS, 'Please choose a payment method.'),
    ...deliveryOrderFields,
    ...offerFields,
  },
  CHECKOUT_TEXT.checkoutError,
);

/**
 * checkout.preview's input (issue 35): the items as placeOrder takes them, the codes, the
 * delivery option and whether to spend credit. The page asks it for the totals it shows.
 */
export const previewInput = v.strictObject(
  {
    items: orderItems,
    deliveryOptionId: deliveryOrderFields.deliveryOptionId,
    ...offerFields,
  },
  CHECKOUT_TEXT.checkoutError,
);

export const orderIdInput = v.strictObject({ id: orderId('Order not found') }, 'Order not found');
export const receiptInput = v.strictObject(
  { orderId: orderId('Order not found') },
  'Order not found',
);
