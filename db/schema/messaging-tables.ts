import { sql } from 'drizzle-orm';
import {
  boolean,
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
    /**
     * How it goes out now (issue 37): 'whatsapp' (a template, for a shopper who chose WhatsApp)
     * or 'sms'. A WhatsApp row that fails or is not delivered within 10 minutes turns 'sms' once,
     * with fallback_reason: the same row, so never both channels' copies, never twice.
     */
    channel: text().notNull().default('sms'),
    /** WhatsApp's own state of it, from the status webhooks: sent → delivered → read | failed. */
    whatsappStatus: text('whatsapp_status'),
    /** The Cloud API's message id (wamid): the status webhooks find the row by it. */
    whatsappMessageId: text('whatsapp_message_id'),
    whatsappSentAt: timestamp('whatsapp_sent_at', { withTimezone: true }),
    /** Why a WhatsApp row was texted instead (the desk's message log shows it). */
    fallbackReason: text('fallback_reason'),
  },
  (t) => [
    check('sms_recipient_type_check', sql`${t.recipientType} in ('customer', 'admin', 'seller')`),
    check('sms_status_check', sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`),
    check('sms_channel_check', sql`${t.channel} in ('sms', 'whatsapp')`),
    check(
      'sms_whatsapp_status_check',
      sql`${t.whatsappStatus} in ('sent', 'delivered', 'read', 'failed')`,
    ),
    uniqueIndex('sms_whatsapp_message_idx')
      .on(t.whatsappMessageId)
      .where(sql`${t.whatsappMessageId} is not null`),
    // The sweep's silence check: WhatsApp rows sent and not yet delivered.
    index('sms_whatsapp_waiting_idx')
      .on(t.whatsappSentAt)
      .where(sql`${t.channel} = 'whatsapp' and ${t.whatsappStatus} = 'sent'`),
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

/**
 * A phone number the shop talks to on WhatsApp (issue 37): one thread each. last_inbound_at opens
 * the 24-hour window for free text; stopped_at is a STOP (nothing more is sent there).
 */
export const whatsappContacts = pgTable('whatsapp_contacts', {
  /** '+256…', as the shop keeps numbers. */
  phone: text().primaryKey(),
  /** The name the shopper's WhatsApp profile gives. */
  name: text(),
  lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
  /** Staff have read the thread up to here (the inbox's unread count). */
  readAt: timestamp('read_at', { withTimezone: true }),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
  /** The shopper asked for a person: the assistant leaves the thread to staff (for 24 hours). */
  handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A shopper's number verified on WhatsApp (issue 37): a 6-digit code sent there as a template,
 * entered on the site. Only a verified number lets the assistant on WhatsApp read her orders;
 * a number is verified for one account at a time.
 */
export const whatsappVerifications = pgTable(
  'whatsapp_verifications',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    phone: text().notNull(),
    /** SHA-256 of the code last sent (hex); the code itself is never kept. */
    codeHash: text('code_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    attempts: integer().notNull().default(0),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_verified_phone_idx').on(t.phone).where(sql`${t.verifiedAt} is not null`),
  ],
);

/**
 * Every WhatsApp message in or out, oldest first per phone: inbound ones once by Meta's id however
 * often Meta retries the webhook; outbound ones with who sent them and what Meta charged.
 */
export const whatsappMessages = pgTable(
  'whatsapp_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Meta's message id (wamid…): null until the Cloud API accepted an outbound one. */
    wamid: text(),
    phone: text().notNull(),
    direction: text().notNull(),
    /** 'text', 'template', 'image' (a piece's card) or what an inbound message was. */
    type: text().notNull(),
    body: text().notNull(),
    /** Outbound: sent → delivered → read | failed; inbound: received. */
    status: text().notNull(),
    error: text(),
    /** The staff member who wrote it (the desk record); null for the shop's own messages. */
    sentBy: text('sent_by').references(() => user.id, { onDelete: 'set null' }),
    /** Written by the assistant on WhatsApp. */
    byAssistant: boolean('by_assistant').notNull().default(false),
    /** The outbox row it carries (an order update), if any. */
    smsId: uuid('sms_id').references(() => smsNotifications.id, { onDelete: 'set null' }),
    /** From the status webhook's pricing: what Meta bills it as. */
    billable: boolean(),
    pricingCategory: text('pricing_category'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('whatsapp_direction_check', sql`${t.direction} in ('in', 'out')`),
    check(
      'whatsapp_message_status_check',
      sql`${t.status} in ('received', 'sending', 'sent', 'delivered', 'read', 'failed')`,
    ),
    uniqueIndex('whatsapp_messages_wamid_idx').on(t.wamid),
    index('whatsapp_messages_phone_idx').on(t.phone, t.createdAt),
    index('whatsapp_messages_newest_idx').on(t.createdAt),
  ],
);
