// What the assistant's myReturns tool reads (issue 36): the signed-in shopper's own orders with
// whether each piece can still go back and until when, her returns with their refunds, and any
// other money the shop owes her, from the tables of migration 0020 in one round trip. Nothing here
// takes another shopper's id: every query is bound to `customerId`.
import { and, desc, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import {
  orderRefundLine,
  orderReturnLine,
  type RefundForShopper,
  type ReturnForShopper,
  returnLine,
} from '#core/chat-returns.ts';
import type { Handover, RefundMethod, RefundState } from '#core/returns.ts';
import type { Db } from '#db/client.ts';
import {
  orderItems,
  orders,
  payments,
  products,
  refunds,
  returnLines,
  returns,
} from '#db/schema/index.ts';
import { shownToShopper } from '../orders-service.ts';
import { returnWindowsFrom, settingsQuery } from '../shop-settings.ts';

/** How many of each the tool tells (its answer costs tokens): the newest. */
const TOLD = 5;

const refundColumns = {
  returnId: refunds.returnId,
  orderId: refunds.orderId,
  method: sql<RefundMethod>`${refunds.method}`,
  amount: refunds.amount,
  status: sql<RefundState>`${refunds.status}`,
  reference: refunds.reference,
  settledAt: refunds.settledAt,
};

/**
 * The shopper's returns answer, one line each: her orders not cancelled (newest delivered first),
 * her returns, and refunds that are not a return's (a cancelled order's money, sent or due).
 * `orderIdPart`: only the order whose id starts so (from a receipt reference).
 */
export async function myReturns(
  db: Db,
  customerId: string,
  orderIdPart: string | null,
  now: Date,
): Promise<string[]> {
  const ofOrder = (column: typeof orders.id | typeof returns.orderId): SQL | undefined =>
    orderIdPart ? sql`${column}::text like ${`${orderIdPart}%`}` : undefined;
  const theirOrders = and(
    shownToShopper(customerId),
    ne(orders.status, 'cancelled'),
    ofOrder(orders.id),
  );
  const newestDelivered = [
    desc(sql`coalesce(${orders.deliveredAt}, ${orders.createdAt})`),
    desc(orders.id),
  ];
  const toldOrders = db
    .select({ id: orders.id })
    .from(orders)
    .where(theirOrders)
    .orderBy(...newestDelivered)
    .limit(TOLD);
  // Her own returns on her own orders: the order's customer must be hers too.
  const theirReturns = and(
    eq(returns.customerId, customerId),
    eq(orders.customerId, customerId),
    ofOrder(returns.orderId),
  );
  const toldReturns = db
    .select({ id: returns.id })
    .from(returns)
    .innerJoin(orders, eq(orders.id, returns.orderId))
    .where(theirReturns)
    .orderBy(desc(returns.createdAt), desc(returns.id))
    .limit(TOLD);
  const [orderRows, itemRows, returnRows, lineRows, refundRows, dueRows, settingRows] =
    await db.batch([
      db
        .select({ id: orders.id, status: orders.status, deliveredAt: orders.deliveredAt })
        .from(orders)
        .where(theirOrders)
        .orderBy(...newestDelivered)
        .limit(TOLD),
      db
        .select({
          orderId: orderItems.orderId,
          name: orderItems.name,
          variantLabel: orderItems.variantLabel,
          quantity: orderItems.quantity,
          returned: orderItems.returned,
          // A line with no product (a gift card, a removed piece) has nothing to take back.
          returnable: sql<boolean>`coalesce(${products.returnable}, false)`,
        })
        .from(orderItems)
        .leftJoin(products, eq(products.id, orderItems.productId))
        .where(inArray(orderItems.orderId, toldOrders))
        .orderBy(orderItems.name, orderItems.id),
      db
        .select({
          id: returns.id,
          orderId: returns.orderId,
          status: returns.status,
          resolution: returns.resolution,
          handover: sql<Handover | null>`${returns.handover}`,
          pickupFee: returns.pickupFee,
          staffReason: returns.staffReason,
          exchangeStatus: returns.exchangeStatus,
          amount: returns.amount,
          createdAt: returns.createdAt,
        })
        .from(returns)
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .where(theirReturns)
        .orderBy(desc(returns.createdAt), desc(returns.id))
        .limit(TOLD),
      db
        .select({
          returnId: returnLines.returnId,
          name: orderItems.name,
          variantLabel: orderItems.variantLabel,
          quantity: returnLines.quantity,
          exchangeLabel: returnLines.exchangeLabel,
        })
        .from(returnLines)
        .innerJoin(orderItems, eq(orderItems.id, returnLines.orderItemId))
        .where(inArray(returnLines.returnId, toldReturns))
        .orderBy(orderItems.name, orderItems.id),
      db
        .select(refundColumns)
        .from(refunds)
        .innerJoin(orders, eq(orders.id, refunds.orderId))
        .where(
          and(
            eq(refunds.customerId, customerId),
            eq(orders.customerId, customerId),
            or(inArray(refunds.returnId, toldReturns), isNull(refunds.returnId)),
            ofOrder(orders.id),
          ),
        )
        .orderBy(desc(refunds.createdAt), desc(refunds.id))
        .limit(TOLD * 3),
      // Money due back that no refund is sending yet (a paid order cancelled).
      db
        .select({ orderId: payments.orderId, method: payments.network, amount: payments.amount })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(
          and(
            eq(orders.customerId, customerId),
            eq(payments.status, 'refund_due'),
            ofOrder(orders.id),
            sql`not exists (select 1 from ${refunds} r
              where r.payment_id = ${payments.id} and r.status <> 'failed')`,
          ),
        )
        .orderBy(desc(payments.createdAt))
        .limit(TOLD),
      settingsQuery(db),
    ]);
  const windows = returnWindowsFrom(settingRows);
  const told: string[] = orderRows.map((order) =>
    orderReturnLine(
      { ...order, lines: itemRows.filter((item) => item.orderId === order.id) },
      windows,
      now,
    ),
  );
  for (const found of returnRows) {
    const shown: ReturnForShopper = {
      ...found,
      lines: lineRows.filter((line) => line.returnId === found.id),
      refunds: refundRows.filter((refund) => refund.returnId === found.id),
    };
    told.push(returnLine(shown));
  }
  const owed: RefundForShopper[] = [
    ...dueRows.map((due) => ({
      ...due,
      method: due.method as RefundMethod,
      status: 'requested' as const,
      reference: null,
      settledAt: null,
    })),
    ...refundRows.filter((refund) => refund.returnId === null),
  ];
  told.push(...owed.map(orderRefundLine));
  if (told.length === 0) {
    told.push(
      orderIdPart
        ? 'No order of yours has that reference. Your orders are under My Orders.'
        : 'You have no orders, returns or refunds yet.',
    );
  }
  return told;
}
