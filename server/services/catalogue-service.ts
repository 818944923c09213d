import { and, asc, count, desc, eq, gt, gte, lte, type SQL, sql } from 'drizzle-orm';
import {
  AFFORDABLE_MAX_PRICE,
  FEATURED_MIN_PRICE_EXCLUSIVE,
  HOME_FEATURED_COUNT,
  HOME_NEW_ARRIVALS_COUNT,
  LISTING_PAGE_SIZE,
  PREMIUM_MIN_PRICE_EXCLUSIVE,
  type Product,
  type ProductDetail,
  ROW_CARD_LIMIT,
  SHOP_FEATURED_COUNT,
  SHOP_GROUPS,
  SHOP_NEW_ARRIVALS_SHARE,
  type ShopGroup,
  SUGGESTIONS_MAX,
  saleReach,
  searchWords,
  shopNewArrivalsCount,
} from '#core/catalogue.ts';
import { DEFAULT_HOME_SLIDE, type HomeSlide } from '#core/home-slides.ts';
import { DEFAULT_SORT, type ListingFilters, type ListingSort } from '#core/listing.ts';
import { EXCHANGE_RATES_KEY, type ExchangeRates, parseRates } from '#core/money.ts';
import { jsonLdMayCarry, offerPrice, pieceOfferOf, shownOffers } from '#core/offer-badge.ts';
import type { Offer } from '#core/offers.ts';
import { COLOUR, type Kind, SIZE, SIZES, type Variant } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import {
  categories,
  homeSlides,
  productCategories,
  productImages,
  products,
  productVariants,
  systemSettings,
} from '#db/schema/index.ts';
import { choicesFrom, deliveryQueries } from './delivery-service.ts';
import { liveOffersQuery, toOffer } from './offers-service.ts';

/**
 * What a card needs of a product's variants, read with it in one correlated subquery through
 * product_variants_product_idx (no query per card): stock over all sizes, the price range, how
 * many variants are on sale and their lowest compare-at price, the only variant's id, and the
 * sizes still in stock.
 */
const variantSummary = sql<VariantSummary>`(
  select json_build_object(
    'stock', coalesce(sum(v.stock), 0),
    'priceTo', max(coalesce(v.price, "products"."price")),
    'compareAt', min(v.compare_at_price)
      filter (where v.compare_at_price > coalesce(v.price, "products"."price")),
    'onSale', count(*) filter (where v.compare_at_price > coalesce(v.price, "products"."price")),
    'variants', count(*),
    'firstVariant', min(v.id),
    'sizesLeft', (
      select json_agg(s.size order by s.position)
      from (
        select v2.options->>'Size' as size, min(v2.position) as position
        from product_variants v2
        where v2.product_id = "products"."id" and v2.stock > 0 and v2.options ? 'Size'
        group by 1
      ) s
    ),
    'sized', bool_or(v.options ? 'Size')
  )
  from product_variants v where v.product_id = "products"."id"
)`;

/** The WebP widths stored for the card's picture (products.product_image), for its srcset. */
export const cardPictureWidths = sql<number[] | null>`(
  select array_to_json(i.widths) from product_images i
  where i.product_id = "products"."id" and i.url = "products"."product_image"
  order by i.position limit 1
)`;

type VariantSummary = {
  stock: number | string;
  priceTo: number | string | null;
  compareAt: number | string | null;
  onSale: number | string;
  variants: number | string;
  firstVariant: number | null;
  sizesLeft: string[] | null;
  sized: boolean | null;
};

/** The piece's categories (product_categories' key leads with the product), for the offers that
 * name categories: read with the card, so a listing's offers cost no round trip of their own. */
const pieceCategoryIds = sql<number[] | null>`(
  select array_to_json(array_agg(pc.category_id)) from product_categories pc
  where pc.product_id = "products"."id"
)`;

/** The columns every screen needs, in the spec's product shape (§3). */
const productColumns = {
  id: products.id,
  slug: products.slug,
  productName: products.productName,
  price: products.price,
  productImage: products.productImage,
  imageWidths: cardPictureWidths,
  description: products.description,
  summary: variantSummary,
  categoryIds: pieceCategoryIds,
};

type ProductRow = {
  id: number;
  slug: string;
  productName: string;
  price: number;
  productImage: string | null;
  imageWidths: number[] | null;
  description: string | null;
  summary: VariantSummary | null;
  categoryIds?: number[] | null;
};

