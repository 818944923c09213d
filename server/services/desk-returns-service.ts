// The desk's returns (issue 36, decision 0086): the queue, a return with its order and record,
// and the staff's steps, each ONE statement with its desk record (order_id set, so the order's
// page shows it): approve (the handover and the pickup's fee) or refuse (the pieces may be asked
// for again and the held exchange stock goes back), receive (stock back or logged damaged, the
// refund's rows and any store credit granted), and the exchange's own delivery.
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { receiptNumber } from '#core/order-rules.ts';
import {
  type Condition,
  type Handover,
  pickupFee,
  type RefundDestination,
  type ReturnReason,
  type ReturnState,
  refundSplit,
} from '#core/returns.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresError } from '#db/errors.ts';
import {
  deskRecords,
  orderItems,
  orders,
  payments,
  products,
  productVariants,
  refunds,
  returnLines,
  returns,
} from '#db/schema/index.ts';
import type { Answer } from '../shopper-error.ts';
import { bumpCatalogueVersionSql } from './catalogue-version.ts';
import { type DeskActor, recordDeskWritesFromSql } from './desk-record.ts';
import { type ReadRows, returnReads, returnViewOf, zoneFeeSql } from './returns-service.ts';
import { type SettingsFallback, settingsFrom, settingsQuery } from './shop-settings.ts';
import { creditedSql } from './value-service.ts';

/** The queue's length at most: the newest first. */
const QUEUE_MAX = 100;

export type DeskReturnRow = {
  id: string;
  orderId: string;
  orderRef: string;
  customerName: string;
  phone: string | null;
  status: string;
  resolution: string;
  refundTo: string | null;
  amount: number;
  createdAt: string;
  pieces: number;
  reasons: string[];
  handover: string | null;
  exchangeStatus: string | null;
  refundStatus: string | null;
};

/** desk.returns: the newest returns (of one status, when asked) and how many are in each. */
export async function deskReturns(
  db: Db,
  status?: ReturnState,
): Promise<{ returns: DeskReturnRow[]; counts: Record<string, number> }> {
  const [rows, counts] = await db.batch([
    db
      .select({
        id: returns.id,
        orderId: returns.orderId,
        customerName: orders.customerName,
        phone: sql<string | null>`coalesce(
          (select p.phone from profiles p where p.id = ${orders.customerId}), ${orders.customerPhone})`,
        status: returns.status,
        resolution: returns.resolution,
        refundTo: returns.refundTo,
        amount: returns.amount,
        createdAt: returns.createdAt,
        handover: returns.handover,
        exchangeStatus: returns.exchangeStatus,
        pieces: sql<number>`(select coalesce(sum(l.quantity), 0)::int from return_lines l
          where l.return_id = ${returns.id})`.mapWith(Number),
        reasons: sql<string[]>`array(select distinct l.reason from return_lines l
          where l.return_id = ${returns.id} order by 1)`,
        refundStatus: sql<string | null>`(select f.status from refunds f
          where f.return_id = ${returns.id} order by (f.method <> 'store_credit') desc,
          f.created_at desc limit 1)`,
      })
      .from(returns)
      .innerJoin(orders, eq(orders.id, returns.orderId))
      .where(status ? eq(returns.status, status) : undefined)
      .orderBy(desc(returns.createdAt), desc(returns.id))
      .limit(QUEUE_MAX),
    db
      .select({ status: returns.status, count: sql<number>`count(*)::int`.mapWith(Number) })
      .from(returns)
      .groupBy(returns.status),
  ]);
  return {
    returns: rows.map((row) => ({
      ...row,
      orderRef: receiptNumber(row.orderId),
      createdAt: row.createdAt.toISOString(),
    })),
    counts: Object.fromEntries(counts.map((c) => [c.status, c.count])),
  };
}

/** The desk's records of a return (each carries its id in the details). */
const recordsOf = (db: Db, returnId: string) =>
  db
    .select({
      id: deskRecords.id,
      actorEmail: deskRecords.actorEmail,
      action: deskRecords.action,
      subject: deskRecords.subject,
      details: deskRecords.details,
      createdAt: deskRecords.createdAt,
    })
    .from(deskRecords)
    .where(sql`${deskRecords.details}->>'returnId' = ${returnId}`)
    .orderBy(desc(deskRecords.id));

