import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './accounts-tables.ts';
import { orders } from './orders-tables.ts';

/**
 * One attempt to collect an order's total: a request to a mobile-money provider, a card payment
 * on Pesapal's hosted page, or a bank transfer or cash an operator confirmed. The id is the
 * reference the provider knows it by (MTN's X-Reference-Id, Airtel's transaction id, Pesapal's
 * merchant reference); a retry is a new row. docs/payments.md has the states.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey(),
    /** Kept, with the provider's transaction id, when the customer deletes the order. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    customerId: text('customer_id').references(() => user.id, { onDelete: 'set null' }),
    /**
     * Who moved the money: 'mtn' or 'airtel' (mobile money), 'pesapal' (card), 'bank_transfer'
     * or 'cash_on_delivery' (confirmed by an operator), 'cash' (paid at the counter, issue 34).
     */
    network: text().notNull(),
    /** The mobile-money payer's number, +256…; null for the other ways to pay. */
    phone: text(),
    /** The order's total when the payment started, in UGX: never taken from a provider. */
    amount: bigint({ mode: 'number' }).notNull(),
    /**
     * pending → successful | failed | expired. refund_due: money moved that the order did not
     * need (refunded once the operator records it); short: less than the total arrived;
     * reversed: the provider took back money it had reported.
     */
    status: text().notNull().default('pending'),
    /** Why it failed or expired (core/mobile-money.ts FAILURE_REASONS). */
    reason: text(),
    /** The provider's own id of the money movement, once successful (or the bank's reference). */
    transactionId: text('transaction_id'),
    /** Part of the callback URL given to the provider: a callback without it changes nothing. */
    callbackSecret: text('callback_secret').notNull(),
    /** The provider's id of this attempt when it gives one (Pesapal's order_tracking_id). */
    providerReference: text('provider_reference'),
    /** Where the shopper pays (Pesapal's hosted payment page). */
    redirectUrl: text('redirect_url'),
    /** What the provider says arrived, when it says (Pesapal's amount and currency). */
    receivedAmount: bigint('received_amount', { mode: 'number' }),
    receivedCurrency: text('received_currency'),
    /** The operator who confirmed a transfer or cash, or recorded the refund (user id). */
    confirmedBy: text('confirmed_by'),
    /** The refund's reference, once the operator has refunded a refund_due or short payment. */
    refundReference: text('refund_reference'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the provider was last asked for the status. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'payments_status_check',
      sql`${t.status} in ('pending', 'successful', 'failed', 'expired', 'refund_due', 'refunded', 'short', 'reversed')`,
    ),
    check(
      'payments_network_check',
      sql`${t.network} in ('mtn', 'airtel', 'pesapal', 'bank_transfer', 'cash_on_delivery', 'cash')`,
    ),
    check('payments_amount_check', sql`${t.amount} > 0`),
    // At most one payment per order is waiting or has succeeded: a retry while one is pending,
    // or after one succeeded, inserts nothing, and no order is ever paid twice.
    uniqueIndex('payments_one_live_per_order_idx')
      .on(t.orderId)
      .where(sql`${t.status} in ('pending', 'successful')`),
    index('payments_order_newest_idx').on(t.orderId, t.createdAt),
    // What the sweep reads again: waiting, and expired within the last day (late money).
    index('payments_reconcilable_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('pending', 'expired')`),
    uniqueIndex('payments_provider_reference_idx')
      .on(t.network, t.providerReference)
      .where(sql`${t.providerReference} is not null`),
    // The operator's money view: what awaits a refund or a look.
    index('payments_attention_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('refund_due', 'short', 'reversed')`),
  ],
);
