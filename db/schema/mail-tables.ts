import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Mails written by the local mail adapter (development and tests) instead of being sent: the
 * dev-only /dev/mailbox page lists them, and tests read their links. Production sends through an
 * HTTP provider and writes nothing here.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    recipient: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    /** The mail's call to action (e.g. the verification link), when it has one. */
    link: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_outbox_newest_idx').on(t.createdAt),
    index('mail_outbox_recipient_idx').on(t.recipient, t.createdAt),
  ],
);