/** desk.returnById: the shopper's view and what the desk adds (null: not found). */
export async function deskReturnById(db: Db, returnId: string, fallback: SettingsFallback) {
  const [found, lines, refundRows, settingRows, records] = await db.batch([
    ...returnReads(db, eq(returns.id, returnId)),
    recordsOf(db, returnId),
  ]);
  const read = returnViewOf(
    [found, lines, refundRows, settingRows] as unknown as ReadRows,
    fallback,
  );
  if (!read) return null;
  const { view, found: head } = read;
  return {
    ...view,
    customerName: head.customerName,
    phone: head.phone,
    orderRef: receiptNumber(view.orderId),
    deliveryArea: head.deliveryArea,
    lines: view.lines.map((line, i) => ({
      ...line,
      exchangeVariantId: lines[i]?.exchangeVariantId ?? null,
      price: lines[i]?.price ?? 0,
    })),
    refunds: view.refunds.map((refund, i) => ({
      ...refund,
      reason: read.list[i]?.reason ?? null,
      createdAt: (read.list[i]?.createdAt ?? new Date(view.createdAt)).toISOString(),
    })),
    record: records.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}

/** What a desk step reads first: the return, its order's figures and its lines' reasons. */
const headRead = (db: Db, returnId: string) =>
  db
    .select({
      id: returns.id,
      orderId: returns.orderId,
      customerId: returns.customerId,
      status: returns.status,
      resolution: returns.resolution,
      refundTo: returns.refundTo,
      amount: returns.amount,
      pickupFee: returns.pickupFee,
      exchangeStatus: returns.exchangeStatus,
      deliveryKind: orders.deliveryKind,
      zoneFee: zoneFeeSql,
      reasons: sql<string[]>`array(select l.reason from return_lines l
        where l.return_id = ${returns.id})`,
    })
    .from(returns)
    .innerJoin(orders, eq(orders.id, returns.orderId))
    .where(eq(returns.id, returnId));

/** The record's columns for a return's step, read from the step's own CTE row. */
const returnRecord = (action: string, ref: string, details: SQL) => ({
  action,
  subject: sql`${`Return for ${ref}`}::text`,
  details,
  orderId: sql`order_id`,
});

// ---------------------------------------------------------------------------------------------
// Approve or refuse

export type DecideProblem = 'not-found' | 'already-decided';
export type Decided = { status: ReturnState; orderId: string; cameBack: number[] };

export async function decideReturn(
  db: Db,
  actor: DeskActor,
  input: { returnId: string; decision: 'approve' | 'refuse'; reason?: string; handover?: Handover },
  fallback: SettingsFallback,
): Promise<Answer<Decided, DecideProblem>> {
  const [[head], settingRows] = await db.batch([headRead(db, input.returnId), settingsQuery(db)]);
  if (!head) return { ok: false, problem: 'not-found' };
  const ref = receiptNumber(head.orderId);
  if (input.decision === 'approve') {
    // The rider collects from an order that was delivered; a collected one is brought back.
    const handover = input.handover ?? (head.deliveryKind === 'pickup' ? 'drop_off' : 'pickup');
    const rule = settingsFrom(settingRows, fallback).values.returnPickupFee;
    const fee =
      handover === 'pickup' ? pickupFee(rule, head.reasons as ReturnReason[], head.zoneFee) : 0;
    const result = await db.execute<{ id: string }>(sql`
      with decided as (
        update returns set status = 'approved', handover = ${handover}, pickup_fee = ${fee}::bigint,
               staff_reason = ${input.reason ?? null}, decided_at = now()
        where id = ${input.returnId}::uuid and status = 'requested'
        returning id, order_id
      ),
      recorded as (${recordDeskWritesFromSql(
        actor,
        returnRecord(
          'return.approved',
          ref,
          sql`jsonb_build_object('returnId', id, 'handover', ${handover}::text, 'pickupFee', ${fee}::bigint)`,
        ),
        sql`decided`,
      )})
      select id from decided`);
    if (!result.rows[0]) return { ok: false, problem: 'already-decided' };
    return { ok: true, status: 'approved', orderId: head.orderId, cameBack: [] };
  }
  // Refused before the piece came back: her pieces may be asked for again and the exchange's
  // held stock goes back, each logged, in the refusal's own statement.
  const result = await db.execute<{ id: string; came_back: number[] | null }>(sql`
    with decided as (
      update returns set status = 'refused', staff_reason = ${input.reason ?? ''},
             decided_at = now(), closed_at = now()
      where id = ${input.returnId}::uuid and status in ('requested', 'approved')
      returning id, order_id
    ),
    lines as (
      select l.* from return_lines l join decided d on d.id = l.return_id
    ),
    given_back as (
      update order_items i set returned = i.returned - l.quantity
      from lines l where i.id = l.order_item_id
    ),
    released_pieces as (
      select exchange_variant_id as variant_id, sum(quantity)::int as quantity
      from lines where exchange_variant_id is not null group by 1
    ),
    released as (
      update product_variants v set stock = v.stock + x.quantity
      from released_pieces x where v.id = x.variant_id
      returning v.id, v.sku, v.stock, x.quantity
    ),
    logged as (
      insert into stock_movements (variant_id, sku, change, stock_after, reason, order_id,
                                   actor_email)
      select released.id, released.sku, released.quantity, released.stock, 'exchange-released',
             decided.order_id, ${actor.email}
      from released cross join decided
    ),
    recorded as (${recordDeskWritesFromSql(
      actor,
      returnRecord(
        'return.refused',
        ref,
        sql`jsonb_build_object('returnId', id, 'reason', ${input.reason ?? ''}::text)`,
      ),
      sql`decided`,
    )}),
    bumped as (${bumpCatalogueVersionSql})
    select decided.id,
           array(select id from released where stock - quantity <= 0) as came_back
    from decided`);
  const [row] = result.rows;
  if (!row) return { ok: false, problem: 'already-decided' };
  return {
    ok: true,
    status: 'refused',
    orderId: head.orderId,
    cameBack: (row.came_back ?? []).map(Number),
  };
}

// ---------------------------------------------------------------------------------------------
// Receive

export type ReceiveProblem = 'not-found' | 'not-approved' | 'condition-missing' | 'line-not-found';
export type Received = {
  status: string;
  orderId: string;
  refunds: { id: string; method: string; amount: number; status: string }[];
  /** Refunds written now, still to send through their provider (sendRefund). */
  toSend: string[];
  /** Variants back in stock from 0 (their waiting shoppers are texted). */
  cameBack: number[];
};

const DONE: readonly string[] = ['received', 'refunded', 'exchanged'];

/** The order's successful payment, whether a refund of it is live already, and the lines. */
const receiveReads = (db: Db, returnId: string, orderId: string) =>
  [
    db
      .select({
        id: payments.id,
        network: payments.network,
        amount: payments.amount,
        refunded: sql<boolean>`exists (select 1 from refunds f
          where f.payment_id = ${payments.id} and f.status <> 'failed')`,
      })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'successful')))
      .limit(1),
    db
      .select({
        orderItemId: returnLines.orderItemId,
        quantity: returnLines.quantity,
        price: orderItems.price,
        exchangePrice: sql<number | null>`coalesce(${productVariants.price}, ${products.price})`,
      })
      .from(returnLines)
      .innerJoin(orderItems, eq(orderItems.id, returnLines.orderItemId))
      .leftJoin(productVariants, eq(productVariants.id, returnLines.exchangeVariantId))
      .leftJoin(products, eq(products.id, productVariants.productId))
      .where(eq(returnLines.returnId, returnId)),
    db
      .select({
        id: refunds.id,
        method: refunds.method,
        amount: refunds.amount,
        status: refunds.status,
      })
      .from(refunds)
      .where(eq(refunds.returnId, returnId))
      .orderBy(refunds.createdAt),
  ] as const;