/*
 * Automatic offers on the shop's cards and product pages (issue 35). The offers running now are
 * read in each page's one batch (liveOffersQuery) and the badge's words and price worked out
 * here: the browser gets text and numbers, never the rules. Anonymous pages are kept by the edge
 * cache (server/http/page-cache.ts) under the catalogue's version, which every offer save raises,
 * so an edit shows at once; an offer's own start or end changes no version, so a kept page may
 * show it up to PAGE_CACHE_SECONDS (60 s by default) late. That is the whole window: the badge
 * only tells, and the checkout works out the price from the offers at the moment of the order.
 */

/** The automatic offers running now, from liveOffersQuery's rows. */
function runningOffers(rows: Parameters<typeof toOffer>[0][], now: Date): Offer[] {
  return shownOffers(rows.map(toOffer), now);
}

/** A card's product, with the offer it shows (if any). */
function offeredProduct(row: ProductRow, offers: readonly Offer[], now: Date): Product {
  const product = toProduct(row);
  if (offers.length === 0) return product;
  const found = pieceOfferOf(
    offers,
    { productId: row.id, categoryIds: row.categoryIds ?? [], price: product.price },
    now,
  );
  return found ? { ...product, offer: { label: found.label, price: found.price } } : product;
}

/** A batch's cards, each with its offer. */
const offeredAll = (rows: ProductRow[], offers: readonly Offer[], now: Date) =>
  rows.map((row) => offeredProduct(row, offers, now));

export function toProduct(row: ProductRow): Product {
  const summary = row.summary;
  const stock = Number(summary?.stock ?? 0);
  const variants = Number(summary?.variants ?? 0);
  // A sale is the piece's only when every variant is on sale.
  const sale = saleReach(Number(summary?.onSale ?? 0), variants);
  return {
    id: row.id,
    slug: row.slug,
    name: row.productName,
    price: row.price,
    priceTo: Number(summary?.priceTo ?? row.price),
    compareAtPrice: sale === 'all' ? Number(summary?.compareAt) : null,
    sale,
    image_url: row.productImage,
    ...(row.imageWidths?.length ? { imageWidths: row.imageWidths } : {}),
    ...(row.description ? { description: row.description } : {}),
    quantity: stock,
    stock,
    variantId: variants === 1 ? (summary?.firstVariant ?? null) : null,
    sizesLeft: summary?.sized ? (summary.sizesLeft ?? []) : null,
  };
}

/** On sale: a published piece (issue 22). Every shopper read of products carries it: a draft
 * or an archived piece is the desk's only, as if it did not exist. */
export const onSale = sql`${products.status} = 'published'`;
/** The same condition in a raw statement that names products `p`. */
export const pOnSale = sql.raw(`p.status = 'published'`);

/** In stock: some variant has pieces left. */
export const inStock = sql`exists (select 1 from product_variants v where v.product_id = "products"."id" and v.stock > 0)`;

const newestFirst = [desc(products.createdAt), desc(products.id)];

const groupFilter: Record<ShopGroup, SQL | undefined> = {
  new: undefined,
  featured: gt(products.price, FEATURED_MIN_PRICE_EXCLUSIVE),
  affordable: lte(products.price, AFFORDABLE_MAX_PRICE),
  premium: gt(products.price, PREMIUM_MIN_PRICE_EXCLUSIVE),
};

function newest(db: Db, where: SQL | undefined, limit: number, offset = 0) {
  return db
    .select(productColumns)
    .from(products)
    .where(and(onSale, where))
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
}

export async function listNewest(db: Db, limit: number): Promise<Product[]> {
  return (await newest(db, undefined, limit)).map(toProduct);
}

/**
 * The hero's slides in the owner's order (issue 34, decision 0078), each picture with the WebP
 * widths stored for it. The widths are looked up only for a slide that has a picture (a `case`
 * runs its sub-select for those alone): product_images has no index on its URL, and a home of
 * six slides at most reads them once per catalogue version (the edge cache keeps the page).
 */
export function homeSlidesQuery(db: Db) {
  return db
    .select({
      id: homeSlides.id,
      title: homeSlides.title,
      words: homeSlides.words,
      linkLabel: homeSlides.linkLabel,
      linkUrl: homeSlides.linkUrl,
      imageUrl: homeSlides.imageUrl,
      imageWidths: sql<number[] | null>`case when ${homeSlides.imageUrl} is null then null else (
        select array_to_json(i.widths) from product_images i
        where i.url = ${homeSlides.imageUrl} order by i.id limit 1) end`,
      art: homeSlides.art,
    })
    .from(homeSlides)
    .orderBy(asc(homeSlides.position), asc(homeSlides.id));
}

