// Orders the desk takes by phone, on WhatsApp or at the counter (issue 34, decision 0076): the
// input of desk.createOrder, its texts, and the page's pure rules. Pure: no I/O.
import * as v from 'valibot';
import { idSchema, wholeSchema } from './bounds.ts';
import { MAX_CART_LINES, MAX_LINE_QUANTITY } from './cart-rules.ts';
import { AREA_MAX, DELIVERY_TEXT, ugandanNumber } from './delivery-rules.ts';
import { ORDER_ID } from './order-id.ts';
import {
  CASH_LABEL,
  DESK_PAYMENT_METHODS,
  type DeskPaymentMethod,
  type OrderSource,
  orderIdHead,
  PAYMENT_METHOD_CHOICES,
} from './order-rules.ts';
import { invisibleCharacters, typedText } from './text.ts';

/** Where a desk order came from: every source but the site's own. */
export const DESK_ORDER_SOURCES = [
  'phone',
  'whatsapp',
  'counter',
] as const satisfies readonly Exclude<OrderSource, 'web'>[];
export type DeskOrderSource = (typeof DESK_ORDER_SOURCES)[number];

/** The desk's payment choices, in the page's order: the checkout's labels, and cash. */
export const DESK_PAYMENT_CHOICES: Record<DeskPaymentMethod, { label: string }> = {
  cash: { label: CASH_LABEL },
  mobile_money: { label: PAYMENT_METHOD_CHOICES.mobile_money.label },
  bank_transfer: { label: PAYMENT_METHOD_CHOICES.bank_transfer.label },
  cash_on_delivery: { label: PAYMENT_METHOD_CHOICES.cash_on_delivery.label },
};

export const CUSTOMER_NAME_MAX = 100;
export const CUSTOMER_EMAIL_MAX = 254;
export const ORDER_NOTE_MAX = 1000;

export const DESK_PHONE_ORDERS_TEXT = {
  title: 'New order',
  intro: 'An order taken by phone, on WhatsApp or at the counter.',
  badOrderId: 'This order could not be matched. Reload the page and try again.',
  badCustomer: 'Give the customer’s phone and name.',
  badPhone: 'Enter the customer’s phone number, e.g. 0772 123456.',
  nameRequired: 'Enter the customer’s name.',
  nameTooLong: `The customer’s name can be at most ${CUSTOMER_NAME_MAX} characters.`,
  nameNotText: 'Enter the customer’s name.',
  nameInvisible: invisibleCharacters('The customer’s name'),
  badEmail: 'Enter a valid email address, or leave it empty.',
  noItems: 'Add at least one piece.',
  tooManyLines: `An order can hold at most ${MAX_CART_LINES} different pieces.`,
  badItem: `Choose each piece, and a quantity from 1 to ${MAX_LINE_QUANTITY.toLocaleString('en-US')}.`,
  badPayment: 'Choose how the customer pays.',
  badSource: 'Choose where the order came from: phone, WhatsApp or the counter.',
  noteTooLong: `The note can be at most ${ORDER_NOTE_MAX} characters.`,
  noteNotText: 'The note must be text.',
  noteInvisible: invisibleCharacters('The note'),
  badInput: 'This order could not be read. Check the form and try again.',
  cashAtCounterOnly: 'Cash is paid at the counter: choose Counter, or another way to pay.',
  orderIdTaken: 'This order reference is already used. Reload the page and try again.',
  accountFound: (name: string) => `Account found: ${name}. The order will show in their orders.`,
  noAccount: 'No account with this number: the order keeps the name and phone.',
  saved: (orderId: string) => `Order ${orderIdHead(orderId).toUpperCase()} saved.`,
  save: 'Save order',
  saving: 'Saving…',
  searchPieces: 'Search the catalogue',
  noPieces: 'No piece matches.',
  empty: 'No pieces yet: search the catalogue and add one.',
  total: 'Total',
  itemsTotal: 'Pieces',
  deliveryFee: 'Delivery',
  outOfStock: 'Out of stock',
  promptSent: (phone: string) => `The payment prompt was sent to ${phone}.`,
} as const;

const T = DESK_PHONE_ORDERS_TEXT;

const anId = idSchema(T.badItem);
const quantity = wholeSchema(1, MAX_LINE_QUANTITY, T.badItem);

/** The customer's phone as typed, stored +256… (core/phone.ts), as the accounts keep theirs. */
export const customerPhone = ugandanNumber(T.badPhone);

export const createOrderInput = v.strictObject(
  {
    /** Made by the page once per order and kept across retries: the same id places one order. */
    orderId: v.pipe(v.string(T.badOrderId), v.regex(ORDER_ID, T.badOrderId)),
    customer: v.strictObject(
      {
        phone: customerPhone,
        name: v.pipe(
          typedText({
            notText: T.nameNotText,
            max: CUSTOMER_NAME_MAX,
            tooLong: T.nameTooLong,
            invisible: T.nameInvisible,
          }),
          v.minLength(1, T.nameRequired),
        ),
        email: v.optional(
          v.pipe(
            v.string(T.badEmail),
            v.trim(),
            v.maxLength(CUSTOMER_EMAIL_MAX, T.badEmail),
            v.union([v.literal(''), v.pipe(v.string(), v.email(T.badEmail))], T.badEmail),
          ),
        ),
      },
      T.badCustomer,
    ),
    items: v.pipe(
      v.array(
        // A variant; `{ productId }` names a product sold in one variant (as placeOrder takes it).
        v.union(
          [
            v.strictObject({ variantId: anId, quantity }, T.badItem),
            v.strictObject({ productId: anId, quantity }, T.badItem),
          ],
          T.badItem,
        ),
        T.noItems,
      ),
      v.minLength(1, T.noItems),
      v.maxLength(MAX_CART_LINES, T.tooManyLines),
    ),
    deliveryOptionId: v.optional(
      v.pipe(
        v.string(DELIVERY_TEXT.optionUnavailable),
        v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, DELIVERY_TEXT.optionUnavailable),
      ),
    ),
    deliveryArea: v.optional(
      typedText({
        notText: DELIVERY_TEXT.notText('Area'),
        max: AREA_MAX,
        tooLong: DELIVERY_TEXT.areaTooLong,
        invisible: invisibleCharacters('Area'),
      }),
    ),
    paymentMethod: v.picklist(DESK_PAYMENT_METHODS, T.badPayment),
    note: v.optional(
      typedText({
        notText: T.noteNotText,
        max: ORDER_NOTE_MAX,
        tooLong: T.noteTooLong,
        invisible: T.noteInvisible,
        lines: true,
      }),
    ),
    /** Absent: a phone order. */
    source: v.optional(v.picklist(DESK_ORDER_SOURCES, T.badSource), 'phone'),
  },
  T.badInput,
);
export type CreateOrderInput = v.InferOutput<typeof createOrderInput>;

export const customerByPhoneInput = v.strictObject(
  { phone: v.pipe(v.string(T.badPhone), v.maxLength(32, T.badPhone)) },
  T.badPhone,
);

/** Cash changes hands at the counter only: by phone or WhatsApp the money is not in the shop. */
export function cashProblem(method: DeskPaymentMethod, source: DeskOrderSource): string | null {
  return method === 'cash' && source !== 'counter' ? T.cashAtCounterOnly : null;
}

/** The option a desk order goes by when the page names none: a counter sale is picked up. */
export function defaultDeskOption(source: DeskOrderSource): string {
  return source === 'counter' ? 'pickup' : 'kampala';
}
