// Collecting an order's total by mobile money (docs/payments.md has the states and the diagram).
// The provider's status read is the only truth: a callback is a hint to read it, the amount is
// always the order's own total, and one statement marks an order paid, once.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  type FailureReason,
  failureText,
  LATE_MONEY_WINDOW_MS,
  mobileMoneyNumber,
  NETWORKS,
  type Network,
  networkOf,
  PAYMENT_EXPIRY_MS,
  PAYMENT_TEXT,
  type PaymentState,
  STATUS_CHECK_INTERVAL_MS,
} from '#core/mobile-money.ts';
import { type PaymentMethod, paymentMethodLabel } from '#core/order-rules.ts';
import { aboveCeiling, paymentRefusal } from '#core/payment-rules.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresCode } from '#db/errors.ts';
import { deliveryOptions, orders, payments, profiles, user } from '#db/schema/index.ts';
import type { Context } from '../../context.ts';
import type { Refused } from '../../shopper-error.ts';
import { afterPaymentReceived } from '../order-events.ts';
import { paymentAllowedSql, type RuleRefused, ruleRefused } from '../payment-rules-service.ts';
import type { TextingLater } from '../sms-service.ts';
import { AirtelSignatureRefused } from './airtel-money.ts';
import { forgetAirtelSignatureRefused, noteAirtelSignatureRefused } from './airtel-signature.ts';
import { ProviderError, type ProviderStatus } from './provider.ts';

/**
 * What collecting a payment takes: the providers, and for a payment received, its text sent after
 * the answer.
 */
export type Paying = TextingLater & Pick<Context, 'payments'>;

export type PaymentView = {
  id: string;
  orderId: string;
  network: Network;
  phone: string;
  amount: number;
  state: PaymentState;
  reason: FailureReason | null;
  /** What the shopper reads when it failed or expired. */
  message: string | null;
  transactionId: string | null;
  startedAt: string;
  /** After this, an unanswered request expires. */
  expiresAt: string;
};

/** Why mobile money was refused; a network the shop has no set-up for is named. */
export type PaymentRefused =
  | Refused<
      | 'order-not-found'
      | 'not-mobile-money'
      | 'already-paid'
      | 'not-pending'
      | 'no-number'
      | 'unsupported-network'
    >
  | RuleRefused
  | (Refused<'not-configured'> & { network: Network });

type PaymentRow = typeof payments.$inferSelect;

function view(row: PaymentRow): PaymentView {
  const reason = (row.reason as FailureReason | null) ?? null;
  const state = row.status as PaymentState;
  return {
    id: row.id,
    orderId: row.orderId ?? '',
    network: row.network as Network,
    phone: row.phone ?? '',
    amount: row.amount,
    state,
    reason,
    message:
      state === 'refund_due'
        ? PAYMENT_TEXT.refundDue
        : state === 'failed' || state === 'expired'
          ? failureText(reason ?? 'expired')
          : null,
    transactionId: row.transactionId,
    startedAt: row.createdAt.toISOString(),
    expiresAt: new Date(row.createdAt.getTime() + PAYMENT_EXPIRY_MS).toISOString(),
  };
}

const isExpired = (row: PaymentRow, now = Date.now()) =>
  now - row.createdAt.getTime() >= PAYMENT_EXPIRY_MS;

/** Whether the order's delivery option takes cash now (an option gone takes none). */
const takesCash = sql<boolean>`coalesce(${deliveryOptions.cashOnDelivery}, false)`;

/**
 * The customer's order as a payment sees it, with its newest payment and who pays (for the
 * payer's number, or Pesapal's billing address): one round trip, shared by every way to pay.
 */
/**
 * Whose order a payment is for: a shopper's own (their id), or any order the desk took (issue 34:
 * the desk sends the prompt of an order taken by phone, which may have no account).
 */
export type Payer = string | typeof BY_DESK;
export const BY_DESK = { desk: true } as const;