type SlideRow = Awaited<ReturnType<typeof homeSlidesQuery>>[number];

export const toHomeSlide = (row: SlideRow): HomeSlide => ({
  ...row,
  imageWidths: row.imageWidths ?? [],
});

/** Home: the hero's slides, Featured Collection (price over 50,000, first 8) and New Arrivals
 * (first 8), one round trip. No slide stored: the default one (core/home-slides.ts). */
export async function homeShowcase(db: Db) {
  const [slides, featured, newArrivals, offerRows] = await db.batch([
    homeSlidesQuery(db),
    newest(db, groupFilter.featured, HOME_FEATURED_COUNT),
    newest(db, undefined, HOME_NEW_ARRIVALS_COUNT),
    liveOffersQuery(db),
  ]);
  const now = new Date();
  const offers = runningOffers(offerRows, now);
  return {
    slides: slides.length > 0 ? slides.map(toHomeSlide) : [DEFAULT_HOME_SLIDE],
    featured: offeredAll(featured, offers, now),
    newArrivals: offeredAll(newArrivals, offers, now),
  };
}

export type ShopRow = {
  group: ShopGroup;
  title: string;
  /** How many items the row holds by the spec's rule (the item count shown), counted up to
   * COUNT_CAP. */
  count: number;
  /** More than `count` items: "1,000+ items". */
  countCapped: boolean;
  /** At most ROW_CARD_LIMIT cards; the rest are behind "View all". */
  products: Product[];
};

/** How many products match `where`, counted up to `limit`: the count of a larger set costs what
 * this one does. */
function countUpTo(db: Db, where: SQL | undefined, limit: number) {
  const counted = db.select({ id: products.id }).from(products).where(where).limit(limit);
  return db.select({ n: count() }).from(counted.as('counted'));
}

/** A count read up to COUNT_CAP + 1, as the shop shows it: at most COUNT_CAP, and whether there
 * are more. */
function capped(counted: number) {
  return { count: Math.min(counted, COUNT_CAP), countCapped: counted > COUNT_CAP };
}

/** /shop without a search: the group rows, empty ones hidden, in one round trip. Each count
 * stops past COUNT_CAP; New Arrivals, the first 30 % of everything, is then "300+". */
export async function shopRows(
  db: Db,
): Promise<{ total: number; totalCapped: boolean; rows: ShopRow[] }> {
  const counts = (group?: SQL) => countUpTo(db, and(onSale, group), COUNT_CAP + 1);
  const [
    [all],
    [featured],
    [affordable],
    [premium],
    newRows,
    featuredRows,
    affordableRows,
    premiumRows,
    offerRows,
  ] = await db.batch([
    counts(),
    counts(groupFilter.featured),
    counts(groupFilter.affordable),
    counts(groupFilter.premium),
    newest(db, undefined, ROW_CARD_LIMIT),
    newest(db, groupFilter.featured, SHOP_FEATURED_COUNT),
    newest(db, groupFilter.affordable, ROW_CARD_LIMIT),
    newest(db, groupFilter.premium, ROW_CARD_LIMIT),
    liveOffersQuery(db),
  ]);
  const now = new Date();
  const offers = runningOffers(offerRows, now);
  const total = capped(all?.n ?? 0);
  const newCount = shopNewArrivalsCount(total.count);
  const rows: ShopRow[] = [
    {
      group: 'new',
      title: SHOP_GROUPS.new,
      count: newCount,
      countCapped: total.countCapped,
      products: newRows.slice(0, newCount),
    },
    {
      group: 'featured',
      title: SHOP_GROUPS.featured,
      count: Math.min(SHOP_FEATURED_COUNT, featured?.n ?? 0),
      countCapped: false,
      products: featuredRows,
    },
    {
      group: 'affordable',
      title: SHOP_GROUPS.affordable,
      ...capped(affordable?.n ?? 0),
      products: affordableRows,
    },
    {
      group: 'premium',
      title: SHOP_GROUPS.premium,
      ...capped(premium?.n ?? 0),
      products: premiumRows,
    },
  ].map((row) => ({ ...row, products: offeredAll(row.products, offers, now) }) as ShopRow);
  return {
    total: total.count,
    totalCapped: total.countCapped,
    rows: rows.filter((row) => row.count > 0),
  };
}

export type FacetValue = { value: string; count: number };
/** The sizes and colours a listing's pieces come in, each with how many pieces choosing it would
 * show (every other filter applied): the filter bar's chips. */
