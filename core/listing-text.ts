// The listing filters' texts (issue 21): refusals and an empty result's explanation.

import type { ListingFilters } from './listing.ts';
import { OPTION_VALUE_MAX } from './listing.ts';
import { formatUGX } from './money.ts';

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
