// The desk's orders: the order book (every customer's orders, newest first, searched, filtered,
// counted by chip and paged by cursor: decision 0074), and their status; the money the
// staff confirm (bank transfer, cash from the rider) and the refunds they record (decision
// 0037). Only the desk's orders procedures (server/routers/desk/desk-orders-router.ts) call this.
import { eq, type SQL, sql } from 'drizzle-orm';
import { isDeliveryKind } from '#core/delivery-rules.ts';
import { canMarkPaid, isConfirmedAtDesk, MARK_PAID_STATUSES } from '#core/desk-money.ts';
import { orderSubject } from '#core/desk-order.ts';
import {
  COUNT_CAP,
  containsPattern,
  encodeCursor,
  ORDER_BOOK_PAGE,
  ORDER_QUEUES,
  type OrderBookInput,
  type OrderBookQuery,
  type OrderQueue,
  searchTerm,
} from '#core/desk-order-book.ts';
import { kampalaMidnight } from '#core/desk-shop.ts';
import { ORDER_STATUSES, type OrderStatus } from '#core/order-rules.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresCode } from '#db/errors.ts';
import { orders, payments } from '#db/schema/index.ts';
import { type DeskActor, recordDeskWritesFromSql } from './desk-record.ts';
import { airtelSignatureNotice, airtelSignatureSetting } from './payments/airtel-signature.ts';

/** A line of an order as the desk shows it: "2 × Ankara Wrap Dress, M · Indigo". */
export type DeskPiece = { name: string; variant: string; quantity: number };

type BookRow = {
  id: string;
  customer_name: string;
  total: string | number;
  payment_method: string;
  status: string;
  at: string;
  source: string;
  customer_phone: string | null;
  customer_email: string | null;
  delivery_option: string;
  delivery_kind: string;
  delivery_area: string;
  delivery_landmark: string;
  delivery_phone: string | null;
  delivery_notes: string;
  rider_name: string | null;
  rider_phone: string | null;
  items: string | number;
  pieces: DeskPiece[];
  paid_reference: string | null;
};

// ——— The order book's definitions (decision 0074): each written once, here, and used by the
// list's filter and by the chips' counts alike. `o` is the order. ———

/**
 * Paid: a successful payment is recorded for the order. A scalar sub-select, not EXISTS: PostgreSQL
 * turns an EXISTS into a hash of every successful payment (the whole table, linear in the shop);
 * this stays one probe of payments_order_newest_idx per order read (measured: decision 0074).
 */
const paidSql = sql`coalesce((select true from payments p where p.order_id = o.id and p.status = 'successful' limit 1), false)`;

const inList = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** The desk may mark it paid (canMarkPaid in core/desk-money.ts, from its one table). */
const markableSql = sql`(${sql.join(
  Object.entries(MARK_PAID_STATUSES).map(
    ([method, statuses]) =>
      sql`(o.payment_method = ${method} and o.status in (${inList(statuses)}))`,
  ),
  sql` or `,
)})`;

/** The three queues the desk works through (ORDER_QUEUES in core/desk-order-book.ts). */
const QUEUE_SQL: Record<OrderQueue, SQL> = {
  // Paid (or cash on delivery, paid at the door), still to be packed.
  to_pack: sql`(o.status in ('pending', 'processing') and (${paidSql} or o.payment_method = 'cash_on_delivery'))`,
  // The customer's mobile-money or card payment has not arrived.
  awaiting_payment: sql`(o.status = 'pending' and o.payment_method in ('mobile_money', 'card') and not ${paidSql})`,
  // Bank transfers and cash on delivery the desk may still confirm as received.
  to_confirm: sql`(${markableSql} and not ${paidSql})`,
};

/** The filters every chip shares (all but the status and the queue), as conditions on `o`. */
function sharedFilters(input: OrderBookQuery): SQL[] {
  const where: SQL[] = [];
  const term = searchTerm(input.q);
  // search_text is lower-cased by PostgreSQL; orders_search_trgm_idx answers this ILIKE.
  if (term) where.push(sql`o.search_text ilike ${containsPattern(term)}`);
  if (input.paid !== undefined) where.push(input.paid ? paidSql : sql`not ${paidSql}`);
  if (input.method) where.push(sql`o.payment_method = ${input.method}`);
  if (input.delivery) {
    where.push(
      isDeliveryKind(input.delivery)
        ? sql`o.delivery_kind = ${input.delivery}`
        : sql`o.delivery_option_id = ${input.delivery}`,
    );
  }
  if (input.from) where.push(sql`o.created_at >= ${kampalaMidnight(input.from)}::timestamptz`);
  if (input.to) where.push(sql`o.created_at < ${kampalaMidnight(input.to, 1)}::timestamptz`);
  return where;
}