export type Facets = {
  sizes: FacetValue[];
  colours: FacetValue[];
  /** Whether the counts are the whole listing's (else the values of FACET_SAMPLE of its pieces,
   * shown without counts). */
  exact: boolean;
};

export type Listing = {
  products: Product[];
  /** How many pieces the listing holds, counted up to COUNT_CAP. */
  total: number;
  /** More than `total` pieces: the count stopped at COUNT_CAP ("1,000+ pieces"). */
  totalCapped: boolean;
  page: number;
  /** The pages known to hold pieces: all of them, or (counted up to the cap) up to one past
   * the page shown, so Next is offered while there are more. */
  pageCount: number;
  /** The filters applied ({} for none) and the order read in. */
  filters: ListingFilters;
  sort: ListingSort;
  facets: Facets;
};

type ListingQuery = {
  /** What the listing is without filters: a category, a group, a search term. */
  where: SQL | undefined;
  filters?: ListingFilters;
  sort?: ListingSort;
  page: number;
};

/** The full, paginated listing behind a category link or a row's "View all", filtered and sorted
 * as the shopper asked. */
export async function listProducts(
  db: Db,
  filter: {
    group?: ShopGroup;
    categoryId?: number;
    page: number;
    filters?: ListingFilters;
    sort?: ListingSort;
  },
): Promise<Listing> {
  const { group, categoryId } = filter;
  const where = and(
    group ? groupFilter[group] : undefined,
    categoryId
      ? sql`${products.id} in (select ${productCategories.productId} from ${productCategories} where ${productCategories.categoryId} = ${categoryId})`
      : undefined,
  );
  if (group !== 'new') return pageAndCount(db, { ...filter, where });
  // New Arrivals is the first 30 % (rounded up) of the newest-first list (one statement: the
  // cut is a subquery), then filtered and sorted like any listing.
  const newArrivals = sql`${products.id} in (select p.id from ${products} p where ${pOnSale}
    order by p.created_at desc, p.id desc
    limit (select ceil(count(*) * ${SHOP_NEW_ARRIVALS_SHARE}::numeric)::int from ${products} p
           where ${pOnSale}))`;
  return pageAndCount(db, { ...filter, where: newArrivals });
}

/** LIKE treats % and _ (and the escape character) specially: match them literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern for `term` anywhere in a text, its % and _ matched literally. */
export function likePattern(term: string): string {
  return `%${likeLiteral(term)}%`;
}

/**
 * What a search term matches (issue 32): every word, in any order. A size ("M") is a variant's
 * size exactly (product_variants_size_idx); a short word ("ki") the start of a word of the name,
 * after a space or a hyphen (products_name_trgm_idx: the trigrams of a word's start, "  k" and
 * " ki", are what the index holds); any other word a substring of the piece's search_text (name,
 * description, option values: products_search_trgm_idx) or of one of its categories' names (a few
 * rows, read once: an array the primary key is probed with).
 */
function termMatches(term: string): SQL | undefined {
  const conditions = searchWords(term).map((word) => {
    if ('size' in word) {
      return sql`exists (select 1 from product_variants v
        where v.product_id = ${products.id} and v.size = ${word.size})`;
    }
    if ('start' in word) {
      const name = sql`lower(${products.productName})`;
      const start = likeLiteral(word.start);
      return sql`(${name} like ${`${start}%`} escape '\\' or ${name} like ${`% ${start}%`} escape '\\'
        or ${name} like ${`%-${start}%`} escape '\\')`;
    }
    const pattern = likePattern(word.text);
    return sql`(${products.searchText} like ${pattern} escape '\\'
      or ${products.id} = any(array(
        select pc.product_id from ${productCategories} pc
        join ${categories} c on c.id = pc.category_id
        where lower(c.name) like ${pattern} escape '\\')))`;
  });
  return and(...conditions);
}

/**
 * A shopper's search, newest first (or as sorted), paginated and filtered: every word of the term
 * must match (termMatches). When nothing on sale matches the term, the names nearest it by trigram
 * similarity come with the answer ("Did you mean …"): read in the same round trip, and only
 * looked for when nothing matches (the guard stops at the first match).
 */
