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
  withoutBought,
} from './cart-rules.ts';
import { CART_STORAGE_KEY } from './settings-rules.ts';

// A sized piece: its line is its variant (id 11), not its product (id 1).
const dress: CartProduct = {
  productId: 1,
  variantId: 11,
  label: 'M · Indigo',
  name: 'Kitenge Wrap Dress',
  price: 85_000,
  image: '/images/dress.webp',
  stock: 3,
};
// A piece in one size: its one variant kept the product's id (migration 0011).
const scarf: CartProduct = {
  productId: 2,
  variantId: 2,
  label: '',
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
      toast: 'Kitenge Wrap Dress (M · Indigo) added to cart',
      cart: { productsInCart: [{ ...dress, quantity: 1 }], subtotal: 85_000 },
    });
  });

  it('raises a product already there by 1 and recomputes the subtotal', () => {
    const cart = cartOf(addToCart(cartOf(addToCart(emptyCart(), dress)), scarf));
    const again = cartOf(addToCart(cart, dress));
    expect(again.productsInCart.map((l) => [l.variantId, l.quantity])).toEqual([
      [11, 2],
      [2, 1],
    ]);
    expect(again.subtotal).toBe(2 * 85_000 + 30_000);
    expect(cartItemCount(again)).toBe(3);
  });

  it('keeps two sizes of one product apart, each with its own stock', () => {
    const large: CartProduct = { ...dress, variantId: 12, label: 'L · Indigo', stock: 1 };
    const cart = cartOf(addToCart(cartOf(addToCart(emptyCart(), dress, 3)), large));
    expect(cart.productsInCart.map((l) => [l.productId, l.variantId, l.label, l.quantity])).toEqual(
      [
        [1, 11, 'M · Indigo', 3],
        [1, 12, 'L · Indigo', 1],
      ],
    );
    expect(cart.subtotal).toBe(4 * 85_000);
    expect(addToCart(cart, large)).toEqual({ ok: false, message: CART_TEXT.cannotAddMore(1) });
    expect(addToCart(cart, dress)).toEqual({ ok: false, message: CART_TEXT.cannotAddMore(3) });
    // Changing or removing one size leaves the other alone.
    const fewer = cartOf(updateCartQuantity(cart, 11, 1));
    expect(fewer.productsInCart.map((l) => [l.variantId, l.quantity])).toEqual([
      [11, 1],
      [12, 1],
    ]);
    const change = removeFromCart(cart, 12);
    expect(change).toMatchObject({
      ok: true,
      toast: 'Kitenge Wrap Dress (L · Indigo) removed from cart',
    });
    expect(cartOf(change).productsInCart.map((l) => l.variantId)).toEqual([11]);
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
      const change = updateCartQuantity(cart, 11, q);
      expect(change).toMatchObject({
        ok: true,
        toast: 'Kitenge Wrap Dress (M · Indigo) removed from cart',
      });
      expect(cartOf(change)).toEqual({
        productsInCart: [{ ...scarf, quantity: 1 }],
        subtotal: 30_000,
      });
    }
  });

  it('refuses a quantity above the stock with the spec text', () => {
    expect(updateCartQuantity(cart, 11, 7)).toEqual({
      ok: false,
      message: 'Cannot set quantity to 7. Only 3 available in stock.',
    });
  });

  it('refuses an unknown line or a broken number', () => {
    // 1 is the dress's product id, not a line: lines are named by their variant.
    for (const unknown of [99, 1]) {
      expect(updateCartQuantity(cart, unknown, 1)).toEqual({
        ok: false,
        message: 'Failed to update quantity',
      });
    }
    expect(updateCartQuantity(cart, 11, Number.NaN)).toEqual({
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
    for (const unknown of [42, 1]) {
      expect(removeFromCart(cart, unknown)).toEqual({
        ok: false,
        message: 'Failed to remove item from cart',
      });
    }
  });

  it('clears to an empty list and subtotal 0', () => {
    expect(clearCart()).toEqual({ ok: true, cart: emptyCart(), toast: 'Cart cleared' });
    expect(emptyCart()).toEqual({ productsInCart: [], subtotal: 0 });
  });

  it('computes the subtotal with a missing quantity counting as 1', () => {
    expect(cartSubtotal([{ price: 1000 }, { price: 500, quantity: 3 }])).toBe(2500);
  });

  it('after an order, drops the lines it covers and keeps the rest of a larger line', () => {
    const three = cartOf(addToCart(cart, scarf, 2));
    expect(three.productsInCart.map((l) => [l.variantId, l.quantity])).toEqual([
      [11, 1],
      [2, 3],
    ]);
    const left = withoutBought(three, [
      { variantId: 11, quantity: 2 },
      { variantId: 2, quantity: 1 },
      { variantId: 42, quantity: 1 },
    ]);
    expect(left).toEqual({ productsInCart: [{ ...scarf, quantity: 2 }], subtotal: 60_000 });
    expect(withoutBought(three, cartItems(three))).toEqual(emptyCart());
    expect(withoutBought(three, [])).toEqual(three);
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

  const line = {
    productId: 1,
    variantId: 11,
    label: 'M',
    name: 'Dress',
    price: 1000,
    image: null,
    quantity: 1,
  };
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
    ['a zero variant id', JSON.stringify({ productsInCart: [{ ...line, variantId: 0 }] })],
    ['a variant id as text', JSON.stringify({ productsInCart: [{ ...line, variantId: '11' }] })],
    [
      'a variant id above int4',
      JSON.stringify({ productsInCart: [{ ...line, variantId: 2 ** 31 }] }),
    ],
    ['a label as a number', JSON.stringify({ productsInCart: [{ ...line, label: 5 }] })],
    ['a huge label', JSON.stringify({ productsInCart: [{ ...line, label: 'M'.repeat(201) }] })],
    ['a NUL in the name', JSON.stringify({ productsInCart: [{ ...line, name: 'Dr\u0000ess' }] })],
    ['a blank name', JSON.stringify({ productsInCart: [{ ...line, name: '  ' }] })],
    ['the same variant twice', JSON.stringify({ productsInCart: [line, line] })],
    [
      'the same variant twice, once saved before sizes',
      JSON.stringify({
        productsInCart: [
          { ...line, variantId: 1 },
          { ...line, variantId: undefined, label: undefined },
        ],
      }),
    ],
    [
      'too many lines',
      JSON.stringify({
        productsInCart: Array.from({ length: MAX_CART_LINES + 1 }, (_, i) => ({
          ...line,
          productId: i + 1,
          variantId: i + 1,
        })),
      }),
    ],
    ['huge text', JSON.stringify({ productsInCart: [{ ...line, name: 'x'.repeat(200_000) }] })],
    [
      'picture widths not numbers',
      JSON.stringify({ productsInCart: [{ ...line, imageWidths: ['400'] }] }),
    ],
    [
      'too many picture widths',
      JSON.stringify({ productsInCart: [{ ...line, imageWidths: Array(11).fill(400) }] }),
    ],
  ];
  it.each(corrupt)('discards a corrupt saved cart: %s', (_why, saved) => {
    expect(readSavedCart(saved)).toEqual(emptyCart());
  });

  it('keeps the widths of a line picture for its thumbnail', () => {
    const saved = JSON.stringify({ productsInCart: [{ ...line, imageWidths: [400, 800] }] });
    expect(readSavedCart(saved).productsInCart).toEqual([{ ...line, imageWidths: [400, 800] }]);
  });

  it('keeps only the cart fields of a saved line', () => {
    const saved = JSON.stringify({
      productsInCart: [{ ...line, stock: 4, slug: 'dress', __proto__x: 1, extra: 'x' }],
      subtotal: 1000,
    });
    expect(readSavedCart(saved).productsInCart).toEqual([{ ...line, stock: 4, slug: 'dress' }]);
  });

  it('reads a cart saved before sizes: each line is the variant with its product id', () => {
    const { variantId: _v, label: _l, ...before } = line;
    const saved = JSON.stringify({
      productsInCart: [
        { ...before, quantity: 2 },
        { ...before, productId: 7, name: 'Tote', price: 500 },
      ],
      subtotal: 2500,
    });
    const read = readSavedCart(saved);
    expect(read.productsInCart).toEqual([
      { ...before, variantId: 1, label: '', quantity: 2 },
      { ...before, productId: 7, variantId: 7, label: '', name: 'Tote', price: 500 },
    ]);
    expect(read.subtotal).toBe(2500);
    expect(cartItems(read)).toEqual([
      { variantId: 1, quantity: 2 },
      { variantId: 7, quantity: 1 },
    ]);
  });

  it('keeps two lines of one product in different variants apart', () => {
    const saved = JSON.stringify({
      productsInCart: [line, { ...line, variantId: 12, label: 'L', quantity: 2 }],
    });
    const read = readSavedCart(saved);
    expect(read.productsInCart.map((l) => [l.productId, l.variantId, l.label, l.quantity])).toEqual(
      [
        [1, 11, 'M', 1],
        [1, 12, 'L', 2],
      ],
    );
    expect(read.subtotal).toBe(3000);
    expect(readSavedCart(savedCartText(read))).toEqual(read);
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
    expect(merged.productsInCart.map((l) => [l.variantId, l.quantity])).toEqual([
      [11, 3],
      [2, 5],
    ]);
    expect(merged.subtotal).toBe(3 * 85_000 + 5 * 30_000);
  });

  it('keeps local-only lines within their stock and leaves sold-out ones out', () => {
    const local = loadCart([
      {
        productId: 3,
        variantId: 31,
        label: '38',
        name: 'Beaded Sandals',
        price: 45_000,
        image: null,
        quantity: 9,
        stock: 2,
      },
      {
        productId: 4,
        variantId: 4,
        label: '',
        name: 'Sold Out Tote',
        price: 60_000,
        image: null,
        quantity: 1,
        stock: 0,
      },
    ]);
    const merged = mergeCarts(emptyCart(), local);
    expect(merged.productsInCart.map((l) => [l.variantId, l.quantity])).toEqual([[31, 2]]);
  });

  it("does not cut a server line that is already above today's stock", () => {
    const over = loadCart([{ ...dress, quantity: 5 }]); // stock 3
    const merged = mergeCarts(over, loadCart([{ ...dress, quantity: 1 }]));
    expect(merged.productsInCart[0]?.quantity).toBe(5);
  });

  it('keeps another size of a product in the server cart as its own line', () => {
    const other = { ...dress, variantId: 12, label: 'L · Indigo', stock: 4 };
    const merged = mergeCarts(server, loadCart([{ ...other, quantity: 2 }]));
    expect(merged.productsInCart.map((l) => [l.variantId, l.quantity])).toEqual([
      [11, 2],
      [2, 1],
      [12, 2],
    ]);
  });

  it('sends only variant ids and quantities to the server', () => {
    expect(cartItems(server)).toEqual([
      { variantId: 11, quantity: 2 },
      { variantId: 2, quantity: 1 },
    ]);
  });
});
