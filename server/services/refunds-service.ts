// Money sent back through the provider that took it (issue 36, decision 0086; docs/payments.md,
// "Refunds"). A refund is a row: requested → sent → succeeded | failed. `sendRefund` sends a
// requested one through its payment's provider (MTN or Airtel disbursement, Pesapal's
// RefundRequest), `sweepRefunds` reads what was sent (a late success counts) and sends again what
// never reached the provider, with the same reference (the providers refuse a reference twice,
// so one refund is never paid twice). Never two live refunds per payment: the unique index
// refunds_one_per_payment_idx, so every insert here is `on conflict do nothing` and answers the
// refund already live. Store credit is granted with the return's receipt, not here; bank
// transfers and cash are refunded by hand (desk.markRefunded).
import { sql } from 'drizzle-orm';
import {
  REFUND_FAILURE_TEXT,
  REFUNDED_BY_HAND,
  type RefundFailure,
  type RefundMethod,
  type RefundState,
} from '#core/returns.ts';
import type { Context } from '../context.ts';
import type { Refused } from '../shopper-error.ts';
import { type DeskActor, recordDeskWritesFromSql } from './desk-record.ts';
import { AirtelSignatureRefused } from './payments/airtel-money.ts';
import { noteAirtelSignatureRefused } from './payments/airtel-signature.ts';
import {
  ProviderError,
  type RefundOrder,
  RefundRefused,
  type RefundStatus,
} from './payments/provider.ts';
import type { RefundNetwork } from './payments/providers.ts';
import { queueRefundText, type TextingLater } from './sms-service.ts';

/** What sending a refund takes: the providers, and the text sent after it succeeds. */
export type Refunding = TextingLater & Pick<Context, 'payments'>;

export type RefundAnswer = { refundId: string; status: RefundState };

/** The networks whose refunds the shop sends itself (the others: by hand, or store credit). */
const SENT_BY_PROVIDER = ['mtn', 'airtel', 'pesapal'] as const;
const sentByProvider = (method: string): method is RefundNetwork =>
  (SENT_BY_PROVIDER as readonly string[]).includes(method);

/** How long a claimed send or status read keeps others off the row. */
const CLAIM_SECONDS = 30;
/** A sent refund the provider never heard of is sent again (same reference) after this. */
const UNKNOWN_AFTER_MS = 60_000;

type Claimed = {
  id: string;
  order_id: string | null;
  payment_order_id: string | null;
  method: string;
  amount: string | number;
  provider_reference: string;
  actor_email: string | null;
  sent_at: string | Date | null;
  payment_id: string | null;
  phone: string | null;
  paid: string | number | null;
  transaction_id: string | null;
  payment_reference: string | null;
};

/** The refund as its adapter sends it. */
function refundOrder(row: Claimed): RefundOrder {
  return {
    reference: row.provider_reference,
    orderId: row.order_id ?? row.payment_order_id ?? row.id,
    amount: Number(row.amount),
    phone: row.phone,
    payment: {
      amount: Number(row.paid ?? 0),
      transactionId: row.transaction_id,
      providerReference: row.payment_reference,
    },
    actor: row.actor_email ?? 'duuka',
  };
}

/**
 * Claims a refund for one send or one status read: only one caller at a time (checked_at), and
 * the provider reference is fixed before anything goes out.
 */
async function claim(ctx: Refunding, refundId: string, status: 'requested' | 'sent') {
  const result = await ctx.db.execute<Claimed>(sql`
    with claimed as (
      update refunds r set checked_at = now(),
        provider_reference = coalesce(r.provider_reference, gen_random_uuid()::text)
      where r.id = ${refundId}::uuid and r.status = ${status}
        and r.method in ('mtn', 'airtel', 'pesapal')
        and (r.checked_at is null
          or r.checked_at < now() - make_interval(secs => ${CLAIM_SECONDS}))
      returning r.id, r.order_id, r.payment_id, r.method, r.amount, r.provider_reference,
        r.actor_email, r.sent_at
    )
    select c.id, c.order_id, c.method, c.amount, c.provider_reference, c.actor_email, c.sent_at,
      p.id as payment_id, p.order_id as payment_order_id, p.phone,
      coalesce(p.received_amount, p.amount) as paid, p.transaction_id,
      p.provider_reference as payment_reference
    from claimed c left join payments p on p.id = c.payment_id
  `);
  return result.rows[0];
}

async function statusOf(ctx: Refunding, refundId: string): Promise<RefundAnswer | null> {
  const result = await ctx.db.execute<{ id: string; status: RefundState }>(
    sql`select id, status from refunds where id = ${refundId}::uuid`,
  );
  const [row] = result.rows;
  return row ? { refundId: row.id, status: row.status } : null;
}