export async function searchProducts(
  db: Db,
  term: string,
  page: number,
  narrowed: { filters?: ListingFilters; sort?: ListingSort } = {},
): Promise<Listing & { suggestions: string[] }> {
  const where = termMatches(term);
  const lowered = sql`lower(${term})`;
  const nearest = db.execute<{ name: string }>(sql`
    select p.product_name as name from ${products} p
    where ${pOnSale} and ${lowered} <% lower(p.product_name)
      and not exists (select 1 from ${products} where ${and(onSale, where)})
    order by word_similarity(${lowered}, lower(p.product_name)) desc, p.product_name, p.id
    limit ${SUGGESTIONS_MAX}`);
  const listing = listingStatements(db, { where, page, ...narrowed });
  const answers = await db.batch([...listing.statements, nearest]);
  const near = answers[3].rows;
  return { ...listing.read(answers), suggestions: [...new Set(near.map((row) => row.name))] };
}

/** The orders, each ending in the id so pages never overlap: (created_at, id) and (price, id)
 * are indexed and read forwards or backwards. */
const orders: Record<ListingSort, SQL[]> = {
  newest: newestFirst,
  'price-asc': [asc(products.price), asc(products.id)],
  'price-desc': [desc(products.price), desc(products.id)],
};

/** A variant's size or colour: product_variants.size and .colour, kept by Postgres from its
 * options and indexed for the filters (migration 0012). */
function optionOf(alias: string, option: string): SQL {
  if (option === SIZE) return sql.raw(`${alias}.size`);
  if (option === COLOUR) return sql.raw(`${alias}.colour`);
  throw new Error(`unknown option ${option}`);
}

/** Some variant of the piece has these option values (and, in stock only, pieces left): one
 * variant matching them all. */
function variantMatches(options: Record<string, string>, inStockOnly: boolean): SQL | undefined {
  const named = Object.entries(options);
  if (named.length === 0 && !inStockOnly) return undefined;
  const conditions = named.map(([option, value]) => sql` and ${optionOf('v', option)} = ${value}`);
  return sql`exists (select 1 from product_variants v where v.product_id = ${products.id}${sql.join(
    conditions,
  )}${inStockOnly ? sql` and v.stock > 0` : sql``})`;
}

function priceWithin(f: ListingFilters): SQL | undefined {
  return and(
    f.minPrice !== undefined ? gte(products.price, f.minPrice) : undefined,
    f.maxPrice !== undefined ? lte(products.price, f.maxPrice) : undefined,
  );
}

function chosenOptions(f: ListingFilters): Record<string, string> {
  return {
    ...(f.size !== undefined ? { [SIZE]: f.size } : {}),
    ...(f.colour !== undefined ? { [COLOUR]: f.colour } : {}),
  };
}

/** Facets are exact for a listing of fewer pieces than this (a category, a search, a narrowed
 * listing): every piece's variants are read. */
export const FACET_WINDOW = 1_000;
/** A larger listing's chips name the sizes and colours of this many of its pieces, without
 * counts: its facets then cost the same at 1,000 pieces or 100,000 (issue 38). */
export const FACET_SAMPLE = 200;

type FacetRow = { option: string; value: string; n: number; scanned: number };

/**
 * The listing's count (its first `limit` pieces) and its facets, in one statement. The facets are
 * the sizes and colours of the pieces the listing shows, each with every filter but its own
 * option's, counted by piece: choosing a value shows exactly its count. A variant counts only when
 * it also has the other option's chosen value (and, in stock only, pieces left). Up to
 * FACET_WINDOW such pieces are found (`scanned` says how many); with fewer, all are read and the
 * counts are exact, else FACET_SAMPLE of them name the values. The listing's pieces are found
 * once: an option not chosen reads its facet from them (both at once when neither is chosen); a
 * chosen option's facet finds its own pieces, without its filter.
 */
function countAndFacets(
  where: SQL | undefined,
  base: SQL | undefined,
  f: ListingFilters,
  limit: number,
): SQL {
  const chosen = chosenOptions(f);
  const notChosen = [SIZE, COLOUR].filter((option) => chosen[option] === undefined);
  const groups = [
    ...(notChosen.length > 0 ? [{ options: notChosen, window: undefined }] : []),
    ...Object.keys(chosen).map((option) => ({
      options: [option],
      window: and(
        base,
        priceWithin(f),
        variantMatches(
          Object.fromEntries(Object.entries(chosen).filter(([name]) => name !== option)),
          f.inStock === true,
        ),
      ),
    })),
  ];
  const tables = groups.map((group, at) => {
    const [w, r, p] = ['w', 'r', 'p'].map((name) => sql.raw(`${name}${at}`));
    const pieces = group.window
      ? sql`select ${products.id} as id from ${products} where ${group.window}`
      : sql`select id from m`;
    return sql`${w} as (${pieces} limit ${FACET_WINDOW}),
    ${r} as (select id from ${w} limit (select case when count(*) < ${FACET_WINDOW} then
      ${FACET_WINDOW}::int else ${FACET_SAMPLE}::int end from ${w})),
    ${p} as (select ${r}.id, a.* from ${r}, lateral (
      select ${sql.join(
        group.options.map((option) => optionValues(option, chosen, f.inStock === true)),
        sql`, `,
      )}
      from product_variants v where v.product_id = ${r}.id) a)`;
  });
  const counts = groups.flatMap((group, at) => {
    const [w, p] = ['w', 'p'].map((name) => sql.raw(`${name}${at}`));
    return group.options.map(
      (option) => sql`select ${option}::text as option, value, count(distinct ${p}.id)::int as n,
        (select count(*) from ${w})::int as scanned
      from ${p}, unnest(${p}.${sql.identifier(option)}) as value group by 2`,
    );
  });
  return sql`with m as (select ${products.id} as id from ${products} where ${where} limit ${limit}),
    ${sql.join(tables, sql`, `)}
    select (select count(*) from m)::int as counted,
      coalesce((select json_agg(f) from (${sql.join(counts, sql` union all `)}) f), '[]') as facets`;
}

