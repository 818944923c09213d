/** The shop's grouping rules (storefront spec §2 and §9). Pure: used by server and client. */

import * as v from 'valibot';
import { INT4_MAX } from './bounds.ts';
import type { DeliveryChoices } from './delivery-rules.ts';
import type { PieceOffer } from './offer-badge.ts';
import { cleanSearchText, isTypedLine } from './text.ts';
import { type Kind, type ProductOption, SIZES, type Variant } from './variants.ts';

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
  /** The price before a sale, struck through: only when every variant is on sale (the lowest
   * of their compare-at prices); null otherwise. */
  compareAtPrice: number | null;
  /** Which of its variants are on sale (core `saleOf`): every one, some of them, or none. */
  sale: SaleReach;
  image_url: string | null;
  /** The WebP widths stored beside `image_url` (core/pictures.ts); absent: the URL alone. */
  imageWidths?: number[];
  description?: string;
  /** Pieces in stock over all its sizes and colours. */
  quantity: number;
  stock: number;
  /** Its only variant, so a card can add it at once; null when a size or colour is chosen. */
  variantId: number | null;
  /** Its sizes still in stock, in order; null for a piece without sizes. */
  sizesLeft: string[] | null;
  /** An automatic offer running on it (issue 35): the badge's words, and its price with it. */
  offer?: PieceOffer;
};

/** A product picture: the JPEG fallback `url`, with WebP copies at `widths` (core/pictures.ts). */
export type ProductImage = { url: string; alt: string; colour: string | null; widths: number[] };

/** A product page's product (catalogue.productBySlug: `options`, `variants`, `images` are a
 * contract). */
