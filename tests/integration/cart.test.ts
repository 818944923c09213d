// The server-side cart through the router: stock rules with the spec's toasts, prices from the
// database, a local cart merged at login, and each shopper reaching only their own cart.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_LINK_TEXT, cartLinkPath, parseCartLink, planCartLink } from '#core/cart-link.ts';
import { CART_TEXT, MAX_LINE_QUANTITY } from '#core/cart-rules.ts';
import { products, productVariants } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
type Shopper = Awaited<ReturnType<typeof signedInShopper>>;
let shopper: Shopper;
let other: Shopper;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  shopper = await signedInShopper(test.db, auth);
  other = await signedInShopper(test.db, auth);
});
afterAll(() => test.close());

const as = (who: Shopper) => callerFor(test.db, new Headers({ cookie: who.cookie }), { auth }).cart;

const product = (price: number, stock: number) =>
  addProduct(test.db, { name: 'Ankara Blazer', price, stock });

describe('cart', () => {
  it('adds one piece at a time up to the stock, then refuses with the spec’s toast', async () => {
    const blazer = await product(150_000, 2);
    const cart = as(shopper);
    await cart.clear();
    // { productId } still names a piece sold in one variant (old links and clients).
    expect((await cart.add({ productId: blazer.id })).productsInCart).toEqual([
      expect.objectContaining({
        productId: blazer.id,
        variantId: blazer.variantId,
        label: '',
        quantity: 1,
        price: 150_000,
        stock: 2,
      }),
    ]);
    const twice = await cart.add({ variantId: blazer.variantId });
    expect(twice).toMatchObject({ subtotal: 300_000 });
    expect(twice.productsInCart).toHaveLength(1);
    await expect(cart.add({ productId: blazer.id })).rejects.toThrow(CART_TEXT.cannotAddMore(2));
    await expect(cart.add({ variantId: blazer.variantId })).rejects.toThrow(
      CART_TEXT.cannotAddMore(2),
    );
    expect((await cart.get()).productsInCart[0]?.quantity).toBe(2);
  });

  it('adds N pieces in one call; past the stock or a line’s limit it refuses and changes nothing', async () => {
    const buyer = await signedInShopper(test.db, auth);
    const cart = as(buyer);
    const [blazer, scarce, plenty] = [
      await product(50_000, 5),
      await product(20_000, 2),
      await product(1_000, MAX_LINE_QUANTITY + 1),
    ];
    const quantities = async () =>
      Object.fromEntries((await cart.get()).productsInCart.map((l) => [l.variantId, l.quantity]));
    expect((await cart.add({ variantId: blazer.variantId, quantity: 3 })).productsInCart).toEqual([
      expect.objectContaining({ variantId: blazer.variantId, quantity: 3, stock: 5 }),
    ]);
    // More of a line already there, or N of a new line, past the stock: the cart rules' texts.
    await expect(cart.add({ variantId: blazer.variantId, quantity: 3 })).rejects.toThrow(
      CART_TEXT.cannotAddMore(5),
    );
    await expect(cart.add({ productId: scarce.id, quantity: 3 })).rejects.toThrow(
      CART_TEXT.cannotAdd(3, 2),
    );
    expect(await quantities()).toEqual({ [blazer.variantId]: 3 });
    expect((await cart.add({ variantId: blazer.variantId, quantity: 2 })).subtotal).toBe(250_000);
    // A line holds MAX_LINE_QUANTITY at most, whatever the stock.
    await cart.add({ variantId: plenty.variantId, quantity: MAX_LINE_QUANTITY });
    await expect(cart.add({ variantId: plenty.variantId })).rejects.toThrow(
      CART_TEXT.cannotAddMore(MAX_LINE_QUANTITY),
    );
    const before = { [blazer.variantId]: 5, [plenty.variantId]: MAX_LINE_QUANTITY };
    expect(await quantities()).toEqual(before);
    // Not a whole number from 1 to the line's limit: the input's text, never a 500.
    for (const quantity of [1.5, -1, 0, '2', 2_147_483_648, MAX_LINE_QUANTITY + 1, null]) {
      const refused = await mutateOverHttp(
        test.db,
        'cart.add',
        { variantId: scarce.variantId, quantity },
        { auth, cookie: buyer.cookie },
      );
      expect({ quantity, status: refused.status, text: refused.body.error?.message }).toEqual({
        quantity,
        status: 400,
        text: CART_TEXT.addFailed,
      });
    }
    expect(await quantities()).toEqual(before);
  });

  it('sets quantities within the stock; 0 removes the line; prices follow the database', async () => {
    const blazer = await product(100_000, 5);
    const cart = as(shopper);
    await cart.clear();
    await cart.add({ variantId: blazer.variantId });
    expect(await cart.update({ variantId: blazer.variantId, quantity: 4 })).toMatchObject({
      subtotal: 400_000,
    });
    await expect(cart.update({ variantId: blazer.variantId, quantity: 6 })).rejects.toThrow(
      CART_TEXT.cannotSet(6, 5),
    );
    // A variant without a price of its own costs the product's.
    await test.db.update(products).set({ price: 90_000 }).where(eq(products.id, blazer.id));
    expect((await cart.get()).subtotal).toBe(360_000);
    expect(
      (await cart.update({ variantId: blazer.variantId, quantity: 0 })).productsInCart,
    ).toEqual([]);
  });

  it('merges a local cart at login, capped by stock, skipping sold-out and unknown products', async () => {
    const [a, b, soldOut] = [
      await product(20_000, 3),
      await product(30_000, 10),
      await product(40_000, 0),
    ];
    const cart = as(shopper);
    await cart.clear();
    await cart.add({ variantId: a.variantId });
    const merged = await cart.merge({
      items: [
        { variantId: a.variantId, quantity: 5 },
        { variantId: b.variantId, quantity: 2 },
        // A cart kept from before sizes names the product: the same line.
        { productId: b.id, quantity: 1 },
        { variantId: soldOut.variantId, quantity: 1 },
        { variantId: 2_000_000_000, quantity: 1 },
        { productId: 2_000_000_000, quantity: 1 },
      ],
    });
    expect(merged.productsInCart.map((l) => [l.variantId, l.quantity])).toEqual([
      [a.variantId, 3],
      [b.variantId, 3],
    ]);
    expect(merged.subtotal).toBe(3 * 20_000 + 3 * 30_000);
  });

  it('keeps sizes of one piece apart; a sized piece named by its product is refused', async () => {
    const dress = await addProduct(test.db, {
      name: 'Ankara Wrap Dress',
      price: 120_000,
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      stock: { S: 2, M: 1 },
    });
    const cart = as(shopper);
    await cart.clear();
    await expect(cart.add({ productId: dress.id })).rejects.toThrow('Please choose a size.');
    await cart.add({ variantId: dress.variants.S as number });
    const both = await cart.add({ variantId: dress.variants.M as number });
    expect(both.productsInCart.map((l) => [l.productId, l.label, l.quantity, l.stock])).toEqual([
      [dress.id, 'S', 1, 2],
      [dress.id, 'M', 1, 1],
    ]);
    await expect(cart.add({ variantId: dress.variants.M as number })).rejects.toThrow(
      CART_TEXT.cannotAddMore(1),
    );
    await expect(cart.add({ variantId: dress.variants.L as number })).rejects.toThrow(
      CART_TEXT.cannotAddMore(0),
    );
    const merged = await cart.merge({
      items: [
        { variantId: dress.variants.S as number, quantity: 5 },
        { productId: dress.id, quantity: 1 },
      ],
    });
    expect(merged.productsInCart.map((l) => [l.label, l.quantity])).toEqual([
      ['S', 2],
      ['M', 1],
    ]);
  });

  it('keeps each shopper’s cart apart and refuses bad input with a clear text', async () => {
    const blazer = await product(10_000, 9);
    await as(shopper).clear();
    await as(other).clear();
    await as(other).add({ variantId: blazer.variantId });
    expect((await as(shopper).get()).productsInCart).toEqual([]);
    // Another shopper's line cannot be changed or removed by naming its variant.
    await expect(as(shopper).update({ variantId: blazer.variantId, quantity: 3 })).rejects.toThrow(
      'Product not found',
    );
    await as(shopper).remove({ variantId: blazer.variantId });
    expect((await as(other).get()).productsInCart.map((l) => l.quantity)).toEqual([1]);
    const bad = await mutateOverHttp(
      test.db,
      'cart.update',
      { variantId: blazer.variantId, quantity: 'lots', price: 1 },
      { auth, cookie: shopper.cookie },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe(CART_TEXT.updateFailed);
    const huge = await mutateOverHttp(
      test.db,
      'cart.merge',
      { items: Array.from({ length: 5000 }, (_, i) => ({ variantId: i + 1, quantity: 1 })) },
      { auth, cookie: shopper.cookie },
    );
    expect(huge.status).toBe(400);
    await expect(as(shopper).add({ productId: 2_000_000_001 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(as(shopper).add({ variantId: 2_000_000_001 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // Naming both, or neither, is not a piece.
    const both = await mutateOverHttp(
      test.db,
      'cart.add',
      { variantId: blazer.variantId, productId: blazer.id },
      { auth, cookie: shopper.cookie },
    );
    expect(both.status).toBe(400);
    expect(both.body.error?.message).toBe(CART_TEXT.addFailed);
  });
});

describe('a cart link’s pieces (issue 37)', () => {
  const guest = () => callerFor(test.db).cart;

  it('names the pieces on sale now with their stock and price, for a visitor too', async () => {
    const dress = await addProduct(test.db, {
      name: 'Ankara Wrap Dress',
      price: 185_000,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      stock: { S: 0, M: 3 },
    });
    const [m, s] = [dress.variants.M, dress.variants.S] as [number, number];
    // A size with a price of its own is priced at it.
    await test.db.update(productVariants).set({ price: 195_000 }).where(eq(productVariants.id, m));
    const pieces = await guest().linkPieces({ variantIds: [m, s] });
    expect(pieces.sort((a, b) => a.variantId - b.variantId)).toEqual(
      [
        { variantId: m, label: 'M', price: 195_000, stock: 3 },
        { variantId: s, label: 'S', price: 185_000, stock: 0 },
      ]
        .sort((a, b) => a.variantId - b.variantId)
        .map((piece) => ({
          ...piece,
          productId: dress.id,
          name: 'Ankara Wrap Dress',
          slug: dress.slug,
          image: null,
        })),
    );
    // Signed in, the same answer.
    expect(await as(shopper).linkPieces({ variantIds: [m] })).toEqual(
      pieces.filter((p) => p.variantId === m),
    );
  });

  it('leaves out a variant that is gone, a draft’s and an archived piece’s', async () => {
    const [shown, draft, archived] = [
      await product(10_000, 4),
      await product(20_000, 4),
      await product(30_000, 4),
    ];
    await test.db.update(products).set({ status: 'draft' }).where(eq(products.id, draft.id));
    await test.db.update(products).set({ status: 'archived' }).where(eq(products.id, archived.id));
    const pieces = await guest().linkPieces({
      variantIds: [draft.variantId, shown.variantId, archived.variantId, 2_000_000_001],
    });
    expect(pieces.map((p) => p.variantId)).toEqual([shown.variantId]);
  });

  it('refuses what is not a link’s list of variants with the link’s text, never a 500', async () => {
    const twentyOne = Array.from({ length: 21 }, (_, i) => i + 1);
    for (const input of [
      null,
      {},
      { variantIds: [] },
      { variantIds: twentyOne },
      { variantIds: ['12'] },
      { variantIds: [1.5] },
      { variantIds: [0] },
      { variantIds: [-4] },
      { variantIds: [2_147_483_648] },
      { variantIds: [1e21] },
      { variantIds: '12x2' },
      { items: [{ variantId: 1, quantity: 1 }] },
      { variantIds: [1], quantity: 2 },
    ]) {
      const refused = await queryOverHttp(test.db, 'cart.linkPieces', input, { auth });
      expect({ input, status: refused.status, text: refused.body.error?.message }).toEqual({
        input,
        status: 400,
        text: CART_LINK_TEXT.broken,
      });
    }
  });

  it('fills a signed-in cart through cart.add: lowered to the stock, sold out left out, once', async () => {
    const buyer = await signedInShopper(test.db, auth);
    const cart = as(buyer);
    const [blazer, scarce, soldOut, plenty] = [
      await product(50_000, 5),
      await product(20_000, 2),
      await product(15_000, 0),
      await product(1_000, MAX_LINE_QUANTITY + 10),
    ];
    await cart.add({ variantId: blazer.variantId, quantity: 4 });
    await cart.add({ variantId: plenty.variantId, quantity: MAX_LINE_QUANTITY - 1 });
    const link = cartLinkPath([
      { variantId: blazer.variantId, quantity: 3 },
      { variantId: scarce.variantId, quantity: MAX_LINE_QUANTITY },
      { variantId: soldOut.variantId, quantity: 1 },
      { variantId: plenty.variantId, quantity: 5 },
    ]);
    const items = parseCartLink(new URL(link, 'http://shop.test').searchParams.get('add'));
    if (!items) throw new Error(`${link} did not read back`);
    const open = async () => {
      const steps = planCartLink(
        await cart.get(),
        items,
        await cart.linkPieces({ variantIds: items.map((i) => i.variantId) }),
      );
      for (const step of steps) {
        if (step.piece)
          await cart.add({ variantId: step.piece.variantId, quantity: step.quantity });
      }
      return steps.map((s) => s.note.text);
    };
    expect(await open()).toEqual([
      `Only 5 left of Ankara Blazer: 1 added.`,
      `Only 2 left of Ankara Blazer: 2 added.`,
      'Ankara Blazer is sold out: not added.',
      CART_LINK_TEXT.lineLimit('Ankara Blazer', 1),
    ]);
    const quantities = async () =>
      Object.fromEntries((await cart.get()).productsInCart.map((l) => [l.variantId, l.quantity]));
    const filled = {
      [blazer.variantId]: 5,
      [plenty.variantId]: MAX_LINE_QUANTITY,
      [scarce.variantId]: 2,
    };
    expect(await quantities()).toEqual(filled);
    // Opened again, it adds nothing more: every line is at its stock or its limit.
    await open();
    expect(await quantities()).toEqual(filled);
    // A quantity past the line's limit never reaches the cart through cart.add either.
    const huge = await mutateOverHttp(
      test.db,
      'cart.add',
      { variantId: blazer.variantId, quantity: MAX_LINE_QUANTITY * 10 },
      { auth, cookie: buyer.cookie },
    );
    expect(huge.status).toBe(400);
    expect(
      await test.db.execute(
        sql`select count(*)::int as n from cart_items where user_id = ${buyer.id}`,
      ),
    ).toMatchObject({ rows: [{ n: 3 }] });
  });
});
