// The SMS outbox (decision 0020): texts are written as `pending` rows straight after what caused
// them (an order, a status change, a payment), then delivered off the request path with the
// Worker's waitUntil, 1 s apart. Each row is claimed (pending → sending in one UPDATE … RETURNING)
// before it is sent, so two deliverers never send it twice; transient failures go back to pending
// with a later next_attempt_at for the Cron Trigger's sweep, permanent ones fail at once. A text
// never blocks or fails what caused it: every entry point catches and logs.

import { and, desc, eq, getTableColumns, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { STATUS_TEXTS } from '#core/desk-order.ts';
import { hideGiftCardCode } from '#core/gift-cards.ts';
import { type OrderStatus, paymentMethodLabel } from '#core/order-rules.ts';
import { isValidPhone, normalisePhone } from '#core/phone.ts';
import {
  clip,
  failureRate,
  kampalaDayStart,
  type RecipientType,
  SMS_GAP_MS,
  SMS_HISTORY_LIMIT,
  SMS_MAX_ATTEMPTS,
  SMS_MAX_CHARS,
  SMS_RETRY_DELAYS_S,
  SMS_STUCK_AFTER_S,
  SMS_TEXT,
  type SmsKind,
  type SmsStatistics,
  type TextLine,
} from '#core/sms.ts';
import { DEFAULT_ADDRESS, DEFAULT_PICKUP_HOURS } from '#core/store-details.ts';
import {
  isOrderUpdate,
  ORDER_UPDATE_TEMPLATES,
  WHATSAPP_FALLBACK_AFTER_S,
  WHATSAPP_TEXT,
  type WhatsAppTemplate,
} from '#core/whatsapp.ts';
import type { Db } from '#db/client.ts';
import {
  deliveryOptions,
  orderItems,
  orders,
  productSellers,
  productVariants,
  profiles,
  sellers,
  smsNotifications,
  whatsappMessages,
} from '#db/schema/index.ts';
import type { Context } from '../context.ts';
import { type SettingsFallback, settingsFrom, settingsQuery, storedFrom } from './shop-settings.ts';
import type { SmsGateway } from './sms/gateway.ts';
import type { WhatsApp } from './whatsapp/cloud-api.ts';

/**
 * The Worker's texting set-up: the SMS gateway (null: not configured), WhatsApp for the shoppers
 * who chose it (issue 37; absent or null: not configured) and the admin number fallback.
 */
export type SmsService = {
  gateway: SmsGateway | null;
  whatsapp?: WhatsApp | null;
  /** ADMIN_PHONE: used when system_settings has no admin_phone. */
  adminPhone: string | null;
  /** The gap between texts sent in a row (spec: 1 s; tests shorten it). */
  gapMs?: number;
};

/** What sending texts takes: the database and the gateway. */
export type Texting = Pick<Context, 'db' | 'sms'>;
/** What queueing texts takes: their delivery follows after the answer (`background`). */
export type TextingLater = Texting & Pick<Context, 'background'>;

export type SmsRow = typeof smsNotifications.$inferSelect;

export type Text = {
  orderId: string | null;
  phone: string | null | undefined;
  recipientType: RecipientType;
  kind: SmsKind;
  message: string;
};

/**
 * Whether the order's customer takes texts about it: their settings' "Order updates" (on unless
 * they switched it off; on for an order whose account is gone). Their order texts (the
 * confirmation, payment received, shipped and the like) are not written at all when off: a text
 * the desk could resend would not be theirs to refuse.
 */
export const wantsOrderTexts = sql<boolean>`coalesce((select us.order_updates from user_settings us
  where us.user_id = ${orders.customerId}), true)`;

/** A promotional text whose shopper switched Promotions off before it went out. */
export const PROMOTIONS_OFF = 'Withdrawn: the shopper switched offers by text off';

const NOT_CONFIGURED = 'SMS gateway not configured (EGOSMS_USERNAME, EGOSMS_PASSWORD)';

/**
 * The number an order's texts go to: the account's, else the one the desk took the order with
 * (issue 34: a customer without an account, recorded by name and phone on the order). A web
 * order whose account was deleted stays without a number, as before.
 */
export const customerPhone = sql<string | null>`coalesce(${profiles.phone},
  case when ${orders.source} <> 'web' then ${orders.customerPhone} end)`;

/** '+256…' for a number the spec's phone helper accepts, else null. */
function validNumber(phone: string | null | undefined): string | null {
  if (!phone?.trim()) return null;
  const normalised = normalisePhone(phone);
  return isValidPhone(normalised) ? normalised : null;
}

/**
 * Writes the texts as rows: pending for a valid number, failed (with the reason, never sent) for
 * a missing or invalid one. A text this order already has for that number is not written again.
 * Returns the ids of the new pending rows.
 */
export async function queueTexts(db: Db, texts: Text[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const written = await db
    .insert(smsNotifications)
    .values(texts.map(outboxRow))
    .onConflictDoNothing()
    .returning({ id: smsNotifications.id, status: smsNotifications.status });
  return written.filter((row) => row.status === 'pending').map((row) => row.id);
}

/**
 * A text as its outbox row: pending for a valid number, failed (with the reason, never sent) for
 * a missing or invalid one; plain GSM-7 and at most 160 characters (each template fits; this only
 * guards), so the row is exactly what EgoSMS gets.
 */
export function outboxRow(text: Text) {
  const number = validNumber(text.phone);
  const given = (text.phone ?? '').trim().slice(0, 40);
  return {
    orderId: text.orderId,
    recipientPhone: number ?? given,
    recipientType: text.recipientType,
    kind: text.kind,
    messageContent: clip(text.message, SMS_MAX_CHARS),
    status: number ? ('pending' as const) : ('failed' as const),
    errorMessage: number
      ? null
      : given
        ? `Invalid phone number "${given}": not sent`
        : `No phone number for the ${text.recipientType}: not sent`,
  };
}

/** Delivers the rows in the background (the Worker's waitUntil); nothing is awaited here. */
export function deliverLater(ctx: TextingLater, ids: string[]): void {
  if (ids.length > 0) ctx.background(deliverSms(ctx, ids));
}

/**
 * After an order is placed: the customer's confirmation, the admin's alert, one text per seller
 * listing only their products, and a low-stock alert for pieces the order left at 3 or fewer.
 * Never throws: an SMS problem must not touch the order.
 */
export async function queueOrderTexts(
  ctx: TextingLater & SettingsFallback,
  orderId: string,
): Promise<void> {
  try {
    const [[order], items, settingRows] = await ctx.db.batch([
      ctx.db
        .select({
          id: orders.id,
          total: orders.total,
          discount: orders.discount,
          customerName: orders.customerName,
          paymentMethod: orders.paymentMethod,
          deliveryOption: orders.deliveryOption,
          deliveryKind: orders.deliveryKind,
          phone: customerPhone,
          wantsTexts: wantsOrderTexts,
        })
        .from(orders)
        .leftJoin(profiles, eq(profiles.id, orders.customerId))
        .where(eq(orders.id, orderId)),
      ctx.db
        .select({
          productId: orderItems.productId,
          variantId: orderItems.variantId,
          name: orderItems.name,
          quantity: orderItems.quantity,
          variant: orderItems.variantLabel,
          left: productVariants.stock,
          sellerId: sellers.id,
          business: sellers.businessName,
          sellerPhone: sellers.phone,
        })
        .from(orderItems)
        .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
        .leftJoin(productSellers, eq(productSellers.productId, orderItems.productId))
        .leftJoin(sellers, eq(sellers.id, productSellers.sellerId))
        .where(eq(orderItems.orderId, orderId)),
      // The desk's settings (admin phone, bank details, threshold), the configuration below them.
      settingsQuery(ctx.db),
    ]);
    if (!order) return;
    // BANK_TRANSFER_DETAILS: in a bank-transfer order's text when they fit, else on the receipt.
    const settings = settingsFrom(settingRows, ctx).values;
    const adminPhone = settings.adminPhone;
    // One entry per variant ordered (an order item is one variant; the seller join may repeat it).
    const lines = new Map<string, TextLine & { left: number | null }>();
    const bySeller = new Map<number, { business: string; phone: string; lines: TextLine[] }>();
    for (const item of items) {
      const line = { name: item.name, label: item.variant, quantity: item.quantity };
      lines.set(`${item.productId}:${item.variantId ?? item.name}:${item.variant}`, {
        ...line,
        left: item.left,
      });
      if (item.sellerId === null) continue;
      const seller = bySeller.get(item.sellerId) ?? {
        business: item.business ?? '',
        phone: item.sellerPhone ?? '',
        lines: [],
      };
      seller.lines.push(line);
      bySeller.set(item.sellerId, seller);
    }
    const ordered = [...lines.values()];
    const count = ordered.reduce((n, line) => n + line.quantity, 0);
    const low = ordered
      .filter((line) => line.left !== null && line.left <= settings.lowStockThreshold)
      .map((line) => ({ name: line.name, label: line.label, left: line.left ?? 0 }));
    const texts: Text[] = [
      {
        orderId,
        phone: order.phone,
        recipientType: 'customer',
        kind: 'order-confirmation',
        message: SMS_TEXT.orderConfirmation({
          orderId,
          total: Number(order.total),
          saved: Number(order.discount),
          items: count,
          payment: { method: order.paymentMethod, bankDetails: settings.bankDetails },
          lines: ordered,
          delivery: { kind: order.deliveryKind, name: order.deliveryOption },
        }),
      },
      {
        orderId,
        phone: adminPhone,
        recipientType: 'admin',
        kind: 'admin-new-order',
        message: SMS_TEXT.adminNewOrder({
          orderId,
          total: Number(order.total),
          customer: order.customerName,
          items: count,
          payment: paymentMethodLabel(order.paymentMethod),
        }),
      },
      ...[...bySeller.values()].map((seller) => ({
        orderId,
        phone: seller.phone,
        recipientType: 'seller' as const,
        kind: 'seller-new-order' as const,
        message: SMS_TEXT.sellerNewOrder({
          orderId,
          business: seller.business,
          lines: seller.lines,
        }),
      })),
      ...(low.length > 0
        ? [
            {
              orderId,
              phone: adminPhone,
              recipientType: 'admin' as const,
              kind: 'low-stock' as const,
              message: SMS_TEXT.lowStock(low),
            },
          ]
        : []),
    ];
    const wanted = texts.filter((text) => text.recipientType !== 'customer' || order.wantsTexts);
    deliverLater(ctx, await queueTexts(ctx.db, wanted));
  } catch (error) {
    console.warn(`SMS for order ${orderId} could not be queued`, error);
  }
}

/**
 * The customer's text for an order that changed status: shipped (with the order's option's days),
 * delivered, cancelled, ready for pickup (the spec's text) and out for delivery (the rider).
 */
export async function queueStatusText(
  ctx: TextingLater,
  orderId: string,
  change: {
    status: OrderStatus;
    tracking?: string | null;
    reason?: string | null;
    refund?: boolean;
    rider?: { name: string; phone: string } | null;
  },
): Promise<void> {
  const kind = STATUS_TEXTS[change.status];
  if (!kind) return;
  try {
    // The order, and the shop's details (the pickup text names the owner's address and hours).
    const [[row], settingRows] = await ctx.db.batch([
      ctx.db
        .select({
          phone: customerPhone,
          minDays: deliveryOptions.minDays,
          maxDays: deliveryOptions.maxDays,
          wantsTexts: wantsOrderTexts,
        })
        .from(orders)
        .leftJoin(profiles, eq(profiles.id, orders.customerId))
        .leftJoin(deliveryOptions, eq(deliveryOptions.id, orders.deliveryOptionId))
        .where(eq(orders.id, orderId)),
      settingsQuery(ctx.db),
    ]);
    if (!row?.wantsTexts) return;
    const stored = storedFrom(settingRows);
    const days =
      row.minDays === null || row.maxDays === null
        ? null
        : { minDays: row.minDays, maxDays: row.maxDays };
    const message =
      kind === 'shipped'
        ? SMS_TEXT.shipped({ orderId, tracking: change.tracking, days })
        : kind === 'delivered'
          ? SMS_TEXT.delivered({ orderId })
          : kind === 'ready-for-pickup'
            ? SMS_TEXT.readyForPickup({
                orderId,
                shop: {
                  address: stored.storeAddress ?? DEFAULT_ADDRESS,
                  pickupHours: stored.pickupHours ?? DEFAULT_PICKUP_HOURS,
                },
              })
            : kind === 'out-for-delivery'
              ? change.rider
                ? SMS_TEXT.outForDelivery({
                    orderId,
                    riderName: change.rider.name,
                    riderPhone: change.rider.phone,
                  })
                : null
              : SMS_TEXT.cancelled({
                  orderId,
                  reason: change.reason,
                  refund: change.refund ?? false,
                });
    if (!message) return;
    deliverLater(
      ctx,
      await queueTexts(ctx.db, [
        { orderId, phone: row.phone, recipientType: 'customer', kind, message },
      ]),
    );
  } catch (error) {
    console.warn(`SMS for order ${orderId} (${change.status}) could not be queued`, error);
  }
}

/** One text to the order's customer when their Order updates are on: queued, its ids answered
 * (none when they are off or the order has no customer to text). */
async function queueCustomerText(
  ctx: Texting,
  orderId: string,
  kind: SmsKind,
  message: string,
): Promise<string[]> {
  const [row] = await ctx.db
    .select({ phone: customerPhone, wantsTexts: wantsOrderTexts })
    .from(orders)
    .leftJoin(profiles, eq(profiles.id, orders.customerId))
    .where(eq(orders.id, orderId));
  if (!row?.wantsTexts) return [];
  return queueTexts(ctx.db, [
    { orderId, phone: row.phone, recipientType: 'customer', kind, message },
  ]);
}

/** The customer's 'payment received' text (once per order). */
export async function queuePaymentText(
  ctx: Texting,
  payment: { orderId: string; amount: number; transactionId: string },
): Promise<void> {
  try {
    const ids = await queueCustomerText(
      ctx,
      payment.orderId,
      'payment-received',
      SMS_TEXT.paymentReceived(payment),
    );
    // Already in the background (after the payment was recorded): delivered here, awaited.
    await deliverSms(ctx, ids);
  } catch (error) {
    console.warn(`Payment SMS for order ${payment.orderId} could not be sent`, error);
  }
}

/**
 * The customer's 'refund sent' text (issue 36): the amount and the reference, once per order, when
 * their Order updates are on. Never throws: a text never undoes a refund.
 */
export async function queueRefundText(
  ctx: TextingLater,
  refund: { orderId: string; amount: number; reference: string },
): Promise<void> {
  try {
    const message = SMS_TEXT.refundSent({ ...refund, credit: false });
    deliverLater(ctx, await queueCustomerText(ctx, refund.orderId, 'refund-sent', message));
  } catch (error) {
    console.warn(`Refund SMS for order ${refund.orderId} could not be queued`, error);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether a claimed row goes out on WhatsApp (issue 37): an order update to the order's shopper,
 * who chose WhatsApp in her settings, at a number that has not sent STOP, and not already moved
 * to SMS. Read in the claim's RETURNING: no trip of its own.
 */
const goesOnWhatsApp = sql<boolean>`(${smsNotifications.fallbackReason} is null
  and ${smsNotifications.recipientType} = 'customer'
  and ${smsNotifications.kind} in (${sql.join(
    Object.keys(ORDER_UPDATE_TEMPLATES).map((kind) => sql`${kind}`),
    sql`, `,
  )})
  and exists (select 1 from orders o join user_settings us on us.user_id = o.customer_id
    where o.id = ${smsNotifications.orderId} and us.notification_channel = 'whatsapp')
  and not exists (select 1 from whatsapp_contacts c
    where c.phone = ${smsNotifications.recipientPhone} and c.stopped_at is not null))`;

/** A WhatsApp row made a pending SMS, with why (the same row: it can happen once). */
export function fallBackToSms(reason: string) {
  return {
    channel: 'sms',
    status: 'pending',
    fallbackReason: reason,
    attempts: 0,
    nextAttemptAt: null,
    claimedAt: null,
    sentAt: null,
  } as const;
}

/** A template's body as the shopper reads it, its parameter filled in. */
export function templateText(template: WhatsAppTemplate, parameters: readonly string[]): string {
  return template.body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => parameters[Number(n) - 1] ?? '');
}

type ClaimedRow = SmsRow & { whatsapp: boolean };
type Refused = { ok: false; error: string; transient: boolean };
type Delivery = { ok: true; messageId?: string | null } | Refused;

/**
 * An order update as its WhatsApp template: on Meta's acceptance the row is `sent` with its wamid
 * (the status webhooks take it from there) and the thread gets the message. A refusal answers
 * why, for the SMS that goes instead.
 */
async function deliverOnWhatsApp(
  ctx: Texting,
  whatsapp: WhatsApp,
  row: ClaimedRow,
): Promise<Refused | 'sent'> {
  if (!isOrderUpdate(row.kind)) return { ok: false, error: 'no template', transient: false };
  const template = ORDER_UPDATE_TEMPLATES[row.kind];
  const parameters = [row.messageContent.replace(/\s+/g, ' ').trim()];
  const result = await whatsapp.api
    .send({ to: row.recipientPhone, template, parameters })
    .catch((error: unknown) => ({ ok: false as const, error: String(error), transient: true }));
  if (!result.ok) return result;
  await ctx.db.batch([
    ctx.db
      .update(smsNotifications)
      .set({
        status: 'sent',
        channel: 'whatsapp',
        whatsappStatus: 'sent',
        whatsappMessageId: result.messageId,
        whatsappSentAt: sql`now()`,
        sentAt: sql`now()`,
        errorMessage: null,
        claimedAt: null,
      })
      .where(and(eq(smsNotifications.id, row.id), eq(smsNotifications.status, 'sending'))),
    ctx.db
      .insert(whatsappMessages)
      .values({
        wamid: result.messageId,
        phone: row.recipientPhone,
        direction: 'out',
        type: 'template',
        body: templateText(template, parameters),
        status: 'sent',
        smsId: row.id,
      })
      .onConflictDoNothing(),
  ]);
  return 'sent';
}

/**
 * Sends the given pending rows (or, with none given, nothing): each is claimed first, so a row
 * another deliverer holds or already sent is skipped. An order update for a shopper who chose
 * WhatsApp goes as its template; one WhatsApp refuses goes by SMS on the same row, with the
 * reason. 1 s between texts.
 */
export async function deliverSms(ctx: Texting, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const gateway = ctx.sms.gateway;
  const whatsapp = ctx.sms.whatsapp ?? null;
  if (!gateway && !whatsapp) {
    await ctx.db
      .update(smsNotifications)
      .set({ status: 'failed', errorMessage: NOT_CONFIGURED })
      .where(and(inArray(smsNotifications.id, ids), eq(smsNotifications.status, 'pending')));
    return;
  }
  let sentBefore = false;
  for (const id of ids) {
    const [row] = await ctx.db
      .update(smsNotifications)
      .set({
        status: 'sending',
        claimedAt: sql`now()`,
        attempts: sql`${smsNotifications.attempts} + 1`,
      })
      .where(
        and(
          eq(smsNotifications.id, id),
          eq(smsNotifications.status, 'pending'),
          or(
            isNull(smsNotifications.nextAttemptAt),
            lte(smsNotifications.nextAttemptAt, sql`now()`),
          ),
        ),
      )
      .returning({ ...getTableColumns(smsNotifications), whatsapp: goesOnWhatsApp });
    if (!row) continue;
    let result: Delivery;
    let fallback: string | null = null;
    const onWhatsApp =
      whatsapp && row.whatsapp ? await deliverOnWhatsApp(ctx, whatsapp, row) : null;
    if (onWhatsApp === 'sent') continue;
    if (onWhatsApp && (!onWhatsApp.transient || row.attempts >= SMS_MAX_ATTEMPTS)) {
      // Refused (or still failing after the last attempt): this row goes by SMS instead, once.
      fallback = WHATSAPP_TEXT.fallbackRefused(onWhatsApp.error);
    }
    if (onWhatsApp && !fallback) {
      result = onWhatsApp;
    } else if (!gateway) {
      result = { ok: false, error: NOT_CONFIGURED, transient: false };
    } else {
      if (sentBefore) await sleep(ctx.sms.gapMs ?? SMS_GAP_MS);
      sentBefore = true;
      result = await gateway
        .send({ number: row.recipientPhone, message: row.messageContent })
        .catch((error: unknown) => ({ ok: false as const, error: String(error), transient: true }));
    }
    const retry = !result.ok && result.transient && row.attempts < SMS_MAX_ATTEMPTS;
    const delay = SMS_RETRY_DELAYS_S[Math.min(row.attempts, SMS_RETRY_DELAYS_S.length) - 1] ?? 60;
    await ctx.db
      .update(smsNotifications)
      .set({
        ...(fallback ? { channel: 'sms', fallbackReason: fallback } : {}),
        ...(result.ok
          ? {
              status: 'sent',
              sentAt: sql`now()`,
              messageId: result.messageId ?? null,
              errorMessage: null,
              claimedAt: null,
              // Sent: the gift card's code need not be kept readable (a retry needed it whole).
              ...(row.kind === 'gift-card'
                ? { messageContent: hideGiftCardCode(row.messageContent) }
                : {}),
            }
          : retry
            ? {
                status: 'pending',
                errorMessage: result.error,
                claimedAt: null,
                nextAttemptAt: sql`now() + make_interval(secs => ${delay})`,
              }
            : { status: 'failed', errorMessage: result.error, claimedAt: null }),
      })
      .where(and(eq(smsNotifications.id, row.id), eq(smsNotifications.status, 'sending')));
  }
}

/**
 * The Cron Trigger's sweep: rows left `sending` by a Worker that stopped go back to pending,
 * then the pending rows that are due are delivered (a bounded batch, oldest first, promotional
 * texts after every other). Campaigns are delivered only here: 20 a minute, 1 s apart.
 */
export async function sweepSms(ctx: Texting, batch = 20): Promise<number> {
  await ctx.db.batch([
    // WhatsApp's silence (issue 37): a template not delivered within 10 minutes is texted
    // instead, on the same row (so once); one delivered or read by now is left alone.
    ctx.db
      .update(smsNotifications)
      .set(fallBackToSms(WHATSAPP_TEXT.fallbackSilent))
      .where(
        and(
          eq(smsNotifications.channel, 'whatsapp'),
          eq(smsNotifications.whatsappStatus, 'sent'),
          lte(
            smsNotifications.whatsappSentAt,
            sql`now() - make_interval(secs => ${WHATSAPP_FALLBACK_AFTER_S})`,
          ),
        ),
      ),
    ctx.db
      .update(smsNotifications)
      .set({ status: 'pending', claimedAt: null })
      .where(
        and(
          eq(smsNotifications.status, 'sending'),
          lte(smsNotifications.claimedAt, sql`now() - make_interval(secs => ${SMS_STUCK_AFTER_S})`),
        ),
      ),
    // Consent is asked again when a promotional text goes out, not only when it was queued: a
    // campaign takes a while at EgoSMS's pace, and a shopper who switched Promotions off in her
    // settings meanwhile gets none of it (issue 35).
    ctx.db
      .update(smsNotifications)
      .set({ status: 'failed', errorMessage: PROMOTIONS_OFF })
      .where(
        and(
          eq(smsNotifications.status, 'pending'),
          inArray(smsNotifications.kind, ['promotional', 'cart-reminder']),
          sql`not exists (select 1 from profiles p join user_settings us on us.user_id = p.id
            where p.phone = ${smsNotifications.recipientPhone} and us.marketing_notifications)`,
        ),
      ),
  ]);
  const due = await ctx.db
    .select({ id: smsNotifications.id })
    .from(smsNotifications)
    .where(
      and(
        eq(smsNotifications.status, 'pending'),
        or(isNull(smsNotifications.nextAttemptAt), lte(smsNotifications.nextAttemptAt, sql`now()`)),
      ),
    )
    // Texts about orders first, then the bulk ones (a campaign's 2,000 rows, cart reminders):
    // a campaign never holds back a confirmation or a retry behind it (issue 35).
    .orderBy(
      sql`${smsNotifications.kind} in ('promotional', 'cart-reminder')`,
      smsNotifications.createdAt,
    )
    .limit(batch);
  await deliverSms(
    ctx,
    due.map((row) => row.id),
  );
  return due.length;
}

/** The desk's Resend: a failed row is queued again (attempts start over) and delivered. */
export async function resendSms(ctx: TextingLater, id: string): Promise<SmsRow | null> {
  const [row] = await ctx.db
    .update(smsNotifications)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: null, errorMessage: null })
    .where(and(eq(smsNotifications.id, id), eq(smsNotifications.status, 'failed')))
    .returning();
  if (!row) return null;
  if (!validNumber(row.recipientPhone)) {
    const [failed] = await ctx.db
      .update(smsNotifications)
      .set({
        status: 'failed',
        errorMessage: `Invalid phone number "${row.recipientPhone}": not sent`,
      })
      .where(eq(smsNotifications.id, id))
      .returning();
    return failed ?? row;
  }
  deliverLater(ctx, [row.id]);
  return row;
}

/** Spec: the SMS history, newest first (optionally one order's), 50 by default. */
export async function smsHistory(
  db: Db,
  options: { orderId?: string; limit?: number } = {},
): Promise<SmsRow[]> {
  return smsHistoryQuery(db, options);
}

/** The history's read, to put in a page's db.batch (the desk's order page: one order's texts). */
export function smsHistoryQuery(db: Db, options: { orderId?: string; limit?: number } = {}) {
  return db
    .select()
    .from(smsNotifications)
    .where(options.orderId ? eq(smsNotifications.orderId, options.orderId) : undefined)
    .orderBy(desc(smsNotifications.createdAt), desc(smsNotifications.id))
    .limit(options.limit ?? SMS_HISTORY_LIMIT);
}

/** Spec: texts sent, failed, sent today (Kampala's day) and the failure rate. */
export async function smsStatistics(db: Db, now = new Date()): Promise<SmsStatistics> {
  const [row] = await db
    .select({
      sent: sql<number>`count(*) filter (where ${smsNotifications.status} = 'sent')::int`,
      failed: sql<number>`count(*) filter (where ${smsNotifications.status} = 'failed')::int`,
      today: sql<number>`count(*) filter (where ${smsNotifications.status} = 'sent' and ${smsNotifications.sentAt} >= ${kampalaDayStart(now).toISOString()}::timestamptz and ${smsNotifications.sentAt} <= ${now.toISOString()}::timestamptz)::int`,
    })
    .from(smsNotifications)
    // Texts only: order updates that went on WhatsApp are WhatsApp's (issue 37).
    .where(eq(smsNotifications.channel, 'sms'));
  const sent = Number(row?.sent ?? 0);
  const failed = Number(row?.failed ?? 0);
  return {
    totalSent: sent,
    totalFailed: failed,
    sentToday: Number(row?.today ?? 0),
    failureRate: failureRate(sent, failed),
  };
}
