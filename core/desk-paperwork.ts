// The desk's paperwork for an order (issue 34): the packing slip that goes in the parcel and the
// rider's hand, and the accountant's orders file. Pure: the shapes, the rule for what is left to
// collect, the file's columns and the texts.
import * as v from 'valibot';
import type { OrderDelivery } from './delivery-choice.ts';
import { isCalendarDay } from './desk-shop.ts';

export const PAPERWORK_TEXT = {
  slipTitle: 'Packing slip',
  deliveryNote: 'Packing slip · Delivery note',
  deliverTo: 'Deliver to',
  collects: 'Collects at the shop',
  order: 'Order',
  placed: 'Placed',
  source: 'Taken',
  payment: 'Payment',
  rider: 'Rider',
  piece: 'Piece',
  size: 'Size · colour',
  sku: 'SKU',
  quantity: 'Qty',
  packed: 'Packed',
  pieces: (count: number) => `${count} ${count === 1 ? 'piece' : 'pieces'}`,
  paidNothing: 'Paid: nothing to collect',
  collect: 'Collect on delivery',
  notPaid: (method: string) => `Not paid yet (${method}): hand over once it is paid`,
  notes: 'Notes',
  packedBy: 'Packed by',
  receivedBy: 'Received by (name and signature)',
  noSku: '—',
  badDay: 'Choose the days as YYYY-MM-DD, the first no later than the last.',
  notFound: 'Order not found',
} as const;

export type SlipPiece = { name: string; variant: string; sku: string | null; quantity: number };

/** What the packing slip says: who, where, what to pack, and the money the rider brings back. */
export type PackingSlip = {
  orderId: string;
  placedAt: string;
  source: string;
  customerName: string;
  /** The number to call: the delivery's phone, else the customer's. */
  phone: string | null;
  delivery: OrderDelivery;
  pieces: SlipPiece[];
  paymentMethod: string;
  total: number;
  paid: boolean;
};

/**
 * What the rider collects at the door: nothing for a paid order, the total for cash on delivery,
 * and null for an order still waiting for another way to pay (it is not handed over unpaid).
 */
export function leftToCollect(slip: Pick<PackingSlip, 'paid' | 'paymentMethod' | 'total'>) {
  if (slip.paid) return 0;
  return slip.paymentMethod === 'cash_on_delivery' ? slip.total : null;
}

// ——— The accountant's file ———

/** `?from=&to=`: Kampala days, either or both, the first no later than the last. */
export const ordersFileInput = v.pipe(
  v.object({
    from: v.optional(v.pipe(v.string(), v.check(isCalendarDay, PAPERWORK_TEXT.badDay))),
    to: v.optional(v.pipe(v.string(), v.check(isCalendarDay, PAPERWORK_TEXT.badDay))),
  }),
  v.check(({ from, to }) => !from || !to || from <= to, PAPERWORK_TEXT.badDay),
);

/** The file's columns, in order: one row per order, amounts in whole UGX. */
export const ORDERS_FILE_COLUMNS = [
  'Order',
  'Receipt',
  'Placed (Kampala)',
  'Source',
  'Customer',
  'Phone',
  'Email',
  'Status',
  'Payment method',
  'Paid',
  'Received amount',
  'Payment references',
  'Refunded amount',
  'Subtotal',
  'Delivery fee',
  'Discount',
  'Total',
  'Delivery',
  'Area',
  'Landmark',
  'Rider',
  'Pieces',
  'Items',
] as const;
