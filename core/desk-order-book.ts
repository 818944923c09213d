// The desk's order book (/desk/orders, issue 34; decision 0074): what `desk.orders` accepts (a
// search, a status or one of the three work queues, paid or not, a way to pay, a delivery kind or
// option, a span of Kampala days, a page's cursor), the texts of the list, the chips, and the pure
// rules behind them: the search term a typed reference or phone number becomes, the cursor's
// encoding. Pure: no I/O.
import * as v from 'valibot';
import type { DELIVERY_KINDS } from './delivery-rules.ts';
import { isCalendarDay } from './desk-shop.ts';
import { ORDER_STATUSES, type OrderStatus, PAYMENT_METHODS, statusLabel } from './order-rules.ts';
import { COUNTRY_CODE, normalisePhone } from './phone.ts';
import { isTypedLine } from './text.ts';

/** A page of the order book: 50 orders, newest first. */
export const ORDER_BOOK_PAGE = 50;

/** A chip counts up to this many and then says "100+": counting stops, so a shop of 100,000
 * orders costs the chips little more than one of 100 (decision 0074). */
export const COUNT_CAP = 100;

/** The longest search a person types (a name, an email, a phone, a reference). */
export const SEARCH_MAX = 100;

/**
 * The three queues the desk works through, beside the statuses (server/services/
 * desk-orders-service.ts writes each once in SQL, for the list and its count):
 * - to_pack: paid (or cash on delivery) orders still pending or processing;
 * - awaiting_payment: pending orders paid by mobile money or card, not paid yet;
 * - to_confirm: bank transfers and cash on delivery the desk may still mark paid (canMarkPaid).
 */
export const ORDER_QUEUES = ['to_pack', 'awaiting_payment', 'to_confirm'] as const;
export type OrderQueue = (typeof ORDER_QUEUES)[number];

/** Every way an order may be paid, the counter's cash as well. */
export const ORDER_BOOK_METHODS = [...new Set([...PAYMENT_METHODS, 'cash'] as const)];
export type OrderBookMethod = (typeof ORDER_BOOK_METHODS)[number];

export const DESK_ORDER_BOOK_TEXT = {
  title: 'Orders',
  newOrder: 'New order',
  ordersFile: 'Orders file (CSV)',
  badSearch: `Search with at most ${SEARCH_MAX} characters, without control characters.`,
  badStatus: 'Choose a status from the list.',
  badQueue: 'Choose one of the chips.',
  badPaid: 'Choose paid or not paid.',
  badMethod: 'Choose a way to pay from the list.',
  badDelivery: 'Choose a delivery from the list.',
  badDay: 'Choose the days as YYYY-MM-DD, the first no later than the last.',
  badCursor: 'This page of orders cannot be read. Start again from the first page.',
  badFilters: 'These filters cannot be read. Clear them and try again.',
  searchLabel: 'Search orders',
  searchPlaceholder: 'Name, phone, email or reference',
  all: 'All',
  chips: 'Order chips',
  filters: 'Filters',
  anyMethod: 'Any payment',
  anyDelivery: 'Any delivery',
  anyPaid: 'Paid or not',
  paidOnly: 'Paid',
  unpaidOnly: 'Not paid',
  from: 'From',
  to: 'To',
  clear: 'Clear filters',
  loadMore: 'Load more',
  loading: 'Loading orders…',
  paid: 'Paid',
  unpaid: 'Not paid',
  noOrders: 'No orders yet',
  noMatch: (q: string) => `No orders match “${q}”`,
  noMatchFilters: 'No orders match these filters',
  loadFailed: 'The orders could not be loaded.',
  shown: (count: number, more: boolean) =>
    `${count.toLocaleString('en')} order${count === 1 ? '' : 's'} shown${more ? ', more below' : ''}`,
} as const;

export const QUEUE_LABELS: Record<OrderQueue, string> = {
  to_pack: 'To pack',
  awaiting_payment: 'Waiting for payment',
  to_confirm: 'To confirm (bank/cash)',
};