/** A piece's values of `option` over its variants having the other chosen option's value (and,
 * in stock only, pieces left): `array_agg(v.size) filter (…) as "Size"`. */
function optionValues(option: string, chosen: Record<string, string>, inStockOnly: boolean): SQL {
  const when = [
    sql`${optionOf('v', option)} is not null`,
    ...Object.entries(chosen)
      .filter(([name]) => name !== option)
      .map(([name, value]) => sql`${optionOf('v', name)} = ${value}`),
    ...(inStockOnly ? [sql`v.stock > 0`] : []),
  ];
  return sql`array_agg(${optionOf('v', option)}) filter (where ${sql.join(when, sql` and `)})
    as ${sql.identifier(option)}`;
}

/** A listing counts its pieces up to this many, so its count costs the same at 1,000 pieces or
 * 100,000: above it the shop says "1,000+ pieces" (issue 38, decision 0092). */
export const COUNT_CAP = 1_000;

/**
 * One page, its count (up to COUNT_CAP) and the facets, in one round trip. (A count(*) over ()
 * window would make Postgres fetch every matching row, descriptions included, before keeping 24.)
 */
async function pageAndCount(db: Db, query: ListingQuery): Promise<Listing> {
  const listing = listingStatements(db, query);
  return listing.read(await db.batch(listing.statements));
}

/** The statements of a listing's round trip (its page, its count, its facets), and how their
 * answers become the listing: a search adds its own statement to the same batch. */
function listingStatements(db: Db, query: ListingQuery) {
  const filters = query.filters ?? {};
  const sort = query.sort ?? DEFAULT_SORT;
  const { page } = query;
  const base = and(onSale, query.where);
  const where = and(
    base,
    priceWithin(filters),
    variantMatches(chosenOptions(filters), filters.inStock === true),
  );
  const statements = [
    db
      .select(productColumns)
      .from(products)
      .where(where)
      .orderBy(...orders[sort])
      .limit(LISTING_PAGE_SIZE)
      .offset((page - 1) * LISTING_PAGE_SIZE),
    // Counted over at most the cap's pieces (or, on a page past it, the pieces up to that page)
    // and one more: whether there are more is all a larger count would tell.
    db.execute<{ counted: number; facets: FacetRow[] }>(
      countAndFacets(where, base, filters, Math.max(COUNT_CAP, page * LISTING_PAGE_SIZE) + 1),
    ),
    liveOffersQuery(db),
  ] as const;
  type Answers = readonly [
    Awaited<(typeof statements)[0]>,
    Awaited<(typeof statements)[1]>,
    Awaited<(typeof statements)[2]>,
    ...unknown[],
  ];
  const read = ([
    rows,
    {
      rows: [tally],
    },
    offerRows,
  ]: Answers): Listing => {
    const counted = Number(tally?.counted ?? 0);
    const now = new Date();
    return {
      products: offeredAll(rows, runningOffers(offerRows, now), now),
      total: Math.min(counted, COUNT_CAP),
      totalCapped: counted > COUNT_CAP,
      page,
      pageCount: Math.max(1, Math.ceil(counted / LISTING_PAGE_SIZE)),
      filters,
      sort,
      facets: toFacets(tally?.facets ?? []),
    };
  };
  return { statements, read };
}

