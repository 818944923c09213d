import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './accounts.ts';
import { orders } from './orders.ts';

/**
 * One request to a mobile-money provider to collect an order's total. The id is the reference the
 * provider knows it by (MTN's X-Reference-Id, Airtel's transaction id); a retry is a new row.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey(),
    /** Kept, with the provider's transaction id, when the customer deletes the order. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    customerId: text('customer_id').references(() => user.id, { onDelete: 'set null' }),
    network: text().notNull(),
    /** The payer's number, +256…. */
    phone: text().notNull(),
    /** The order's total when the payment started, in UGX: never taken from a provider. */
    amount: integer().notNull(),
    /** pending → successful | failed | expired; refund_due: money moved that the order did not need. */
    status: text().notNull().default('pending'),
    /** Why it failed or expired (core/mobile-money.ts FAILURE_REASONS). */
    reason: text(),
    /** The provider's own id of the money movement, once successful. */
    transactionId: text('transaction_id'),
    /** Part of the callback URL given to the provider: a callback without it changes nothing. */
    callbackSecret: text('callback_secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the provider was last asked for the status. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'payments_status_check',
      sql`${t.status} in ('pending', 'successful', 'failed', 'expired', 'refund_due')`,
    ),
    check('payments_network_check', sql`${t.network} in ('mtn', 'airtel')`),
    check('payments_amount_check', sql`${t.amount} > 0`),
    // At most one payment per order is waiting or has succeeded: a retry while one is pending,
    // or after one succeeded, inserts nothing, and no order is ever paid twice.
    uniqueIndex('payments_one_live_per_order_idx')
      .on(t.orderId)
      .where(sql`${t.status} in ('pending', 'successful')`),
    index('payments_order_newest_idx').on(t.orderId, t.createdAt),
    index('payments_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);
