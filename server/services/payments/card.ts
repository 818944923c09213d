// Collecting an order's total by card, on Pesapal's hosted payment page (docs/payments.md, "Card
// (Pesapal)"). The shape follows mobile money's (service.ts): the row is written first with the
// order's own total, the shopper is sent to Pesapal's page, and only Pesapal's status read says
// what happened: the shopper's return and Pesapal's IPN are hints to read it.
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  CARD_CURRENCY,
  CARD_PAYMENT_EXPIRY_MS,
  CARD_TEXT,
  type CardFailureReason,
  type CardPaymentState,
  cardFailureText,
} from '#core/card-payments.ts';
import { PROVIDER_TIMEOUT_MS, STATUS_CHECK_INTERVAL_MS } from '#core/mobile-money.ts';
import { receiptNumber } from '#core/order-rules.ts';
import { aboveCeiling } from '#core/payment-rules.ts';
import type { Db } from '#db/client.ts';
import { payments, systemSettings } from '#db/schema/index.ts';
import type { Refused } from '../../shopper-error.ts';
import { paymentAllowedSql, type RuleRefused, ruleRefused } from '../payment-rules-service.ts';
import type { CardPayments, PesapalStatus } from './pesapal.ts';
import { ProviderError } from './provider.ts';
import { markPaid, type OrderAndPayment, orderAndPayment, type Paying } from './service.ts';

/** What payments.start and payments.status answer for a card payment. */
export type CardPaymentView = {
  id: string;
  orderId: string;
  network: 'pesapal';
  /** Card payments have no payer number. */
  phone: '';
  amount: number;
  state: CardPaymentState;
  reason: CardFailureReason | null;
  message: string | null;
  /** Pesapal's confirmation code once paid (also on the receipt). */
  transactionId: string | null;
  startedAt: string;
  /** After this, an unfinished card payment expires and Pay now starts a new one. */
  expiresAt: string;
  /** Pesapal's payment page, where the shopper pays ('' once it no longer waits). */
  redirectUrl: string;
};

export type CardRefused =
  | Refused<
      | 'order-not-found'
      | 'not-card'
      | 'already-paid'
      | 'not-pending'
      | 'not-configured'
      | 'unavailable'
    >
  | RuleRefused;

type PaymentRow = typeof payments.$inferSelect;

/** Where the IPN URL's registered id is kept (JSON {url, ipnId}) when PESAPAL_IPN_ID is unset. */
export const PESAPAL_IPN_SETTING = 'pesapal_ipn';
/**
 * The states a Pesapal read may still change: waiting, unfinished, declined (Pesapal's page lets
 * the shopper try another card), and paid (a reversal). short, reversed and refund_due are final.
 */
const READABLE = ['pending', 'expired', 'failed', 'successful'] as const;

export function cardView(row: PaymentRow): CardPaymentView {
  const state = row.status as CardPaymentState;
  const reason = (row.reason as CardFailureReason | null) ?? null;
  let message: string | null = null;
  if (state === 'refund_due') message = CARD_TEXT.refundDue;
  else if (state !== 'pending' && state !== 'successful' && state !== 'refunded') {
    message = cardFailureText(reason ?? state);
  }
  return {
    id: row.id,
    orderId: row.orderId ?? '',
    network: 'pesapal',
    phone: '',
    amount: row.amount,
    state,
    reason,
    message,
    transactionId: row.transactionId,
    startedAt: row.createdAt.toISOString(),
    expiresAt: new Date(row.createdAt.getTime() + CARD_PAYMENT_EXPIRY_MS).toISOString(),
    redirectUrl: state === 'pending' ? (row.redirectUrl ?? '') : '',
  };
}

const isExpired = (row: PaymentRow, now = Date.now()) =>
  now - row.createdAt.getTime() >= CARD_PAYMENT_EXPIRY_MS;

/**
 * How long a start may take before its row has Pesapal's page: the token, the IPN registration
 * and the order, each within the adapter's deadline. Past it, a page-less row was abandoned.
 */
const submitWindowMs = (card: CardPayments | undefined) =>
  3 * (card?.timeoutMs ?? PROVIDER_TIMEOUT_MS) + 1_000;

