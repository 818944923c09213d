// What catalogue.list and catalogue.search accept (issue 21): the listing, its filters and its
// sort. A wrong value is refused with its text (core/listing-text.ts). Server-side only.
import * as v from 'valibot';
import { wholeSchema } from './bounds.ts';
import { id, pageNumber, searchTerm, shopGroup, TEXT } from './catalogue.ts';
import { type ListingSort, OPTION_VALUE_MAX, PRICE_FILTER_MAX, SORTS } from './listing.ts';
import { FILTER_TEXT } from './listing-text.ts';
import { isTypedLine } from './text.ts';

const optionValue = (message: string) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.minLength(1, message),
    v.maxLength(OPTION_VALUE_MAX, message),
    v.check(isTypedLine, message),
  );
const priceBound = wholeSchema(0, PRICE_FILTER_MAX, FILTER_TEXT.badPrice);
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

// What catalogue.list and catalogue.search accept: the listing, its filters and its sort.
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
