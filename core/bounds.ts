// The numbers an input may carry, bounded by the columns they reach (decision 0060). A number the
// database cannot hold (2147483648 in an integer column, 1e21 as a bigint) made PostgreSQL refuse
// the statement, and the shopper saw a 500; every id, cursor and count in a procedure's input is
// one of these schemas, so it is refused first, with the procedure's own plain text.
import * as v from 'valibot';

/** The largest value of a PostgreSQL `integer` column: products, variants, photos, categories. */
export const INT4_MAX = 2_147_483_647;

/**
 * The largest `bigint` id JavaScript reads exactly (2^53 − 1): the desk's record and the stock
 * log count their rows in bigint; a cursor past this could not have come from a page the shop gave.
 */
export const BIGINT_ID_MAX = Number.MAX_SAFE_INTEGER;

/** A whole number from `min` to `max`; anything else (text, 1.5, NaN, Infinity) is `message`. */
export const wholeSchema = (min: number, max: number, message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

/** The id of a row in an `integer` column (1 to 2147483647). */
export const idSchema = (message: string) => wholeSchema(1, INT4_MAX, message);

/** A page's cursor: the last `bigint` id of the page before (1 to 2^53 − 1). */
export const cursorSchema = (message: string) => wholeSchema(1, BIGINT_ID_MAX, message);
