// A cart link (issue 37): staff chatting with a shopper on WhatsApp send her `/cart?add=12x2,15x1`
// and opening it fills her cart with those variants (id `x` quantity, comma-separated). The link
// says only what to add; the stock, the price and whether the piece is on sale are read when it is
// opened (decision 0087). Pure: the format both ways, and what opening it does to a cart.
import * as v from 'valibot';
import { INT4_MAX, idSchema } from './bounds.ts';
import { type Cart, type CartProduct, MAX_LINE_QUANTITY } from './cart-rules.ts';
import { nameWithVariant } from './variants.ts';

export type CartLinkItem = { variantId: number; quantity: number };

/** Lines one link may hold: an outfit or a wish list typed in a chat, not a catalogue. */
export const CART_LINK_MAX_LINES = 20;
/**
 * The longest `add` value a link can have: 20 lines of a 10-digit id, `x`, a 6-digit quantity and
 * a comma. Anything longer is not a link the shop made; it is refused before it is read.
 */
export const CART_LINK_MAX_CHARS = CART_LINK_MAX_LINES * 19;

/** The search parameter that carries the lines. */
export const CART_LINK_PARAM = 'add';

// A line is canonical: digits without a leading zero, a lower-case x, nothing else (no spaces,
// signs, decimals, exponents or NUL). 10 digits is as long as an integer id gets, 6 as long as a
// line's quantity (MAX_LINE_QUANTITY) gets; both are checked by value after.
const LINE = /^([1-9][0-9]{0,9})x([1-9][0-9]{0,5})$/;

/**
 * The link's path for these lines, e.g. `/cart?add=12x2,15x1`. A variant named twice becomes one
 * line with the quantities added up (the link never repeats a variant: its reader refuses that).
 * Throws a RangeError for what no link may hold: no line, more than CART_LINK_MAX_LINES variants,
 * an id that is not a database id, a quantity outside 1..MAX_LINE_QUANTITY (also once added up).
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
  const add = [...lines].map(([variantId, quantity]) => `${variantId}x${quantity}`).join(',');
  return `/cart?${CART_LINK_PARAM}=${add}`;
}

/**
 * The lines of a link's `add` value, in its order, or null for anything a link made by
 * `cartLinkPath` cannot be: not a string, empty, longer than CART_LINK_MAX_CHARS, more than
 * CART_LINK_MAX_LINES lines, a line not exactly `{id}x{quantity}`, an id of 0 or past the
 * database's integers, a quantity of 0 or past MAX_LINE_QUANTITY, or a variant named twice.
 * Duplicates are refused rather than added up: a link naming one piece twice was edited by hand,
 * and guessing which quantity was meant could fill a cart with more than anyone asked for.
 */
export function parseCartLink(value: unknown): CartLinkItem[] | null {
  if (typeof value !== 'string' || value === '' || value.length > CART_LINK_MAX_CHARS) return null;
  const parts = value.split(',');
  if (parts.length > CART_LINK_MAX_LINES) return null;
  const items: CartLinkItem[] = [];
  const seen = new Set<number>();
  for (const part of parts) {
    const match = LINE.exec(part);
    if (!match) return null;
    const variantId = Number(match[1]);
    const quantity = Number(match[2]);
    if (variantId > INT4_MAX || quantity > MAX_LINE_QUANTITY || seen.has(variantId)) return null;
    seen.add(variantId);
    items.push({ variantId, quantity });
  }
  return items;
}

const MOST = MAX_LINE_QUANTITY.toLocaleString('en-US');