export async function orderAndPayment(db: Db, payer: Payer, orderId: string) {
  const customerId = typeof payer === 'string' ? payer : null;
  const [[order], [latest], [shopper]] = await db.batch([
    db
      .select({
        id: orders.id,
        status: orders.status,
        method: orders.paymentMethod,
        total: orders.total,
        // The option it goes by, for the rule a change of payment keeps (core/payment-rules.ts).
        optionName: orders.deliveryOption,
        takesCash,
      })
      .from(orders)
      .leftJoin(deliveryOptions, eq(deliveryOptions.id, orders.deliveryOptionId))
      .where(
        and(
          eq(orders.id, orderId),
          customerId === null ? undefined : eq(orders.customerId, customerId),
        ),
      ),
    // The payment that paid the order, else the newest: a late success of an older request
    // pays the order while a newer retry may still wait, and the shopper sees it paid.
    db
      .select()
      .from(payments)
      .where(eq(payments.orderId, orderId))
      .orderBy(sql`(${payments.status} = 'successful') desc`, desc(payments.createdAt))
      .limit(1),
    db
      .select({
        email: user.email,
        name: user.name,
        profileEmail: profiles.email,
        fullName: profiles.fullName,
        phone: profiles.phone,
      })
      .from(user)
      .leftJoin(profiles, eq(profiles.id, user.id))
      .where(
        customerId === null
          ? sql`${user.id} = (select o.customer_id from orders o where o.id = ${orderId}::uuid)`
          : eq(user.id, customerId),
      ),
  ]);
  return { order, latest, shopper };
}

export type OrderAndPayment = Awaited<ReturnType<typeof orderAndPayment>>;

/** A random secret for one payment's callback URL. */
function callbackSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function callbackUrl(ctx: Paying, row: PaymentRow): string {
  const origin = ctx.payments.callbackOrigin;
  return row.network === 'mtn'
    ? `${origin}/api/payments/mtn/${row.id}/${row.callbackSecret}`
    : `${origin}/api/payments/airtel`;
}

/**
 * Asks the shopper's network to collect the order's total: the customer's own order, paid by
 * mobile money, still pending and not paid. A payment already waiting is answered as it is (a
 * double click starts nothing new); a failed or expired one may be retried with a new reference.
 */
