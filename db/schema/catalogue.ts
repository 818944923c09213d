import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const categories = pgTable('categories', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull().unique(),
});

export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productName: text('product_name').notNull(),
    slug: text().notNull().unique(),
    price: integer().notNull(),
    quantity: integer().notNull().default(0),
    productImage: text('product_image'),
    description: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('products_quantity_check', sql`${t.quantity} >= 0`),
    check('products_price_check', sql`${t.price} >= 0`),
    // Ascending on purpose: read backwards it serves ORDER BY created_at DESC, id DESC. (A DESC
    // index is DESC NULLS LAST, which that ORDER BY, nulls first, cannot use.)
    index('products_newest_idx').on(t.createdAt, t.id),
    index('products_price_idx').on(t.price, t.id),
    // Substring search (LIKE '%term%') on lower(name) / lower(description): pg_trgm GIN indexes.
    index('products_name_trgm_idx').using('gin', sql`lower(${t.productName}) gin_trgm_ops`),
    index('products_description_trgm_idx').using('gin', sql`lower(${t.description}) gin_trgm_ops`),
  ],
);

/** Which products belong to which categories (a product may sit in several). */
export const productCategories = pgTable(
  'product_categories',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index('product_categories_category_idx').on(t.categoryId, t.productId),
  ],
);

export const sellers = pgTable('sellers', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  businessName: text('business_name').notNull(),
  contactName: text('contact_name').notNull(),
  phone: text().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const productSellers = pgTable(
  'product_sellers',
  {
    sellerId: integer('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.sellerId, t.productId] }),
    index('product_sellers_product_idx').on(t.productId),
  ],
);
