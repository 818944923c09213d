// Finding the right piece (issue 21): the filters and sort of /products and /search as their
// URLs carry them. Pure. It loads with the route tree (validateSearch), so it holds only what the
// URLs need: the procedures' inputs are in listing-input.ts, the texts in listing-text.ts.
import * as v from 'valibot';
import { INT4_MAX } from './bounds.ts';
import { listingSearchEntries, pageParam, searchParam } from './catalogue.ts';
import { isTypedLine } from './text.ts';

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
export const PRICE_FILTER_MAX = INT4_MAX;

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

// What the listing pages read from their URLs: a bad value is ignored (the nearest sensible page,
// as core/catalogue.ts reads the rest), never an error page.

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
const sortParam = v.fallback(
  v.optional(v.picklist(Object.keys(SORTS) as ListingSort[])),
  undefined,
);
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

/** /products: the listing (core/catalogue.ts's listingSearch) with its filters and sort. */
export const listingPageSearch = v.pipe(
  v.object({ ...listingSearchEntries, ...filterParams }),
  v.transform(orderedPrices),
);
/** /search: the term, and the same filters, sort and page as /products. */
export const searchPageSearch = v.pipe(
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