export async function startPayment(
  ctx: Paying,
  payer: Payer,
  input: { orderId: string; phone?: string },
): Promise<{ ok: true; payment: PaymentView } | PaymentRefused> {
  const customerId = typeof payer === 'string' ? payer : null;
  const { order, latest, shopper } = await orderAndPayment(ctx.db, payer, input.orderId);
  if (!order) return { ok: false, problem: 'order-not-found' };
  if (order.method !== 'mobile_money') return { ok: false, problem: 'not-mobile-money' };
  // Paid in full by gift card or credit (issue 35): nothing to charge, and the shopper is told
  // it is paid rather than asked for UGX 0.
  if (Number(order.total) === 0) return { ok: false, problem: 'already-paid' };
  const overCeiling = aboveCeiling('mobile_money', order.total);
  if (overCeiling) return ruleRefused(overCeiling);
  if (latest?.status === 'successful') return { ok: false, problem: 'already-paid' };
  if (latest?.status === 'pending') {
    if (!isExpired(latest)) return { ok: true, payment: view(latest) };
    // Past its 5 minutes: one last read, then it expires and a new request may start.
    let settled = await refreshPayment(ctx, latest);
    if (settled.status === 'pending') settled = await markFailed(ctx.db, settled, 'expired');
    if (settled.status === 'successful') return { ok: false, problem: 'already-paid' };
  }
  if (order.status !== 'pending') return { ok: false, problem: 'not-pending' };

  const phone = mobileMoneyNumber(input.phone ?? shopper?.phone ?? '');
  if (!phone) return { ok: false, problem: 'no-number' };
  const network = networkOf(phone);
  if (!network) return { ok: false, problem: 'unsupported-network' };
  const provider = ctx.payments.providers[network];
  if (!provider) return { ok: false, problem: 'not-configured', network };

  // The amount is the order's own total, read in the insert itself. The partial unique index
  // lets only one payment per order wait or succeed: a racing second start inserts nothing.
  const id = crypto.randomUUID();
  const inserted = await ctx.db.execute<{ id: string }>(sql`
    insert into payments (id, order_id, customer_id, network, phone, amount, callback_secret)
    select ${id}::uuid, o.id, o.customer_id, ${network}, ${phone}, o.total, ${callbackSecret()}
    from orders o
    where o.id = ${order.id}::uuid
      and (${customerId}::text is null or o.customer_id = ${customerId})
      and o.payment_method = 'mobile_money' and o.status = 'pending'
      and ${paymentAllowedSql('mobile_money', sql`true`, sql`o.total`)}
    on conflict do nothing
    returning id
  `);
  const [row] = await ctx.db
    .select()
    .from(payments)
    .where(
      inserted.rows.length > 0
        ? eq(payments.id, id)
        : and(eq(payments.orderId, order.id), sql`${payments.status} in ('pending', 'successful')`),
    );
  if (!row) return { ok: false, problem: 'not-pending' };
  if (inserted.rows.length === 0) {
    return row.status === 'successful'
      ? { ok: false, problem: 'already-paid' }
      : { ok: true, payment: view(row) };
  }

  try {
    await provider.requestPayment({
      reference: row.id,
      orderId: order.id,
      amount: row.amount,
      phone,
      callbackUrl: callbackUrl(ctx, row),
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.error(`Payment ${row.id}: ${error.message}`);
    // A time-out may still have reached the provider: the payment waits for a status read.
    if ('uncertain' in error.outcome) return { ok: true, payment: view(row) };
    const reason = 'refused' in error.outcome ? error.outcome.refused : 'unavailable';
    if (reason === 'setup') {
      // Not the shopper's doing: the shop's keys, currency or environment are wrong.
      console.error(
        `Mobile money set-up (${network}) refused by the provider, fix the configuration: ${error.message}`,
      );
    }
    // The desk's Money view says which setting to change.
    if (error instanceof AirtelSignatureRefused) await noteAirtelSignatureRefused(ctx.db, error);
    return { ok: true, payment: view(await markFailed(ctx.db, row, reason)) };
  }
  if (network === 'airtel') await forgetAirtelSignatureRefused(ctx.db);
  return { ok: true, payment: view(row) };
}

/**
 * The order's newest payment, read fresh from the provider when it is still pending (at most one
 * provider read per payment every few seconds, whoever asks). Null: not this customer's order,
 * or no payment started yet (`order` tells which).
 */
export async function paymentStatus(
  ctx: Paying,
  customerId: string,
  orderId: string,
): Promise<{ order: boolean; payment: PaymentView | null }> {
  return paymentStatusOf(ctx, await orderAndPayment(ctx.db, customerId, orderId));
}

/** paymentStatus on an order already read (payments.status reads it once for both ways). */
export async function paymentStatusOf(
  ctx: Paying,
  { order, latest }: OrderAndPayment,
): Promise<{ order: boolean; payment: PaymentView | null }> {
  if (!order) return { order: false, payment: null };
  if (!latest) return { order: true, payment: null };
  const row = reconcilable(latest) ? await refreshPayment(ctx, latest) : latest;
  return { order: true, payment: view(row) };
}

/** Still worth asking the provider about: waiting, or expired within the day (late money). */
const reconcilable = (row: PaymentRow) =>
  row.status === 'pending' ||
  (row.status === 'expired' && Date.now() - row.createdAt.getTime() < LATE_MONEY_WINDOW_MS);

/**
 * Reads the payment's status from its provider and records what it says: paid, failed, or, past
 * the 5 minutes with no answer, expired. An expired payment is read again for a day (its reason
 * still 'expired', i.e. no final answer yet): a late success counts like an on-time one. Only one
 * reader per interval asks the provider (the claim on checked_at); the others answer the row.
 */
export async function refreshPayment(ctx: Paying, row: PaymentRow): Promise<PaymentRow> {
  const claimed = await ctx.db.execute<{ id: string }>(sql`
    update payments set checked_at = now()
    where id = ${row.id}::uuid
      and (status = 'pending'
        or (status = 'expired' and reason = 'expired'
          and created_at > now() - make_interval(secs => ${LATE_MONEY_WINDOW_MS / 1000})))
      and (checked_at is null
        or checked_at < now() - make_interval(secs => ${STATUS_CHECK_INTERVAL_MS / 1000}))
    returning id
  `);
  if (claimed.rows.length === 0) return (await reread(ctx.db, row.id)) ?? row;

  const provider = ctx.payments.providers[row.network as Network];
  let status: ProviderStatus | null = null;
  if (provider) {
    try {
      status = await provider.paymentStatus(row.id);
    } catch (error) {
      console.error(`Payment ${row.id}: ${error instanceof Error ? error.message : error}`);
    }
  }
  return settle(ctx, row, status);
}

async function reread(db: Db, id: string): Promise<PaymentRow | undefined> {
  const [fresh] = await db.select().from(payments).where(eq(payments.id, id));
  return fresh;
}

/** Records a provider's answer (null: no answer) for a payment. */
async function settle(
  ctx: Paying,
  row: PaymentRow,
  status: ProviderStatus | null,
): Promise<PaymentRow> {
  if (status?.state === 'successful') return markPaid(ctx, row, status.transactionId);
  if (status?.state === 'failed') return recordFailure(ctx.db, row, status.reason);
  // The provider never got the request (it did not answer it): nothing will come.
  const unknownFor = Date.now() - row.createdAt.getTime();
  if (status?.state === 'unknown' && unknownFor > 60_000) {
    return markFailed(ctx.db, row, 'unavailable');
  }
  if (isExpired(row)) return markFailed(ctx.db, row, 'expired', 'expired');
  return (await reread(ctx.db, row.id)) ?? row;
}

/**
 * The provider's final "failed": a waiting payment fails with its reason; an expired one only
 * gets the truer reason (it stays expired for the shopper, and is no longer read).
 */
async function recordFailure(db: Db, row: PaymentRow, reason: FailureReason): Promise<PaymentRow> {
  const [updated] = await db
    .update(payments)
    .set({
      status: sql`case when ${payments.status} = 'pending' then 'failed' else ${payments.status} end`,
      reason,
      settledAt: sql`coalesce(${payments.settledAt}, now())`,
    })
    .where(and(eq(payments.id, row.id), inArray(payments.status, ['pending', 'expired'])))
    .returning();
  return updated ?? (await reread(db, row.id)) ?? row;
}

/** A waiting payment did not go through (only a pending one changes). */
export async function markFailed(
  db: Db,
  row: PaymentRow,
  reason: FailureReason,
  state: 'failed' | 'expired' = reason === 'expired' ? 'expired' : 'failed',
): Promise<PaymentRow> {
  const [updated] = await db
    .update(payments)
    .set({ status: state, reason, settledAt: sql`now()` })
    .where(and(eq(payments.id, row.id), eq(payments.status, 'pending')))
    .returning();
  return updated ?? (await reread(db, row.id)) ?? row;
}

/**
 * The provider says the money moved: ONE statement decides what it means.
 * - The order is still pending, not cancelled or deleted, and has no successful payment: the
 *   payment is successful, the order processing, the receipt gets the transaction id. Another
 *   request of the same order still waiting (a retry) steps aside as expired first, so the one
 *   live payment per order stays one; should it succeed too, it becomes refund_due.
 * - Otherwise (paid by another payment, cancelled, deleted): the payment is refund_due, with
 *   its transaction id, for the desk to refund.
 * Only a payment not yet settled with money (pending, expired, failed) changes, so a duplicate
 * callback or a second reader finds nothing; the payment-received follow-ups run once.
 */
export async function markPaid(
  ctx: Paying,
  row: PaymentRow,
  transactionId: string,
): Promise<PaymentRow> {
  type Paid = { order_id: string | null; amount: string; transaction_id: string; status: string };
  const mobileMoney = row.network === 'mtn' || row.network === 'airtel';
  const paidMethod = mobileMoney ? 'mobile_money' : null;
  const paidLabel = mobileMoney ? paymentMethodLabel('mobile_money') : null;
  let done: Paid | undefined;
  try {
    const result = await ctx.db.execute<Paid>(sql`
      with target as (
        select p.id, p.order_id from payments p
        where p.id = ${row.id}::uuid and p.status in ('pending', 'expired', 'failed')
      ),
      payable as (
        select o.id from orders o
        where o.id = (select order_id from target) and o.status = 'pending'
          and not exists (
            select 1 from payments s where s.order_id = o.id and s.status = 'successful'
          )
      ),
      stepped_aside as (
        update payments w set status = 'expired', reason = 'expired', settled_at = now()
        where w.order_id in (select id from payable) and w.status = 'pending'
          and w.id <> ${row.id}::uuid
        returning w.id
      ),
      processing as (
        -- The count makes the step aside happen before this payment becomes successful. Money
        -- that came by mobile money makes it the order's method, even if the shopper chose
        -- another after this request expired.
        update orders o set status = 'processing',
          payment_method = coalesce(${paidMethod}::text, o.payment_method)
        where o.id in (select id from payable) and o.status = 'pending'
          and (select count(*) from stepped_aside) >= 0
        returning o.id, o.payment_method
      ),
      paid as (
        update payments p
        set status = case when exists (select 1 from processing) then 'successful'
                          else 'refund_due' end,
            transaction_id = ${transactionId}, reason = null, settled_at = now()
        where p.id in (select id from target) and p.status in ('pending', 'expired', 'failed')
        returning p.order_id, p.amount, p.transaction_id, p.status
      ),
      receipt as (
        update receipts r
        set transaction_id = ${transactionId},
            payment_method = coalesce(${paidLabel}::text, r.payment_method),
            receipt_data = jsonb_set(r.receipt_data, '{transactionId}', to_jsonb(${transactionId}::text))
              || case when ${paidLabel}::text is null then '{}'::jsonb
                      else jsonb_build_object('paymentMethod', ${paidLabel}::text) end
        from processing where r.order_id = processing.id
        returning r.id
      )
      select order_id, amount, transaction_id, status from paid
    `);
    done = result.rows[0];
  } catch (error) {
    // 23505: another payment of this order became successful at the same moment: this one is
    // money the order does not need.
    if (postgresCode(error) !== PG.unique) throw error;
    await ctx.db
      .update(payments)
      .set({ status: 'refund_due', transactionId, settledAt: sql`now()` })
      .where(
        and(eq(payments.id, row.id), inArray(payments.status, ['pending', 'expired', 'failed'])),
      );
    done = {
      order_id: row.orderId,
      amount: String(row.amount),
      transaction_id: transactionId,
      status: 'refund_due',
    };
  }
  if (done?.status === 'successful' && done.order_id) {
    ctx.background(
      afterPaymentReceived(ctx, {
        orderId: done.order_id,
        amount: Number(done.amount),
        transactionId: done.transaction_id,
      }),
    );
  } else if (done?.status === 'refund_due') {
    // Money moved for an order already paid, cancelled or deleted: the provider's record stands;
    // the desk refunds it (the row and this log).
    console.error(
      `Payment ${row.id} (order ${row.orderId}) succeeded (${transactionId}) but the order is paid, cancelled or deleted: refund due`,
    );
  }
  return (await reread(ctx.db, row.id)) ?? row;
}

/**
 * A provider's callback: a hint that the status changed, nothing more. MTN's URL names the
 * payment and carries its secret (wrong or missing: nothing happens); Airtel's fixed URL names
 * the payment in the body. Either way the status is then read from the provider.
 */
export async function paymentCallback(
  ctx: Paying,
  callback: { network: Network; paymentId?: string; secret?: string; body: unknown },
): Promise<'accepted' | 'unknown'> {
  const provider = ctx.payments.providers[callback.network];
  const reference =
    callback.network === 'mtn'
      ? callback.paymentId
      : ((await provider?.parseCallback(callback.body))?.reference ?? undefined);
  if (!provider || !reference || !/^[0-9a-f-]{36}$/i.test(reference)) return 'unknown';
  const row = await reread(ctx.db, reference);
  if (!row || row.network !== callback.network) return 'unknown';
  if (callback.network === 'mtn' && !sameSecret(row.callbackSecret, callback.secret ?? '')) {
    return 'unknown';
  }
  // Pending, or expired within the day: a late approval is read and counted.
  if (reconcilable(row)) await refreshPayment(ctx, row);
  return 'accepted';
}

/** Compares in time independent of where they differ. */
function sameSecret(expected: string, given: string): boolean {
  if (expected.length !== given.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) {
    difference |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  }
  return difference === 0;
}

/**
 * The Cron Trigger's sweep (every minute): reads again the payments that are waiting or expired
 * within the last day, each at a falling rate from its start (created_at) and its last read
 * (checked_at): every minute in its first 10 minutes, every 5 minutes up to an hour, then every
 * 30 minutes until it is a day old. A bounded batch, newest first, from the reconcilable index
 * (status pending or expired, by created_at). Late money is counted; unanswered requests expire.
 */
export async function sweepPayments(ctx: Paying, batch = 50): Promise<number> {
  const due = await ctx.db
    .select()
    .from(payments)
    // Card payments wait longer and are read by their own sweep (card.ts sweepCardPayments).
    .where(sql`${payments.status} in ('pending', 'expired')
      and ${inArray(payments.network, [...NETWORKS])}
      and ${payments.createdAt} > now() - make_interval(secs => ${LATE_MONEY_WINDOW_MS / 1000})
      and (${payments.status} = 'pending' or ${payments.reason} = 'expired')
      and (${payments.checkedAt} is null or ${payments.checkedAt} <= now() - case
        when ${payments.createdAt} > now() - interval '10 minutes' then interval '50 seconds'
        when ${payments.createdAt} > now() - interval '1 hour' then interval '5 minutes'
        else interval '30 minutes' end)`)
    .orderBy(desc(payments.createdAt))
    .limit(batch);
  for (const row of due) await refreshPayment(ctx, row);
  return due.length;
}

/**
 * After a mobile-money payment failed: the shopper pays another way (recorded as chosen, the
 * order stays pending). Refused while a payment waits or after one succeeded, and where the
 * checkout would refuse the way (core/payment-rules.ts: cash where the option takes none, a total
 * above the way's ceiling), in the read and again in the write.
 */
export async function changePaymentMethod(
  ctx: Paying,
  customerId: string,
  orderId: string,
  method: Exclude<PaymentMethod, 'mobile_money'>,
): Promise<{ ok: true } | PaymentRefused> {
  const { order, latest } = await orderAndPayment(ctx.db, customerId, orderId);
  if (!order) return { ok: false, problem: 'order-not-found' };
  if (order.method !== 'mobile_money') return { ok: false, problem: 'not-mobile-money' };
  if (latest?.status === 'successful') return { ok: false, problem: 'already-paid' };
  if (latest?.status === 'pending' && !isExpired(latest))
    return { ok: false, problem: 'not-pending' };
  const option = { name: order.optionName, cashOnDelivery: order.takesCash };
  const refused = paymentRefusal(method, option, order.total);
  if (refused) return ruleRefused(refused);
  const optionTakesCash = sql`coalesce((select d.cash_on_delivery from delivery_options d
                                        where d.id = orders.delivery_option_id), false)`;
  const result = await ctx.db.execute<{ id: string }>(sql`
    with changed as (
      update orders set payment_method = ${method}
      where id = ${orderId}::uuid and customer_id = ${customerId}
        and payment_method = 'mobile_money' and status = 'pending'
        and ${paymentAllowedSql(method, optionTakesCash, sql`orders.total`)}
        and not exists (
          select 1 from payments p where p.order_id = orders.id and p.status = 'successful'
        )
      returning id
    ),
    receipt as (
      update receipts r
      set payment_method = ${paymentMethodLabel(method)},
          receipt_data = jsonb_set(r.receipt_data, '{paymentMethod}', to_jsonb(${paymentMethodLabel(method)}::text))
      from changed where r.order_id = changed.id
      returning r.id
    )
    select id from changed
  `);
  return result.rows.length > 0 ? { ok: true } : { ok: false, problem: 'not-pending' };
}