type RefundToWrite = {
  paymentId: string | null;
  method: string;
  amount: number;
  status: 'requested' | 'succeeded';
};

/**
 * Receives the pieces (desk.receiveReturn). ONE statement, only while the return is approved (a
 * second call, or ten at once, changes nothing more: the first moves it on): each line's condition
 * kept; resellable pieces back in stock with a 'returned' movement, damaged ones logged
 * 'return-damaged' (a change of 0); for a refund, its rows by refundSplit (to the order's
 * successful payment, through its network, what that payment can still send back; the rest, or
 * all when she chose it, to store credit, granted here with its 'refund' ledger entry and a
 * succeeded store_credit row); for an exchange, its delivery 'preparing' and a cheaper piece's
 * difference to store credit. The refund to a payment is left 'requested' for sendRefund.
 */
export async function receiveReturn(
  db: Db,
  actor: DeskActor & { id: string },
  input: { returnId: string; lines: { orderItemId: string; condition: Condition }[] },
  attempt = 1,
): Promise<Answer<Received, ReceiveProblem>> {
  const [head] = await headRead(db, input.returnId);
  if (!head) return { ok: false, problem: 'not-found' };
  const [[payment], lines, existing] = await db.batch(
    receiveReads(db, input.returnId, head.orderId),
  );
  const answerNow = (): Answer<Received, ReceiveProblem> => ({
    ok: true,
    status: head.status,
    orderId: head.orderId,
    refunds: existing.map((r) => ({ ...r })),
    toSend: [],
    cameBack: [],
  });
  if (DONE.includes(head.status)) return answerNow();
  if (head.status !== 'approved') return { ok: false, problem: 'not-approved' };
  const asked = new Map(input.lines.map((l) => [l.orderItemId, l.condition]));
  if (input.lines.some((l) => !lines.some((line) => line.orderItemId === l.orderItemId))) {
    return { ok: false, problem: 'line-not-found' };
  }
  if (lines.some((line) => !asked.has(line.orderItemId))) {
    return { ok: false, problem: 'condition-missing' };
  }

  const toWrite: RefundToWrite[] = [];
  let credit = 0;
  let next: ReturnState = 'received';
  if (head.resolution === 'refund') {
    const due = Math.max(0, head.amount - head.pickupFee);
    const split = refundSplit({
      amount: due,
      to: (head.refundTo ?? 'original') as RefundDestination,
      paymentLeft: payment && !payment.refunded ? payment.amount : 0,
    });
    if (split.original > 0 && payment) {
      toWrite.push({
        paymentId: payment.id,
        method: payment.network,
        amount: split.original,
        status: 'requested',
      });
    }
    credit = head.customerId ? split.credit : 0;
    // Nothing left to send through a provider: the return is done once received.
    if (split.original === 0) next = 'refunded';
  } else {
    const given = lines.reduce(
      (sum, l) => sum + Number(l.exchangePrice ?? l.price) * l.quantity,
      0,
    );
    credit = head.customerId ? Math.max(0, head.amount - given - head.pickupFee) : 0;
  }
  if (credit > 0) {
    toWrite.push({ paymentId: null, method: 'store_credit', amount: credit, status: 'succeeded' });
  }
  const ref = receiptNumber(head.orderId);
  const conditions = input.lines.map((l) => ({
    orderItemId: l.orderItemId,
    condition: l.condition,
  }));
  try {
    const result = await db.execute<{
      id: string | null;
      refunds: Received['refunds'] | null;
      came_back: number[] | null;
    }>(sql`
      with got as (
        update returns set status = ${next}, received_at = now(),
               closed_at = case when ${next} = 'refunded' then now() end,
               exchange_status = case when resolution = 'exchange' then 'preparing' end
        where id = ${input.returnId}::uuid and status = 'approved'
        returning id, order_id, customer_id
      ),
      conditions as (
        select * from json_to_recordset(${JSON.stringify(conditions)}::json)
          as c("orderItemId" uuid, condition text)
      ),
      judged as (
        update return_lines l set condition = c.condition
        from conditions c cross join got
        where l.return_id = got.id and l.order_item_id = c."orderItemId"
        returning l.order_item_id, l.quantity, l.condition
      ),
      pieces as (
        select j.quantity, j.condition, i.variant_id
        from judged j join order_items i on i.id = j.order_item_id
        where i.variant_id is not null
      ),
      back as (
        select variant_id, sum(quantity)::int as quantity from pieces
        where condition = 'resellable' group by 1
      ),
      restocked as (
        update product_variants v set stock = v.stock + b.quantity
        from back b where v.id = b.variant_id
        returning v.id, v.sku, v.stock, b.quantity
      ),
      logged as (
        insert into stock_movements (variant_id, sku, change, stock_after, reason, order_id,
                                     actor_email)
        select r.id, r.sku, r.quantity, r.stock, 'returned', got.order_id, ${actor.email}
        from restocked r cross join got
      ),
      damaged as (
        insert into stock_movements (variant_id, sku, change, stock_after, reason, order_id,
                                     actor_email)
        select v.id, v.sku, 0, v.stock, 'return-damaged', got.order_id, ${actor.email}
        from (select distinct variant_id from pieces where condition = 'damaged') d
        join product_variants v on v.id = d.variant_id cross join got
      ),
      refunded as (
        insert into refunds (order_id, return_id, payment_id, customer_id, method, amount, status,
                             actor_email, sent_at, settled_at)
        select got.order_id, got.id, r."paymentId", got.customer_id, r.method, r.amount, r.status,
               ${actor.email},
               case when r.status = 'succeeded' then now() end,
               case when r.status = 'succeeded' then now() end
        from json_to_recordset(${JSON.stringify(toWrite)}::json)
          as r("paymentId" uuid, method text, amount bigint, status text)
        cross join got
        returning id, method, amount, status
      ),
      credit_to as (
        select got.customer_id, ${credit}::bigint as amount from got
        where ${credit}::bigint > 0 and got.customer_id is not null
      ),
      account as (${creditedSql(sql`credit_to`, sql`credit_to.customer_id`, sql`credit_to.amount`)}),
      entry as (
        insert into value_entries (account_id, amount, balance_after, reason, note, order_id, actor)
        select account.id, ${credit}::bigint, account.balance, 'refund',
               ${`Return for ${ref}`}, got.order_id, ${actor.id}
        from account cross join got
      ),
      recorded as (${recordDeskWritesFromSql(
        actor,
        returnRecord(
          'return.received',
          ref,
          sql`jsonb_build_object('returnId', id, 'conditions', ${JSON.stringify(conditions)}::jsonb,
                                 'credit', ${credit}::bigint)`,
        ),
        sql`got`,
      )}),
      bumped as (${bumpCatalogueVersionSql})
      select got.id,
             (select json_agg(json_build_object('id', id, 'method', method, 'amount', amount,
                                                'status', status)) from refunded) as refunds,
             array(select id from restocked where stock - quantity <= 0) as came_back
      from (select 1) one left join got on true`);
    const [row] = result.rows;
    // Another call received it first: read again, and answer what that one did.
    if (!row?.id) {
      return attempt < 3
        ? receiveReturn(db, actor, input, attempt + 1)
        : { ok: false, problem: 'not-approved' };
    }
    const written = (row.refunds ?? []).map((r) => ({ ...r, amount: Number(r.amount) }));
    return {
      ok: true,
      status: next,
      orderId: head.orderId,
      refunds: written,
      toSend: written.filter((r) => r.status === 'requested').map((r) => r.id),
      cameBack: (row.came_back ?? []).map(Number),
    };
  } catch (error) {
    // Another return's refund took the payment meanwhile (one live refund per payment): read
    // again, and this one's money goes to store credit.
    const { code, constraint } = postgresError(error);
    if (attempt < 3 && code === PG.unique && constraint === 'refunds_one_per_payment_idx') {
      return receiveReturn(db, actor, input, attempt + 1);
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The exchange's delivery

export type MoveProblem = 'not-found' | 'not-preparing' | 'bad-move';
export type Moved = { status: string; exchangeStatus: string; orderId: string; moved: boolean };

/** preparing → out_for_delivery (the return is then exchanged) → delivered, recorded. */
export async function moveExchange(
  db: Db,
  actor: DeskActor,
  input: { returnId: string; to: 'out_for_delivery' | 'delivered' },
): Promise<Answer<Moved, MoveProblem>> {
  const [head] = await headRead(db, input.returnId);
  if (head?.resolution !== 'exchange') return { ok: false, problem: 'not-found' };
  // The same move again (a double tap) answers as done and records nothing more.
  if (head.exchangeStatus === input.to) {
    return {
      ok: true,
      status: head.status,
      exchangeStatus: input.to,
      orderId: head.orderId,
      moved: false,
    };
  }
  const from = input.to === 'out_for_delivery' ? 'preparing' : 'out_for_delivery';
  const ref = receiptNumber(head.orderId);
  const result = await db.execute<{ status: string }>(sql`
    with moved as (
      update returns set exchange_status = ${input.to},
             status = case when ${input.to} = 'out_for_delivery' then 'exchanged' else status end,
             closed_at = case when ${input.to} = 'out_for_delivery' then now() else closed_at end
      where id = ${input.returnId}::uuid and resolution = 'exchange' and exchange_status = ${from}
      returning id, order_id, status
    ),
    recorded as (${recordDeskWritesFromSql(
      actor,
      returnRecord(
        'return.exchange',
        ref,
        sql`jsonb_build_object('returnId', id, 'to', ${input.to}::text)`,
      ),
      sql`moved`,
    )})
    select status from moved`);
  const [row] = result.rows;
  if (!row) {
    return {
      ok: false,
      problem: head.exchangeStatus === null ? 'not-preparing' : 'bad-move',
    };
  }
  return {
    ok: true,
    status: row.status,
    exchangeStatus: input.to,
    orderId: head.orderId,
    moved: true,
  };
}