const allOf = (conditions: SQL[]) =>
  conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;

/** The chips: all orders, each queue, each status. */
const CHIP_SQL: [string, SQL | null][] = [
  ['all', null],
  ...ORDER_QUEUES.map((queue): [string, SQL] => [queue, QUEUE_SQL[queue]]),
  ...ORDER_STATUSES.map((status): [string, SQL] => [status, sql`o.status = ${status}`]),
];

export type OrderBookCounts = Record<'all' | OrderQueue | OrderStatus, number>;

/**
 * The chips' counts in ONE statement: for each chip, the orders matching it and the shared
 * filters, counted up to COUNT_CAP (each count a `limit`ed scan of orders_status_newest_idx or
 * orders_newest_idx, so its cost stops growing with the shop). With a search, the matching orders
 * are found once (the trigram index) and the chips count among them.
 */
function countsSql(input: OrderBookQuery) {
  const shared = sharedFilters(input);
  const searched = searchTerm(input.q) !== null;
  const from = searched ? sql`matched o` : sql`orders o`;
  const filter = searched ? [] : shared;
  const counted = CHIP_SQL.map(
    ([key, condition]) =>
      sql`(select count(*) from (select 1 from ${from} where ${allOf([
        ...filter,
        ...(condition ? [condition] : []),
      ])} limit ${COUNT_CAP}) c)::int as ${sql.identifier(key)}`,
  );
  return sql`${
    searched
      ? sql`with matched as materialized (select o.id, o.status, o.payment_method from orders o where ${allOf(shared)} limit ${COUNT_CAP}) `
      : sql``
  }select ${sql.join(counted, sql`, `)}`;
}

/**
 * A page of the desk's order book: 50 orders matching the filters, newest first, after the cursor
 * (keyset over orders_newest_idx / orders_status_newest_idx: created_at, id; no OFFSET, so an
 * order placed while the desk pages lands before the first page, never inside the paging), with
 * the next page's cursor (null on the last) and the chips' counts, in one trip (one batch).
 */
export async function orderBook(db: Db, input: OrderBookInput = {}) {
  const where = sharedFilters(input);
  if (input.status) where.push(sql`o.status = ${input.status}`);
  if (input.queue) where.push(QUEUE_SQL[input.queue]);
  if (input.cursor) {
    where.push(
      sql`(o.created_at, o.id) < (${input.cursor.at}::timestamptz, ${input.cursor.id}::uuid)`,
    );
  }
  const [page, counts] = await db.batch([
    db.execute<BookRow>(sql`
      select o.id, o.customer_name, o.total, o.payment_method, o.status, o.source,
             o.customer_phone, o.customer_email,
             to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
             o.delivery_option, o.delivery_kind, o.delivery_area, o.delivery_landmark,
             o.delivery_phone, o.delivery_notes, o.rider_name, o.rider_phone,
             (select coalesce(sum(oi.quantity), 0)::int from order_items oi where oi.order_id = o.id) as items,
             (select coalesce(json_agg(json_build_object('name', oi.name, 'variant', oi.variant_label, 'quantity', oi.quantity) order by oi.name, oi.variant_label), '[]'::json)
              from order_items oi where oi.order_id = o.id) as pieces,
             -- The successful payment's reference ('' when paid without one), null when none.
             (select coalesce(p.transaction_id, '') from payments p where p.order_id = o.id and p.status = 'successful' limit 1) as paid_reference
      from orders o
      where ${allOf(where)}
      order by o.created_at desc, o.id desc
      limit ${ORDER_BOOK_PAGE + 1}`),
    db.execute<OrderBookCounts>(countsSql(input)),
  ]);
  const rows = page.rows.slice(0, ORDER_BOOK_PAGE);
  const last = rows.at(-1);
  const orders = rows.map((row) => {
    const paid = row.paid_reference !== null;
    const order = {
      id: row.id,
      customerName: row.customer_name,
      total: Number(row.total),
      paymentMethod: row.payment_method,
      status: row.status,
      createdAt: new Date(row.at).toISOString(),
      source: row.source,
      customerPhone: row.customer_phone,
      customerEmail: row.customer_email,
      deliveryOption: row.delivery_option,
      deliveryKind: row.delivery_kind,
      deliveryArea: row.delivery_area,
      deliveryLandmark: row.delivery_landmark,
      deliveryPhone: row.delivery_phone,
      deliveryNotes: row.delivery_notes,
      riderName: row.rider_name,
      riderPhone: row.rider_phone,
      items: Number(row.items),
      pieces: row.pieces.map((piece) => ({ ...piece, quantity: Number(piece.quantity) })),
      paid,
      paidReference: row.paid_reference || null,
    };
    return { ...order, canMarkPaid: !paid && canMarkPaid(order) };
  });
  const [counted] = counts.rows;
  return {
    orders,
    nextCursor:
      page.rows.length > ORDER_BOOK_PAGE && last
        ? encodeCursor({ at: last.at, id: last.id })
        : null,
    counts: Object.fromEntries(
      CHIP_SQL.map(([key]) => [key, Number(counted?.[key as keyof OrderBookCounts] ?? 0)]),
    ) as OrderBookCounts,
  };
}

