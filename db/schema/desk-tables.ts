// The boutique's desk (issue 22): every change to stock with its reason and the level after, and
// the record of every desk write (who, what, when). Staff roles live on "user".role.
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { productVariants } from './catalogue-tables.ts';
import { orders } from './orders-tables.ts';

/**
 * One change to one variant's stock, written by the statement that made it: a sale (checkout), an
 * order deleted while pending, a desk adjustment, a product saved or imported. The sum of
 * `change` over a variant's rows is its stock's history; `stock_after` is the level it left.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null once the variant itself is removed (its SKU and label are kept here). */
    variantId: integer('variant_id').references(() => productVariants.id, {
      onDelete: 'set null',
    }),
    sku: text().notNull(),
    change: integer().notNull(),
    stockAfter: integer('stock_after').notNull(),
    /** STOCK_REASONS in core/desk-roles.ts. */
    reason: text().notNull(),
    /** The order of a sale or a deleted order. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** Who: a staff member's email for desk changes; null for a shopper's checkout. */
    actorEmail: text('actor_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'stock_movements_reason_check',
      sql`${t.reason} in ('sale', 'order-deleted', 'received', 'counted', 'damaged', 'returned', 'saved', 'imported', 'exchange-held', 'exchange-released', 'return-damaged')`,
    ),
    // A variant's history, newest first (read backwards); the whole log reads the primary key.
    index('stock_movements_variant_idx').on(t.variantId, t.id),
  ],
);

/**
 * The desk's record: every desk write, who made it and when. `request_key` is the client's key
 * for one save: a retried save (a dropped connection) finds its first answer here instead of
 * writing twice.
 */
export const deskRecords = pgTable(
  'desk_records',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorEmail: text('actor_email').notNull(),
    /** What was done: 'product.saved', 'stock.adjusted', 'staff.added', … */
    action: text().notNull(),
    /** What it was done to, as the desk shows it: "Ankara Wrap Dress", "amina@example.ug". */
    subject: text().notNull().default(''),
    /** The change's details and, for a keyed save, its answer. */
    details: jsonb().notNull().default({}),
    requestKey: uuid('request_key').unique(),
    /** The order it was done to (issue 34): its status moves, payments, refunds and the staff's
     * private notes ('order.noted') make the order's own record on its desk page. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('desk_records_newest_idx').on(t.createdAt, t.id),
    index('desk_records_order_idx').on(t.orderId, t.id),
  ],
);
