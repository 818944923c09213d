// Returns, exchanges and refunds (issue 36, decision 0086): what a shopper asks to bring back, the
// pieces in it, and every refund the shop sends, whatever the reason (a return, or a payment the
// order did not need), through the provider that took the money or to store credit.
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './accounts-tables.ts';
import { productVariants } from './catalogue-tables.ts';
import { orderItems, orders } from './orders-tables.ts';
import { payments } from './payments-tables.ts';

/**
 * A shopper's request to bring pieces back: requested → approved → received → refunded |
 * exchanged, or refused. The id is the client's (a retried request makes one return). An
 * exchange's new piece is held from the request's own statement (return_lines.exchange_variant_id).
 */
export const returns = pgTable(
  'returns',
  {
    id: uuid().primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    customerId: text('customer_id').references(() => user.id, { onDelete: 'set null' }),
    /** RETURN_STATES in core/returns.ts. */
    status: text().notNull().default('requested'),
    resolution: text().notNull(),
    /** A refund's destination: the payment's own provider, or the shopper's store credit. */
    refundTo: text('refund_to'),
    note: text().notNull().default(''),
    /** The shopper's photos (up to 3): the stored pictures' keys, as the desk's photos. */
    photos: jsonb().$type<string[]>().notNull().default([]),
    /** What the lines are worth, as paid (the order's discount shared out): what a refund sends. */
    amount: bigint({ mode: 'number' }).notNull(),
    /** Once approved: the rider collects it ('pickup', for pickup_fee) or she brings it. */
    handover: text(),
    pickupFee: bigint('pickup_fee', { mode: 'number' }).notNull().default(0),
    /** The staff's reason for a refusal, or their words with an approval. */
    staffReason: text('staff_reason'),
    /** The exchange's own delivery, once received: preparing → out_for_delivery → delivered. */
    exchangeStatus: text('exchange_status'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'returns_status_check',
      sql`${t.status} in ('requested', 'approved', 'received', 'refunded', 'exchanged', 'refused')`,
    ),
    check('returns_resolution_check', sql`${t.resolution} in ('exchange', 'refund')`),
    check(
      'returns_refund_to_check',
      sql`${t.refundTo} is null or ${t.refundTo} in ('original', 'store_credit')`,
    ),
    check(
      'returns_handover_check',
      sql`${t.handover} is null or ${t.handover} in ('pickup', 'drop_off')`,
    ),
    check(
      'returns_exchange_status_check',
      sql`${t.exchangeStatus} is null or ${t.exchangeStatus} in ('preparing', 'out_for_delivery', 'delivered')`,
    ),
    check('returns_money_check', sql`${t.amount} >= 0 and ${t.pickupFee} >= 0`),
    index('returns_order_idx').on(t.orderId),
    index('returns_customer_newest_idx').on(t.customerId, t.createdAt),
    // The desk's queue, newest first by status.
    index('returns_status_newest_idx').on(t.status, t.createdAt),
  ],
);

/** One order line in a return: how many, why, the exchange's piece and, once received, its state. */
export const returnLines = pgTable(
  'return_lines',
  {
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    orderItemId: uuid('order_item_id')
      .notNull()
      .references(() => orderItems.id),
    quantity: integer().notNull(),
    /** RETURN_REASONS in core/returns.ts. */
    reason: text().notNull(),
    /** The piece given in exchange, held since the request; its label copied as the order's. */
    exchangeVariantId: integer('exchange_variant_id').references(() => productVariants.id, {
      onDelete: 'set null',
    }),
    exchangeLabel: text('exchange_label'),
    /** Set on receipt: 'resellable' went back into stock, 'damaged' stayed out. */
    condition: text(),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.orderItemId] }),
    check('return_lines_quantity_check', sql`${t.quantity} > 0`),
    check(
      'return_lines_reason_check',
      sql`${t.reason} in ('too_small', 'too_big', 'not_as_pictured', 'damaged', 'wrong_item', 'changed_mind')`,
    ),
    check(
      'return_lines_condition_check',
      sql`${t.condition} is null or ${t.condition} in ('resellable', 'damaged')`,
    ),
    index('return_lines_item_idx').on(t.orderItemId),
  ],
);

/**
 * Money sent back: requested → sent → succeeded | failed, reconciled like a collection (the
 * sweep reads the provider's status; a late success counts). One live refund per payment and one
 * per return and destination, whoever taps: a failed one stays as history and a retry is a new row.
 * `provider_reference` is the id the provider knows it by (MTN's X-Reference-Id, Airtel's
 * transaction id, Pesapal's confirmation code); `reference` what the provider or staff gave back.
 * A succeeded refund is a credit note, CRN- and the first 8 characters of its id (as RCP-).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    returnId: uuid('return_id').references(() => returns.id, { onDelete: 'set null' }),
    /** The payment it sends back (null for store credit). */
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    customerId: text('customer_id').references(() => user.id, { onDelete: 'set null' }),
    /** REFUND_METHODS in core/returns.ts: the payment's network, or 'store_credit'. */
    method: text().notNull(),
    amount: bigint({ mode: 'number' }).notNull(),
    status: text().notNull().default('requested'),
    /** Why it failed, in the shop's words. */
    reason: text(),
    providerReference: text('provider_reference'),
    reference: text(),
    /** The staff member who started it or recorded it by hand (email). */
    actorEmail: text('actor_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check('refunds_status_check', sql`${t.status} in ('requested', 'sent', 'succeeded', 'failed')`),
    check(
      'refunds_method_check',
      sql`${t.method} in ('mtn', 'airtel', 'pesapal', 'bank_transfer', 'cash_on_delivery', 'cash', 'store_credit')`,
    ),
    check('refunds_amount_check', sql`${t.amount} > 0`),
    // Never two refunds for one payment, nor two for one return to one destination.
    uniqueIndex('refunds_one_per_payment_idx')
      .on(t.paymentId)
      .where(sql`${t.paymentId} is not null and ${t.status} <> 'failed'`),
    uniqueIndex('refunds_one_per_return_idx')
      .on(t.returnId, t.method)
      .where(sql`${t.returnId} is not null and ${t.status} <> 'failed'`),
    index('refunds_order_idx').on(t.orderId),
    index('refunds_reconcilable_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('requested', 'sent')`),
  ],
);