async function reread(db: Db, id: string): Promise<PaymentRow | undefined> {
  const [fresh] = await db.select().from(payments).where(eq(payments.id, id));
  return fresh;
}

/** The shop's IPN URL's id: PESAPAL_IPN_ID, else the one registered (once) and kept. */
const ipnIds = new WeakMap<CardPayments, { url: string; ipnId: string }>();

async function notificationId(ctx: Paying, card: CardPayments): Promise<string> {
  if (card.configuredIpnId) return card.configuredIpnId;
  const url = `${ctx.payments.callbackOrigin}/api/payments/pesapal/ipn`;
  const known = ipnIds.get(card);
  if (known?.url === url) return known.ipnId;
  const [stored] = await ctx.db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, PESAPAL_IPN_SETTING));
  let kept: { url?: unknown; ipnId?: unknown } | null = null;
  try {
    kept = JSON.parse(stored?.value ?? 'null');
  } catch {
    kept = null;
  }
  // Kept for this URL: used. Kept for another origin (the shop moved): registered again, or
  // Pesapal would notify the old one.
  if (kept && kept.url === url && typeof kept.ipnId === 'string' && kept.ipnId) {
    ipnIds.set(card, { url, ipnId: kept.ipnId });
    return kept.ipnId;
  }
  const ipnId = await card.registerIpn(url);
  const value = JSON.stringify({ url, ipnId });
  await ctx.db
    .insert(systemSettings)
    .values({ settingKey: PESAPAL_IPN_SETTING, settingValue: value })
    .onConflictDoUpdate({
      target: systemSettings.settingKey,
      set: { settingValue: value, updatedAt: sql`now()` },
    });
  ipnIds.set(card, { url, ipnId });
  return ipnId;
}

/** 'Nakato Achieng' → first 'Nakato', last 'Achieng' (a single name is both). */
function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const firstName = parts[0] ?? '';
  return { firstName, lastName: parts.slice(1).join(' ') || firstName };
}

/**
 * Starts paying the customer's own card order (pending, unpaid) on Pesapal's page. One attempt
 * waits per order: a second start while it waits answers the same page; after a failed or expired
 * one, a new attempt (a new merchant reference) starts.
 */
