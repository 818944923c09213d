// A cart link (issue 37): `/cart?add=12x2,15x1` (variant id `x` quantity, comma-separated), which
// staff send a shopper on WhatsApp. A MINIMAL stand-in for the desk's inbox: the cart-link branch
// (h/cartlink) builds the whole of this file (reading a link, what opening it does); at the merge
// its file is kept and this one dropped. Only `cartLinkPath` and CART_LINK_MAX_LINES are used here,
// with the same names, format and refusals as there. Pure: no I/O.
import { INT4_MAX } from './bounds.ts';
import { MAX_LINE_QUANTITY } from './cart-rules.ts';

export type CartLinkItem = { variantId: number; quantity: number };

/** Lines one link may hold. */
export const CART_LINK_MAX_LINES = 20;

/**
 * The link's path for these lines, e.g. `/cart?add=12x2,15x1`; a variant named twice becomes one
 * line with the quantities added up. Throws a RangeError for what no link may hold: no line, more
 * than CART_LINK_MAX_LINES variants, an id that is not a database id, a quantity outside
 * 1..MAX_LINE_QUANTITY (also once added up).
 */
export function cartLinkPath(items: readonly CartLinkItem[]): string {
  const lines = new Map<number, number>();
  for (const { variantId, quantity } of items) {
    if (!Number.isSafeInteger(variantId) || variantId < 1 || variantId > INT4_MAX) {
      throw new RangeError(`Not a variant id: ${variantId}`);
    }
    if (!Number.isSafeInteger(quantity) || quantity < 1) {
      throw new RangeError(`Not a quantity: ${quantity}`);
    }
    const sum = (lines.get(variantId) ?? 0) + quantity;
    if (sum > MAX_LINE_QUANTITY) {
      throw new RangeError(`More than ${MAX_LINE_QUANTITY} of variant ${variantId}`);
    }
    lines.set(variantId, sum);
  }
  if (lines.size === 0 || lines.size > CART_LINK_MAX_LINES) {
    throw new RangeError(`A cart link holds 1 to ${CART_LINK_MAX_LINES} lines`);
  }
  return `/cart?add=${[...lines].map(([variantId, quantity]) => `${variantId}x${quantity}`).join(',')}`;
}
