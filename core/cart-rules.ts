// Cart rules shared by the browser's cart and the server's (spec: storefront §3, §4, §5, §8).
// Pure: every change answers the whole new cart and the toast to show, or the refusal's text.
import * as v from 'valibot';
import { INT4_MAX, idSchema, wholeSchema } from './bounds.ts';
import { nameWithVariant } from './variants.ts';

export type CartLine = {
  productId: number;
  /** The size and colour bought (decision 0039); a line is one variant. */
  variantId: number;
  /** "M · Indigo"; '' for a piece without options. */
  label: string;
  name: string;
  /** Unit price in UGX, for display: the server prices the order. */
  price: number;
  image: string | null;
  /** The widths of the picture's WebP copies (core/pictures.ts), for a small thumbnail. */
  imageWidths?: number[];
  quantity: number;
  /** Pieces the shop had when the line was last read; unknown means no stock check here. */
  stock?: number;
  slug?: string;
};

/** The shape kept in local storage under `cart` (CART_STORAGE_KEY). */
export type Cart = { productsInCart: CartLine[]; subtotal: number };

export type CartChange = { ok: true; cart: Cart; toast: string } | { ok: false; message: string };

/** The product as a card or the dialog knows it. */
export type CartProduct = Omit<CartLine, 'quantity'>;

/** A saved cart longer than this, or with more lines, is treated as corrupt. */
export const MAX_SAVED_CART_CHARS = 100_000;
export const MAX_CART_LINES = 100;
/** More pieces of one product than any shop has; a saved line above it is corrupt. */
export const MAX_LINE_QUANTITY = 100_000;
/** Ids are Postgres integers. */

export const CART_TEXT = {
  cannotAddMore: (available: number) =>
    `Cannot add more items. Only ${available} available in stock.`,
  cannotAdd: (requested: number, available: number) =>
    `Cannot add ${requested} items. Only ${available} available in stock.`,
  cannotSet: (requested: number, available: number) =>
    `Cannot set quantity to ${requested}. Only ${available} available in stock.`,
  addFailed: 'Failed to add item to cart',
  removeFailed: 'Failed to remove item from cart',
  updateFailed: 'Failed to update quantity',
  clearFailed: 'Failed to clear cart',
  added: (name: string) => `${name} added to cart`,
  updated: (name: string, quantity: number) => `Updated ${name} quantity to ${quantity}`,
  removed: (name: string) => `${name} removed from cart`,
  cleared: 'Cart cleared',
  // the cart screen
  empty: 'Your cart is empty',
  startShopping: 'Start Shopping',
  continueShopping: 'Continue Shopping',
  each: 'each',
  remove: 'Remove',
  orderSummary: 'Order Summary',
  proceed: 'Proceed to Checkout',
  processing: 'Processing...',
  /** A line with nothing left to buy: sold out, or taken off sale by the shop. */
  noLongerAvailable: 'No longer available',
} as const;

export function emptyCart(): Cart {
  return { productsInCart: [], subtotal: 0 };
}

/** Sum of price × quantity (a missing quantity counts as 1). */
export function cartSubtotal(lines: readonly { price: number; quantity?: number }[]): number {
  return lines.reduce((sum, line) => sum + line.price * (line.quantity ?? 1), 0);
}

/** Pieces in the cart: the header's badge and the summary's item count. */
export function cartItemCount(cart: Cart): number {
  return cart.productsInCart.reduce((sum, line) => sum + line.quantity, 0);
}

/** A line's name in toasts: "Ankara Wrap Dress (M · Indigo)". */
const lineName = (line: { name: string; label?: string }) => nameWithVariant(line.name, line.label);

function withLines(productsInCart: CartLine[]): Cart {
  return { productsInCart, subtotal: cartSubtotal(productsInCart) };
}

const isWholeCount = (n: unknown): n is number => Number.isSafeInteger(n);

/**
 * Adds `quantity` pieces (1 from a card, N from the dialog): a line already there grows, a new one
 * starts with them. More than the stock is refused.
 */
