import { sql } from 'drizzle-orm';
import {
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
import { campaigns } from './offers-tables.ts';
import { orders } from './orders-tables.ts';

export const systemSettings = pgTable('system_settings', {
  settingKey: text('setting_key').primaryKey(),
  settingValue: text('setting_value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const smsNotifications = pgTable(
  'sms_notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Kept as the shop's record of what was sent even if the order is deleted. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    recipientPhone: text('recipient_phone').notNull(),
    recipientType: text('recipient_type').notNull(),
    /** Which template (core/sms.ts SMS_KINDS): with the order and number, sent at most once. */
    kind: text().notNull(),
    messageContent: text('message_content').notNull(),
    /** pending → sending (claimed by one deliverer) → sent | failed; transient failures go back
     * to pending with a later next_attempt_at. */
    status: text().notNull().default('pending'),
    messageId: text('message_id'),
    errorMessage: text('error_message'),
    attempts: integer().notNull().default(0),
    /** A pending row is not sent before this (retry backoff); null: at once. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** When a deliverer claimed it (status sending): a stale claim is recovered. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The promotional campaign it belongs to (issue 35): one text a number per campaign. */
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('sms_recipient_type_check', sql`${t.recipientType} in ('customer', 'admin', 'seller')`),
    check('sms_status_check', sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`),
    // The same order never texts the same number the same message twice.
    uniqueIndex('sms_once_per_order_idx')
      .on(t.orderId, t.recipientPhone, t.kind)
      .where(sql`${t.orderId} is not null`),
    uniqueIndex('sms_once_per_campaign_idx')
      .on(t.campaignId, t.recipientPhone)
      .where(sql`${t.campaignId} is not null`),
    index('sms_order_idx').on(t.orderId, t.createdAt),
    index('sms_newest_idx').on(t.createdAt),
    index('sms_status_idx').on(t.status, t.createdAt),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').notNull(),
    role: text().notNull(),
    content: text().notNull(),
    metadata: jsonb().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('chat_role_check', sql`${t.role} in ('user', 'assistant', 'system')`),
    index('chat_user_session_idx').on(t.userId, t.sessionId, t.createdAt),
    index('chat_user_newest_idx').on(t.userId, t.createdAt),
  ],
);

export const userChatPreferences = pgTable('user_chat_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  preferences: jsonb().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * "Tell me when it's back": one per shopper and sold-out variant. When that variant's stock
 * returns, the statement that returns it texts each asker once and deletes their request.
 */
export const backInStockRequests = pgTable(
  'back_in_stock_requests',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.variantId] }),
    index('back_in_stock_variant_idx').on(t.variantId),
  ],
);
