// A customer's orders and receipts. Every read is filtered by the customer's id: another
// customer's order and an unknown id are the same "not found".
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { OrderDelivery } from '#core/delivery-choice.ts';
import { isDeliveryKind } from '#core/delivery-rules.ts';
import type { OrderPayment } from '#core/payment-states.ts';
import {
  buildReceipt,
  type Receipt,
  type ReceiptDelivery,
  type ReceiptOffer,
  receiptPayment,
} from '#core/receipt.ts';
import { orderWindows } from '#core/returns.ts';
import { DEFAULT_ADDRESS } from '#core/store-details.ts';
import type { Db } from '#db/client.ts';
import {
  orderItems,
  orders,
  payments,
  products,
  profiles,
  receipts,
  returns,
} from '#db/schema/index.ts';
import { returnWindowsFrom, settingsQuery, storedFrom } from './shop-settings.ts';

export type OrderItemView = {
  id: string;
  name: string;
  /** The size and colour bought ("M · Indigo"); '' for a piece without options. */
  variant: string;
  price: number;
  quantity: number;
};
export type OrderView = {
  id: string;
  customerName: string;
  orderDate: string;
  createdAt: string;
  subtotal: number;
  deliveryFee: number;
  discount: number;
  /** The offers that gave the discount (issue 35), biggest first; [] for none. */
  offers: ReceiptOffer[];
  /** Gift card and store credit spent on it (issue 35). */
  credit: number;
  total: number;
  paymentMethod: string;
  status: string;
  items: OrderItemView[];
  hasReceipt: boolean;
  /** The order's latest payment (its successful one first), read with the order. */
  payment: OrderPayment;
  /** How it reaches the shopper: the option chosen, the address, the rider once out (issue 23). */
  delivery: OrderDelivery;
};

/** An order's delivery columns (orders from before issue 23 were migrated to Kampala delivery);
 * the desk's orders read the same. */
export const deliveryColumns = {
  deliveryOption: orders.deliveryOption,
  deliveryKind: orders.deliveryKind,
  deliveryArea: orders.deliveryArea,
  deliveryLandmark: orders.deliveryLandmark,
  deliveryPhone: orders.deliveryPhone,
  deliveryNotes: orders.deliveryNotes,
  riderName: orders.riderName,
  riderPhone: orders.riderPhone,
};
type DeliveryRow = Pick<typeof orders.$inferSelect, keyof typeof deliveryColumns>;

/** The columns as the order's delivery. */
export function deliveryOf(row: DeliveryRow): OrderDelivery {
  return {
    option: row.deliveryOption,
    kind: isDeliveryKind(row.deliveryKind) ? row.deliveryKind : 'delivery',
    area: row.deliveryArea,
    landmark: row.deliveryLandmark,
    phone: row.deliveryPhone,
    notes: row.deliveryNotes,
    riderName: row.riderName,
    riderPhone: row.riderPhone,
  };
}

/** What a receipt keeps of it (never the rider: a receipt is written when the order is placed). */
function receiptDelivery(delivery: OrderDelivery): ReceiptDelivery {
  return {
    option: delivery.option,
    kind: delivery.kind,
    area: delivery.area,
    landmark: delivery.landmark,
    phone: delivery.phone ?? '',
    notes: delivery.notes,
  };
}

/**
 * The offers an order was given (order_offers, copied when it was placed), inside the order's own
 * read: no further trip. The desk's order reads the same.
 */
export const orderOffersSql = sql<ReceiptOffer[]>`(
  select coalesce(json_agg(json_build_object('code', oo.code, 'name', oo.name, 'amount', oo.amount)
                           order by oo.amount desc, oo.name), '[]'::json)
  from order_offers oo where oo.order_id = "orders"."id")`;

/** The offers as read (a bigint in JSON may come back as text). */
export const offersOf = (offers: readonly ReceiptOffer[] | null): ReceiptOffer[] =>
  (offers ?? []).map(({ code, name, amount }) => ({ code, name, amount: Number(amount) }));

