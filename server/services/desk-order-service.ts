// One order on the desk (issue 34, decision 0075): everything the order's page shows, read in
// ONE db.batch (one trip), and the staff's private notes, written as the order's desk record.
// Only the desk's order procedures (server/routers/desk/desk-order-router.ts) call this.
import { asc, desc, eq, sql } from 'drizzle-orm';
import { isDeliveryKind } from '#core/delivery-rules.ts';
import { NOTE_ACTION, orderSubject } from '#core/desk-order.ts';
import type { Db } from '#db/client.ts';
import {
  deliveryOptions,
  deskRecords,
  orderItems,
  orders,
  payments,
  productImages,
  products,
  productVariants,
  profiles,
  refunds,
  returns,
  user,
} from '#db/schema/index.ts';
import type { Answer } from '../shopper-error.ts';
import type { DeskActor } from './desk-record.ts';
import { deliveryColumns, offersOf, orderOffersSql } from './orders-service.ts';
import { smsHistoryQuery, wantsOrderTexts } from './sms-service.ts';

/** The order's record shown on its page: the newest this many. */
export const ORDER_RECORD_LIMIT = 200;
/** The order's texts shown on its page. */
export const ORDER_TEXTS_LIMIT = 100;

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

/**
 * The order's page in one trip: the order with its customer and the days of its option, its
 * lines with a picture each (the variant's colour's first picture, else the product's; none once
 * the product is removed), its payments and refunds with who confirmed them, the texts sent for
 * it, its desk record (the staff's notes among it), its returns and the refunds sent for it.
 * Null: no such order.
 */