/**
 * Sends a requested refund through its payment's provider: sent (the provider took it, or may
 * have: a time-out), failed with the shop's words (the provider refused it), or still requested
 * (the provider did not answer; the sweep sends it again with the same reference). A refund that
 * is not requested, or that another caller is sending, is answered as it is. Never throws.
 */
export async function sendRefund(ctx: Refunding, refundId: string): Promise<RefundAnswer | null> {
  try {
    const row = await claim(ctx, refundId, 'requested');
    if (!row) return statusOf(ctx, refundId);
    const sender = ctx.payments.refunds?.[row.method as RefundNetwork];
    if (!row.payment_id) return fail(ctx, row.id, 'no-payment');
    if (Number(row.amount) > Number(row.paid ?? 0)) return fail(ctx, row.id, 'over-paid');
    if (!sender) return fail(ctx, row.id, 'not-configured');
    try {
      await sender.sendRefund(refundOrder(row));
    } catch (error) {
      return await refused(ctx, row, error);
    }
    await ctx.db.execute(sql`
      update refunds set status = 'sent', sent_at = now(), reason = null
      where id = ${row.id}::uuid and status = 'requested'
    `);
    return statusOf(ctx, refundId);
  } catch (error) {
    console.error(`Refund ${refundId} could not be sent`, error);
    return statusOf(ctx, refundId).catch(() => null);
  }
}

/** What a send's error means for the refund. */
async function refused(ctx: Refunding, row: Claimed, error: unknown): Promise<RefundAnswer | null> {
  console.error(
    `Refund ${row.id} (${row.method}): ${error instanceof Error ? error.message : error}`,
  );
  if (error instanceof RefundRefused) return fail(ctx, row.id, error.reason);
  if (!(error instanceof ProviderError)) throw error;
  // The desk's Money view says which setting to change.
  if (error instanceof AirtelSignatureRefused) await noteAirtelSignatureRefused(ctx.db, error);
  if ('refused' in error.outcome) return fail(ctx, row.id, 'setup');
  if ('uncertain' in error.outcome) {
    // It may have reached the provider: its status read decides.
    await ctx.db.execute(sql`
      update refunds set status = 'sent', sent_at = now()
      where id = ${row.id}::uuid and status = 'requested'
    `);
  }
  // Unavailable: still requested; the sweep sends it again, with the same reference.
  return statusOf(ctx, row.id);
}

/** The provider refused the refund, or the shop cannot send it: failed, with what to do. */
async function fail(ctx: Refunding, refundId: string, reason: RefundFailure) {
  await ctx.db.execute(sql`
    update refunds set status = 'failed', reason = ${REFUND_FAILURE_TEXT[reason]},
      settled_at = now()
    where id = ${refundId}::uuid and status in ('requested', 'sent')
  `);
  return statusOf(ctx, refundId);
}

/** Reads a sent refund's status from its provider and records what it says. */
async function refreshRefund(ctx: Refunding, refundId: string): Promise<void> {
  const row = await claim(ctx, refundId, 'sent');
  if (!row) return;
  const sender = ctx.payments.refunds?.[row.method as RefundNetwork];
  if (!sender) return;
  let status: RefundStatus;
  try {
    status = await sender.refundStatus(refundOrder(row));
  } catch (error) {
    console.error(`Refund ${row.id}: ${error instanceof Error ? error.message : error}`);
    return;
  }
  if (status.state === 'successful') {
    await settleRefund(ctx, row.id, status.reference || row.provider_reference);
  } else if (status.state === 'failed') {
    await fail(ctx, row.id, status.reason);
  } else if (
    status.state === 'unknown' &&
    row.sent_at &&
    Date.now() - new Date(row.sent_at).getTime() > UNKNOWN_AFTER_MS
  ) {
    // The provider never got it: requested again, sent again with the same reference.
    await ctx.db.execute(sql`
      update refunds set status = 'requested' where id = ${row.id}::uuid and status = 'sent'
    `);
  }
}

/**
 * A refund succeeded (the provider's word, or staff who paid it by hand): ONE statement records
 * it with its reference and settled_at; a refund_due (or short) payment it covers becomes
 * refunded; its return becomes refunded once every destination of it has a succeeded refund.
 * Only a refund still requested or sent changes, so a second reader or a double tap finds
 * nothing; the shopper's text follows once.
 */
