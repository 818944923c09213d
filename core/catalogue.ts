/** The shop's grouping rules (storefront spec §2 and §9). Pure: used by server and client. */
import * as v from 'valibot';
import { formatUGX } from './money.ts';
import { cleanSearchText, isTypedLine } from './text.ts';
import type { Kind, ProductOption, Variant } from './variants.ts';

export const FEATURED_MIN_PRICE_EXCLUSIVE = 50_000;
export const AFFORDABLE_MAX_PRICE = 50_000;
export const PREMIUM_MIN_PRICE_EXCLUSIVE = 100_000;
export const HOME_FEATURED_COUNT = 8;
export const HOME_NEW_ARRIVALS_COUNT = 8;
export const SHOP_FEATURED_COUNT = 6;
export const SHOP_NEW_ARRIVALS_SHARE = 0.3;
export const LOW_STOCK_BELOW = 10;
/** A row never ships more cards than this; "View all" leads to the full listing. */
export const ROW_CARD_LIMIT = 24;
/** Shown when a product has no image or its image fails to load. */
export const PLACEHOLDER_IMAGE = '/images/placeholder.svg';

export type Product = {
  id: number;
  slug: string;
  name: string;
  /** The lowest price of its variants: "from" when `priceTo` is higher. */
  price: number;
  /** The highest price of its variants (the same as `price` when all cost the same). */
  priceTo: number;
  /** The price before a sale, struck through; null when it is not on sale. */
  compareAtPrice: number | null;
  image_url: string | null;
  description?: string;
  /** Pieces in stock over all its sizes and colours. */
  quantity: number;
  stock: number;
  /** Its only variant, so a card can add it at once; null when a size or colour is chosen. */
  variantId: number | null;
  /** Its sizes still in stock, in order; null for a piece without sizes. */
  sizesLeft: string[] | null;
};

/** A product picture: the JPEG fallback `url`, with WebP copies at `widths` (core/pictures.ts). */
export type ProductImage = { url: string; alt: string; colour: string | null; widths: number[] };

/** A product page's product (catalogue.productBySlug: `options`, `variants`, `images` are a
 * contract). */
export type ProductDetail = Product & {
  kind: Kind;
  options: ProductOption[];
  variants: Variant[];
  images: ProductImage[];
};

/** New Arrivals on the shop screen: the first 30 % of the list, rounded up. */
export function shopNewArrivalsCount(total: number): number {
  return Math.ceil(total * SHOP_NEW_ARRIVALS_SHARE);
}

/** On a card of a piece with sizes: 'Only M, L left' when two or fewer sizes remain. */
export function sizesLeftHint(sizesLeft: readonly string[] | null): string | null {
  if (!sizesLeft || sizesLeft.length === 0 || sizesLeft.length > 2) return null;
  return `Only ${sizesLeft.join(', ')} left`;
}

/** 'Only N left' when stock is below 10 (and above 0). */
export function lowStockBadge(stock: number): string | null {
  return stock > 0 && stock < LOW_STOCK_BELOW ? `Only ${stock} left` : null;
}

/** The shop's groups, as shown on /shop and listed in full at /products?group=... */
export const SHOP_GROUPS = {
  new: 'New Arrivals',
  featured: 'Featured Items',
  affordable: 'Affordable Picks',
  premium: 'Premium Collection',
} as const;
export type ShopGroup = keyof typeof SHOP_GROUPS;

/** Search terms are trimmed (an empty one does nothing) and at most this long. */
export const SEARCH_TERM_MAX = 100;
export const LISTING_PAGE_SIZE = 24;
export const MAX_PAGE = 10_000;
/** Ids are Postgres integers. */
const MAX_ID = 2_147_483_647;
const SLUG_MAX = 200;

