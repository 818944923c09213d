// The owner's morning view (issue 22, desk.dashboard): one db.batch, one trip. Periods are
// Kampala's (UTC+3): today, this week from Monday, this month. The sales tell paid from placed
// (issue 34, decision 0079): paid is money that came in the period (an order's successful payment,
// by when it succeeded, whenever the order was placed); placed but unpaid is an order placed in
// the period, not cancelled, with no successful payment yet; declined and expired attempts are
// payments that failed or ran out in the period, apart. Today also lists the status moves of the
// day with the text each sent the customer.
import { sql } from 'drizzle-orm';
import { STATUS_TEXTS } from '#core/desk-order.ts';
import { kampalaPeriods } from '#core/desk-shop.ts';
import type { Db } from '#db/client.ts';
import { lowStockThresholdSql } from './shop-settings.ts';
import { lowStockVariants } from './stock-service.ts';

export const TOP_PIECES = 5;
export const TOP_PIECES_DAYS = 30;
export const FAILED_TEXTS_DAYS = 7;

/** The status moves Today lists at most (the newest). */
export const TODAY_MOVES = 50;

type Sales = { orders: number; total: number };
type Attempts = { attempts: number; amount: number };
export type PeriodSales = { paid: Sales; unpaid: Sales; declined: Attempts; expired: Attempts };

/** A status the customer is texted about, and the text's kind, as SQL rows. */
const statusTexts = sql.join(
  Object.entries(STATUS_TEXTS).map(([status, kind]) => sql`(${status}::text, ${kind}::text)`),
  sql`, `,
);

type MoveRow = {
  order_id: string;
  from_status: string | null;
  to_status: string;
  who: string | null;
  at: string;
  customer_name: string | null;
  text: string | null;
  text_status: string | null;
};

export async function dashboard(db: Db, now = new Date()) {
  const { today, week, month } = kampalaPeriods(now);
  const since = week < month ? week : month;
  const periods = { today, week, month };
  /** `measure` over the rows since each period's start (its time column `at`). */
  const byPeriod = (name: string, measure: string, when: string) =>
    sql.join(
      Object.entries(periods).map(
        ([period, from]) =>
          sql`coalesce(${sql.raw(measure)} filter (where ${sql.raw(when)} and at >= ${from.toISOString()}::timestamptz), 0) as ${sql.raw(`${period}_${name}`)}`,
      ),
      sql`, `,
    );
  const [money, unpaid, statuses, awaiting, waiting, top, low, texts, moves] = await db.batch([
    // Money in, and the attempts that brought none, by when they ended.
    db.execute<Record<string, string>>(sql`
      select ${byPeriod('paid_orders', 'count(*)', "status = 'successful'")},
             ${byPeriod('paid_total', 'sum(amount)', "status = 'successful'")},
             ${byPeriod('declined_attempts', 'count(*)', "status = 'failed'")},
             ${byPeriod('declined_amount', 'sum(amount)', "status = 'failed'")},
             ${byPeriod('expired_attempts', 'count(*)', "status = 'expired'")},
             ${byPeriod('expired_amount', 'sum(amount)', "status = 'expired'")}
      from (select status, amount, coalesce(settled_at, created_at) as at from payments
            where status in ('successful', 'failed', 'expired')
              and coalesce(settled_at, created_at) >= ${since.toISOString()}::timestamptz) ended`),
    // Placed in the period, not cancelled, no money yet.
    db.execute<Record<string, string>>(sql`
      select ${byPeriod('unpaid_orders', 'count(*)', 'true')},
             ${byPeriod('unpaid_total', 'sum(total)', 'true')}
      from (select o.total, o.created_at as at from orders o
            where o.status <> 'cancelled' and o.created_at >= ${since.toISOString()}::timestamptz
              and not exists (
                select 1 from payments p where p.order_id = o.id and p.status = 'successful')) placed`),
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
    // Today's status moves: the desk record's (who, from, to), and, for a move the record does
    // not hold (made before moves were recorded), the customer's status text of today. Each with
    // the text of its order and kind, as it went out.
    db.execute<MoveRow>(sql`
      with status_texts (status, kind) as (values ${statusTexts}),
      recorded as (
        select r.order_id, r.details ->> 'from' as from_status, r.details ->> 'to' as to_status,
               r.actor_email as who, r.created_at as at
        from desk_records r
        where r.action = 'order.status' and r.order_id is not null
          and r.created_at >= ${today.toISOString()}::timestamptz
      ),
      moves as (
        select * from recorded
        union all
        select s.order_id, null, st.status, null, s.created_at
        from sms_notifications s join status_texts st on st.kind = s.kind
        where s.recipient_type = 'customer' and s.order_id is not null
          and s.created_at >= ${today.toISOString()}::timestamptz
          and not exists (select 1 from recorded m
                          where m.order_id = s.order_id and m.to_status = st.status)
      )
      select m.order_id, m.from_status, m.to_status, m.who, to_json(m.at) #>> '{}' as at,
             o.customer_name, sent.message_content as text, sent.status as text_status
      from moves m
      left join orders o on o.id = m.order_id
      left join status_texts st on st.status = m.to_status
      left join lateral (
        select s.message_content, s.status from sms_notifications s
        where s.order_id = m.order_id and s.kind = st.kind and s.recipient_type = 'customer'
        order by s.created_at desc limit 1) sent on true
      order by m.at desc, m.order_id
      limit ${TODAY_MOVES}`),
  ]);
  const paidRow = money.rows[0] ?? {};
  const unpaidRow = unpaid.rows[0] ?? {};
  const figure = (row: Record<string, string>, key: string) => Number(row[key] ?? 0);
  const salesOf = (period: keyof typeof periods): PeriodSales => ({
    paid: {
      orders: figure(paidRow, `${period}_paid_orders`),
      total: figure(paidRow, `${period}_paid_total`),
    },
    unpaid: {
      orders: figure(unpaidRow, `${period}_unpaid_orders`),
      total: figure(unpaidRow, `${period}_unpaid_total`),
    },
    declined: {
      attempts: figure(paidRow, `${period}_declined_attempts`),
      amount: figure(paidRow, `${period}_declined_amount`),
    },
    expired: {
      attempts: figure(paidRow, `${period}_expired_attempts`),
      amount: figure(paidRow, `${period}_expired_amount`),
    },
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
    const found = waiting.rows.find((r) => r.status === status);
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
    moves: moves.rows.map((row) => ({
      orderId: row.order_id,
      customerName: row.customer_name,
      from: row.from_status,
      to: row.to_status,
      /** The staff member's email; null for a move known only by its text. */
      who: row.who,
      at: new Date(row.at).toISOString(),
      text: row.text === null ? null : { content: row.text, status: row.text_status ?? 'pending' },
    })),
  };
}
export type Dashboard = Awaited<ReturnType<typeof dashboard>>;
