// The filters and sort of a listing URL (/products, /search): read from a submitted form the way
// the page reads its URL, and written back so a link looks like what a GET form sends.
import type { FilterParams, ListingSort } from '#core/listing.ts';

/** The filter and sort part of a listing's URL search. */
export type FilterSearch = FilterParams & { sort?: ListingSort };
export const FILTER_KEYS = ['size', 'colour', 'minPrice', 'maxPrice', 'inStock', 'sort'] as const;

/** A submitted filter form's fields as a URL search would carry them ('' for an empty field). */
export function formFields(form: HTMLFormElement): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) {
    if (typeof value === 'string' && value !== '') fields[key] = value;
  }
  return fields;
}

/**
 * A search object for navigation: filters as a GET form writes them (?size=38, not ?size="38":
 * the router writes a string that reads as a number in quotes), inStock as 1, the default sort
 * left out, and no page (a new filter starts at page 1).
 */
export function linkSearch<T extends FilterSearch & { page?: number }>(search: T) {
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || (value as unknown) === false) continue;
    if (key === 'sort' && value === 'newest') continue;
    if (key === 'inStock') out[key] = 1;
    else if (typeof value === 'string' && /^\d+$/.test(value) && value.length < 16)
      out[key] = Number(value);
    else out[key] = value as string | number;
  }
  return out;
}

/** The same search without its filters and sort: "Clear filters". */
export function withoutFilters<T extends Record<string, unknown>>(search: T) {
  const out: Record<string, unknown> = { ...search };
  for (const key of [...FILTER_KEYS, 'page']) delete out[key];
  return out;
}