/** The catalogue's messages: the spec's (storefront §8, §2) and the shop's own. */
export const TEXT = {
  loading: 'Loading our amazing products...',
  categoriesFailed: 'Failed to fetch categories',
  searchFailed: 'An error occurred while searching.',
  searchTooLong: `Search terms can be at most ${SEARCH_TERM_MAX} characters.`,
  startTyping: 'Start typing to search for products.',
  noneFound: 'No products found for your search.',
  productNotFound: 'Product not found',
  categoryNotFound: 'Category not found',
  unknownGroup: 'Unknown product group',
  unknownListing: 'Unknown product listing',
} as const;

const id = (what: string) =>
  v.pipe(
    v.number(`${what} id must be a number`),
    v.integer(`${what} id must be a whole number`),
    v.minValue(1, `${what} id must be positive`),
    v.maxValue(MAX_ID, `${what} id is too large`),
  );
const pageNumber = v.pipe(
  v.number('Page must be a number'),
  v.integer('Page must be a whole number'),
  v.minValue(1, 'Page must be 1 or more'),
  v.maxValue(MAX_PAGE, 'Page is too large'),
);
const shopGroup = v.picklist(Object.keys(SHOP_GROUPS) as ShopGroup[], TEXT.unknownGroup);

/** A search term: at most 100 characters; invisible characters read as spaces; trimmed. */
export const searchTerm = v.pipe(
  v.string(TEXT.searchFailed),
  v.maxLength(SEARCH_TERM_MAX, TEXT.searchTooLong),
  v.transform(cleanSearchText),
);

// Finding the right piece: filters and a sort on /products and /search (issue 21).

/** The orders a listing can be read in; newest first is the spec's. */
export const SORTS = {
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
} as const;
export type ListingSort = keyof typeof SORTS;
export const DEFAULT_SORT: ListingSort = 'newest';
/** A size or colour value is a short word ("M", "38", "Indigo"). */
export const OPTION_VALUE_MAX = 40;
/** Prices are Postgres integers of UGX. */
export const PRICE_FILTER_MAX = 2_147_483_647;

/** What a shopper narrowed a listing to. A size or colour matches a piece having a variant with
 * it; with `inStock`, one variant must match them all and have pieces left. Prices are the
 * "from" price (the lowest of its variants), both ends included. */
export type ListingFilters = {
  size?: string;
  colour?: string;
  minPrice?: number;
  maxPrice?: number;
  inStock?: boolean;
};

export const FILTER_TEXT = {
  badSize: `A size is a word of at most ${OPTION_VALUE_MAX} characters.`,
  badColour: `A colour is a word of at most ${OPTION_VALUE_MAX} characters.`,
  badPrice: 'A price must be a whole number of UGX, 0 or more.',
  priceOrder: 'The lowest price must not be above the highest.',
  badStock: 'In stock only is on or off.',
  badFilters: 'Filters must be size, colour, minPrice, maxPrice and inStock.',
  unknownSort: 'Sort must be newest, price-asc or price-desc.',
  clear: 'Clear filters',
} as const;

const optionValue = (message: string) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.minLength(1, message),
    v.maxLength(OPTION_VALUE_MAX, message),
    v.check(isTypedLine, message),
  );
const priceBound = v.pipe(
  v.number(FILTER_TEXT.badPrice),
  v.integer(FILTER_TEXT.badPrice),
  v.minValue(0, FILTER_TEXT.badPrice),
  v.maxValue(PRICE_FILTER_MAX, FILTER_TEXT.badPrice),
);
/** catalogue.list / catalogue.search `filters`: a wrong value is refused with its text. */
export const listingFilters = v.pipe(
  v.strictObject(
    {
      size: v.optional(optionValue(FILTER_TEXT.badSize)),
      colour: v.optional(optionValue(FILTER_TEXT.badColour)),
      minPrice: v.optional(priceBound),
      maxPrice: v.optional(priceBound),
      inStock: v.optional(v.boolean(FILTER_TEXT.badStock)),
    },
    FILTER_TEXT.badFilters,
  ),
  v.check(
    (f) => f.minPrice === undefined || f.maxPrice === undefined || f.minPrice <= f.maxPrice,
    FILTER_TEXT.priceOrder,
  ),
);
export const listingSort = v.picklist(Object.keys(SORTS) as ListingSort[], FILTER_TEXT.unknownSort);