export type ProductDetail = Product & {
  kind: Kind;
  /** Issue 36: whether it can be returned or exchanged (the page says when not). */
  returnable: boolean;
  options: ProductOption[];
  variants: Variant[];
  images: ProductImage[];
  /** The shop's delivery options, read with the product: its page promises what they say. */
  delivery: DeliveryChoices;
  /** With a price offer on it: each variant's price with the offer (by variant id), and whether
   * the JSON-LD may carry them (an offer for everyone), until `validUntil` (null: no end). */
  offerPrices?: {
    byVariant: Record<string, number>;
    forEveryone: boolean;
    validUntil: string | null;
  };
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

/** How far a sale reaches over a piece's variants: all of them, some, or none (null). */
export type SaleReach = 'all' | 'some' | null;

/**
 * A piece's sale, from its variants (each at its own price): a variant is on sale when its
 * compare-at price is above its price. Only a sale on every variant is the piece's: then the
 * struck-through price is the lowest compare-at (never above what any size was). A sale on some
 * variants is said on the card ("Sale in some sizes") and shown on those variants only.
 */
export function saleOf(variants: readonly { price: number; compareAtPrice: number | null }[]): {
  sale: SaleReach;
  compareAtPrice: number | null;
} {
  const was = variants.flatMap((v) =>
    v.compareAtPrice !== null && v.compareAtPrice > v.price ? [v.compareAtPrice] : [],
  );
  const sale = saleReach(was.length, variants.length);
  return { sale, compareAtPrice: sale === 'all' ? Math.min(...was) : null };
}

/** The same from counts (listings read how many variants are on sale, not the variants). */
export function saleReach(onSale: number, variants: number): SaleReach {
  if (onSale <= 0) return null;
  return onSale >= variants ? 'all' : 'some';
}

export const SALE_TEXT = {
  all: 'Sale',
  someSizes: 'Sale in some sizes',
  someColours: 'Sale in some colours',
} as const;

/** What a card says of a sale: 'Sale' (a badge) when every variant is on sale; 'Sale in some
 * sizes' (or colours, for a piece without sizes) when only some are; nothing otherwise. */
export function saleText(product: Pick<Product, 'sale' | 'sizesLeft'>): string | null {
  if (product.sale === 'all') return SALE_TEXT.all;
  if (product.sale === 'some') {
    return product.sizesLeft === null ? SALE_TEXT.someColours : SALE_TEXT.someSizes;
  }
  return null;
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
/** A search reads at most this many words (more narrow nothing a shopper would notice). */
export const SEARCH_WORDS_MAX = 8;
/** How many names "Did you mean …" offers when a search matches nothing. */
export const SUGGESTIONS_MAX = 3;

const KNOWN_SIZES = new Set([...SIZES.clothes, ...SIZES.shoes]);

/** A word this short ("ki") is looked for at the start of a name's words, not anywhere: inside
 * words two letters match most of the catalogue, and no index can find them (issue 38). */
export const SHORT_WORD_MAX = 2;

/** A word of a search: a size ("M", "xl", "38") matches a variant's size exactly; a short word
 * ("ki") the start of a word of the name ("Kitenge Wrap", "Red Kitenge Skirt"); any other word is
 * found anywhere in the name, the description, a category or an option value. */
export type SearchWord = { size: string } | { start: string } | { text: string };

/**
 * The words a shopper typed, each to be matched, in any order ("red dress", "dress red",
 * "linen M"): lower-cased, each once, at most SEARCH_WORDS_MAX. A size is a word of its own, so
 * "M" narrows to pieces sold in M rather than every piece whose text holds an "m".
 */
export function searchWords(term: string): SearchWord[] {
  const words = [...new Set(term.toLowerCase().split(/\s+/).filter(Boolean))];
  return words.slice(0, SEARCH_WORDS_MAX).map((word) => {
    const size = word.toUpperCase();
    if (KNOWN_SIZES.has(size)) return { size };
    return [...word].length <= SHORT_WORD_MAX ? { start: word } : { text: word };
  });
}

/** How many pieces a listing holds, as the shop says it: "24", "1,000", or "1,000+" when the
 * count stopped at its cap (issue 38). */
export function countText(total: number, capped: boolean): string {
  return `${total.toLocaleString('en-US')}${capped ? '+' : ''}`;
}

/** "1 piece", "24 pieces", "1,000+ pieces". */
export function piecesText(total: number, capped: boolean): string {
  return `${countText(total, capped)} ${total === 1 && !capped ? 'piece' : 'pieces'}`;
}

export const LISTING_PAGE_SIZE = 24;
export const MAX_PAGE = 10_000;
const SLUG_MAX = 200;

/** The catalogue's messages: the spec's (storefront §8, §2) and the shop's own. */
export const TEXT = {
  loading: 'Loading our amazing products...',
  /** The product page of a piece the desk marked as not returnable (issue 36). */
  notReturnable: 'This piece cannot be returned or exchanged (for hygiene or as made to order).',
  categoriesFailed: 'Failed to fetch categories',
  searchFailed: 'An error occurred while searching.',
  searchTooLong: `Search terms can be at most ${SEARCH_TERM_MAX} characters.`,
  startTyping: 'Start typing to search for products.',
  noneFound: 'No products found for your search.',
  didYouMean: 'Did you mean',
  productNotFound: 'Product not found',
  categoryNotFound: 'Category not found',
  unknownGroup: 'Unknown product group',
  unknownListing: 'Unknown product listing',
} as const;

export const id = (what: string) =>
  v.pipe(
    v.number(`${what} id must be a number`),
    v.integer(`${what} id must be a whole number`),
    v.minValue(1, `${what} id must be positive`),
    v.maxValue(INT4_MAX, `${what} id is too large`),
  );
export const pageNumber = v.pipe(
  v.number('Page must be a number'),
  v.integer('Page must be a whole number'),
  v.minValue(1, 'Page must be 1 or more'),
  v.maxValue(MAX_PAGE, 'Page is too large'),
);
export const shopGroup = v.picklist(Object.keys(SHOP_GROUPS) as ShopGroup[], TEXT.unknownGroup);

/** A search term: at most 100 characters; invisible characters read as spaces; trimmed. */
export const searchTerm = v.pipe(
  v.string(TEXT.searchFailed),
  v.maxLength(SEARCH_TERM_MAX, TEXT.searchTooLong),
  v.transform(cleanSearchText),
);

// What the catalogue procedures accept. (catalogue.list and catalogue.search take filters and a
// sort too: core/listing.ts, kept apart so pages that never filter don't load them.)
export const productInput = v.object({ id: id('Product') }, TEXT.productNotFound);
export const productSlugInput = v.object(
  { slug: v.string(TEXT.productNotFound) },
  TEXT.productNotFound,
);
/** A piece by its id, or by its slug (a product page asks beside the piece, not after it). */
export const relatedInput = v.union([productInput, productSlugInput], TEXT.productNotFound);

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
export const pageParam = v.fallback(v.optional(pageNumber), undefined);
/** The id a ?category= that cannot name a category reads as: no category has it (the 404 view). */
export const NO_SUCH_CATEGORY = 0;

/** /products: an unknown group shows the whole collection (its canonical address is /products);
 * a category that cannot exist (abc, 0, -1, 1.5, too large) shows "Category not found". */
export const listingSearchEntries = {
  // Wrapped this way round: valibot gives a missing key its fallback, and a missing category is
  // the whole collection, not a 404.
  category: v.optional(v.fallback(id('Category'), NO_SUCH_CATEGORY)),
  group: v.fallback(v.optional(shopGroup), undefined),
  page: pageParam,
};
/** /products without its filters (core/listing.ts's listingPageSearch adds them). */
export const listingSearch = v.object(listingSearchEntries);
export const shopSearch = v.object({ q: v.optional(searchParam), page: pageParam });
export const searchScreenSearch = v.object({ q: v.optional(searchParam) });
