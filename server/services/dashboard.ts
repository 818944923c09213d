// The owner's morning view (issue 22, desk.dashboard): one db.batch, one trip. Sales count the
// orders placed in the period and not cancelled (paid or not: the screen says so); periods are
// Kampala's (UTC+3): today, this week from Monday, this month.
import { sql } from 'drizzle-orm';
import { kampalaPeriods } from '#core/desk-shop.ts';
import type { Db } from '#db/client.ts';
import { lowStockThresholdSql } from './shop-settings.ts';
import { lowStockVariants } from './stock-service.ts';

export const TOP_PIECES = 5;
export const TOP_PIECES_DAYS = 30;
export const FAILED_TEXTS_DAYS = 7;

type Sales = { orders: number; total: number };

export async function dashboard(db: Db, now = new Date()) {
  const { today, week, month } = kampalaPeriods(now);
  const since = week < month ? week : month;
  const period = (from: Date) =>
    sql`filter (where created_at >= ${from.toISOString()}::timestamptz)`;
  const [sales, statuses, awaiting, money, top, low, texts] = await db.batch([
    db.execute<Record<string, string>>(sql`
      select count(*) ${period(today)} as today_orders,
             coalesce(sum(total) ${period(today)}, 0) as today_total,
             count(*) ${period(week)} as week_orders,
             coalesce(sum(total) ${period(week)}, 0) as week_total,
             count(*) ${period(month)} as month_orders,
             coalesce(sum(total) ${period(month)}, 0) as month_total
      from orders
      where status <> 'cancelled' and created_at >= ${since.toISOString()}::timestamptz`),
    db.execute<{ status: string; orders: string }>(sql`
      select status, count(*) as orders from orders group by status`),
    // As the money desk (server/services/desk-orders-service.ts moneyDesk) sorts them: not paid yet.
    db.execute<{ method: string; orders: string; total: string }>(sql`
      select o.payment_method as method, count(*) as orders, coalesce(sum(o.total), 0) as total
      from orders o
      where (o.status = 'pending'
             or (o.payment_method = 'cash_on_delivery'
                 and o.status not in ('pending', 'completed', 'cancelled')))
        and not exists (
          select 1 from payments p where p.order_id = o.id and p.status = 'successful')
      group by o.payment_method`),
    db.execute<{ status: string; payments: string; amount: string }>(sql`
      select status, count(*) as payments,
             coalesce(sum(case when status = 'short'
                               then amount - coalesce(received_amount, 0)
                               else coalesce(received_amount, amount) end), 0) as amount
      from payments where status in ('short', 'refund_due') group by status`),
    db.execute<{ product_id: number | null; name: string; units: string; revenue: string }>(sql`
      select i.product_id, min(i.name) as name, sum(i.quantity) as units,
             sum(i.price * i.quantity) as revenue
      from order_items i join orders o on o.id = i.order_id
      where o.status <> 'cancelled'
        and o.created_at >= now() - make_interval(days => ${TOP_PIECES_DAYS})
      group by i.product_id, case when i.product_id is null then i.name end
      order by units desc, revenue desc, name
      limit ${TOP_PIECES}`),
    lowStockVariants(db, lowStockThresholdSql, 8),
    db.execute<{ failed: string; latest: string | null }>(sql`
      select count(*) as failed, max(created_at)::text as latest from sms_notifications
      where status = 'failed' and created_at >= now() - make_interval(days => ${FAILED_TEXTS_DAYS})`),
  ]);
  const row = sales.rows[0] ?? {};
  const salesOf = (name: string): Sales => ({
    orders: Number(row[`${name}_orders`] ?? 0),
    total: Number(row[`${name}_total`] ?? 0),
  });
  const awaitingOf = (methods: string[]) => {
    const rows = awaiting.rows.filter((r) => methods.includes(r.method) === true);
    return {
      orders: rows.reduce((n, r) => n + Number(r.orders), 0),
      total: rows.reduce((n, r) => n + Number(r.total), 0),
    };
  };
  const desk = ['bank_transfer', 'cash_on_delivery'];
  const online = awaiting.rows.map((r) => r.method).filter((m) => !desk.includes(m));
  const moneyOf = (status: string) => {
    const found = money.rows.find((r) => r.status === status);
    return { payments: Number(found?.payments ?? 0), amount: Number(found?.amount ?? 0) };
  };
  return {
    sales: { today: salesOf('today'), week: salesOf('week'), month: salesOf('month') },
    ordersByStatus: Object.fromEntries(statuses.rows.map((r) => [r.status, Number(r.orders)])),
    awaiting: {
      online: awaitingOf(online),
      bankTransfers: awaitingOf(['bank_transfer']),
      cash: awaitingOf(['cash_on_delivery']),
    },
    shortPayments: moneyOf('short'),
    refundsDue: moneyOf('refund_due'),
    topPieces: top.rows.map((r) => ({
      productId: r.product_id === null ? null : Number(r.product_id),
      name: r.name,
      units: Number(r.units),
      revenue: Number(r.revenue),
    })),
    lowStock: low,
    textsFailed: {
      count: Number(texts.rows[0]?.failed ?? 0),
      latest: texts.rows[0]?.latest ? new Date(texts.rows[0].latest).toISOString() : null,
    },
  };
}
export type Dashboard = Awaited<ReturnType<typeof dashboard>>;
