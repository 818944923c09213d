// Checkout on a real database through the Neon driver: prices and stock from the database, one
// write per order, never oversold, idempotent on the client's order id, nothing half written.
// The races only prove something on PostgreSQL (TEST_DATABASE_URL); PGlite runs them serially.
import { randomUUID } from 'node:crypto';
import { neonConfig } from '@neondatabase/serverless';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_LIMIT } from '#core/limits.ts';
import { CHECKOUT_TEXT, DELIVERY_FEE } from '#core/order-rules.ts';
import {
  cartItems,
  orderItems,
  orders,
  products,
  profiles,
  receipts,
  user,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { countAttempt } from '#server/services/rate-limit.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf as stockNow } from '../support/catalogue.ts';
import {
  betweenReadAndWrite,
  openTestDatabase,
  type TestDatabase,
} from '../support/test-database.ts';
import { callerFor, mutateOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

const product = (price: number, stock: number, name?: string) =>
  addProduct(test.db, { name, price, stock });

/** A customer with a complete profile, written directly (no password hashing needed). */
async function customer(name = 'Nakato Achieng') {
  const id = randomUUID();
  const email = `${id}@example.ug`;
  await test.db.insert(user).values({ id, name, email, emailVerified: true });
  await test.db
    .insert(profiles)
    .values({ id, email, fullName: name, phone: '+256772123456', address: 'Plot 4, Kampala Road' });
  return { id, email, name };
}

const stockOf = (piece: { variantId: number }) => stockNow(test.db, { variantId: piece.variantId });

const byVariant = (a: number[], b: number[]) => (a[0] ?? 0) - (b[0] ?? 0);

/** The shopper's server cart as [variant, quantity] pairs, by variant. */
async function cartOf(shopper: { id: string }) {
  const lines = await test.db
    .select({ variantId: cartItems.variantId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.userId, shopper.id));
  return lines.map((l) => [l.variantId, l.quantity]).sort(byVariant);
}

describe('placeOrder', () => {
  it('prices the order from the database: items + 5,000 delivery, pending, receipt stored', async () => {
    const dress = await product(145_000, 3, 'Gomesi Silk Dress');
    const scarf = await product(35_000, 10, 'Ñambi Scarf — ẞ');
    const shopper = await customer();
    const orderId = randomUUID();
    const result = await placeOrder(test.db, shopper, {
      orderId,
      lines: [
        { variantId: dress.variantId, quantity: 2 },
        // A piece sold in one variant may still be named by its product (older clients).
        { productId: scarf.id, quantity: 1 },
      ],
      paymentMethod: 'mobile_money',
    });
    expect(result).toMatchObject({ ok: true, order: { orderId, created: true, total: 330_000 } });
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      customerId: shopper.id,
      customerName: 'Nakato Achieng',
      subtotal: 325_000,
      deliveryFee: DELIVERY_FEE,
      discount: 0,
      total: 325_000 + DELIVERY_FEE,
      status: 'pending',
      paymentMethod: 'mobile_money',
    });
    const items = await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(
      items.map((i) => [i.name, i.variantId, i.variantLabel, i.price, i.quantity]).sort(),
    ).toEqual([
      ['Gomesi Silk Dress', dress.variantId, '', 145_000, 2],
      ['Ñambi Scarf — ẞ', scarf.variantId, '', 35_000, 1],
    ]);
    expect(await stockOf(dress)).toBe(1);
    expect(await stockOf(scarf)).toBe(9);
    const [receipt] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(receipt).toMatchObject({
      receiptNumber: `RCP-${orderId.slice(0, 8)}`,
      deliveryFee: 5000,
      discountAmount: 0,
      totalAmount: 330_000,
      transactionId: null,
    });
  });

  it('the same order id again returns the same order and changes nothing', async () => {
    const bag = await product(80_000, 5);
    const shopper = await customer();
    const order = {
      orderId: randomUUID(),
      lines: [{ variantId: bag.variantId, quantity: 2 }],
      paymentMethod: 'card' as const,
    };
    const first = await placeOrder(test.db, shopper, order);
    const again = await placeOrder(test.db, shopper, order);
    expect(first).toMatchObject({ ok: true, order: { created: true } });
    expect(again).toMatchObject({
      ok: true,
      order: { orderId: order.orderId, created: false, total: 165_000 },
    });
    expect(await stockOf(bag)).toBe(3);
  });

  it("another customer's order id is refused and their order untouched", async () => {
    const bag = await product(80_000, 5);
    const [a, b] = [await customer(), await customer('Okello James')];
    const orderId = randomUUID();
    await placeOrder(test.db, a, {
      orderId,
      lines: [{ variantId: bag.variantId, quantity: 1 }],
      paymentMethod: 'card',
    });
    const theirs = await placeOrder(test.db, b, {
      orderId,
      lines: [{ variantId: bag.variantId, quantity: 4 }],
      paymentMethod: 'card',
    });
    expect(theirs).toEqual({ ok: false, problem: 'order-id-taken' });
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.customerId).toBe(a.id);
    expect(await stockOf(bag)).toBe(4);
  });

  it('too little stock or a missing product writes nothing', async () => {
    const shirt = await product(60_000, 1, 'Bark Cloth Shirt');
    const shopper = await customer();
    const short = await placeOrder(test.db, shopper, {
      orderId: randomUUID(),
      lines: [{ variantId: shirt.variantId, quantity: 2 }],
      paymentMethod: 'cash_on_delivery',
    });
    expect(short).toEqual({
      ok: false,
      problem: 'insufficient-stock',
      name: 'Bark Cloth Shirt',
      available: 1,
    });

    const gone = await product(20_000, 4, 'Beaded Anklet');
    await test.db.delete(products).where(eq(products.id, gone.id));
    const orderId = randomUUID();
    const missing = await placeOrder(
      test.db,
      shopper,
      {
        orderId,
        lines: [
          { variantId: shirt.variantId, quantity: 1 },
          { variantId: gone.variantId, quantity: 1 },
        ],
        paymentMethod: 'card',
      },
      { shownNames: new Map([[gone.variantId, 'Beaded Anklet']]) },
    );
    expect(missing).toEqual({
      ok: false,
      problem: 'product-missing',
      name: 'Beaded Anklet',
    });
    expect(await test.db.select().from(orders).where(eq(orders.id, orderId))).toEqual([]);
    expect(await stockOf(shirt)).toBe(1);
  });

  it('50 concurrent orders for 5 in stock make exactly 5 orders and stock 0', async () => {
    const sandal = await product(45_000, 5, 'Leather Sandal');
    const shoppers = await Promise.all(Array.from({ length: 10 }, () => customer()));
    const ids = Array.from({ length: 50 }, () => randomUUID());
    const results = await Promise.all(
      ids.map((orderId, i) =>
        placeOrder(test.db, shoppers[i % 10] as (typeof shoppers)[number], {
          orderId,
          lines: [{ variantId: sandal.variantId, quantity: 1 }],
          paymentMethod: 'mobile_money',
        }),
      ),
    );
    const placed = results.filter((r) => r.ok);
    expect(placed).toHaveLength(5);
    for (const refused of results.filter((r) => !r.ok)) {
      expect(refused).toEqual({
        ok: false,
        problem: 'insufficient-stock',
        name: 'Leather Sandal',
        available: 0,
      });
    }
    expect(await stockOf(sandal)).toBe(0);
    const written = await test.db.select().from(orders).where(inArray(orders.id, ids));
    expect(written).toHaveLength(5);
  });

  it('the same order id sent 10 times at once makes one order and one decrement', async () => {
    const hat = await product(30_000, 8);
    const shopper = await customer();
    const order = {
      orderId: randomUUID(),
      lines: [{ variantId: hat.variantId, quantity: 3 }],
      paymentMethod: 'card' as const,
    };
    await test.db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: hat.variantId, quantity: 5 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => placeOrder(test.db, shopper, order)),
    );
    expect(results.every((r) => r.ok && r.order.orderId === order.orderId)).toBe(true);
    expect(results.filter((r) => r.ok && r.order.created)).toHaveLength(1);
    expect(await stockOf(hat)).toBe(5);
    // The cart lost the 3 bought once, not once per attempt.
    expect(await cartOf(shopper)).toEqual([[hat.variantId, 2]]);
    expect(
      await test.db.select().from(orderItems).where(eq(orderItems.orderId, order.orderId)),
    ).toHaveLength(1);
  });

  it('takes what it bought out of the shopper’s cart in the same write, once', async () => {
    const [dress, scarf, bag] = await Promise.all([
      product(145_000, 5, 'Gomesi Silk Dress'),
      product(35_000, 10, 'Kitenge Scarf'),
      product(80_000, 4, 'Woven Bag'),
    ]);
    const shopper = await customer();
    const other = await customer('Okello James');
    const line = (who: { id: string }, piece: { variantId: number }, quantity: number) => ({
      userId: who.id,
      variantId: piece.variantId,
      quantity,
    });
    await test.db
      .insert(cartItems)
      .values([
        line(shopper, dress, 2),
        line(shopper, scarf, 3),
        line(shopper, bag, 1),
        line(other, dress, 2),
      ]);
    // Too little stock: refused, and the cart keeps every line.
    const refused = await placeOrder(test.db, shopper, {
      orderId: randomUUID(),
      lines: [{ variantId: bag.variantId, quantity: 5 }],
      paymentMethod: 'card',
    });
    expect(refused).toMatchObject({ ok: false, problem: 'insufficient-stock' });
    const everything = [
      [dress.variantId, 2],
      [scarf.variantId, 3],
      [bag.variantId, 1],
    ].sort(byVariant);
    expect(await cartOf(shopper)).toEqual(everything);

    const order = {
      orderId: randomUUID(),
      // More dresses than the cart held (another tab's cart): the line goes all the same.
      lines: [
        { variantId: dress.variantId, quantity: 3 },
        { variantId: scarf.variantId, quantity: 1 },
      ],
      paymentMethod: 'cash_on_delivery' as const,
    };
    expect(await placeOrder(test.db, shopper, order)).toMatchObject({ ok: true });
    // The dresses bought cover their line: gone. One scarf of three: two stay. The bag, not
    // bought, stays; another shopper's cart is theirs.
    const left = [
      [scarf.variantId, 2],
      [bag.variantId, 1],
    ].sort(byVariant);
    expect(await cartOf(shopper)).toEqual(left);
    expect(await cartOf(other)).toEqual([[dress.variantId, 2]]);

    // Added after the order: a retry of it takes nothing more.
    await test.db.insert(cartItems).values(line(shopper, dress, 1));
    expect(await placeOrder(test.db, shopper, order)).toMatchObject({
      ok: true,
      order: { created: false },
    });
    expect(await cartOf(shopper)).toEqual([...left, [dress.variantId, 1]].sort(byVariant));
  });

  it('writes once, at a 1-line and at a 10-line cart (round trips counted at the driver)', async () => {
    const shopper = await customer();
    const catalogue = await Promise.all(Array.from({ length: 10 }, () => product(10_000, 50)));
    const counts: Record<number, string[]> = {};
    for (const size of [1, 10]) {
      const sent: string[] = [];
      const original = neonConfig.fetchFunction;
      neonConfig.fetchFunction = (url: string, init: RequestInit) => {
        sent.push(String(init.body));
        return fetch(url, init);
      };
      try {
        const result = await placeOrder(test.db, shopper, {
          orderId: randomUUID(),
          lines: catalogue.slice(0, size).map((p) => ({ variantId: p.variantId, quantity: 1 })),
          paymentMethod: 'bank_transfer',
        });
        expect(result.ok).toBe(true);
      } finally {
        neonConfig.fetchFunction = original;
      }
      counts[size] = sent;
    }
    for (const sent of Object.values(counts)) {
      // one batched read, one write of the order, one write of the receipt
      expect(sent).toHaveLength(3);
      expect(sent.filter((body) => /insert into orders/i.test(body))).toHaveLength(1);
    }
  });
});