export type SetStatusProblem =
  | 'not-found'
  | 'pickup-only'
  | 'delivery-only'
  | 'given-back'
  | 'card-issued';

/** Statuses only a pickup order may take; those only an order sent out may take (issue 23). */
const PICKUP_ONLY: readonly OrderStatus[] = ['ready_for_pickup', 'collected'];
const SENT_ONLY: readonly OrderStatus[] = ['out_for_delivery', 'shipped'];

/**
 * Sets the status (with the rider's name and phone when it goes out for delivery); answers the
 * previous one. ONE statement: whether the status fits the order's kind (ready for pickup and
 * collected on a pickup order only; out for delivery and shipped never on one) is checked on the
 * locked row in the same update, so no read-then-write race. A move (from → to, with the rider,
 * the tracking number or the reason) is recorded by `actor` in the same statement (issue 34);
 * a refused change, or the status it has already, records nothing.
 */
export async function setOrderStatus(
  db: Db,
  orderId: string,
  status: OrderStatus,
  rider: { name: string; phone: string } | null | undefined,
  moved: { actor: DeskActor; tracking?: string | null; reason?: string | null },
): Promise<
  | { ok: true; previous: string; refundDue: boolean; kind: string }
  | { ok: false; problem: SetStatusProblem }
> {
  const out = status === 'out_for_delivery' && rider ? rider : null;
  // Cancelling an order whose money was received turns that payment into a refund due, so the
  // desk's Refunds list shows it until the desk records the refund.
  const result = await db.execute<{
    previous: string;
    kind: string;
    given_back: boolean;
    card_issued: boolean;
    changed: number;
    refunds: number;
  }>(sql`
    with old as (
      select id, status as previous, delivery_kind as kind,
             -- Cancelled after taking an offer or a balance: the trigger gave them back (decision
             -- 0081), so the order stays cancelled; reopened, it would keep what it gave back.
             (status = 'cancelled' and (credit > 0 or exists (
               select 1 from order_offers oo where oo.order_id = ${orders}.id))) as given_back,
             -- A gift card it sold is issued (texted, perhaps spent): cancelling would refund the
             -- buyer while the card still spends (decision 0084).
             exists (select 1 from value_accounts va
                     where va.order_id = ${orders}.id and va.issued_at is not null) as card_issued
      from ${orders}
      where id = ${orderId}::uuid for update
    ),
    changed as (
      update ${orders} set status = ${status},
        rider_name = case when ${out !== null}::boolean then ${out?.name ?? null}::text else ${orders.riderName} end,
        rider_phone = case when ${out !== null}::boolean then ${out?.phone ?? null}::text else ${orders.riderPhone} end
      from old
      where ${orders.id} = old.id and not (old.given_back and ${status} <> 'cancelled')
        and not (old.card_issued and ${status} = 'cancelled')
        and (old.kind = 'pickup' or ${status} not in (${sql.join(
          PICKUP_ONLY.map((s) => sql`${s}`),
          sql`, `,
        )}))
        and (old.kind <> 'pickup' or ${status} not in (${sql.join(
          SENT_ONLY.map((s) => sql`${s}`),
          sql`, `,
        )}))
      returning old.id, old.previous
    ),
    recorded as (${recordDeskWritesFromSql(
      moved.actor,
      {
        action: 'order.status',
        subject: sql`${orderSubject(orderId)}::text`,
        details: sql`jsonb_strip_nulls(jsonb_build_object(
          'from', changed.previous, 'to', ${status}::text,
          'rider', case when ${out !== null}::boolean
                   then jsonb_build_object('name', ${out?.name ?? null}::text, 'phone', ${out?.phone ?? null}::text)
                   end,
          'tracking', ${status === 'shipped' ? (moved.tracking ?? null) : null}::text,
          'reason', ${status === 'cancelled' ? (moved.reason ?? null) : null}::text))`,
        orderId: sql`changed.id`,
      },
      sql`changed where changed.previous <> ${status}::text`,
    )}),
    refund as (
      update ${payments} set status = 'refund_due'
      where ${payments.orderId} = ${orderId}::uuid and ${payments.status} = 'successful'
        and ${status} = 'cancelled' and exists (select 1 from changed where previous <> 'cancelled')
      returning ${payments.id}
    )
    select old.previous, old.kind, old.given_back, old.card_issued,
           (select count(*) from changed)::int as changed,
           (select count(*) from refund)::int as refunds
    from old
  `);
  const [row] = result.rows;
  if (!row) return { ok: false, problem: 'not-found' };
  if (Number(row.changed) === 0) {
    if (row.given_back) return { ok: false, problem: 'given-back' };
    if (row.card_issued) return { ok: false, problem: 'card-issued' };
    return { ok: false, problem: row.kind === 'pickup' ? 'delivery-only' : 'pickup-only' };
  }
  return { ok: true, previous: row.previous, refundDue: Number(row.refunds) > 0, kind: row.kind };
}