export const METHOD_LABELS: Record<OrderBookMethod, string> = {
  mobile_money: 'Mobile Money',
  card: 'Credit Card',
  bank_transfer: 'Bank Transfer',
  cash_on_delivery: 'Cash on Delivery',
  cash: 'Cash',
};

export const DELIVERY_KIND_LABELS: Record<(typeof DELIVERY_KINDS)[number], string> = {
  delivery: 'Kampala delivery',
  pickup: 'Pick up',
  courier: 'Upcountry',
};

/** A chip: all orders, one of the queues, or one status; its label and its key in the counts. */
export type Chip =
  | { kind: 'all'; key: 'all'; label: string }
  | { kind: 'queue'; key: OrderQueue; label: string }
  | { kind: 'status'; key: OrderStatus; label: string };

/** The chips in the order the desk shows them: all, the three queues, then every status. */
export const ORDER_BOOK_CHIPS: readonly Chip[] = [
  { kind: 'all', key: 'all', label: DESK_ORDER_BOOK_TEXT.all },
  ...ORDER_QUEUES.map((key) => ({ kind: 'queue' as const, key, label: QUEUE_LABELS[key] })),
  ...ORDER_STATUSES.map((key) => ({ kind: 'status' as const, key, label: statusLabel(key) })),
];

/** What a chip shows: the count, or "100+" once counting stopped at the cap. */
export function chipCount(count: number): string {
  return count >= COUNT_CAP ? `${COUNT_CAP.toLocaleString('en')}+` : count.toLocaleString('en');
}

// ——— The search ———

const PHONE_LIKE = /^\+?[\d\s().-]+$/;

/**
 * What a typed search looks for in an order's search text (its id, name, phones and email,
 * lower-cased), or null for nothing typed:
 * - a receipt's "RCP-1a2b3c4d" or "#1a2b3c4d" is the reference inside it;
 * - a phone number in any spelling (0772 123456, 772123456, +256 772 123456) is its digits after
 *   the country code (772123456, inside +256772123456 and 0772123456); shorter digits stay as typed;
 * - anything else, trimmed and lower-cased (a name, an email, either 8-character reference).
 */
export function searchTerm(q: string | undefined): string | null {
  const typed = (q ?? '').trim().toLowerCase();
  if (!typed) return null;
  const reference = /^(?:rcp-|#)\s*([0-9a-f]{8})$/.exec(typed);
  if (reference?.[1]) return reference[1];
  if (PHONE_LIKE.test(typed)) {
    const digits = typed.replace(/\D/g, '');
    // The number without +256: it finds +256772123456 and a delivery phone kept as 0772123456,
    // and leaves out the trigrams every Ugandan number shares ('256', '567').
    if (digits.length >= 9) return normalisePhone(digits).slice(COUNTRY_CODE.length);
    if (digits.length > 0) return digits;
  }
  return typed;
}

/** The term as a LIKE pattern that matches it anywhere, its own %, _ and \ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// ——— The cursor ———

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a page ended: the last order's creation instant (to the microsecond, as PostgreSQL keeps
 * it, 'YYYY-MM-DDTHH:MM:SS.ffffffZ') and its id. */
export type OrderCursor = { at: string; id: string };

const toBase64Url = (text: string) =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The opaque cursor the next page is asked with. */
export function encodeCursor(cursor: OrderCursor): string {
  return toBase64Url(`${cursor.at}|${cursor.id}`);
}

/** The cursor read back; null for anything the shop did not make (tampered, truncated, re-spelled). */
export function decodeCursor(text: string): OrderCursor | null {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(text)) return null;
  let plain: string;
  try {
    plain = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const [at, id, ...rest] = plain.split('|');
  if (!at || !id || rest.length > 0 || !AT.test(at) || !UUID.test(id)) return null;
  // A real instant (no 31 February), spelled as the shop spells it.
  const ms = Date.parse(at);
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 23) !== at.slice(0, 23)) {
    return null;
  }
  const cursor = { at, id };
  return encodeCursor(cursor) === text ? cursor : null;
}

// ——— The input ———