export async function deskOrder(db: Db, orderId: string) {
  const confirmer = sql<string | null>`(select coalesce(nullif(u.name, ''), u.email) from "user" u
    where u.id = ${payments.confirmedBy})`;
  const [[order], items, paid, texts, record, orderReturns, sentBack] = await db.batch([
    db
      .select({
        id: orders.id,
        createdAt: orders.createdAt,
        status: orders.status,
        source: orders.source,
        paymentMethod: orders.paymentMethod,
        subtotal: orders.subtotal,
        deliveryFee: orders.deliveryFee,
        discount: orders.discount,
        offers: orderOffersSql,
        credit: orders.credit,
        total: orders.total,
        customerId: orders.customerId,
        customerName: orders.customerName,
        orderPhone: orders.customerPhone,
        orderEmail: orders.customerEmail,
        profilePhone: profiles.phone,
        accountEmail: user.email,
        accountSince: user.createdAt,
        hiddenByShopperAt: orders.hiddenByShopperAt,
        minDays: deliveryOptions.minDays,
        maxDays: deliveryOptions.maxDays,
        wantsTexts: wantsOrderTexts,
        ...deliveryColumns,
      })
      .from(orders)
      .leftJoin(profiles, eq(profiles.id, orders.customerId))
      .leftJoin(user, eq(user.id, orders.customerId))
      .leftJoin(deliveryOptions, eq(deliveryOptions.id, orders.deliveryOptionId))
      .where(eq(orders.id, orderId)),
    db
      .select({
        id: orderItems.id,
        name: orderItems.name,
        variant: orderItems.variantLabel,
        price: orderItems.price,
        quantity: orderItems.quantity,
        productId: products.id,
        slug: products.slug,
        sku: productVariants.sku,
        picture: sql<string | null>`coalesce(
          (select pi.url from ${productImages} pi
           where pi.product_id = ${products.id} and pi.colour is not null
             and pi.colour = ${productVariants.colour}
           order by pi.position, pi.id limit 1),
          ${products.productImage})`,
      })
      .from(orderItems)
      .leftJoin(products, eq(products.id, orderItems.productId))
      .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.name), asc(orderItems.variantLabel), asc(orderItems.id)),
    db
      .select({
        id: payments.id,
        network: payments.network,
        phone: payments.phone,
        amount: payments.amount,
        receivedAmount: payments.receivedAmount,
        receivedCurrency: payments.receivedCurrency,
        status: payments.status,
        reason: payments.reason,
        transactionId: payments.transactionId,
        refundReference: payments.refundReference,
        refundedAt: payments.refundedAt,
        settledAt: payments.settledAt,
        createdAt: payments.createdAt,
        confirmedBy: confirmer,
      })
      .from(payments)
      .where(eq(payments.orderId, orderId))
      .orderBy(asc(payments.createdAt), asc(payments.id)),
    smsHistoryQuery(db, { orderId, limit: ORDER_TEXTS_LIMIT }),
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
      .where(eq(deskRecords.orderId, orderId))
      .orderBy(desc(deskRecords.id))
      .limit(ORDER_RECORD_LIMIT),
    db
      .select({
        id: returns.id,
        status: returns.status,
        resolution: returns.resolution,
        amount: returns.amount,
        createdAt: returns.createdAt,
      })
      .from(returns)
      .where(eq(returns.orderId, orderId))
      .orderBy(desc(returns.createdAt), desc(returns.id)),
    db
      .select({
        id: refunds.id,
        paymentId: refunds.paymentId,
        returnId: refunds.returnId,
        method: refunds.method,
        amount: refunds.amount,
        status: refunds.status,
        reason: refunds.reason,
        reference: refunds.reference,
        createdAt: refunds.createdAt,
      })
      .from(refunds)
      .where(eq(refunds.orderId, orderId))
      .orderBy(asc(refunds.createdAt), asc(refunds.id)),
  ]);
  if (!order) return null;

  const kind = isDeliveryKind(order.deliveryKind) ? order.deliveryKind : 'delivery';
  const phone = order.orderPhone ?? order.profilePhone ?? order.deliveryPhone ?? null;
  const entries = record.map((row) => ({ ...row, createdAt: iso(row.createdAt) ?? '' }));
  return {
    id: order.id,
    createdAt: iso(order.createdAt) ?? '',
    status: order.status,
    source: order.source,
    paymentMethod: order.paymentMethod,
    subtotal: order.subtotal,
    deliveryFee: order.deliveryFee,
    discount: order.discount,
    /** The offers that gave the discount (code, name, amount), biggest first (issue 35). */
    offers: offersOf(order.offers),
    /** Gift card and store credit spent on it. */
    credit: order.credit,
    total: order.total,
    /** The shopper deleted it from their list (the shop keeps it). */
    hiddenByShopper: order.hiddenByShopperAt !== null,
    paid: paid.some((p) => p.status === 'successful'),
    customer: {
      name: order.customerName,
      phone,
      email: order.orderEmail ?? order.accountEmail ?? null,
      /** Their account, or null for a customer without one (or whose account is gone). */
      account: order.customerId
        ? { since: iso(order.accountSince), email: order.accountEmail ?? null }
        : null,
      /** The number the status texts go to; null when none is sent (no number, or switched off). */
      textsTo: order.wantsTexts ? (order.profilePhone ?? order.orderPhone ?? null) : null,
    },
    delivery: {
      option: order.deliveryOption,
      kind,
      area: order.deliveryArea,
      landmark: order.deliveryLandmark,
      phone: order.deliveryPhone,
      notes: order.deliveryNotes,
      riderName: order.riderName,
      riderPhone: order.riderPhone,
      days:
        order.minDays === null || order.maxDays === null
          ? null
          : { minDays: order.minDays, maxDays: order.maxDays },
    },
    items: items.map((item) => ({ ...item, picture: item.productId ? item.picture : null })),
    payments: paid.map((p) => ({
      ...p,
      amount: Number(p.amount),
      receivedAmount: p.receivedAmount === null ? null : Number(p.receivedAmount),
      refundedAt: iso(p.refundedAt),
      settledAt: iso(p.settledAt),
      createdAt: iso(p.createdAt) ?? '',
    })),
    texts: texts.map((t) => ({
      id: t.id,
      kind: t.kind,
      recipientPhone: t.recipientPhone,
      recipientType: t.recipientType,
      message: t.messageContent,
      status: t.status,
      error: t.errorMessage,
      /** How it went (issue 37): 'sms', or 'whatsapp' with WhatsApp's own state. */
      channel: t.channel,
      whatsappStatus: t.whatsappStatus,
      /** Why a WhatsApp message was texted instead; null when it was not. */
      fallback: t.fallbackReason,
      sentAt: iso(t.sentAt),
      createdAt: iso(t.createdAt) ?? '',
    })),
    /** The returns asked on it (issue 36), newest first; each has its own page. */
    returns: orderReturns.map((r) => ({ ...r, createdAt: iso(r.createdAt) ?? '' })),
    /** Every refund sent for it, whatever the reason (a return, a payment owed back). */
    refunds: sentBack.map((r) => ({ ...r, createdAt: iso(r.createdAt) ?? '' })),
    record: entries,
    notes: entries.filter((entry) => entry.action === NOTE_ACTION),
  };
}

export type DeskOrderPage = NonNullable<Awaited<ReturnType<typeof deskOrder>>>;

/** What a note's save answers, and what its record keeps (a retry under its key reads it back). */
export type SavedNote = { orderId: string; text: string };

/**
 * A staff member's private note on an order: the order's desk record ('order.noted', its text
 * in the details), written in ONE statement that finds the order, so a note on no order writes
 * nothing. A request key already used fails the insert on its unique index (keyedAnswer reads
 * the first note back). Never read by anything a shopper sees.
 */
export async function addOrderNote(
  db: Db,
  actor: DeskActor,
  input: { orderId: string; text: string; requestKey?: string },
): Promise<Answer<SavedNote, 'not-found'>> {
  const details: SavedNote = { orderId: input.orderId, text: input.text };
  const written = await db.execute<{ id: string | number }>(sql`
    insert into ${deskRecords} (actor_email, action, subject, details, request_key, order_id)
    select ${actor.email}, ${NOTE_ACTION}, ${orderSubject(input.orderId)},
           ${JSON.stringify(details)}::jsonb, ${input.requestKey ?? null}::uuid, o.id
    from ${orders} o where o.id = ${input.orderId}::uuid
    returning id`);
  if (written.rows.length === 0) return { ok: false, problem: 'not-found' };
  return { ok: true, ...details };
}