export type MarkPaidProblem =
  | 'not-found'
  | 'already-paid'
  | 'cancelled'
  | 'paid-by-provider'
  | 'payment-waiting';

type Received = { order_id: string; amount: string | number; transaction_id: string };

/**
 * The desk confirms a bank transfer, or the cash the rider handed over, as received. ONE
 * statement: a successful payment (the order's own total, read in the statement; the bank's or
 * rider's reference; who confirmed) is inserted only while the order may be marked paid and has
 * no successful payment; a pending order becomes processing; the receipt gets the reference.
 * The partial unique index (one pending-or-successful payment per order) is the last guard: of
 * two racing confirmations one inserts, the other finds nothing to do.
 */
export async function markOrderPaid(
  db: Db,
  input: { orderId: string; reference: string; operatorId: string; actor: DeskActor },
): Promise<
  | { ok: true; orderId: string; amount: number; reference: string }
  | { ok: false; problem: MarkPaidProblem }
> {
  let received: Received[] = [];
  try {
    const result = await paidStatement(db, input);
    received = result.rows;
  } catch (error) {
    // 23505: the other confirmation of a double submit won the race (the unique index).
    if (postgresCode(error) !== PG.unique) throw error;
  }
  const [done] = received;
  if (done) {
    return {
      ok: true,
      orderId: done.order_id,
      amount: Number(done.amount),
      reference: done.transaction_id,
    };
  }
  return { ok: false, problem: await whyNotPaid(db, input.orderId) };
}

/**
 * markOrderPaid's one statement, unsent: the desk's Mark paid sends it alone; a counter sale paid
 * in cash (issue 34) sends it in the batch that places the order, so the order is paid at once.
 * The payment's network is the order's way of paying ('cash' for the counter's).
 */
export function paidStatement(
  db: Db,
  input: { orderId: string; reference: string; operatorId: string; actor: DeskActor },
) {
  const id = crypto.randomUUID();
  return db.execute<Received>(sql`
      with due as (
        select o.id, o.customer_id, o.payment_method, o.total from orders o
        where o.id = ${input.orderId}::uuid
          and (
            (o.payment_method in ('bank_transfer', 'cash') and o.status = 'pending')
            or (o.payment_method = 'cash_on_delivery'
                and o.status not in ('completed', 'cancelled'))
          )
          and not exists (
            select 1 from payments p where p.order_id = o.id and p.status = 'successful'
          )
        for update
      ),
      received as (
        insert into payments (id, order_id, customer_id, network, amount, status, transaction_id,
                              confirmed_by, callback_secret, settled_at)
        select ${id}::uuid, due.id, due.customer_id, due.payment_method, due.total, 'successful',
               ${input.reference}, ${input.operatorId}, ${crypto.randomUUID()}, now()
        from due
        on conflict do nothing
        returning order_id, amount, transaction_id, network
      ),
      recorded as (${recordDeskWritesFromSql(
        input.actor,
        {
          action: 'order.paid',
          subject: sql`${orderSubject(input.orderId)}::text`,
          details: sql`jsonb_build_object('reference', received.transaction_id,
            'amount', received.amount, 'method', received.network)`,
          orderId: sql`received.order_id`,
        },
        sql`received`,
      )}),
      processing as (
        update orders set status = 'processing'
        where id in (select order_id from received) and status = 'pending'
        returning id
      ),
      receipt as (
        update receipts r
        set transaction_id = received.transaction_id,
            receipt_data = jsonb_set(r.receipt_data, '{transactionId}', to_jsonb(received.transaction_id))
        from received where r.order_id = received.order_id
        returning r.id
      )
      select order_id, amount, transaction_id from received
    `);
}

