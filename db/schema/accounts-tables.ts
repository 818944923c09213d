import { relations, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// better-auth's core tables (user, session, account, verification, rate_limit).
export const user = pgTable(
  'user',
  {
    id: text().primaryKey(),
    name: text().notNull(),
    email: text().notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text(),
    /** 'customer', or a desk role: 'staff' | 'owner' (core/desk-roles.ts; npm run make-operator). */
    role: text().notNull().default('customer'),
    /** better-auth's two-factor plugin: true once the shopper proved a code from their app. */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('user_role_check', sql`${t.role} in ('customer', 'staff', 'owner')`)],
);

/** better-auth's two-factor plugin: the TOTP secret and backup codes (both encrypted by it). */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: text().primaryKey(),
    secret: text().notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    verified: boolean().notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factor_user_idx').on(t.userId), index('two_factor_secret_idx').on(t.secret)],
);

export const session = pgTable(
  'session',
  {
    id: text().primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text().notNull().unique(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('session_user_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text().primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text(),
    password: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('account_user_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

export const rateLimit = pgTable('rate_limit', {
  id: text().primaryKey(),
  key: text().notNull().unique(),
  count: bigint({ mode: 'number' }).notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

export const profiles = pgTable(
  'profiles',
  {
    id: text()
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    fullName: text('full_name').notNull().default('New User'),
    avatarUrl: text('avatar_url'),
    phone: text(),
    address: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The last guard behind the account router's validation (spec: full name up to 100 characters,
    // phone '+' then 10 to 15 digits).
    check('profiles_full_name_check', sql`char_length(${t.fullName}) between 1 and 100`),
    check('profiles_phone_check', sql`${t.phone} ~ '^[+][0-9]{10,15}$'`),
    check('profiles_address_check', sql`char_length(${t.address}) <= 500`),
  ],
);

export const userSettings = pgTable(
  'user_settings',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    /** null: follow the device's colour scheme; true/false: always dark/light. */
    darkMode: boolean('dark_mode'),
    language: text().notNull().default('en'),
    currency: text().notNull().default('UGX'),
    emailNotifications: boolean('email_notifications').notNull().default(true),
    pushNotifications: boolean('push_notifications').notNull().default(true),
    smsNotifications: boolean('sms_notifications').notNull().default(false),
    orderUpdates: boolean('order_updates').notNull().default(true),
    marketingNotifications: boolean('marketing_notifications').notNull().default(false),
    /** Where order updates go (issue 37): 'sms', or 'whatsapp' when the shop has WhatsApp. */
    notificationChannel: text('notification_channel').notNull().default('sms'),
    /** The short token of the link in every promotional text that switches them off without
     * signing in (issue 35); made when the first one is sent. */
    stopToken: text('stop_token').unique(),
    profileVisibility: text('profile_visibility').notNull().default('private'),
    dataSharing: boolean('data_sharing').notNull().default(false),
    analytics: boolean().notNull().default(true),
    /** "Use less data" (issue 38): small pictures in listings and a hero that stays still. */
    lessData: boolean('less_data').notNull().default(false),
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('user_settings_language_check', sql`${t.language} in ('en', 'es', 'fr', 'sw', 'lg')`),
    check('user_settings_currency_check', sql`${t.currency} in ('UGX', 'USD', 'EUR', 'GBP')`),
    check('user_settings_channel_check', sql`${t.notificationChannel} in ('sms', 'whatsapp')`),
    check(
      'user_settings_visibility_check',
      sql`${t.profileVisibility} in ('public', 'private', 'friends')`,
    ),
  ],
);

/**
 * The joins better-auth asks for (`advanced.database.joins`): a session with its user, an account
 * with its user, a user with their accounts, each one statement, one trip (decision 0054).
 */
export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}));
export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}));
export const userRelations = relations(user, ({ many }) => ({
  sessions: many(session),
  accounts: many(account),
}));
