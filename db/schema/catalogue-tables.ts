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
} from 'drizzle-orm/pg-core';
import type { ProductStatus } from '#core/desk-roles.ts';
import type { ProductOption, VariantOptions } from '#core/variants.ts';

export const categories = pgTable('categories', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull().unique(),
  /** Where it stands in the shop's lists, lowest first (issue 34: set on the desk). */
  position: integer().notNull().default(0),
  /** Its picture on the home page; null: the newest pictured piece in it. */
  imageUrl: text('image_url'),
});

/** The home page's hero slides (issue 34: edited on the desk, no longer in the code). */
export const homeSlides = pgTable('home_slides', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  position: integer().notNull().default(0),
  title: text().notNull(),
  words: text().notNull().default(''),
  linkLabel: text('link_label').notNull().default('Shop Now'),
  linkUrl: text('link_url').notNull().default('/shop'),
  /** Its picture; null: the shop's newest pictured piece, as before the desk edited it. */
  imageUrl: text('image_url'),
  /** The drawn art behind the words when there is no picture (public/images/hero/*.svg). */
  art: text(),
});

export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productName: text('product_name').notNull(),
    slug: text().notNull().unique(),
    /** The piece's price: every variant's unless it has its own (decision 0039). Writers keep it
     * the lowest of its variants' prices, so it is the "from" price listings filter and sort by. */
    price: integer().notNull(),
    /** The first picture, for cards, the cart and texts (the gallery is product_images). */
    productImage: text('product_image'),
    description: text(),
    /** Which size system its sizes come from: clothes XS–XXL, shoes EU 36–46, or one size. */
    kind: text().notNull().default('one-size'),
    /** The options it comes in, in order: [{ name: 'Size', values: ['S', 'M'] }, …]; [] for none. */
    options: jsonb().$type<ProductOption[]>().notNull().default([]),
    /** draft: only the desk sees it; published: on sale; archived: hidden, kept for its orders. */
    status: text().$type<ProductStatus>().notNull().default('published'),
    /** False for pieces the shop takes no returns of (earrings, underwear; issue 36): the product
     * page says so and a return request leaves them out. */
    returnable: boolean().notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the shop's search reads (issue 32): the name, the description and the values of its
     * options (sizes, colours), lower-cased, kept by Postgres; searched through its trigram index. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(product_name || ' ' || coalesce(description, '') || ' ' || jsonb_path_query_array(options, '$[*].values[*]')::text)`,
      ),
  },
  (t) => [
    check('products_price_check', sql`${t.price} >= 0`),
    check('products_kind_check', sql`${t.kind} in ('clothes', 'shoes', 'one-size')`),
    check('products_status_check', sql`${t.status} in ('draft', 'published', 'archived')`),
    // Ascending on purpose: read backwards it serves ORDER BY created_at DESC, id DESC. (A DESC
    // index is DESC NULLS LAST, which that ORDER BY, nulls first, cannot use.)
    index('products_newest_idx').on(t.createdAt, t.id),
    index('products_price_idx').on(t.price, t.id),
    // pg_trgm GIN indexes: the search's substrings (LIKE '%word%') on search_text; the desk's
    // on lower(name), which also finds the names nearest a search that matched nothing.
    index('products_name_trgm_idx').using('gin', sql`lower(${t.productName}) gin_trgm_ops`),
    index('products_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // The pieces on sale, by id and by price, read from the index alone: a listing's capped count
    // and its facets' pieces check "on sale" without reading each product (issue 38).
    index('products_on_sale_idx').on(t.id).where(sql`status = 'published'`),
    index('products_on_sale_price_idx').on(t.price, t.id).where(sql`status = 'published'`),
  ],
);

/**
 * What a shopper buys: one combination of a product's option values (decision 0039). A product
 * without options has exactly one variant. Stock lives here, guarded by its CHECK.
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text().notNull().unique(),
    /** { Size: 'M', Colour: 'Indigo' }; {} for a product without options. */
    options: jsonb().$type<VariantOptions>().notNull().default({}),
    /** The values in the product's option order, as shown: "M · Indigo" ('' for none). */
    label: text().notNull().default(''),
    /** Its own price, else the product's. */
    price: integer(),
    /** The price before a sale, shown struck through. */
    compareAtPrice: integer('compare_at_price'),
    stock: integer().notNull().default(0),
    position: integer().notNull().default(0),
    /** Its size and colour as columns of their own, kept by Postgres from `options`: what the
     * listing's filters read, through the indexes below (issue 21). */
    size: text().generatedAlwaysAs(sql`(options->>'Size')`),
    colour: text().generatedAlwaysAs(sql`(options->>'Colour')`),
  },
  (t) => [
    check('product_variants_stock_check', sql`${t.stock} >= 0`),
    check('product_variants_price_check', sql`${t.price} >= 0 and ${t.compareAtPrice} >= 0`),
    index('product_variants_product_idx').on(t.productId, t.position),
    // The listing's size and colour filters (issue 21) ask size = 'M': read in product order
    // with the stock beside it, a filtered count is an index-only merge with the products (an
    // index on the expression options->>'Size' cannot be read index-only), and ANALYZE keeps
    // statistics per size and colour for the planner.
    index('product_variants_size_idx').on(t.size, t.productId, t.stock),
    index('product_variants_colour_idx').on(t.colour, t.productId, t.stock),
    // A size and a colour together (size 38 in Ochre): the few pieces having both, read from
    // the index alone, instead of walking the newest pieces to find them (issue 38).
    index('product_variants_size_colour_idx').on(t.size, t.colour, t.productId, t.stock),
  ],
);

/** A product's pictures, in order; a picture may belong to one colour. */
export const productImages = pgTable(
  'product_images',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The JPEG fallback; its WebP copies sit beside it (core/pictures.ts names them). */
    url: text().notNull(),
    alt: text().notNull(),
    colour: text(),
    /** The widths its copies were made at, for srcset; [] when only `url` exists. */
    widths: integer().array().notNull().default([]),
    /** The picture's own size as shown, read from the file at upload (decision 0061); null for
     * rows stored before sizes were kept. */
    width: integer(),
    height: integer(),
    position: integer().notNull().default(0),
  },
  (t) => [
    index('product_images_product_idx').on(t.productId, t.position),
    check(
      'product_images_size_check',
      // Both or neither (a CHECK passes on NULL, so "> 0" alone would let one side be missing).
      sql`(${t.width} is null and ${t.height} is null) or
          (${t.width} is not null and ${t.height} is not null and ${t.width} > 0 and ${t.height} > 0)`,
    ),
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