describe('checkout.placeOrder over HTTP', () => {
  it('refuses prices, totals and unknown fields; the stored total is the server’s', async () => {
    const shopper = await signedInShopper(test.db, auth);
    await test.db
      .update(profiles)
      .set({ phone: '+256772000111' })
      .where(eq(profiles.id, shopper.id));
    const coat = await product(200_000, 2);
    const tampered = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId: randomUUID(),
        items: [{ variantId: coat.variantId, quantity: 1, price: 1 }],
        paymentMethod: 'card',
        total: 5,
      },
      { auth, cookie: shopper.cookie },
    );
    expect(tampered.status).toBe(400);
    expect(JSON.stringify(tampered.body)).not.toMatch(/stack/);

    const orderId = randomUUID();
    const ok = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      { orderId, items: [{ productId: coat.id, quantity: 1 }], paymentMethod: 'card' },
      { auth, cookie: shopper.cookie },
    );
    expect(ok.status).toBe(200);
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.total).toBe(205_000);
  });

  it('answers the spec texts: unknown payment method, empty cart, insufficient stock', async () => {
    const shopper = await signedInShopper(test.db, auth);
    await test.db
      .update(profiles)
      .set({ phone: '+256772000222' })
      .where(eq(profiles.id, shopper.id));
    const caller = callerFor(test.db, new Headers({ cookie: shopper.cookie }), { auth });
    const one = await product(50_000, 1, 'Cowrie Necklace');
    await expect(
      caller.checkout.placeOrder({
        orderId: randomUUID(),
        items: [{ variantId: one.variantId, quantity: 2 }],
        paymentMethod: 'card',
      }),
    ).rejects.toThrow(CHECKOUT_TEXT.insufficientStock('Cowrie Necklace', 1));
    await expect(
      caller.checkout.placeOrder({ orderId: randomUUID(), items: [], paymentMethod: 'card' }),
    ).rejects.toThrow(CHECKOUT_TEXT.emptyCart);
    await expect(
      caller.checkout.placeOrder({
        orderId: randomUUID(),
        items: [{ variantId: one.variantId, quantity: 1 }],
        paymentMethod: 'bitcoin' as 'card',
      }),
    ).rejects.toThrow();
    await expect(
      callerFor(test.db, new Headers(), { auth }).checkout.placeOrder({
        orderId: randomUUID(),
        items: [{ productId: one.id, quantity: 1 }],
        paymentMethod: 'card',
      }),
    ).rejects.toThrow('User not authenticated');
    // A piece sold in several sizes cannot be named by its product: which size?
    const dress = await addProduct(test.db, {
      price: 90_000,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      stock: { S: 3, M: 3 },
    });
    await expect(
      caller.checkout.placeOrder({
        orderId: randomUUID(),
        items: [{ productId: dress.id, quantity: 1 }],
        paymentMethod: 'card',
      }),
    ).rejects.toThrow('Please choose a size.');
    expect(await stockNow(test.db, { productId: dress.id })).toBe(6);
  });

  it('her other attempts using up the limit before the write: 429 with the wait, not a stock text', async () => {
    const shopper = await signedInShopper(test.db, auth);
    await test.db
      .update(profiles)
      .set({ phone: '+256772000333' })
      .where(eq(profiles.id, shopper.id));
    const coat = await product(200_000, 5);
    // Her other orders in flight are counted between this one's read and its write.
    const racing = betweenReadAndWrite(test.db, async () => {
      for (let n = 0; n < CHECKOUT_LIMIT.max; n++) {
        await countAttempt(test.db, `checkout:user:${shopper.id}`, CHECKOUT_LIMIT);
      }
    });
    const orderId = randomUUID();
    await expect(
      callerFor(racing, new Headers({ cookie: shopper.cookie }), { auth }).checkout.placeOrder({
        orderId,
        items: [{ variantId: coat.variantId, quantity: 1 }],
        paymentMethod: 'card',
      }),
    ).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringMatching(
        /^Too many attempts\. Please wait \d+ seconds and try again\.$/,
      ),
    });
    expect(await test.db.select().from(orders).where(eq(orders.id, orderId))).toEqual([]);
    expect(await stockOf(coat)).toBe(5);
  });
});
