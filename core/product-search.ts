// A product page's URL (issue 21). Its own module: every route's code reads the route tree's
// search schemas, so this stays as small as it can.
import * as v from 'valibot';
import { INT4_MAX } from './bounds.ts';

/**
 * A product page's URL: `?variant={id}` names the chosen size and colour, so a shared link opens
 * it. Anything that cannot be a variant id (abc, 0, -1, 1.5, too large) reads as none: a link is
 * typed, pasted and shared, and a bad one is never an error page.
 */
export const productPageSearch = v.object({
  variant: v.fallback(
    v.optional(
      v.pipe(
        v.union([v.number(), v.string()]),
        v.transform(Number),
        v.integer(),
        v.minValue(1),
        v.maxValue(INT4_MAX),
      ),
    ),
    undefined,
  ),
});
export type ProductPageSearch = v.InferOutput<typeof productPageSearch>;
