import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The footer's newsletter box: one row per address (lower-cased). */
export const newsletterSubscriptions = pgTable('newsletter_subscriptions', {
  email: text().primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Messages from the Contact page's form. */
export const contactMessages = pgTable('contact_messages', {
  id: uuid().primaryKey().defaultRandom(),
  name: text(),
  email: text().notNull(),
  phone: text(),
  comment: text(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