const orderColumns = {
  id: orders.id,
  customerName: orders.customerName,
  orderDate: orders.orderDate,
  createdAt: orders.createdAt,
  subtotal: orders.subtotal,
  deliveryFee: orders.deliveryFee,
  discount: orders.discount,
  offers: orderOffersSql,
  credit: orders.credit,
  total: orders.total,
  paymentMethod: orders.paymentMethod,
  status: orders.status,
  ...deliveryColumns,
  // Spelled out: inside a sub-select drizzle would leave the outer column unqualified.
  hasReceipt: sql<boolean>`exists (select 1 from receipts r where r.order_id = "orders"."id")`,
};
const itemColumns = {
  id: orderItems.id,
  orderId: orderItems.orderId,
  name: orderItems.name,
  variant: orderItems.variantLabel,
  price: orderItems.price,
  quantity: orderItems.quantity,
};

const paymentColumns = {
  orderId: payments.orderId,
  state: payments.status,
  reason: payments.reason,
  network: payments.network,
  transactionId: payments.transactionId,
};
/** Per order, its successful payment if any, else its newest (DISTINCT ON keeps the first). */
const latestPaymentOrder = [
  payments.orderId,
  sql`(${payments.status} = 'successful') desc`,
  desc(payments.createdAt),
] as const;

type OrderRow = Omit<OrderView, 'items' | 'orderDate' | 'createdAt' | 'payment' | 'delivery'> &
  DeliveryRow & {
    orderDate: Date;
    createdAt: Date;
  };
type ItemRow = OrderItemView & { orderId: string };
type PaymentRow = NonNullable<OrderPayment> & { orderId: string | null };

function toViews(rows: OrderRow[], items: ItemRow[], paid: PaymentRow[]): OrderView[] {
  return rows.map((row) => {
    const payment = paid.find((p) => p.orderId === row.id);
    const {
      deliveryOption: _option,
      deliveryKind: _kind,
      deliveryArea: _area,
      deliveryLandmark: _landmark,
      deliveryPhone: _phone,
      deliveryNotes: _notes,
      riderName: _riderName,
      riderPhone: _riderPhone,
      ...order
    } = row;
    return {
      ...order,
      offers: offersOf(row.offers),
      delivery: deliveryOf(row),
      orderDate: row.orderDate.toISOString(),
      createdAt: row.createdAt.toISOString(),
      items: items
        .filter((item) => item.orderId === row.id)
        .map(({ id, name, variant, price, quantity }) => ({ id, name, variant, price, quantity })),
      payment: payment
        ? {
            state: payment.state,
            reason: payment.reason,
            network: payment.network,
            transactionId: payment.transactionId,
          }
        : null,
    };
  });
}

/**
 * The shopper's orders as they see them: their own, without those they deleted that the shop
 * keeps (deleteOrder). The assistant reads the same.
 */
export const shownToShopper = (customerId: string) =>
  and(eq(orders.customerId, customerId), isNull(orders.hiddenByShopperAt));

const mine = (customerId: string, orderId: string) =>
  and(eq(orders.id, orderId), shownToShopper(customerId));

/** The customer's orders, newest first, with their items and payments: one round trip. */
export async function listOrders(db: Db, customerId: string): Promise<OrderView[]> {
  const theirs = db.select({ id: orders.id }).from(orders).where(shownToShopper(customerId));
  const [rows, items, paid] = await db.batch([
    db
      .select(orderColumns)
      .from(orders)
      .where(shownToShopper(customerId))
      .orderBy(desc(orders.createdAt), desc(orders.id)),
    db
      .select(itemColumns)
      .from(orderItems)
      .where(inArray(orderItems.orderId, theirs))
      .orderBy(asc(orderItems.name), asc(orderItems.id)),
    db
      .selectDistinctOn([payments.orderId], paymentColumns)
      .from(payments)
      .where(inArray(payments.orderId, theirs))
      .orderBy(...latestPaymentOrder),
  ]);
  return toViews(rows, items, paid);
}

/** One order as its page shows it: with its returns and the last day one can be asked (issue 36). */
export type OrderPageView = OrderView & {
  returns: { id: string; status: string; resolution: string; createdAt: string }[];
  returnUntil: string | null;
};

/** The order's page (orders.byId): the order, its items, payment, returns and the shop's return
 * days, in one batch. */
