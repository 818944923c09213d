// The operator's desk: every customer's orders, newest first, and their status. Only the
// operator router (operatorProcedure) calls this.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { OrderStatus } from '#core/orders.ts';
import type { Db } from '#db/client.ts';
import { orders, payments } from '#db/schema/index.ts';

export async function recentOrders(db: Db, limit = 50) {
  const rows = await db
    .select({
      id: orders.id,
      customerName: orders.customerName,
      total: orders.total,
      paymentMethod: orders.paymentMethod,
      status: orders.status,
      createdAt: orders.createdAt,
      // Spelled out: inside a sub-select drizzle would leave the outer column unqualified.
      items: sql<number>`(select coalesce(sum(oi.quantity), 0)::int from order_items oi where oi.order_id = "orders"."id")`,
    })
    .from(orders)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Sets the status; answers the previous one (null: no such order). One statement. */
export async function setOrderStatus(
  db: Db,
  orderId: string,
  status: OrderStatus,
): Promise<{ previous: string } | null> {
  const result = await db.execute<{ previous: string }>(sql`
    update ${orders} set status = ${status}
    from (select id, status as previous from ${orders} where id = ${orderId}::uuid for update) old
    where ${orders.id} = old.id
    returning old.previous
  `);
  const [row] = result.rows;
  return row ? { previous: row.previous } : null;
}

/** Whether money was received for the order (a successful mobile-money payment). */
export const orderWasPaid = async (db: Db, orderId: string) =>
  (
    await db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'successful')))
      .limit(1)
  ).length > 0;
