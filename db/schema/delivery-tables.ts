import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * How an order reaches its shopper (issue 23): Kampala delivery by boda, pickup at the boutique,
 * upcountry by bus courier, or a Kampala zone the owner adds. The owner sets them on the desk; the
 * checkout's one write reads the chosen one's fee and whether it takes cash on delivery. An order
 * copies the option's name and kind, so editing or retiring an option never changes old orders.
 */
export const deliveryOptions = pgTable(
  'delivery_options',
  {
    /** 'kampala', 'pickup', 'upcountry', or a slug the desk made from a new option's name. */
    id: text().primaryKey(),
    kind: text().notNull(),
    name: text().notNull(),
    /** Whole UGX; 0 is free. */
    fee: integer().notNull(),
    /** How long it takes, in days from the order: 0–1 is "the same or the next day". */
    minDays: integer('min_days').notNull(),
    maxDays: integer('max_days').notNull(),
    /** Where and when (pickup: the boutique's address and hours), shown under the choice. */
    details: text().notNull().default(''),
    cashOnDelivery: boolean('cash_on_delivery').notNull().default(true),
    /** Offered to shoppers; a retired option stays for the orders that name it. */
    active: boolean().notNull().default(true),
    position: integer().notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('delivery_options_kind_check', sql`${t.kind} in ('delivery', 'pickup', 'courier')`),
    check('delivery_options_fee_check', sql`${t.fee} >= 0`),
    check(
      'delivery_options_days_check',
      sql`${t.minDays} >= 0 and ${t.maxDays} >= ${t.minDays} and ${t.maxDays} <= 60`,
    ),
  ],
);