export async function settleRefund(
  ctx: Refunding,
  refundId: string,
  reference: string,
  byHand?: DeskActor,
): Promise<boolean> {
  type Settled = { id: string; order_id: string | null; amount: string | number };
  const record = byHand
    ? sql`, recorded as (${recordDeskWritesFromSql(
        byHand,
        {
          action: 'refund.recorded',
          subject: sql`coalesce('Order #' || left(done.order_id::text, 8), 'Deleted order')`,
          details: sql`jsonb_build_object('refundId', done.id, 'reference', ${reference}::text,
            'amount', done.amount, 'method', done.method)`,
          orderId: sql`done.order_id`,
        },
        sql`done`,
      )})`
    : sql``;
  const result = await ctx.db.execute<Settled>(sql`
    with done as (
      update refunds set status = 'succeeded', reference = ${reference}, settled_at = now(),
        sent_at = coalesce(sent_at, now()), reason = null,
        actor_email = coalesce(${byHand?.email ?? null}::text, actor_email)
      where id = ${refundId}::uuid and status in ('requested', 'sent')
      returning id, coalesce(order_id, (select p.order_id from payments p
        where p.id = refunds.payment_id)) as order_id, return_id, payment_id, method, amount
    ),
    paid_back as (
      update payments p set status = 'refunded', refund_reference = ${reference},
        refunded_at = now()
      from done where p.id = done.payment_id and p.status in ('refund_due', 'short')
      returning p.id
    ),
    closed as (
      -- The refunds table is read as before this statement: this refund counts as succeeded.
      update returns t set status = 'refunded', closed_at = now()
      from done
      where t.id = done.return_id and t.status = 'received' and t.resolution = 'refund'
        and not exists (
          select 1 from refunds r
          where r.return_id = t.id and r.id <> done.id and r.status <> 'succeeded'
            and not exists (
              select 1 from refunds s
              where s.return_id = t.id and s.method = r.method
                and (s.status = 'succeeded' or s.id = done.id)
            )
        )
      returning t.id
    )${record}
    select id, order_id, amount from done
  `);
  const [done] = result.rows;
  if (!done) return false;
  if (done.order_id) {
    await queueRefundText(ctx, {
      orderId: done.order_id,
      amount: Number(done.amount),
      reference,
    });
  }
  return true;
}

/**
 * The scheduled sweep: reads the sent refunds from their providers (every minute for the first
 * 10 minutes, then every 5 to an hour, then every 30: a late success counts, for 30 days), and
 * sends again the requested ones that never reached a provider. A bounded batch, oldest first.
 */
export async function sweepRefunds(ctx: Refunding, batch = 20): Promise<number> {
  const due = await ctx.db.execute<{ id: string; status: 'requested' | 'sent' }>(sql`
    select id, status from refunds
    where status in ('requested', 'sent') and method in ('mtn', 'airtel', 'pesapal')
      and created_at > now() - interval '30 days'
      and (checked_at is null or checked_at <= now() - case
        when created_at > now() - interval '10 minutes' then interval '50 seconds'
        when created_at > now() - interval '1 hour' then interval '5 minutes'
        else interval '30 minutes' end)
    order by created_at
    limit ${batch}
  `);
  for (const row of due.rows) {
    if (row.status === 'sent') await refreshRefund(ctx, row.id);
    else await sendRefund(ctx, row.id);
  }
  return due.rows.length;
}

export type RefundProblem = 'not-found' | 'by-hand' | 'store-credit' | 'not-refund-due';

/**
 * The desk refunds a payment the order did not need (refund_due: a cancelled paid order, a late
 * approval) through its provider: one refund per payment whoever taps, the one already live
 * answered. Bank transfers and cash are refunded by hand.
 */
export async function refundPayment(
  ctx: Refunding,
  paymentId: string,
  actor: DeskActor,
): Promise<({ ok: true } & RefundAnswer) | Refused<RefundProblem>> {
  const added = await ctx.db.execute<{ id: string }>(sql`
    with added as (
      insert into refunds (order_id, payment_id, customer_id, method, amount, actor_email)
      select p.order_id, p.id, p.customer_id, p.network, coalesce(p.received_amount, p.amount),
        ${actor.email}
      from payments p
      where p.id = ${paymentId}::uuid and p.status = 'refund_due'
        and p.network in ('mtn', 'airtel', 'pesapal')
      on conflict do nothing
      returning id, order_id, amount, method, payment_id
    ),
    recorded as (${recordDeskWritesFromSql(
      actor,
      {
        action: 'refund.requested',
        subject: sql`coalesce('Order #' || left(added.order_id::text, 8), 'Deleted order')`,
        details: sql`jsonb_build_object('refundId', added.id, 'paymentId', added.payment_id,
          'amount', added.amount, 'method', added.method)`,
        orderId: sql`added.order_id`,
      },
      sql`added`,
    )})
    select id from added
  `);
  const refundId =
    added.rows[0]?.id ?? (await liveRefund(ctx, sql`payment_id = ${paymentId}::uuid`));
  if (refundId) return answered(ctx, refundId);
  const payment = await ctx.db.execute<{ network: string; status: string }>(
    sql`select network, status from payments where id = ${paymentId}::uuid`,
  );
  const [row] = payment.rows;
  if (!row) return { ok: false, problem: 'not-found' };
  if ((REFUNDED_BY_HAND as readonly string[]).includes(row.network)) {
    return { ok: false, problem: 'by-hand' };
  }
  return { ok: false, problem: 'not-refund-due' };
}

