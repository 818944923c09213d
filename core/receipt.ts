// The receipt (spec: account §3 "Receipt object", §4 "Receipt fallback", §9). Built when an order
// is placed and stored whole in receipts.receipt_data; rebuilt the same way from the order, its
// items and the customer's profile when no stored receipt exists.
import { parseAddress, type ReceiptAddress } from './address.ts';
import type { DeliveryKind } from './delivery-rules.ts';
import { payerNetworkLabel } from './desk-money.ts';
import { OFFER_CODE_TEXT } from './offer-codes.ts';
import {
  DEFAULT_TAX,
  formatLongDate,
  formatTime,
  ORDER_STATUSES,
  paymentMethodLabel,
  receiptNumber,
} from './order-rules.ts';

export const GUEST_CUSTOMER_NAME = 'Guest Customer';

export type ReceiptItem = {
  id: string;
  name: string;
  quantity: number;
  price: number;
  /** The size and colour bought ("M · Indigo"); absent or '' for a piece without options. */
  variant?: string;
};

export type Receipt = {
  /** 'RCP-' plus the first 8 characters of the order id. */
  receiptNumber: string;
  orderId: string;
  /** When the order was placed, ISO 8601. */
  orderDate: string;
  /** '14 November 2026' and '14:05 EAT', Kampala time. */
  date: string;
  time: string;
  customerInfo: { name: string; email: string; phone: string; address: ReceiptAddress };
  items: ReceiptItem[];
  subtotal: number;
  deliveryFee: number;
  discount: number;
  /** The offers that gave the discount (issue 35); absent on receipts without one. */
  offers?: ReceiptOffer[];
  /** Gift card and store credit spent (issue 35): total = subtotal + fee − discount − credit.
   * Absent when none was spent. */
  credit?: number;
  /** 0 unless a tax applies; shown only above 0. */
  tax: number;
  total: number;
  /** The method's label, e.g. 'Mobile Money'. */
  paymentMethod: string;
  transactionId: string | null;
  /** How it reaches the shopper (issue 23); absent on receipts stored before delivery options. */
  delivery?: ReceiptDelivery;
  /**
   * Paid or not, worked out when the receipt is read (never stored: receipt_data is written when
   * the order is placed and would go stale). Absent on a receipt built but not yet read.
   */
  payment?: ReceiptPayment;
  /**
   * The shop that sells (issue 34): its address and, once the owner has set it, its TIN. Read
   * with the receipt, like `payment`; absent on a receipt built but not yet read.
   */
  shop?: ReceiptShop;
};

/** An offer on a receipt: its code (null: automatic), its name, what it took off. */
export type ReceiptOffer = { code: string | null; name: string; amount: number };

/** The seller's lines on a receipt: the address, and "TIN 1000123456" when set. */
export type ReceiptShop = { address: string; tin: string | null };

/** "TIN 1000123456", the receipt's line for the shop's tax number. */
export const tinLine = (tin: string) => `TIN ${tin}`;

/** The delivery option chosen and where a rider takes it: "Kampala delivery", Ntinda, … */
export type ReceiptDelivery = {
  option: string;
  kind: DeliveryKind;
  area: string;
  landmark: string;
  /** The phone the rider calls. */
  phone: string;
  notes: string;
};

/** PAID (how, with what reference) or UNPAID (and, for a bank transfer, where to send it). */
export type ReceiptPayment =
  | { state: 'paid'; method: string; reference: string | null }
  | {
      state: 'unpaid';
      /**
       * An unpaid bank transfer: the shop's account (null: not configured, the shopper asks the
       * shop) and the reference to quote.
       */
      bankTransfer: { details: string | null; reference: string } | null;
    };

/** What the order's real state says about its money (services/orders-service.ts reads it). */
export type PaymentFacts = {
  orderId: string;
  /** The order's status and chosen method ('bank_transfer', …). */
  status: string;
  paymentMethod: string;
  /** The order's successful payment, if one is recorded. */
  successful: { network: string; transactionId: string | null } | null;
  /** The transaction id the stored receipt carries. */
  receiptTransactionId: string | null;
  /** BANK_TRANSFER_DETAILS (null: not configured). */
  bankDetails: string | null;
  /** Nothing was left to pay: a gift card or store credit paid it all (issue 35). */
  paidInFull?: boolean;
};

/** How an order paid in full by gift card or credit was paid, on its receipt (issue 35). */
export const CREDIT_PAYMENT_LABEL = 'Gift card / store credit';

/** Every status the shop moves an order on to: all but pending and cancelled. */
const PAST_PENDING: readonly string[] = ORDER_STATUSES.filter(
  (status) => status !== 'pending' && status !== 'cancelled',
);

/**
 * PAID when a successful payment is recorded. Without one, an order the shop moved past pending
 * counts as paid (orders settled before payments were recorded), except cash on delivery, which
 * is paid when the rider's money is recorded or the order is completed. A cancelled order without
 * a payment is UNPAID.
 */