/** How many filters are set (the phone's "Filters (N)" button). */
export function activeFilterCount(f: ListingFilters | undefined): number {
  if (!f) return 0;
  return (
    Number(f.size !== undefined) +
    Number(f.colour !== undefined) +
    Number(f.minPrice !== undefined || f.maxPrice !== undefined) +
    Number(f.inStock === true)
  );
}

/** The price part of an explanation: "up to UGX 50,000", "from UGX 20,000", "between …". */
export function priceRangeText(f: ListingFilters): string {
  const { minPrice: min, maxPrice: max } = f;
  if (min !== undefined && max !== undefined) {
    return min === max ? `at ${formatUGX(min)}` : `between ${formatUGX(min)} and ${formatUGX(max)}`;
  }
  if (max !== undefined) return `up to ${formatUGX(max)}`;
  if (min !== undefined) return `from ${formatUGX(min)}`;
  return '';
}

/** An empty filtered listing explains itself: "No in-stock Indigo pieces in size XS up to UGX
 * 50,000." (with ` matching "term"` on a search). */
export function noFilteredPiecesText(f: ListingFilters, term?: string): string {
  const words = ['No'];
  if (f.inStock) words.push('in-stock');
  if (f.colour) words.push(f.colour);
  words.push('pieces');
  if (term) words.push(`matching “${term}”`);
  if (f.size) words.push(`in size ${f.size}`);
  const price = priceRangeText(f);
  if (price) words.push(price);
  return `${words.join(' ')}.`;
}

// What the catalogue procedures accept.
export const listingInput = v.object(
  {
    categoryId: v.optional(id('Category')),
    group: v.optional(shopGroup),
    page: v.optional(pageNumber, 1),
    filters: v.optional(listingFilters),
    sort: v.optional(listingSort, 'newest'),
  },
  TEXT.unknownListing,
);
export const searchInput = v.object(
  {
    term: searchTerm,
    scope: v.optional(v.picklist(['all', 'name'], TEXT.searchFailed), 'all'),
    page: v.optional(pageNumber, 1),
    filters: v.optional(listingFilters),
    sort: v.optional(listingSort, 'newest'),
  },
  TEXT.searchFailed,
);
export const productInput = v.object({ id: id('Product') }, TEXT.productNotFound);
export const productSlugInput = v.object(
  { slug: v.string(TEXT.productNotFound) },
  TEXT.productNotFound,
);

/** Whether a slug could name a product: longer ones, or ones with control characters, name none. */
export function couldBeProductSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= SLUG_MAX && isTypedLine(slug);
}

// What the catalogue pages read from their URLs. A URL is typed, pasted and shared, so a bad
// value never becomes an error page: it reads as the nearest sensible page.

/** ?q= on /shop and /search: a number reads as text (?q=123 arrives as 123), a longer term is
 * cut to 100 characters, and anything else (?q=null, ?q={}) is no search. */
export const searchParam = v.fallback(
  v.pipe(
    v.union([v.string(), v.number()]),
    v.transform((q) => cleanSearchText(String(q).slice(0, SEARCH_TERM_MAX))),
  ),
  '',
);
/** A term as the search forms send it and the search pages read it ('' does nothing). */
export function readSearchTerm(text: unknown): string {
  return v.parse(searchParam, text);
}
/** ?page=: anything but a page number (0, -1, 1.5, abc, 99999) is page 1. */
const pageParam = v.fallback(v.optional(pageNumber), undefined);
/** ?size= and ?colour=: a word (?size=38 arrives as the number 38, and stays one so the router
 * writes it back as ?size=38, not ?size="38"); anything else (too long, control characters,
 * ?size={}) is no filter. */