export function addToCart(cart: Cart, product: CartProduct, quantity = 1): CartChange {
  if (!isWholeCount(quantity) || quantity < 1) return { ok: false, message: CART_TEXT.addFailed };
  const present = cart.productsInCart.find((l) => l.variantId === product.variantId);
  const wanted = (present?.quantity ?? 0) + quantity;
  const stock = product.stock ?? present?.stock;
  if (stock !== undefined && wanted > stock) {
    return {
      ok: false,
      message: present ? CART_TEXT.cannotAddMore(stock) : CART_TEXT.cannotAdd(quantity, stock),
    };
  }
  const line: CartLine = { ...present, ...product, quantity: wanted };
  if (stock !== undefined) line.stock = stock;
  const lines = present
    ? cart.productsInCart.map((l) => (l === present ? line : l))
    : [...cart.productsInCart, line];
  return { ok: true, cart: withLines(lines), toast: CART_TEXT.added(lineName(product)) };
}

/** Sets a line's quantity; 0 or less removes the line; more than the stock is refused. */
export function updateCartQuantity(cart: Cart, variantId: number, quantity: number): CartChange {
  const present = cart.productsInCart.find((l) => l.variantId === variantId);
  if (!present || !isWholeCount(quantity)) return { ok: false, message: CART_TEXT.updateFailed };
  if (quantity <= 0) return removeFromCart(cart, variantId);
  if (present.stock !== undefined && quantity > present.stock) {
    return { ok: false, message: CART_TEXT.cannotSet(quantity, present.stock) };
  }
  const lines = cart.productsInCart.map((l) => (l === present ? { ...l, quantity } : l));
  return {
    ok: true,
    cart: withLines(lines),
    toast: CART_TEXT.updated(lineName(present), quantity),
  };
}

export function removeFromCart(cart: Cart, variantId: number): CartChange {
  const present = cart.productsInCart.find((l) => l.variantId === variantId);
  if (!present) return { ok: false, message: CART_TEXT.removeFailed };
  const lines = cart.productsInCart.filter((l) => l !== present);
  return { ok: true, cart: withLines(lines), toast: CART_TEXT.removed(lineName(present)) };
}

export function clearCart(): CartChange {
  return { ok: true, cart: emptyCart(), toast: CART_TEXT.cleared };
}

/**
 * The cart after an order of `bought` (the server's own rule, applied in the order's write:
 * decision 0068): a line the order covers goes; a line holding more keeps the rest.
 */
export function withoutBought(
  cart: Cart,
  bought: readonly { variantId: number; quantity: number }[],
): Cart {
  const lines = cart.productsInCart.flatMap((line) => {
    const taken = bought
      .filter((b) => b.variantId === line.variantId)
      .reduce((sum, b) => sum + b.quantity, 0);
    if (taken === 0) return [line];
    return line.quantity > taken ? [{ ...line, quantity: line.quantity - taken }] : [];
  });
  return withLines(lines);
}

/** Replaces the cart with the given lines (e.g. the server's answer); the subtotal follows them. */
export function loadCart(lines: readonly CartLine[]): Cart {
  return withLines(lines.map((l) => ({ ...l })));
}

// Saved carts come from the browser's storage: anything that is not exactly a cart is discarded.
const isText = (v: unknown, max: number): v is string =>
  typeof v === 'string' && v.length <= max && !v.includes('\u0000');
const isCount = (v: unknown, max: number): v is number => isWholeCount(v) && v >= 0 && v <= max;

function savedLine(value: unknown): CartLine | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const ok =
    isCount(v.productId, INT4_MAX) &&
    (v.productId as number) > 0 &&
    isText(v.name, 500) &&
    (v.name as string).trim() !== '' &&
    isCount(v.price, 1e12) &&
    (v.image === null || v.image === undefined || isText(v.image, 2000)) &&
    (v.imageWidths === undefined ||
      (Array.isArray(v.imageWidths) &&
        v.imageWidths.length <= 10 &&
        v.imageWidths.every((w) => isCount(w, 10_000)))) &&
    isCount(v.quantity, MAX_LINE_QUANTITY) &&
    (v.quantity as number) >= 1 &&
    (v.stock === undefined || isCount(v.stock, Number.MAX_SAFE_INTEGER)) &&
    (v.slug === undefined || isText(v.slug, 500)) &&
    (v.variantId === undefined ||
      (isCount(v.variantId, INT4_MAX) && (v.variantId as number) > 0)) &&
    (v.label === undefined || isText(v.label, 200));
  if (!ok) return null;
  const line: CartLine = {
    productId: v.productId as number,
    // A cart saved before sizes existed names products only: each became the variant with the
    // product's id (migration 0011).
    variantId: (v.variantId as number | undefined) ?? (v.productId as number),
    label: (v.label as string | undefined) ?? '',
    name: v.name as string,
    price: v.price as number,
    image: (v.image as string | null | undefined) ?? null,
    ...(v.imageWidths ? { imageWidths: v.imageWidths as number[] } : {}),
    quantity: v.quantity as number,
  };
  if (v.stock !== undefined) line.stock = v.stock as number;
  if (v.slug !== undefined) line.slug = v.slug as string;
  return line;
}