export function receiptPayment(facts: PaymentFacts): ReceiptPayment {
  if (facts.successful) {
    return {
      state: 'paid',
      method: payerNetworkLabel(facts.successful.network),
      reference: facts.successful.transactionId?.trim() || facts.receiptTransactionId || null,
    };
  }
  // Paid in full by gift card or credit: nothing to collect, whatever way was chosen.
  if (facts.paidInFull && facts.status !== 'cancelled') {
    return { state: 'paid', method: CREDIT_PAYMENT_LABEL, reference: null };
  }
  const settled =
    facts.paymentMethod === 'cash_on_delivery'
      ? facts.status === 'completed'
      : PAST_PENDING.includes(facts.status);
  if (settled) {
    return {
      state: 'paid',
      method: paymentMethodLabel(facts.paymentMethod),
      reference: facts.receiptTransactionId || null,
    };
  }
  const awaitsTransfer = facts.paymentMethod === 'bank_transfer' && facts.status === 'pending';
  return {
    state: 'unpaid',
    bankTransfer: awaitsTransfer
      ? { details: facts.bankDetails?.trim() || null, reference: receiptNumber(facts.orderId) }
      : null,
  };
}

export type ReceiptOrder = {
  id: string;
  createdAt: Date | string;
  paymentMethod: string;
  /** The stored total: what the customer was charged, shown as it is. */
  total: number;
  deliveryFee: number;
  discount: number;
  offers?: ReceiptOffer[];
  credit?: number;
  /** The name kept on the order, used when the profile has none. */
  customerName?: string | null;
  items: { id?: string; name: string; price: number; quantity: number; variant?: string }[];
  delivery?: ReceiptDelivery;
};

export type ReceiptCustomer = {
  fullName?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: string | null;
} | null;

const text = (value: string | null | undefined) => value?.trim() ?? '';

export function buildReceipt(
  order: ReceiptOrder,
  customer: ReceiptCustomer,
  extra: { transactionId?: string | null; tax?: number } = {},
): Receipt {
  const items = order.items.map((item, index) => ({
    id: item.id ?? String(index + 1),
    name: item.name,
    quantity: item.quantity,
    price: item.price,
    ...(item.variant ? { variant: item.variant } : {}),
  }));
  const placedAt = new Date(order.createdAt);
  return {
    receiptNumber: receiptNumber(order.id),
    orderId: order.id,
    orderDate: Number.isFinite(placedAt.getTime()) ? placedAt.toISOString() : '',
    date: formatLongDate(placedAt),
    time: formatTime(placedAt),
    customerInfo: {
      name: text(customer?.fullName) || text(order.customerName) || GUEST_CUSTOMER_NAME,
      email: text(customer?.email),
      phone: text(customer?.phone),
      address: parseAddress(customer?.address),
    },
    items,
    subtotal: items.reduce((sum, item) => sum + item.price * item.quantity, 0),
    deliveryFee: order.deliveryFee,
    discount: order.discount,
    ...(order.offers?.length ? { offers: order.offers } : {}),
    ...(order.credit ? { credit: order.credit } : {}),
    tax: extra.tax ?? DEFAULT_TAX,
    total: order.total,
    paymentMethod: paymentMethodLabel(order.paymentMethod),
    transactionId: extra.transactionId?.trim() || null,
    ...(order.delivery ? { delivery: order.delivery } : {}),
  };
}

/** The tax line appears only when there is tax. */
export function showsTax(receipt: Pick<Receipt, 'tax'>): boolean {
  return receipt.tax > 0;
}

/** Labels shared by the receipt view and the PDF. */
export const RECEIPT_TEXT = {
  title: 'Receipt',
  receiptNumber: 'Receipt No.',
  orderDate: 'Order Date',
  time: 'Time',
  paymentMethod: 'Payment Method',
  transactionId: 'Transaction ID',
  customerInfo: 'Customer Information',
  items: 'Items',
  item: 'Item',
  quantity: 'Qty',
  unitPrice: 'Unit Price',
  lineTotal: 'Total',
  subtotal: 'Subtotal',
  deliveryFee: 'Delivery Fee',
  delivery: 'Delivery',
  deliveryNotes: 'Notes',
  discount: 'Discount',
  /** Gift card and store credit spent (issue 35). */
  credit: OFFER_CODE_TEXT.credit,
  tax: 'Tax',
  total: 'Total',
  thanks: 'Thank you for shopping with duuka.',
  paid: 'PAID',
  unpaid: 'UNPAID',
  paidWith: 'Paid by',
  reference: 'Reference',
  awaitingPayment: 'Awaiting payment',
  bankTransferTitle: 'Pay by bank transfer',
  bankTransferQuote: 'Quote this reference with your transfer:',
  bankTransferMissing: 'Ask us for our bank details: write to us, or ask in the chat.',
} as const;
