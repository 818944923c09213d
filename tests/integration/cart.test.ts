// The server-side cart through the router: stock rules with the spec's toasts, prices from the
// database, a local cart merged at login, and each shopper reaching only their own cart.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_TEXT } from '#core/cart.ts';
import { products } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp } from '../support/trpc.ts';

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

let counter = 0;
async function product(price: number, quantity: number) {
  counter += 1;
  const [row] = await test.db
    .insert(products)
    .values({
      productName: `Ankara Blazer ${counter}`,
      slug: `ankara-blazer-${counter}-${randomUUID()}`,
      price,
      quantity,
    })
    .returning();
  if (!row) throw new Error('no product');
  return row;
}

describe('cart', () => {
  it('adds one piece at a time up to the stock, then refuses with the spec’s toast', async () => {
    const blazer = await product(150_000, 2);
    const cart = as(shopper);
    await cart.clear();
    expect((await cart.add({ productId: blazer.id })).productsInCart).toEqual([
      expect.objectContaining({ productId: blazer.id, quantity: 1, price: 150_000, stock: 2 }),
    ]);
    const twice = await cart.add({ productId: blazer.id });
    expect(twice).toMatchObject({ subtotal: 300_000 });
    await expect(cart.add({ productId: blazer.id })).rejects.toThrow(CART_TEXT.cannotAddMore(2));
    expect((await cart.get()).productsInCart[0]?.quantity).toBe(2);
  });

  it('sets quantities within the stock; 0 removes the line; prices follow the database', async () => {
    const blazer = await product(100_000, 5);
    const cart = as(shopper);
    await cart.clear();
    await cart.add({ productId: blazer.id });
    expect(await cart.update({ productId: blazer.id, quantity: 4 })).toMatchObject({
      subtotal: 400_000,
    });
    await expect(cart.update({ productId: blazer.id, quantity: 6 })).rejects.toThrow(
      CART_TEXT.cannotSet(6, 5),
    );
    await test.db.update(products).set({ price: 90_000 }).where(eq(products.id, blazer.id));
    expect((await cart.get()).subtotal).toBe(360_000);
    expect((await cart.update({ productId: blazer.id, quantity: 0 })).productsInCart).toEqual([]);
  });

  it('merges a local cart at login, capped by stock, skipping sold-out and unknown products', async () => {
    const [a, b, soldOut] = [
      await product(20_000, 3),
      await product(30_000, 10),
      await product(40_000, 0),
    ];
    const cart = as(shopper);
    await cart.clear();
    await cart.add({ productId: a.id });
    const merged = await cart.merge({
      items: [
        { productId: a.id, quantity: 5 },
        { productId: b.id, quantity: 2 },
        { productId: b.id, quantity: 1 },
        { productId: soldOut.id, quantity: 1 },
        { productId: 2_000_000_000, quantity: 1 },
      ],
    });
    expect(merged.productsInCart.map((l) => [l.productId, l.quantity])).toEqual([
      [a.id, 3],
      [b.id, 3],
    ]);
    expect(merged.subtotal).toBe(3 * 20_000 + 3 * 30_000);
  });

  it('keeps each shopper’s cart apart and refuses bad input with a clear text', async () => {
    const blazer = await product(10_000, 9);
    await as(shopper).clear();
    await as(other).clear();
    await as(other).add({ productId: blazer.id });
    expect((await as(shopper).get()).productsInCart).toEqual([]);
    const bad = await mutateOverHttp(
      test.db,
      'cart.update',
      { productId: blazer.id, quantity: 'lots', price: 1 },
      { auth, cookie: shopper.cookie },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe(CART_TEXT.updateFailed);
    const huge = await mutateOverHttp(
      test.db,
      'cart.merge',
      { items: Array.from({ length: 5000 }, (_, i) => ({ productId: i + 1, quantity: 1 })) },
      { auth, cookie: shopper.cookie },
    );
    expect(huge.status).toBe(400);
    await expect(as(shopper).add({ productId: 2_000_000_001 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