export async function findOrder(
  db: Db,
  customerId: string,
  orderId: string,
): Promise<OrderPageView | null> {
  const [rows, items, paid, returned, settingRows] = await db.batch([
    db
      .select({ ...orderColumns, deliveredAt: orders.deliveredAt })
      .from(orders)
      .where(mine(customerId, orderId)),
    db
      .select({
        ...itemColumns,
        // Whether a return can still take any of it: a returnable piece not all in returns.
        canReturn: sql<boolean>`${orderItems.returned} < ${orderItems.quantity}
          and coalesce(${products.returnable}, false)`,
      })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .leftJoin(products, eq(products.id, orderItems.productId))
      .where(mine(customerId, orderId))
      .orderBy(asc(orderItems.name), asc(orderItems.id)),
    db
      .selectDistinctOn([payments.orderId], paymentColumns)
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(mine(customerId, orderId))
      .orderBy(...latestPaymentOrder),
    db
      .select({
        id: returns.id,
        status: returns.status,
        resolution: returns.resolution,
        createdAt: returns.createdAt,
      })
      .from(returns)
      .innerJoin(orders, eq(orders.id, returns.orderId))
      .where(mine(customerId, orderId))
      .orderBy(desc(returns.createdAt)),
    settingsQuery(db),
  ]);
  const [row] = rows;
  const [view] = toViews(
    rows.map(({ deliveredAt: _at, ...order }) => order),
    items.map(({ canReturn: _can, ...item }) => item),
    paid,
  );
  if (!row || !view) return null;
  const { returnLast } = orderWindows(row, returnWindowsFrom(settingRows), Date.now());
  const canReturn = returnLast && items.some((item) => item.canReturn);
  return {
    ...view,
    returns: returned.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    returnUntil: canReturn ? returnLast.toISOString().slice(0, 10) : null,
  };
}

/**
 * The shopper's delete (the spec's control), in ONE statement that decides what it may do:
 * - an order still pending, with no payment but failed or expired ones, is deleted — items and
 *   receipt go with it (foreign keys cascade) — and its pieces go back to stock, each variant's
 *   return logged as 'order-deleted' (without the order's id: it is gone by the statement's end);
 *   so is a cancelled order that never took money (its pieces went back when it was cancelled);
 * - any other order (paid, a payment under way or money that moved, gone out) is only
 *   hidden from the shopper (hidden_by_shopper_at): the order, its payments, receipt and texts
 *   stay on the desk and in the day's figures.
 * The DELETE's own conditions choose, on the order's row: a payment approved meanwhile moves the
 * order out of 'pending' in the same row (markPaid), and PostgreSQL re-checks a row changed under
 * it, so the order is then hidden, never deleted; the hiding runs only when nothing was deleted.
 * Answers which happened (neither: not this shopper's order, or already gone from their lists)
 * and which restocked variants shoppers are waiting for (decision 0040: the caller texts them).
 */
export async function deleteOrder(
  db: Db,
  customerId: string,
  orderId: string,
): Promise<{ deleted: boolean; hidden: boolean; awaited: number[] }> {
  const result = await db.execute<{
    deleted: number;
    hidden: number;
    awaited: (number | string)[] | null;
  }>(sql`
    with gone as (
      delete from orders o
      where o.id = ${orderId}::uuid and o.customer_id = ${customerId}
        and o.hidden_by_shopper_at is null
        and (
          (o.status = 'pending' and not exists (
            select 1 from payments p
            where p.order_id = o.id and p.status not in ('failed', 'expired')))
          -- A cancelled order that never took money: no payment but declined ones (an expired
          -- one may still be approved late, which does not touch the order's row).
          or (o.status = 'cancelled' and not exists (
            select 1 from payments p where p.order_id = o.id and p.status <> 'failed'))
        )
      returning o.id, o.status
    ),
    hidden as (
      update orders o set hidden_by_shopper_at = now()
      where o.id = ${orderId}::uuid and o.customer_id = ${customerId}
        and o.hidden_by_shopper_at is null
        and not exists (select 1 from gone)
      returning o.id
    ),
    returned as (
      update product_variants v set stock = v.stock + back.quantity
      from (
        select oi.variant_id, sum(oi.quantity)::int as quantity
        from order_items oi join gone on gone.id = oi.order_id
        -- A pending order's pieces were still held for it; a cancelled one gave them back then.
        where oi.variant_id is not null and gone.status = 'pending'
        group by oi.variant_id
      ) back
      where v.id = back.variant_id
      returning v.id, v.sku, v.stock, back.quantity
    ),
    logged as (
      insert into stock_movements (variant_id, sku, change, stock_after, reason)
      select id, sku, quantity, stock, 'order-deleted' from returned
    )
    select (select count(*) from gone)::int as deleted,
           (select count(*) from hidden)::int as hidden,
           (select array_agg(returned.id order by returned.id) from returned
            where exists (select 1 from back_in_stock_requests r where r.variant_id = returned.id)
           ) as awaited
  `);
  const row = result.rows[0];
  return {
    deleted: Number(row?.deleted ?? 0) > 0,
    hidden: Number(row?.hidden ?? 0) > 0,
    awaited: (row?.awaited ?? []).map(Number),
  };
}