export async function startCardPayment(
  ctx: Paying,
  customerId: string,
  input: { orderId: string },
): Promise<{ ok: true; payment: CardPaymentView } | CardRefused> {
  const card = ctx.payments.card;
  const { order, latest, shopper } = await orderAndPayment(ctx.db, customerId, input.orderId);
  if (!order) return { ok: false, problem: 'order-not-found' };
  if (order.method !== 'card') return { ok: false, problem: 'not-card' };
  // Paid in full by gift card or credit (issue 35): nothing to charge, and the shopper is told
  // it is paid rather than asked for UGX 0.
  if (Number(order.total) === 0) return { ok: false, problem: 'already-paid' };
  const overCeiling = aboveCeiling('card', order.total);
  if (overCeiling) return ruleRefused(overCeiling);
  if (latest?.status === 'successful') return { ok: false, problem: 'already-paid' };
  if (latest?.status === 'pending') {
    if (latest.network !== 'pesapal') return { ok: false, problem: 'unavailable' };
    const waiting = await stillWaiting(ctx, latest);
    if (waiting) return waiting;
  }
  if (order.status !== 'pending') return { ok: false, problem: 'not-pending' };
  if (!card) return { ok: false, problem: 'not-configured' };

  // The IPN id first: a Pesapal that is down leaves nothing written.
  let notification: string;
  try {
    notification = await notificationId(ctx, card);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.error(`Card payment for order ${order.id}: ${error.message}`);
    return { ok: false, problem: 'unavailable' };
  }

  // The amount is the order's own total, read in the insert; the partial unique index lets one
  // attempt per order wait, so a racing second start inserts nothing and answers the first.
  const id = crypto.randomUUID();
  const inserted = await ctx.db.execute<{ id: string }>(sql`
    insert into payments (id, order_id, customer_id, network, phone, amount, callback_secret)
    select ${id}::uuid, o.id, o.customer_id, 'pesapal', null, o.total, ${randomSecret()}
    from orders o
    where o.id = ${order.id}::uuid and o.customer_id = ${customerId}
      and o.payment_method = 'card' and o.status = 'pending' and o.total > 0
      and ${paymentAllowedSql('card', sql`true`, sql`o.total`)}
    on conflict do nothing
    returning id
  `);
  if (inserted.rows.length === 0) {
    const [live] = await ctx.db
      .select()
      .from(payments)
      .where(
        and(eq(payments.orderId, order.id), inArray(payments.status, ['pending', 'successful'])),
      );
    if (!live) return { ok: false, problem: 'not-pending' };
    if (live.status === 'successful') return { ok: false, problem: 'already-paid' };
    if (live.network !== 'pesapal') return { ok: false, problem: 'unavailable' };
    return pageOf(ctx, live);
  }
  const row = await reread(ctx.db, id);
  if (!row) return { ok: false, problem: 'not-pending' };

  const name = splitName(shopper?.fullName ?? shopper?.name ?? '');
  try {
    const page = await card.submitOrder({
      id: row.id,
      amount: row.amount,
      description: `duuka order ${receiptNumber(order.id)}`,
      callbackUrl: `${ctx.payments.callbackOrigin}/api/payments/pesapal/return`,
      notificationId: notification,
      billing: {
        email: shopper?.profileEmail ?? shopper?.email ?? '',
        phone: shopper?.phone ?? '',
        ...name,
      },
    });
    const [ready] = await ctx.db
      .update(payments)
      .set({ providerReference: page.trackingId, redirectUrl: page.redirectUrl })
      .where(and(eq(payments.id, row.id), eq(payments.status, 'pending')))
      .returning();
    return ready ? { ok: true, payment: cardView(ready) } : { ok: false, problem: 'unavailable' };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // Without Pesapal's page nobody can pay this attempt (even if the order reached Pesapal):
    // it is recorded as failed, and Pay now starts afresh.
    console.error(`Card payment ${row.id}: ${error.message}`);
    await setOutcome(ctx.db, row, { status: 'failed', reason: 'unavailable' }, ['pending']);
    return { ok: false, problem: 'unavailable' };
  }
}

/**
 * A pending attempt when Pay now is pressed again: its page while it waits; past 30 minutes one
 * last read, then it expires (null: a new attempt may start).
 */
async function stillWaiting(
  ctx: Paying,
  row: PaymentRow,
): Promise<{ ok: true; payment: CardPaymentView } | CardRefused | null> {
  if (!row.redirectUrl) {
    // Another start is still talking to Pesapal; or one was abandoned with no page at all.
    if (Date.now() - row.createdAt.getTime() < submitWindowMs(ctx.payments.card)) {
      return pageOf(ctx, row);
    }
    await setOutcome(ctx.db, row, { status: 'failed', reason: 'unavailable' }, ['pending']);
    return null;
  }
  if (!isExpired(row)) return { ok: true, payment: cardView(row) };
  const settled = await refreshCardPayment(ctx, row, { force: true });
  if (settled.status === 'successful') return { ok: false, problem: 'already-paid' };
  if (settled.status === 'pending') {
    await setOutcome(ctx.db, settled, { status: 'expired', reason: 'expired' }, ['pending']);
  }
  return null;
}

/** Waits for the start that is submitting this attempt to store Pesapal's page. */
async function pageOf(
  ctx: Paying,
  row: PaymentRow,
): Promise<{ ok: true; payment: CardPaymentView } | CardRefused> {
  const until = row.createdAt.getTime() + submitWindowMs(ctx.payments.card);
  let current: PaymentRow | undefined = row;
  while (current?.status === 'pending' && !current.redirectUrl && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    current = await reread(ctx.db, row.id);
  }
  if (current?.status === 'pending' && current.redirectUrl) {
    return { ok: true, payment: cardView(current) };
  }
  if (current?.status === 'successful') return { ok: false, problem: 'already-paid' };
  return { ok: false, problem: 'unavailable' };
}

/**
 * The order's newest card payment, read fresh from Pesapal while it waits. 'not-card': the
 * order's payments are mobile money's (service.ts answers).
 */