const optionParam = v.fallback(
  v.optional(
    v.pipe(
      v.union([v.string(), v.pipe(v.number(), v.transform(String))]),
      v.trim(),
      v.minLength(1),
      v.maxLength(OPTION_VALUE_MAX),
      v.check(isTypedLine),
      v.transform((text): string | number => (/^[1-9]\d{0,5}$/.test(text) ? Number(text) : text)),
    ),
  ),
  undefined,
);
/** ?minPrice= and ?maxPrice=: whole UGX, "50,000" and "50000" alike; anything else (negative,
 * 1.5, abc, too large) is no bound. */
const priceParam = v.fallback(
  v.optional(
    v.pipe(
      v.union([
        v.number(),
        v.pipe(
          v.string(),
          v.regex(/^\s*\d[\d,\s]{0,15}$/),
          v.transform((text) => Number(text.replace(/[,\s]/g, ''))),
        ),
      ]),
      v.integer(),
      v.minValue(0),
      v.maxValue(PRICE_FILTER_MAX),
    ),
  ),
  undefined,
);
/** ?inStock=1 (or true, on: what a checkbox sends), read as 1 so the router writes ?inStock=1;
 * anything else is off. */
const inStockParam = v.fallback(
  v.optional(
    v.pipe(
      v.union([v.literal(1), v.literal(true), v.literal('1'), v.literal('true'), v.literal('on')]),
      v.transform(() => 1 as const),
    ),
  ),
  undefined,
);
/** ?sort=: newest (the default), price-asc or price-desc; anything else is newest. */
const sortParam = v.fallback(v.optional(listingSort), undefined);
const filterParams = {
  size: optionParam,
  colour: optionParam,
  minPrice: priceParam,
  maxPrice: priceParam,
  inStock: inStockParam,
  sort: sortParam,
};
/** Bounds typed the wrong way round (?minPrice=90000&maxPrice=20000) read as the range meant. */
function orderedPrices<T extends { minPrice?: number; maxPrice?: number }>(search: T): T {
  const { minPrice: min, maxPrice: max } = search;
  if (min === undefined || max === undefined || min <= max) return search;
  return { ...search, minPrice: max, maxPrice: min };
}
/** The filters as a listing URL reads them. */
export type FilterParams = {
  size?: string | number;
  colour?: string | number;
  minPrice?: number;
  maxPrice?: number;
  inStock?: 1;
};

/** The id a ?category= that cannot name a category reads as: no category has it (the 404 view). */
export const NO_SUCH_CATEGORY = 0;

/** /products: an unknown group shows the whole collection (its canonical address is /products);
 * a category that cannot exist (abc, 0, -1, 1.5, too large) shows "Category not found". */
export const listingSearch = v.pipe(
  v.object({
    // Wrapped this way round: valibot gives a missing key its fallback, and a missing category
    // is the whole collection, not a 404.
    category: v.optional(v.fallback(id('Category'), NO_SUCH_CATEGORY)),
    group: v.fallback(v.optional(shopGroup), undefined),
    page: pageParam,
    ...filterParams,
  }),
  v.transform(orderedPrices),
);
export const shopSearch = v.object({ q: v.optional(searchParam), page: pageParam });
/** /search: the term, and the same filters, sort and page as /products. */
export const searchScreenSearch = v.pipe(
  v.object({ q: v.optional(searchParam), page: pageParam, ...filterParams }),
  v.transform(orderedPrices),
);

/** The filters a listing URL carries, as catalogue.list / catalogue.search take them. */
export function filtersOf(search: FilterParams): ListingFilters | undefined {
  const f: ListingFilters = {};
  if (search.size !== undefined) f.size = String(search.size);
  if (search.colour !== undefined) f.colour = String(search.colour);
  if (search.minPrice !== undefined) f.minPrice = search.minPrice;
  if (search.maxPrice !== undefined) f.maxPrice = search.maxPrice;
  if (search.inStock) f.inStock = true;
  return activeFilterCount(f) > 0 ? f : undefined;
}