/**
 * The desk sends a failed refund again: a new row (the failed one stays as history), the same
 * payment, return, destination and amount. With one already live for its payment or its return
 * and destination (another tap, another member of staff, or the refund itself still live), that
 * one is answered.
 */
export async function retryRefund(
  ctx: Refunding,
  refundId: string,
  actor: DeskActor,
): Promise<({ ok: true } & RefundAnswer) | Refused<RefundProblem>> {
  const added = await ctx.db.execute<{ id: string }>(sql`
    with added as (
      insert into refunds (order_id, return_id, payment_id, customer_id, method, amount,
        actor_email)
      select f.order_id, f.return_id, f.payment_id, f.customer_id, f.method, f.amount,
        ${actor.email}
      from refunds f
      where f.id = ${refundId}::uuid and f.status = 'failed'
        and f.method in ('mtn', 'airtel', 'pesapal')
      on conflict do nothing
      returning id, order_id, amount, method
    ),
    recorded as (${recordDeskWritesFromSql(
      actor,
      {
        action: 'refund.retried',
        subject: sql`coalesce('Order #' || left(added.order_id::text, 8), 'Deleted order')`,
        details: sql`jsonb_build_object('refundId', added.id, 'failedRefundId',
          ${refundId}::text, 'amount', added.amount, 'method', added.method)`,
        orderId: sql`added.order_id`,
      },
      sql`added`,
    )})
    select id from added
  `);
  if (added.rows[0]) return answered(ctx, added.rows[0].id);
  const original = await ctx.db.execute<{
    method: RefundMethod;
    payment_id: string | null;
    return_id: string | null;
  }>(sql`select method, payment_id, return_id from refunds where id = ${refundId}::uuid`);
  const [row] = original.rows;
  if (!row) return { ok: false, problem: 'not-found' };
  if (row.method === 'store_credit') return { ok: false, problem: 'store-credit' };
  if (!sentByProvider(row.method)) return { ok: false, problem: 'by-hand' };
  const sibling = await liveRefund(
    ctx,
    row.payment_id
      ? sql`payment_id = ${row.payment_id}::uuid`
      : sql`return_id = ${row.return_id}::uuid and method = ${row.method}`,
  );
  // None: the live one failed just now; the refund asked about is answered as it is.
  return answered(ctx, sibling ?? refundId);
}

/** The refund live (not failed) where `where` holds: the one the unique indexes keep single. */
async function liveRefund(ctx: Refunding, where: ReturnType<typeof sql>) {
  const result = await ctx.db.execute<{ id: string }>(
    sql`select id from refunds where ${where} and status <> 'failed' limit 1`,
  );
  return result.rows[0]?.id ?? null;
}

/** Sends it when still requested (idempotent), and answers its state. */
async function answered(ctx: Refunding, refundId: string) {
  const answer = (await sendRefund(ctx, refundId)) ?? { refundId, status: 'requested' as const };
  return { ok: true as const, ...answer };
}

export type RecordRefundProblem = 'not-found' | 'already-refunded' | 'not-refundable';

/**
 * Staff paid a refund themselves (a return's refund to a bank account or in cash, or a provider's
 * refund they finished by hand): it succeeds with their reference, in the desk's record.
 */
export async function recordRefundByHand(
  ctx: Refunding,
  input: { refundId: string; reference: string; actor: DeskActor },
): Promise<{ ok: true; refundId: string } | Refused<RecordRefundProblem>> {
  if (await settleRefund(ctx, input.refundId, input.reference, input.actor)) {
    return { ok: true, refundId: input.refundId };
  }
  const found = await ctx.db.execute<{ status: RefundState; method: RefundMethod }>(
    sql`select status, method from refunds where id = ${input.refundId}::uuid`,
  );
  const [row] = found.rows;
  if (!row) return { ok: false, problem: 'not-found' };
  return {
    ok: false,
    problem: row.status === 'succeeded' ? 'already-refunded' : 'not-refundable',
  };
}