/** The cart saved in local storage, or an empty cart when it is missing or corrupt. */
export function readSavedCart(saved: string | null | undefined): Cart {
  if (typeof saved !== 'string' || saved.length > MAX_SAVED_CART_CHARS) return emptyCart();
  let parsed: unknown;
  try {
    parsed = JSON.parse(saved);
  } catch {
    return emptyCart();
  }
  if (typeof parsed !== 'object' || parsed === null) return emptyCart();
  const list = (parsed as { productsInCart?: unknown }).productsInCart;
  if (!Array.isArray(list) || list.length > MAX_CART_LINES) return emptyCart();
  const lines: CartLine[] = [];
  for (const item of list) {
    const line = savedLine(item);
    if (!line || lines.some((l) => l.variantId === line.variantId)) return emptyCart();
    lines.push(line);
  }
  return withLines(lines);
}

/** The text to keep in local storage. */
export function savedCartText(cart: Cart): string {
  return JSON.stringify({ productsInCart: cart.productsInCart, subtotal: cart.subtotal });
}

/** What `cart.merge` and `checkout.placeOrder` send: variant ids and quantities, never prices. */
export function cartItems(cart: Cart): { variantId: number; quantity: number }[] {
  return cart.productsInCart.map((l) => ({ variantId: l.variantId, quantity: l.quantity }));
}

/**
 * A local cart joining the server's at login (the server's own rule, for an instant screen):
 * quantities add up, capped by the stock (a line already above the stock is not cut); products
 * sold out are left out. The server's lines carry the stock read now.
 */
export function mergeCarts(server: Cart, local: Cart): Cart {
  const lines = server.productsInCart.map((l) => ({ ...l }));
  for (const incoming of local.productsInCart) {
    const present = lines.find((l) => l.variantId === incoming.variantId);
    if (present) {
      const sum = present.quantity + incoming.quantity;
      present.quantity =
        present.stock === undefined
          ? sum
          : Math.min(sum, Math.max(present.quantity, present.stock));
      continue;
    }
    const quantity =
      incoming.stock === undefined
        ? incoming.quantity
        : Math.min(incoming.quantity, incoming.stock);
    if (quantity > 0) lines.push({ ...incoming, quantity });
  }
  return withLines(lines);
}

// What the cart procedures accept: a variant (or, for a piece in one size, its product) and,
// for a set, a whole quantity. Never a price.
const anId = idSchema('Product not found');
const quantity = wholeSchema(-MAX_LINE_QUANTITY, MAX_LINE_QUANTITY, CART_TEXT.updateFailed);

/** Which piece: `{ variantId }`, or `{ productId }` for a product with one variant. */
export type PieceRef = { variantId: number } | { productId: number };
const pieceRef = <E extends v.ObjectEntries>(extra: E, message: string) =>
  v.union(
    [
      v.strictObject({ variantId: anId, ...extra }, message),
      v.strictObject({ productId: anId, ...extra }, message),
    ],
    message,
  );

export const cartProductInput = pieceRef({}, CART_TEXT.addFailed);
/** `cart.add`: the piece and how many to add (the dialog's N; 1 when absent), up to a line's limit. */
export const cartAddInput = pieceRef(
  { quantity: v.optional(wholeSchema(1, MAX_LINE_QUANTITY, CART_TEXT.addFailed), 1) },
  CART_TEXT.addFailed,
);
export const cartQuantityInput = pieceRef({ quantity }, CART_TEXT.updateFailed);
export const cartMergeInput = v.strictObject(
  {
    items: v.pipe(
      v.array(
        pieceRef(
          { quantity: v.pipe(quantity, v.minValue(1, CART_TEXT.addFailed)) },
          CART_TEXT.addFailed,
        ),
        CART_TEXT.addFailed,
      ),
      v.maxLength(MAX_CART_LINES, CART_TEXT.addFailed),
    ),
  },
  CART_TEXT.addFailed,
);
