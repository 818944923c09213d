// Offers that bring shoppers back (issue 35): the promotions the desk runs and the offers each
// order was given; the one ledger of money the shop owes a shopper (gift cards, store credit);
// promotional campaigns and the cart reminder. Decision 0081.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { user } from './accounts-tables.ts';
import { orders } from './orders-tables.ts';

/**
 * An offer: percent or fixed off, free delivery, or buy X get Y; on the whole order, some
 * categories or chosen pieces; automatic (no code) or behind a code, matched case-insensitively.
 * `used` is its uses now, counted inside the checkout's one write: the CHECK refuses the use
 * above the limit there, as the stock's CHECK refuses an oversell, so racing checkouts take
 * exactly the uses left.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    /** As the desk typed it (NAKATO10); matched by lower(code). Null: automatic. */
    code: text(),
    kind: text().notNull(),
    /** percent: 1–100; fixed: UGX off; buy_x_get_y: the percent off the Y cheaper pieces
     * (100: free); free_delivery: 0. */
    value: integer().notNull().default(0),
    /** Null with productIds null: the whole order. */
    categoryIds: integer('category_ids').array(),
    productIds: integer('product_ids').array(),
    minSubtotal: bigint('min_subtotal', { mode: 'number' }),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    used: integer().notNull().default(0),
    perShopperLimit: integer('per_shopper_limit'),
    /** Only on a shopper's first order (the welcome code the spec's text promises). */
    firstOrderOnly: boolean('first_order_only').notNull().default(false),
    combinable: boolean().notNull().default(false),
    buyQuantity: integer('buy_quantity'),
    getQuantity: integer('get_quantity'),
    /** Who brings the sales (an influencer), for the desk's figures per code. */
    tag: text(),
    active: boolean().notNull().default(true),
    /** Bumped by every save: the checkout's write gives the offer only as it was read. */
    version: integer().notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'promotions_kind_check',
      sql`${t.kind} in ('percent', 'fixed', 'free_delivery', 'buy_x_get_y')`,
    ),
    check(
      'promotions_value_check',
      sql`${t.value} >= 0 and (${t.kind} not in ('percent', 'buy_x_get_y') or ${t.value} <= 100)`,
    ),
    check(
      'promotions_usage_check',
      sql`${t.used} >= 0 and (${t.usageLimit} is null or ${t.used} <= ${t.usageLimit})`,
    ),
    uniqueIndex('promotions_code_idx').on(sql`lower(${t.code})`).where(sql`${t.code} is not null`),
  ],
);

/**
 * The offers an order was given, copied (code, name, amount) so a later edit never rewrites the
 * order. `use_number` is the shopper's nth use of a per-shopper-limited offer: two racing orders
 * of one shopper cannot both take the same slot. A cancelled order's row stops counting.
 */
export const orderOffers = pgTable(
  'order_offers',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id),
    code: text(),
    name: text().notNull(),
    /** UGX taken off (for free delivery: the fee waived). */
    amount: bigint({ mode: 'number' }).notNull(),
    /** The shopper's account id, or the phone of an order the desk took without one. */
    shopper: text(),
    useNumber: integer('use_number'),
    counted: boolean().notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.promotionId] }),
    check('order_offers_amount_check', sql`${t.amount} >= 0`),
    uniqueIndex('order_offers_shopper_use_idx')
      .on(t.promotionId, t.shopper, t.useNumber)
      .where(sql`${t.counted} and ${t.useNumber} is not null`),
    index('order_offers_promotion_idx').on(t.promotionId),
  ],
);

/**
 * Money the shop owes someone: a gift card (its code kept only hashed, with its last 4
 * characters readable) or a shopper's store credit. `balance` is the sum of its entries, kept
 * by the statement that adds each one; its CHECK refuses a spend below 0, like stock.
 */
export const valueAccounts = pgTable(
  'value_accounts',
  {
    id: serial().primaryKey(),
    kind: text().notNull(),
    /** Store credit: whose. A gift card belongs to whoever holds its code. */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    codeHash: text('code_hash'),
    codeLast4: text('code_last4'),
    recipientName: text('recipient_name'),
    recipientPhone: text('recipient_phone'),
    message: text(),
    /** The order that bought the gift card: it is issued (texted) when that order is paid. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    /** What the gift card was bought for (its first entry, once issued). */
    amount: bigint({ mode: 'number' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    balance: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('value_accounts_kind_check', sql`${t.kind} in ('gift_card', 'store_credit')`),
    check('value_accounts_balance_check', sql`${t.balance} >= 0`),
    uniqueIndex('value_accounts_code_idx').on(t.codeHash).where(sql`${t.codeHash} is not null`),
    uniqueIndex('value_accounts_credit_idx').on(t.userId).where(sql`${t.kind} = 'store_credit'`),
    index('value_accounts_order_idx').on(t.orderId),
  ],
);

/**
 * One movement of value, never changed or removed (a trigger refuses it): a gift card issued,
 * credit granted or refunded, a spend at checkout (negative), a spend given back when its order
 * was cancelled or deleted. The order is named by id only, so the entry outlives it.
 */
export const valueEntries = pgTable(
  'value_entries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => valueAccounts.id),
    amount: bigint({ mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    reason: text().notNull(),
    note: text().notNull().default(''),
    orderId: uuid('order_id'),
    /** The staff member who granted it (desk.grantCredit), by id. */
    actor: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'value_entries_reason_check',
      sql`${t.reason} in ('issued', 'granted', 'refund', 'spent', 'given_back')`,
    ),
    check('value_entries_amount_check', sql`${t.amount} <> 0 and ${t.balanceAfter} >= 0`),
    index('value_entries_account_idx').on(t.accountId, t.createdAt),
    index('value_entries_order_idx').on(t.orderId),
  ],
);

/** A promotional text sent to the shoppers who said yes: what, to whom, at what cost. */
export const campaigns = pgTable('campaigns', {
  id: serial().primaryKey(),
  promotionId: integer('promotion_id').references(() => promotions.id),
  message: text().notNull(),
  /** Who was asked for: { categoryId? } (shoppers who bought from it), always only consenting. */
  audience: jsonb().notNull(),
  recipients: integer().notNull(),
  /** UGX, what the texts cost at the shop's rate when sent. */
  cost: bigint({ mode: 'number' }).notNull(),
  actor: text(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The one reminder a shopper's cart left behind gets: when it was texted. */
export const cartReminders = pgTable('cart_reminders', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});