const day = v.pipe(
  v.string(DESK_ORDER_BOOK_TEXT.badDay),
  v.maxLength(10, DESK_ORDER_BOOK_TEXT.badDay),
  v.check(isCalendarDay, DESK_ORDER_BOOK_TEXT.badDay),
);

const search = v.pipe(
  v.string(DESK_ORDER_BOOK_TEXT.badSearch),
  // Refused before trimming, so a megabyte of spaces costs nothing.
  v.maxLength(SEARCH_MAX * 2, DESK_ORDER_BOOK_TEXT.badSearch),
  v.check(isTypedLine, DESK_ORDER_BOOK_TEXT.badSearch),
  v.trim(),
  v.maxLength(SEARCH_MAX, DESK_ORDER_BOOK_TEXT.badSearch),
);

/** A delivery kind ('delivery', 'pickup', 'courier') or a delivery option's id ('kampala'). */
const delivery = v.pipe(
  v.string(DESK_ORDER_BOOK_TEXT.badDelivery),
  v.regex(/^[a-z0-9][a-z0-9_-]{0,59}$/, DESK_ORDER_BOOK_TEXT.badDelivery),
);

const cursor = v.pipe(
  v.string(DESK_ORDER_BOOK_TEXT.badCursor),
  v.maxLength(120, DESK_ORDER_BOOK_TEXT.badCursor),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const read = decodeCursor(dataset.value);
    if (read) return read;
    addIssue({ message: DESK_ORDER_BOOK_TEXT.badCursor });
    return NEVER;
  }),
);

/** The filters a chip or a link may carry (everything but the page's cursor). */
export const orderBookFilters = {
  q: v.optional(search),
  status: v.optional(v.picklist(ORDER_STATUSES, DESK_ORDER_BOOK_TEXT.badStatus)),
  queue: v.optional(v.picklist(ORDER_QUEUES, DESK_ORDER_BOOK_TEXT.badQueue)),
  paid: v.optional(v.boolean(DESK_ORDER_BOOK_TEXT.badPaid)),
  method: v.optional(v.picklist(ORDER_BOOK_METHODS, DESK_ORDER_BOOK_TEXT.badMethod)),
  delivery: v.optional(delivery),
  from: v.optional(day),
  to: v.optional(day),
};

/** `desk.orders`' input: every field optional (no input at all is the first page of every order). */
export const orderBookInput = v.optional(
  v.pipe(
    v.strictObject(
      {
        ...orderBookFilters,
        cursor: v.optional(cursor),
        // What tRPC's infinite query adds to every page's input; the book pages forward only.
        direction: v.optional(v.picklist(['forward', 'backward'], DESK_ORDER_BOOK_TEXT.badFilters)),
      },
      DESK_ORDER_BOOK_TEXT.badFilters,
    ),
    v.check(({ from, to }) => !from || !to || from <= to, DESK_ORDER_BOOK_TEXT.badDay),
  ),
);
export type OrderBookInput = v.InferOutput<typeof orderBookInput>;
export type OrderBookQuery = Omit<
  NonNullable<v.InferInput<typeof orderBookInput>>,
  'cursor' | 'direction'
>;

/** The page's URL search params, read leniently: what does not fit is dropped, never an error. */
export const orderBookSearch = v.object({
  q: v.fallback(v.optional(search), undefined),
  status: v.fallback(v.optional(orderBookFilters.status), undefined),
  queue: v.fallback(v.optional(orderBookFilters.queue), undefined),
  paid: v.fallback(v.optional(orderBookFilters.paid), undefined),
  method: v.fallback(v.optional(orderBookFilters.method), undefined),
  delivery: v.fallback(v.optional(delivery), undefined),
  from: v.fallback(v.optional(day), undefined),
  to: v.fallback(v.optional(day), undefined),
});
export type OrderBookSearch = v.InferOutput<typeof orderBookSearch>;
/** The address's search as the book reads it. */
export const readOrderBookSearch = (search: OrderBookSearch): OrderBookSearch =>
  v.parse(orderBookSearch, search);