/** Sizes in their size system's order (XS–XXL, then EU 36–46, then any other), colours A–Z. */
function toFacets(rows: FacetRow[]): Facets {
  const order = [...SIZES.clothes, ...SIZES.shoes];
  const rank = (value: string) => {
    const at = order.indexOf(value);
    return at === -1 ? order.length : at;
  };
  const of = (option: string) =>
    rows
      .filter((row) => row.option === option)
      .map((row) => ({ value: row.value, count: Number(row.n) }));
  return {
    sizes: of(SIZE).sort((a, b) => rank(a.value) - rank(b.value) || a.value.localeCompare(b.value)),
    colours: of(COLOUR).sort((a, b) => a.value.localeCompare(b.value)),
    exact: rows.every((row) => Number(row.scanned) < FACET_WINDOW),
  };
}

/** The shop's order of its categories: the owner's (position, set on the desk), then by name. */
export const categoryOrder = [asc(categories.position), asc(categories.name)];

export async function listCategories(db: Db) {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(...categoryOrder);
}

export async function findCategory(db: Db, id: number) {
  const [row] = await db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(eq(categories.id, id));
  return row ?? null;
}

/** A product page's product, on sale only: the card's fields, its options, variants and
 * pictures, whether it can be returned, and the shop's delivery options (its promise), in one
 * round trip. */