export async function cardPaymentStatus(
  ctx: Paying,
  customerId: string,
  orderId: string,
): Promise<CardStatus> {
  return cardPaymentStatusOf(ctx, await orderAndPayment(ctx.db, customerId, orderId));
}

type CardStatus =
  | { order: false }
  | { order: true; payment: CardPaymentView | null }
  | { notCard: true };

/** cardPaymentStatus on an order already read (payments.status reads it once for both ways). */
export async function cardPaymentStatusOf(
  ctx: Paying,
  { order, latest }: OrderAndPayment,
): Promise<CardStatus> {
  if (!order) return { order: false };
  if (latest ? latest.network !== 'pesapal' : order.method !== 'card') return { notCard: true };
  if (!latest) return { order: true, payment: null };
  const row = latest.status === 'pending' ? await refreshCardPayment(ctx, latest) : latest;
  return { order: true, payment: cardView(row) };
}

/**
 * Reads Pesapal's status for one card payment and records it. At most one reader per few
 * seconds asks Pesapal (the claim on checked_at); the others answer the row as it is.
 */
export async function refreshCardPayment(
  ctx: Paying,
  row: PaymentRow,
  options: { force?: boolean } = {},
): Promise<PaymentRow> {
  return (await readStatus(ctx, row, options.force ? 0 : STATUS_CHECK_INTERVAL_MS)).row;
}

async function readStatus(
  ctx: Paying,
  row: PaymentRow,
  intervalMs: number,
): Promise<{ row: PaymentRow; read: boolean }> {
  const claimed = await ctx.db.execute<{ id: string }>(sql`
    update payments set checked_at = now()
    where id = ${row.id}::uuid and network = 'pesapal' and provider_reference is not null
      and status in ('pending', 'expired', 'failed', 'successful')
      and (checked_at is null or checked_at < now() - make_interval(secs => ${intervalMs / 1000}))
    returning id
  `);
  const card = ctx.payments.card;
  if (claimed.rows.length === 0 || !card || !row.providerReference) {
    return { row: (await reread(ctx.db, row.id)) ?? row, read: false };
  }
  let status: PesapalStatus | null = null;
  try {
    status = await card.transactionStatus(row.providerReference);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.error(`Card payment ${row.id}: ${error.message}`);
  }
  return { row: await settleCard(ctx, (await reread(ctx.db, row.id)) ?? row, status), read: true };
}

/** Records Pesapal's answer (null: no answer) for a card payment. */
async function settleCard(
  ctx: Paying,
  row: PaymentRow,
  status: PesapalStatus | null,
): Promise<PaymentRow> {
  if (status && status.state !== 'pending' && status.merchantReference !== row.id) {
    // Pesapal's record for this tracking id names another reference: never ours to settle.
    console.error(
      `Card payment ${row.id}: Pesapal's status names merchant reference ${status.merchantReference}; ignored`,
    );
    return row;
  }
  const open = ['pending', 'expired', 'failed'] as const;
  switch (status?.state) {
    case 'completed': {
      if (row.status === 'successful') return row;
      const whole = status.currency === CARD_CURRENCY && status.amount >= row.amount;
      if (whole) return markPaid(ctx, row, status.confirmationCode || row.providerReference || '');
      // Less than the total, or another currency: the order is not paid; the desk refunds.
      console.error(
        `Card payment ${row.id} (order ${row.orderId}): Pesapal completed ${status.currency} ${status.amount} for a total of ${CARD_CURRENCY} ${row.amount}: short, not paid; refund or collect the rest`,
      );
      return setOutcome(
        ctx.db,
        row,
        {
          status: 'short',
          reason: 'short',
          transactionId: status.confirmationCode || null,
          receivedAmount: Number.isFinite(status.amount) ? Math.trunc(status.amount) : null,
          receivedCurrency: status.currency || null,
        },
        open,
      );
    }
    case 'failed':
      return setOutcome(ctx.db, row, { status: 'failed', reason: status.reason }, ['pending']);
    case 'reversed':
      if (row.status === 'successful') {
        // The order stays as it is (goods may be on their way); the desk decides.
        console.error(
          `Card payment ${row.id}: Pesapal REVERSED the payment that paid order ${row.orderId}: the desk must look at it`,
        );
      }
      return setOutcome(ctx.db, row, { status: 'reversed', reason: 'reversed' }, [
        ...open,
        'successful',
      ]);
    default:
      // Pending, or no answer: an attempt unfinished for 30 minutes expires.
      if (row.status === 'pending' && isExpired(row)) {
        return setOutcome(ctx.db, row, { status: 'expired', reason: 'expired' }, ['pending']);
      }
      return row;
  }
}