export const CART_LINK_TEXT = {
  heading: 'From the link you were sent',
  adding: 'Adding the pieces from your link...',
  added: (name: string, quantity: number) => `${name}: ${quantity} added.`,
  soldOut: (name: string) => `${name} is sold out: not added.`,
  lowered: (name: string, left: number, added: number) =>
    `Only ${left} left of ${name}: ${added} added.`,
  allInCart: (name: string, left: number) =>
    left === 1
      ? `The last ${name} is already in your cart: not added.`
      : `All ${left} left of ${name} are already in your cart: not added.`,
  lineLimit: (name: string, added: number) =>
    `${name}: ${added} added, the most one cart may hold (${MOST}).`,
  lineFull: (name: string) =>
    `${name}: your cart already holds the most one cart may (${MOST}): not added.`,
  gone: (count: number) =>
    count === 1
      ? 'A piece in this link is no longer in the shop: not added.'
      : `${count} pieces in this link are no longer in the shop: not added.`,
  failed: (name: string, why: string) => `${name} was not added: ${why}`,
  broken: 'This cart link is not complete, so nothing was added. Ask us for a new one.',
  lookupFailed: 'We could not open this cart link just now. Please open it again.',
  dismiss: 'Dismiss',
} as const;

/**
 * `cart.linkPieces`: the variants a link names (its lines' ids, at most CART_LINK_MAX_LINES); the
 * quantities stay in the browser, which adds them through `cart.add` like the product page.
 */
export const cartLinkPiecesInput = v.strictObject(
  {
    variantIds: v.pipe(
      v.array(idSchema(CART_LINK_TEXT.broken), CART_LINK_TEXT.broken),
      v.minLength(1, CART_LINK_TEXT.broken),
      v.maxLength(CART_LINK_MAX_LINES, CART_LINK_TEXT.broken),
    ),
  },
  CART_LINK_TEXT.broken,
);

/** What the page says about a line: added as asked, added in part, or not added. */
export type CartLinkNote = { tone: 'added' | 'lowered' | 'refused'; text: string };

/** One line of the link, worked out: the piece and how many to add, or only why not. */
export type CartLinkStep =
  | { piece: CartProduct; quantity: number; note: CartLinkNote }
  | { piece: null; note: CartLinkNote };

/**
 * What opening a link does to `cart`, given the pieces the shop has on sale now (`pieces`, with
 * their stock; a variant missing from them is gone, a draft or archived, and is not named). Each
 * line adds its quantity, lowered so the line never holds more than the stock or
 * MAX_LINE_QUANTITY; what is already in the cart stays. Lines in the link's order; the gone ones
 * in one note at the end.
 */
export function planCartLink(
  cart: Cart,
  items: readonly CartLinkItem[],
  pieces: readonly CartProduct[],
): CartLinkStep[] {
  const steps: CartLinkStep[] = [];
  let gone = 0;
  for (const item of items) {
    const piece = pieces.find((p) => p.variantId === item.variantId);
    if (!piece) {
      gone += 1;
      continue;
    }
    const name = nameWithVariant(piece.name, piece.label);
    const stock = Math.max(0, piece.stock ?? 0);
    if (stock === 0) {
      steps.push({ piece: null, note: { tone: 'refused', text: CART_LINK_TEXT.soldOut(name) } });
      continue;
    }
    const inCart = cart.productsInCart.find((l) => l.variantId === item.variantId)?.quantity ?? 0;
    const most = Math.min(stock, MAX_LINE_QUANTITY);
    const quantity = Math.min(item.quantity, most - inCart);
    if (quantity <= 0) {
      const text =
        stock > MAX_LINE_QUANTITY
          ? CART_LINK_TEXT.lineFull(name)
          : CART_LINK_TEXT.allInCart(name, stock);
      steps.push({ piece: null, note: { tone: 'refused', text } });
      continue;
    }
    const note: CartLinkNote =
      quantity === item.quantity
        ? { tone: 'added', text: CART_LINK_TEXT.added(name, quantity) }
        : {
            tone: 'lowered',
            text:
              stock > MAX_LINE_QUANTITY
                ? CART_LINK_TEXT.lineLimit(name, quantity)
                : CART_LINK_TEXT.lowered(name, stock, quantity),
          };
    steps.push({ piece, quantity, note });
  }
  if (gone > 0) {
    steps.push({ piece: null, note: { tone: 'refused', text: CART_LINK_TEXT.gone(gone) } });
  }
  return steps;
}