/** Stores an order's receipt (once: a second save of the same order changes nothing). */
export async function saveReceipt(db: Db, customerId: string, receipt: Receipt): Promise<void> {
  await db
    .insert(receipts)
    .values({
      receiptNumber: receipt.receiptNumber,
      orderId: receipt.orderId,
      customerId,
      subtotal: receipt.subtotal,
      deliveryFee: receipt.deliveryFee,
      discountAmount: receipt.discount,
      totalAmount: receipt.total,
      paymentMethod: receipt.paymentMethod,
      transactionId: receipt.transactionId,
      receiptData: receipt,
    })
    .onConflictDoNothing({ target: receipts.orderId });
}

/**
 * The order's receipt: the stored one, else rebuilt from the order, its items and the profile
 * (spec: receipt fallback) and stored. PAID or UNPAID is read from the order's real state each
 * time (never from the stored receipt), with the bank details for an unpaid transfer. Null when
 * the order is not this customer's.
 */
export async function receiptFor(
  db: Db,
  customerId: string,
  orderId: string,
  /** BANK_TRANSFER_DETAILS: the configuration's, when the desk has set none. */
  configuredBankDetails: string | null = null,
): Promise<Receipt | null> {
  const [[stored], [profile], [facts], settingRows] = await db.batch([
    db
      .select({ data: receipts.receiptData })
      .from(receipts)
      .innerJoin(orders, eq(orders.id, receipts.orderId))
      .where(mine(customerId, orderId)),
    db.select().from(profiles).where(eq(profiles.id, customerId)),
    db
      .select({
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        credit: orders.credit,
        ...deliveryColumns,
        network: payments.network,
        transactionId: payments.transactionId,
      })
      .from(orders)
      .leftJoin(payments, and(eq(payments.orderId, orders.id), eq(payments.status, 'successful')))
      .where(mine(customerId, orderId))
      .limit(1),
    // The bank details, the shop's address and its TIN (issue 34).
    settingsQuery(db),
  ]);
  if (!facts) return null;
  const settings = storedFrom(settingRows);
  const bankDetails = settings.bankDetails ?? configuredBankDetails;
  const shop = {
    address: settings.storeAddress ?? DEFAULT_ADDRESS,
    tin: settings.storeTin ?? null,
  };
  let receipt = stored?.data as Receipt | undefined;
  if (!receipt) {
    const order = await findOrder(db, customerId, orderId);
    if (!order) return null;
    // The order's view carries its offers and the gift card or credit spent (issue 35).
    receipt = buildReceipt(
      { ...order, createdAt: order.createdAt, delivery: receiptDelivery(order.delivery) },
      profile ?? null,
    );
    await saveReceipt(db, customerId, receipt).catch((error: unknown) =>
      console.warn('Rebuilt receipt could not be stored', error),
    );
  }
  const payment = receiptPayment({
    orderId,
    status: facts.status,
    paymentMethod: facts.paymentMethod,
    successful: facts.network
      ? { network: facts.network, transactionId: facts.transactionId }
      : null,
    receiptTransactionId: receipt.transactionId,
    bankDetails,
    paidInFull: receipt.total === 0 && Number(facts.credit) > 0,
  });
  const transactionId =
    receipt.transactionId ?? (payment.state === 'paid' ? payment.reference : null);
  // A receipt stored before delivery options names the order's (migrated: Kampala delivery).
  const delivery = receipt.delivery ?? receiptDelivery(deliveryOf(facts));
  return { ...receipt, transactionId, payment, delivery, shop };
}