async function productDetail(db: Db, which: SQL): Promise<ProductDetail | null> {
  const where = and(onSale, which);
  // The card's summary and picture widths are worked out from the variants and pictures read
  // here, not read a second time by the card's sub-selects.
  const { summary: _summary, imageWidths: _widths, ...pieceColumns } = productColumns;
  const [[row], read, images, offerRows, deliveryRows, free] = await db.batch([
    db
      .select({
        ...pieceColumns,
        kind: products.kind,
        options: products.options,
        returnable: products.returnable,
      })
      .from(products)
      .where(where),
    db
      .select({
        id: productVariants.id,
        sku: productVariants.sku,
        label: productVariants.label,
        options: productVariants.options,
        price: sql<number>`coalesce(${productVariants.price}, ${products.price})`.mapWith(Number),
        compareAtPrice: productVariants.compareAtPrice,
        available: productVariants.stock,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(where)
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
    db
      .select({
        url: productImages.url,
        alt: productImages.alt,
        colour: productImages.colour,
        widths: productImages.widths,
      })
      .from(productImages)
      .innerJoin(products, eq(products.id, productImages.productId))
      .where(where)
      .orderBy(asc(productImages.position), asc(productImages.id)),
    // The offers running now, for the piece's badge and its JSON-LD (issue 35).
    liveOffersQuery(db),
    // What the page promises about delivery, in the same round trip (issue 23).
    ...deliveryQueries(db),
  ]);
  if (!row) return null;
  const variants = read.map((v) => ({
    ...v,
    compareAtPrice:
      v.compareAtPrice !== null && v.compareAtPrice > v.price ? v.compareAtPrice : null,
  }));
  const now = new Date();
  const offers = runningOffers(offerRows, now);
  const piece = offeredProduct(
    {
      ...row,
      imageWidths: images.find((image) => image.url === row.productImage)?.widths ?? null,
      summary: summaryOf(variants),
    },
    offers,
    now,
  );
  return {
    ...piece,
    ...variantOffers(piece, row, variants, offers, now),
    kind: row.kind as Kind,
    returnable: row.returnable,
    options: row.options,
    variants,
    images,
    delivery: choicesFrom(deliveryRows, free),
  };
}

/**
 * The offer's price of each variant (the product page shows the chosen size's), and whether the
 * JSON-LD may carry them: only an offer for everyone (automatic, no minimum, no limits), until
 * it ends. None when the piece shows no price offer.
 */
function variantOffers(
  piece: Product,
  row: { id: number; categoryIds?: number[] | null },
  variants: Variant[],
  offers: readonly Offer[],
  now: Date,
): Pick<ProductDetail, 'offerPrices'> {
  if (!piece.offer || piece.offer.price === null) return {};
  const found = pieceOfferOf(
    offers,
    { productId: row.id, categoryIds: row.categoryIds ?? [], price: piece.price },
    now,
  );
  if (!found) return {};
  const byVariant: Record<string, number> = {};
  for (const variant of variants) {
    const price = offerPrice(found.offer, variant.price);
    if (price !== null) byVariant[variant.id] = price;
  }
  return {
    offerPrices: {
      byVariant,
      forEveryone: jsonLdMayCarry(found.offer),
      validUntil: found.offer.endsAt,
    },
  };
}

/** What variantSummary reads in SQL, from a product's variants in their order. */
function summaryOf(variants: Variant[]): VariantSummary | null {
  if (variants.length === 0) return null;
  const sales = variants.flatMap((v) => (v.compareAtPrice === null ? [] : [v.compareAtPrice]));
  const sized = variants.some((v) => v.options[SIZE] !== undefined);
  const sizesLeft = [
    ...new Set(
      variants.flatMap((v) => (v.available > 0 && v.options[SIZE] ? [v.options[SIZE]] : [])),
    ),
  ];
  return {
    stock: variants.reduce((sum, v) => sum + v.available, 0),
    priceTo: Math.max(...variants.map((v) => v.price)),
    compareAt: sales.length > 0 ? Math.min(...sales) : null,
    onSale: sales.length,
    variants: variants.length,
    firstVariant: Math.min(...variants.map((v) => v.id)),
    sizesLeft: sizesLeft.length > 0 ? sizesLeft : null,
    sized,
  };
}

export function findProduct(db: Db, id: number): Promise<ProductDetail | null> {
  return productDetail(db, eq(products.id, id));
}

export function findProductBySlug(db: Db, slug: string): Promise<ProductDetail | null> {
  return productDetail(db, eq(products.slug, slug));
}

/** How many pieces "You may also like" shows on a product page. */
export const RELATED_COUNT = 4;

/**
 * A product page's "You may also like": in-stock pieces of the same category nearest in price,
 * then in-stock pieces nearest in price from anywhere; and the category for the breadcrumb. The
 * piece is named by its id or its slug (the page asks with the slug, beside the piece itself).
 * One round trip: the piece's price and category are sub-selects of the batch's statements, not
 * read first; each part is bounded (the price index's two range scans read a few rows each).
 */
export async function relatedProducts(
  db: Db,
  piece: { id: number } | { slug: string },
): Promise<{ category: { id: number; name: string } | null; products: Product[] }> {
  const which = 'id' in piece ? eq(products.id, piece.id) : eq(products.slug, piece.slug);
  const target = sql`(select ${products.id} from ${products} where ${and(onSale, which)})`;
  const price = sql`(select ${products.price} from ${products} where ${and(onSale, which)})`;
  const categoryOf = db
    .select({ id: categories.id, name: categories.name })
    .from(productCategories)
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
    .where(sql`${productCategories.productId} = ${target}`)
    .orderBy(...categoryOrder)
    .limit(1);
  const others = and(sql`${products.id} <> ${target}`, onSale, inStock);
  const [found, [category], sameCategory, above, below, offerRows] = await db.batch([
    db.select({ price: products.price }).from(products).where(and(onSale, which)),
    categoryOf,
    db
      .select(productColumns)
      .from(products)
      .where(
        and(
          others,
          sql`${products.id} in (select pc.product_id from ${productCategories} pc where pc.category_id = (select id from (${categoryOf}) as c))`,
        ),
      )
      .orderBy(sql`abs(${products.price} - ${price})`, asc(products.id))
      .limit(RELATED_COUNT),
    db
      .select(productColumns)
      .from(products)
      .where(and(others, sql`${products.price} >= ${price}`))
      .orderBy(asc(products.price), asc(products.id))
      .limit(RELATED_COUNT),
    db
      .select(productColumns)
      .from(products)
      .where(and(others, sql`${products.price} < ${price}`))
      .orderBy(desc(products.price), desc(products.id))
      .limit(RELATED_COUNT),
    liveOffersQuery(db),
  ]);
  const [product] = found;
  if (!product) return { category: null, products: [] };
  const nearby = [...above, ...below].sort(
    (a, b) => Math.abs(a.price - product.price) - Math.abs(b.price - product.price) || a.id - b.id,
  );
  const picked = new Map<number, ProductRow>();
  for (const row of [...sameCategory, ...nearby]) {
    if (picked.size < RELATED_COUNT && !picked.has(row.id)) picked.set(row.id, row);
  }
  const now = new Date();
  return {
    category: category ?? null,
    products: offeredAll([...picked.values()], runningOffers(offerRows, now), now),
  };
}

/** The rates for approximate prices (system_settings), or null when unset or unusable. */
export async function exchangeRates(db: Db): Promise<ExchangeRates | null> {
  const [row] = await db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, EXCHANGE_RATES_KEY));
  return parseRates(row?.value);
}

/** Every piece on sale's slug and date, for sitemap.xml. */
export async function productSlugs(db: Db) {
  return db
    .select({ slug: products.slug, createdAt: products.createdAt })
    .from(products)
    .where(onSale)
    .orderBy(...newestFirst);
}
