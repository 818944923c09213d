// The desk's customers (issue 34, decision 0076): everyone with an account and everyone who
// ordered without one, phone first. The input of desk.customers, its texts, the search's reading
// of a phone number, and the tel: and wa.me links. Pure: no I/O.
import * as v from 'valibot';
import { cleanSearchText } from './text.ts';

/** A page of the list. */
export const CUSTOMERS_PAGE = 50;

export const DESK_CUSTOMERS_TEXT = {
  title: 'Customers',
  intro: 'Everyone with an account, and everyone who ordered without one. Newest order first.',
  search: 'Search by name, phone or email',
  badSearch: 'Search with at most 100 characters.',
  badCursor: 'This page of customers could not be read. Reload the page.',
  none: 'No customer yet.',
  noMatch: 'No customer matches.',
  more: 'Show more',
  orders: (count: number) => (count === 1 ? '1 order' : `${count} orders`),
  spent: 'Spent (paid orders)',
  lastOrder: 'Last order',
  noOrders: 'No orders yet',
  promotions: 'Takes promotions',
  noPromotions: 'No promotions',
  noAccount: 'No account',
  call: 'Call',
  whatsapp: 'WhatsApp',
  seeOrders: 'Orders',
} as const;

const T = DESK_CUSTOMERS_TEXT;

/** A page's cursor: the last customer's sort time (microseconds, UTC) and key. */
const CURSOR = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z~[ap]:[^\p{Cc}]{1,200}$/u;

export const customersInput = v.optional(
  v.strictObject(
    {
      q: v.optional(
        v.pipe(v.string(T.badSearch), v.maxLength(100, T.badSearch), v.transform(cleanSearchText)),
      ),
      // Null or absent: the first page (tRPC's infinite query sends null, and a direction).
      cursor: v.nullish(
        v.pipe(v.string(T.badCursor), v.maxLength(240, T.badCursor), v.regex(CURSOR, T.badCursor)),
      ),
      direction: v.optional(v.picklist(['forward', 'backward'], T.badCursor)),
    },
    T.badSearch,
  ),
);

/** The cursor's two parts. */
export function readCursor(cursor: string): { at: string; key: string } {
  const cut = cursor.indexOf('~');
  return { at: cursor.slice(0, cut), key: cursor.slice(cut + 1) };
}

/**
 * The digits a phone search looks for, in any spelling: '0772 123 456', '+256 772123456' and
 * '772123456' all look for '772123456' (numbers are kept +256…). Null: not a phone search, as
 * letters beside the digits ('Wanjiru 4b1c', a name) or fewer than 3 digits.
 */
export function phoneDigits(q: string): string | null {
  if (/[^\d\s+().-]/.test(q)) return null;
  let digits = q.replace(/\D/g, '');
  if (digits.startsWith('256')) digits = digits.slice(3);
  else if (digits.startsWith('0')) digits = digits.slice(1);
  return digits.length >= 3 ? digits : null;
}

/** 'tel:+256772123456'. */
export const telLink = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** 'https://wa.me/256772123456' (WhatsApp wants the digits without '+'). */
export const whatsappLink = (phone: string) => `https://wa.me/${phone.replace(/\D/g, '')}`;

/** The desk's order list, searched by this phone. */
export const ordersByPhoneLink = (phone: string) => `/desk/orders?q=${encodeURIComponent(phone)}`;