/** Changes a card payment's state, only from the states given (a racing writer wins once). */
async function setOutcome(
  db: Db,
  row: PaymentRow,
  outcome: Partial<Pick<PaymentRow, 'transactionId' | 'receivedAmount' | 'receivedCurrency'>> & {
    status: CardPaymentState;
    reason: CardFailureReason;
  },
  from: readonly (typeof READABLE)[number][],
): Promise<PaymentRow> {
  const [updated] = await db
    .update(payments)
    .set({ ...outcome, settledAt: sql`now()` })
    .where(and(eq(payments.id, row.id), inArray(payments.status, [...from])))
    .returning();
  return updated ?? (await reread(db, row.id)) ?? row;
}

/**
 * The shopper's return from Pesapal's page or Pesapal's IPN: a hint to read the status of the
 * payment with this tracking id (whatever merchant reference the request names). Answers that
 * payment's order id, or null for a tracking id the shop never had.
 */
export async function cardNotification(
  ctx: Paying,
  trackingId: string,
): Promise<{ orderId: string | null } | null> {
  if (!/^[A-Za-z0-9-]{1,100}$/.test(trackingId)) return null;
  const [row] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.network, 'pesapal'), eq(payments.providerReference, trackingId)));
  if (!row) return null;
  if (!(READABLE as readonly string[]).includes(row.status)) return { orderId: row.orderId };
  const first = await readStatus(ctx, row, STATUS_CHECK_INTERVAL_MS);
  if (!first.read && first.row.status === 'pending' && first.row.checkedAt) {
    // Someone read it moments ago, perhaps just before this change: read again once the
    // spacing allows, or Pesapal's only notice of the change would be lost.
    const wait = first.row.checkedAt.getTime() + STATUS_CHECK_INTERVAL_MS - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(wait, 0) + 50, 3_500)));
    await readStatus(ctx, first.row, STATUS_CHECK_INTERVAL_MS);
  }
  return { orderId: row.orderId };
}

/**
 * The Cron Trigger's sweep of card payments: those waiting are read (and expire after 30
 * minutes); those that expired unfinished are read again for 24 hours, less often as they age (a
 * quarter of their age apart, at least 15 minutes), since a late Completed still counts. Declined
 * ones are read again only on a hint (the shopper's return, Pesapal's IPN).
 */
export async function sweepCardPayments(ctx: Paying, batch = 50): Promise<number> {
  if (!ctx.payments.card) return 0;
  const waiting = await ctx.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.network, 'pesapal'),
        sql`${payments.providerReference} is not null`,
        sql`(${payments.status} = 'pending'
          or (${payments.status} = 'expired'
            and ${payments.createdAt} > now() - interval '24 hours'
            and (${payments.checkedAt} is null or ${payments.checkedAt} < now()
              - greatest(interval '15 minutes', (now() - ${payments.createdAt}) / 4))))`,
      ),
    )
    .orderBy(payments.createdAt)
    .limit(batch);
  for (const row of waiting) await refreshCardPayment(ctx, row);
  // A start that died before Pesapal's page came back: nobody can pay it; Pay now starts afresh.
  await ctx.db
    .update(payments)
    .set({ status: 'failed', reason: 'unavailable', settledAt: sql`now()` })
    .where(
      and(
        eq(payments.network, 'pesapal'),
        eq(payments.status, 'pending'),
        sql`${payments.redirectUrl} is null`,
        sql`${payments.createdAt} < now() - make_interval(secs => ${submitWindowMs(ctx.payments.card) / 1000})`,
      ),
    );
  return waiting.length;
}

/** Fills payments.callback_secret (required by the table; Pesapal's hints carry no secret). */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