/** Why an order could not be marked paid (read after the statement changed nothing). */
async function whyNotPaid(db: Db, orderId: string): Promise<MarkPaidProblem> {
  const [order] = await db
    .select({
      status: orders.status,
      paymentMethod: orders.paymentMethod,
      paid: sql<boolean>`exists (select 1 from payments p where p.order_id = "orders"."id" and p.status = 'successful')`,
      waiting: sql<boolean>`exists (select 1 from payments p where p.order_id = "orders"."id" and p.status = 'pending')`,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return 'not-found';
  if (order.paid) return 'already-paid';
  if (order.status === 'cancelled') return 'cancelled';
  if (!isConfirmedAtDesk(order.paymentMethod)) return 'paid-by-provider';
  if (order.waiting) return 'payment-waiting';
  // A bank transfer past pending, a completed cash order (the shop settled it already), or the
  // other confirmation of a double submit.
  return 'already-paid';
}

export type MarkRefundedProblem = 'not-found' | 'already-refunded' | 'not-refundable';

/**
 * Records that money due back (refund_due, or a short payment that did not pay its order) was
 * returned by hand: one statement, only from those states, so a second call changes nothing. The
 * payment's refund row (issue 36) settles with it: the one the desk started through the provider
 * succeeds with this reference, else a succeeded one is written (its credit note).
 */
export async function markPaymentRefunded(
  db: Db,
  input: { paymentId: string; reference: string; operatorId: string; actor: DeskActor },
): Promise<
  | { ok: true; paymentId: string; orderId: string | null; amount: number }
  | { ok: false; problem: MarkRefundedProblem }
> {
  // One statement: the refund, its row and its record (on the payment's order) together.
  const result = await db.execute<{ id: string; order_id: string | null; amount: string }>(sql`
    with refunded as (
      update ${payments} set status = 'refunded', refund_reference = ${input.reference},
        refunded_at = now(), confirmed_by = ${input.operatorId}
      where ${payments.id} = ${input.paymentId}::uuid and ${payments.status} in ('refund_due', 'short')
      returning ${payments.id} as id, ${payments.orderId} as order_id,
        ${payments.customerId} as customer_id, ${payments.network} as network,
        ${payments.amount} as amount, ${payments.receivedAmount} as received, ${payments.status} as status
    ),
    settled as (
      update refunds r set status = 'succeeded', reference = ${input.reference},
        settled_at = now(), sent_at = coalesce(r.sent_at, now()), reason = null,
        actor_email = ${input.actor.email}
      from refunded where r.payment_id = refunded.id and r.status in ('requested', 'sent')
      returning r.id
    ),
    written as (
      insert into refunds (order_id, payment_id, customer_id, method, amount, status, reference,
        actor_email, sent_at, settled_at)
      select refunded.order_id, refunded.id, refunded.customer_id, refunded.network,
        coalesce(refunded.received, refunded.amount), 'succeeded', ${input.reference},
        ${input.actor.email}, now(), now()
      from refunded where not exists (select 1 from settled)
      on conflict do nothing
      returning id
    ),
    recorded as (${recordDeskWritesFromSql(
      input.actor,
      {
        action: 'order.refunded',
        subject: sql`coalesce('Order #' || left(refunded.order_id::text, 8), 'Deleted order')`,
        details: sql`jsonb_build_object('reference', ${input.reference}::text,
          'amount', coalesce(refunded.received, refunded.amount), 'paymentId', refunded.id)`,
        orderId: sql`refunded.order_id`,
      },
      sql`refunded`,
    )})
    select id, order_id, coalesce(received, amount) as amount from refunded
  `);
  const [row] = result.rows;
  if (row)
    return { ok: true, paymentId: row.id, orderId: row.order_id, amount: Number(row.amount) };
  const [payment] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.id, input.paymentId));
  if (!payment) return { ok: false, problem: 'not-found' };
  return {
    ok: false,
    problem: payment.status === 'refunded' ? 'already-refunded' : 'not-refundable',
  };
}

