// The receipt (spec: account §3 "Receipt object", §4 "Receipt fallback", §9). Built when an order
// is placed and stored whole in receipts.receipt_data; rebuilt the same way from the order, its
// items and the customer's profile when no stored receipt exists.
import { parseAddress, type ReceiptAddress } from './address.ts';
import {
  DEFAULT_TAX,
  formatLongDate,
  formatTime,
  paymentMethodLabel,
  receiptNumber,
} from './orders.ts';

export const GUEST_CUSTOMER_NAME = 'Guest Customer';

export type ReceiptItem = { id: string; name: string; quantity: number; price: number };

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
  /** 0 unless a tax applies; shown only above 0. */
  tax: number;
  total: number;
  /** The method's label, e.g. 'Mobile Money'. */
  paymentMethod: string;
  transactionId: string | null;
};

export type ReceiptOrder = {
  id: string;
  createdAt: Date | string;
  paymentMethod: string;
  /** The stored total: what the customer was charged, shown as it is. */
  total: number;
  deliveryFee: number;
  discount: number;
  /** The name kept on the order, used when the profile has none. */
  customerName?: string | null;
  items: { id?: string; name: string; price: number; quantity: number }[];
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
    tax: extra.tax ?? DEFAULT_TAX,
    total: order.total,
    paymentMethod: paymentMethodLabel(order.paymentMethod),
    transactionId: extra.transactionId?.trim() || null,
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
  discount: 'Discount',
  tax: 'Tax',
  total: 'Total',
  thanks: 'Thank you for shopping with duuka.',
} as const;
