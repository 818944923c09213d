import { describe, expect, it } from 'vitest';
import {
  addToCart,
  CART_TEXT,
  type Cart,
  type CartChange,
  type CartProduct,
  cartItemCount,
  cartItems,
  cartSubtotal,
  clearCart,
  emptyCart,
  loadCart,
  MAX_CART_LINES,
  mergeCarts,
  readSavedCart,
  removeFromCart,
  savedCartText,
  updateCartQuantity,
} from './cart.ts';
import { CART_STORAGE_KEY } from './settings.ts';

const dress: CartProduct = {
  productId: 1,
  name: 'Kitenge Wrap Dress',
  price: 85_000,
  image: '/images/dress.webp',
  stock: 3,
};
const scarf: CartProduct = {
  productId: 2,
  name: 'Bark Cloth Scarf',
  price: 30_000,
  image: null,
  stock: 10,
};

function cartOf(change: CartChange): Cart {
  if (!change.ok) throw new Error(`refused: ${change.message}`);
  return change.cart;
}

describe('adding to the cart', () => {
  it('adds a new product with quantity 1 and says so', () => {
    const change = addToCart(emptyCart(), dress);
    expect(change).toEqual({
      ok: true,
      toast: 'Kitenge Wrap Dress added to cart',
      cart: { productsInCart: [{ ...dress, quantity: 1 }], subtotal: 85_000 },
    });
  });

  it('raises a product already there by 1 and recomputes the subtotal', () => {
    const cart = cartOf(addToCart(cartOf(addToCart(emptyCart(), dress)), scarf));
    const again = cartOf(addToCart(cart, dress));
    expect(again.productsInCart.map((l) => [l.productId, l.quantity])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(again.subtotal).toBe(2 * 85_000 + 30_000);
    expect(cartItemCount(again)).toBe(3);
  });

  it('refuses one more than the stock with the spec text, leaving the cart as it was', () => {
    let cart = emptyCart();
    for (let i = 0; i < 3; i++) cart = cartOf(addToCart(cart, dress));
    expect(addToCart(cart, dress)).toEqual({
      ok: false,
      message: 'Cannot add more items. Only 3 available in stock.',
    });
    expect(cart.productsInCart[0]?.quantity).toBe(3);
  });

  it("refuses the dialog's N pieces above the stock", () => {
    expect(addToCart(emptyCart(), dress, 4)).toEqual({
      ok: false,
      message: 'Cannot add 4 items. Only 3 available in stock.',
    });
    expect(cartOf(addToCart(emptyCart(), dress, 3)).subtotal).toBe(255_000);
  });

  it('uses the freshest stock the product brings', () => {
    const cart = cartOf(addToCart(emptyCart(), dress));
    const restocked = cartOf(addToCart(cart, { ...dress, stock: 5 }, 4));
    expect(restocked.productsInCart[0]).toMatchObject({ quantity: 5, stock: 5 });
    // A product whose stock is unknown keeps the line's last known stock.
    const { stock: _unknown, ...noStock } = dress;
    expect(addToCart(restocked, noStock)).toEqual({
      ok: false,
      message: CART_TEXT.cannotAddMore(5),
    });
  });

  it('refuses a sold-out product and nonsense quantities', () => {
    expect(addToCart(emptyCart(), { ...dress, stock: 0 })).toEqual({
      ok: false,
      message: 'Cannot add 1 items. Only 0 available in stock.',
    });
    for (const q of [0, -1, 1.5, Number.NaN]) {
      expect(addToCart(emptyCart(), dress, q)).toEqual({
        ok: false,
        message: 'Failed to add item to cart',
      });
    }
  });
});

describe('changing quantities', () => {
  const cart = cartOf(addToCart(cartOf(addToCart(emptyCart(), dress)), scarf));

  it('sets the quantity and says so', () => {
    const change = updateCartQuantity(cart, 2, 4);
    expect(change).toMatchObject({ ok: true, toast: 'Updated Bark Cloth Scarf quantity to 4' });
    expect(cartOf(change).subtotal).toBe(85_000 + 4 * 30_000);
  });

  it('removes the line at 0 or less', () => {
    for (const q of [0, -3]) {
      const change = updateCartQuantity(cart, 1, q);
      expect(change).toMatchObject({ ok: true, toast: 'Kitenge Wrap Dress removed from cart' });
      expect(cartOf(change)).toEqual({
        productsInCart: [{ ...scarf, quantity: 1 }],
        subtotal: 30_000,
      });
    }
  });

  it('refuses a quantity above the stock with the spec text', () => {
    expect(updateCartQuantity(cart, 1, 7)).toEqual({
      ok: false,
      message: 'Cannot set quantity to 7. Only 3 available in stock.',
    });
  });

  it('refuses an unknown line or a broken number', () => {
    expect(updateCartQuantity(cart, 99, 1)).toEqual({
      ok: false,
      message: 'Failed to update quantity',
    });
    expect(updateCartQuantity(cart, 1, Number.NaN)).toEqual({
      ok: false,
      message: 'Failed to update quantity',
    });
  });
});

describe('removing and clearing', () => {
  const cart = cartOf(addToCart(cartOf(addToCart(emptyCart(), dress)), scarf));

  it('removes by id', () => {
    const change = removeFromCart(cart, 2);
    expect(change).toMatchObject({ ok: true, toast: 'Bark Cloth Scarf removed from cart' });
    expect(cartOf(change).subtotal).toBe(85_000);
    expect(removeFromCart(cart, 42)).toEqual({
      ok: false,
      message: 'Failed to remove item from cart',
    });
  });

  it('clears to an empty list and subtotal 0', () => {
    expect(clearCart()).toEqual({ ok: true, cart: emptyCart(), toast: 'Cart cleared' });
    expect(emptyCart()).toEqual({ productsInCart: [], subtotal: 0 });
  });

  it('computes the subtotal with a missing quantity counting as 1', () => {
    expect(cartSubtotal([{ price: 1000 }, { price: 500, quantity: 3 }])).toBe(2500);
  });

  it('loads lines from elsewhere (the server) with their subtotal', () => {
    const loaded = loadCart([{ ...dress, quantity: 2 }]);
    expect(loaded).toEqual({ productsInCart: [{ ...dress, quantity: 2 }], subtotal: 170_000 });
  });
});

describe('the cart saved in the browser', () => {
  const cart = cartOf(addToCart(cartOf(addToCart(emptyCart(), dress)), scarf));

  it('is kept under the key cart as productsInCart and subtotal, and read back', () => {
    expect(CART_STORAGE_KEY).toBe('cart');
    const text = savedCartText(cart);
    expect(Object.keys(JSON.parse(text))).toEqual(['productsInCart', 'subtotal']);
    expect(readSavedCart(text)).toEqual(cart);
  });

  it('recomputes a tampered subtotal instead of trusting it', () => {
    const text = JSON.stringify({ ...cart, subtotal: 1 });
    expect(readSavedCart(text).subtotal).toBe(115_000);
  });

  const line = { productId: 1, name: 'Dress', price: 1000, image: null, quantity: 1 };
  const corrupt: [string, string | null | undefined][] = [
    ['nothing saved', null],
    ['undefined', undefined],
    ['not JSON', '{"productsInCart": ['],
    ['JSON null', 'null'],
    ['a number', '42'],
    ['no list', '{"subtotal": 5}'],
    ['a list of strings', '{"productsInCart": ["dress"], "subtotal": 0}'],
    ['a negative quantity', JSON.stringify({ productsInCart: [{ ...line, quantity: -2 }] })],
    ['a zero quantity', JSON.stringify({ productsInCart: [{ ...line, quantity: 0 }] })],
    ['a fractional quantity', JSON.stringify({ productsInCart: [{ ...line, quantity: 1.5 }] })],
    ['NaN as a string', JSON.stringify({ productsInCart: [{ ...line, quantity: 'NaN' }] })],
    ['a quantity as text', JSON.stringify({ productsInCart: [{ ...line, quantity: '2' }] })],
    ['a huge quantity', JSON.stringify({ productsInCart: [{ ...line, quantity: 1e9 }] })],
    ['a negative price', JSON.stringify({ productsInCart: [{ ...line, price: -1 }] })],
    ['no product id', JSON.stringify({ productsInCart: [{ ...line, productId: undefined }] })],
    ['a NUL in the name', JSON.stringify({ productsInCart: [{ ...line, name: 'Dr\u0000ess' }] })],
    ['a blank name', JSON.stringify({ productsInCart: [{ ...line, name: '  ' }] })],
    ['the same product twice', JSON.stringify({ productsInCart: [line, line] })],
    [
      'too many lines',
      JSON.stringify({
        productsInCart: Array.from({ length: MAX_CART_LINES + 1 }, (_, i) => ({
          ...line,
          productId: i + 1,
        })),
      }),
    ],
    ['huge text', JSON.stringify({ productsInCart: [{ ...line, name: 'x'.repeat(200_000) }] })],
  ];
  it.each(corrupt)('discards a corrupt saved cart: %s', (_why, saved) => {
    expect(readSavedCart(saved)).toEqual(emptyCart());
  });

  it('keeps only the cart fields of a saved line', () => {
    const saved = JSON.stringify({
      productsInCart: [{ ...line, stock: 4, slug: 'dress', __proto__x: 1, extra: 'x' }],
      subtotal: 1000,
    });
    expect(readSavedCart(saved).productsInCart).toEqual([{ ...line, stock: 4, slug: 'dress' }]);
  });
});

describe('merging the local cart into the server cart at login', () => {
  const server = loadCart([
    { ...dress, quantity: 2 }, // stock 3
    { ...scarf, quantity: 1 }, // stock 10
  ]);

  it('adds quantities up, capped by the stock', () => {
    const local = loadCart([
      { ...dress, quantity: 2 },
      { ...scarf, quantity: 4 },
    ]);
    const merged = mergeCarts(server, local);
    expect(merged.productsInCart.map((l) => [l.productId, l.quantity])).toEqual([
      [1, 3],
      [2, 5],
    ]);
    expect(merged.subtotal).toBe(3 * 85_000 + 5 * 30_000);
  });

  it('keeps local-only lines within their stock and leaves sold-out ones out', () => {
    const local = loadCart([
      { productId: 3, name: 'Beaded Sandals', price: 45_000, image: null, quantity: 9, stock: 2 },
      { productId: 4, name: 'Sold Out Tote', price: 60_000, image: null, quantity: 1, stock: 0 },
    ]);
    const merged = mergeCarts(emptyCart(), local);
    expect(merged.productsInCart.map((l) => [l.productId, l.quantity])).toEqual([[3, 2]]);
  });

  it("does not cut a server line that is already above today's stock", () => {
    const over = loadCart([{ ...dress, quantity: 5 }]); // stock 3
    const merged = mergeCarts(over, loadCart([{ ...dress, quantity: 1 }]));
    expect(merged.productsInCart[0]?.quantity).toBe(5);
  });

  it('sends only ids and quantities to the server', () => {
    expect(cartItems(server)).toEqual([
      { productId: 1, quantity: 2 },
      { productId: 2, quantity: 1 },
    ]);
  });
});