type AwaitingRow = {
  id: string;
  customer_name: string | null;
  total: string | number;
  payment_method: string;
  status: string;
  created_at: string | Date;
  payment_status: string | null;
  payment_network: string | null;
};

type MoneyRow = {
  id: string;
  order_id: string | null;
  network: string;
  phone: string | null;
  amount: string | number;
  received_amount: string | number | null;
  received_currency: string | null;
  status: string;
  transaction_id: string | null;
  refund_reference: string | null;
  created_at: string | Date;
  settled_at: string | Date | null;
  refunded_at: string | Date | null;
  customer_name: string | null;
};

const iso = (value: string | Date | null) =>
  value === null ? null : new Date(value).toISOString();

function moneyRow(row: MoneyRow) {
  return {
    id: row.id,
    orderId: row.order_id,
    customerName: row.customer_name,
    network: row.network,
    phone: row.phone,
    expected: Number(row.amount),
    received: row.received_amount === null ? null : Number(row.received_amount),
    receivedCurrency: row.received_currency,
    status: row.status,
    transactionId: row.transaction_id,
    refundReference: row.refund_reference,
    createdAt: iso(row.created_at) ?? '',
    settledAt: iso(row.settled_at),
    refundedAt: iso(row.refunded_at),
  };
}

/**
 * The desk's money view, in one round trip: orders whose money has not arrived (bank transfers
 * and cash to confirm, oldest first; mobile-money and card payments waiting, newest first), money
 * due back, short or reversed payments, the refunds recorded in the last week, and whether Airtel
 * refuses the shop's signature.
 */
export async function moneyDesk(db: Db, limit = 100) {
  /** Orders not paid yet, by who confirms them (the desk, or a provider). */
  const unpaid = (byDesk: boolean, newestFirst: boolean) => sql`
      select o.id, o.customer_name, o.total, o.payment_method, o.status, o.created_at,
             latest.status as payment_status, latest.network as payment_network
      from orders o
      left join lateral (
        select p.status, p.network from payments p where p.order_id = o.id
        order by p.created_at desc limit 1
      ) latest on true
      where (o.status = 'pending'
             or (o.payment_method = 'cash_on_delivery'
                 and o.status not in ('pending', 'completed', 'cancelled')))
        and (o.payment_method in ('bank_transfer', 'cash_on_delivery')) = ${byDesk}
        and not exists (
          select 1 from payments p where p.order_id = o.id and p.status = 'successful'
        )
      order by o.created_at ${newestFirst ? sql`desc` : sql`asc`}, o.id
      limit ${limit}
    `;
  const [toConfirm, waiting, attention, airtelSignature] = await db.batch([
    // Oldest first: the longest wait is confirmed first.
    db.execute<AwaitingRow>(unpaid(true, false)),
    // Newest first: an abandoned mobile-money order from last month matters least.
    db.execute<AwaitingRow>(unpaid(false, true)),
    db.execute<MoneyRow>(sql`
      select p.id, p.order_id, p.network, p.phone, p.amount, p.received_amount,
             p.received_currency, p.status, p.transaction_id, p.refund_reference, p.created_at,
             p.settled_at, p.refunded_at, o.customer_name
      from payments p left join orders o on o.id = p.order_id
      where p.status in ('refund_due', 'short', 'reversed')
         or (p.status = 'refunded' and p.refunded_at > now() - interval '7 days')
      order by p.created_at asc, p.id
      limit ${limit * 2}
    `),
    // Airtel refusing the shop's signature: what to change (payments/airtel-signature.ts).
    airtelSignatureSetting(db),
  ]);
  const orderRow = (row: AwaitingRow) => ({
    orderId: row.id,
    customerName: row.customer_name,
    total: Number(row.total),
    paymentMethod: row.payment_method,
    status: row.status,
    createdAt: iso(row.created_at) ?? '',
    paymentStatus: row.payment_status,
    paymentNetwork: row.payment_network,
  });
  const money = attention.rows.map(moneyRow);
  return {
    toConfirm: toConfirm.rows.map(orderRow),
    waiting: waiting.rows.map(orderRow),
    refundsDue: money.filter((row) => row.status === 'refund_due'),
    shortOrReversed: money.filter((row) => row.status === 'short' || row.status === 'reversed'),
    refunded: money.filter((row) => row.status === 'refunded').reverse(),
    /** Set when Airtel refused the shop's signature: the setting to change, in a sentence. */
    airtelSignature: airtelSignatureNotice(airtelSignature[0]?.value),
  };
}
