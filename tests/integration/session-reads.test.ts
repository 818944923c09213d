// The session read once per request, and a query started as the shopper its cookie was last read
// as, beside the read that checks it (decision 0054): one trip in a row, and never an answer for
// a session that has ended or a shopper who has changed. A gated change (the cart, placeOrder)
// starts beside the read too, its writes refused by the database unless the session is live and
// the attempt within its limit (decision 0057).
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_LIMIT } from '#core/limits.ts';
import { cartItems, orders, profiles, receipts, session } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { setRole } from '#server/services/staff-service.ts';
import { authPost, signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { inARow as trippedInARow } from '../support/trips.ts';
import { mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

/** Trips in a row, the database 30 ms away. */
const inARow = (run: () => Promise<unknown>) => trippedInARow(test.databaseUrl, run);

describe('a protected query', () => {
  it('waits for the session on a cookie first seen, then starts beside it', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const cart = () => queryOverHttp(test.db, 'cart.get', undefined, { cookie: shopper.cookie });
    expect(await inARow(async () => expect((await cart()).status).toBe(200))).toBe(2);
    expect(await inARow(async () => expect((await cart()).status).toBe(200))).toBe(1);
  });

  it('answers as the shopper the session names now: a role taken away is FORBIDDEN at once', async () => {
    const owner = await signedInShopper(test.db, auth);
    await setRole(test.db, owner.email, 'owner');
    const dashboard = () =>
      queryOverHttp(test.db, 'desk.dashboard', undefined, { cookie: owner.cookie });
    expect((await dashboard()).status).toBe(200);
    expect((await dashboard()).status).toBe(200); // now started as the remembered owner
    await setRole(test.db, owner.email, 'customer');
    expect((await dashboard()).status).toBe(403);
  });

  it('is refused once the session has ended, though its shopper was remembered', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const orders = () =>
      queryOverHttp(test.db, 'orders.list', undefined, { cookie: shopper.cookie });
    expect((await orders()).status).toBe(200);
    expect((await orders()).status).toBe(200);
    const out = await authPost(auth, '/sign-out', {}, { cookie: shopper.cookie });
    expect(out.status).toBe(200);
    const after = await orders();
    expect(after.status).toBe(401);
    expect(JSON.stringify(after.body)).not.toContain('"result"');
  });
});

/** A signed-in shopper whose profile has what checkout asks for: a name and a phone. */
async function buyer(fullName: string, phone: string) {
  const shopper = await signedInShopper(test.db, auth);
  await test.db.update(profiles).set({ fullName, phone }).where(eq(profiles.id, shopper.id));
  return shopper;
}

describe('a gated change (decision 0057)', () => {
  it('starts beside the session read once its cookie is known: cart.add is one trip in a row', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const piece = await addProduct(test.db, { name: 'Busuuti Silk', price: 150_000, stock: 9 });
    const add = () => mutateOverHttp(test.db, 'cart.add', { variantId: piece.variantId }, shopper);
    // First seen: the session is read, then the change (its attempt counted in its batch).
    expect(await inARow(async () => expect((await add()).status).toBe(200))).toBe(2);
    expect(await inARow(async () => expect((await add()).status).toBe(200))).toBe(1);
    const [line] = await test.db.select().from(cartItems).where(eq(cartItems.userId, shopper.id));
    expect(line?.quantity).toBe(2);
  });

  it('placeOrder: the read, the count and the order’s reads side by side, then the write', async () => {
    const shopper = await buyer('Gated Buyer', '+256772000990');
    const piece = await addProduct(test.db, { name: 'Kikoi Wrap', price: 45_000, stock: 9 });
    // What runs after the answer (the receipt saved, the texts queued) is held apart, not timed.
    const afterwards: Promise<unknown>[] = [];
    const order = () =>
      mutateOverHttp(
        test.db,
        'checkout.placeOrder',
        {
          orderId: randomUUID(),
          items: [{ variantId: piece.variantId, quantity: 1 }],
          paymentMethod: 'cash_on_delivery',
        },
        { ...shopper, background: (work) => afterwards.push(work) },
      );
    expect((await queryOverHttp(test.db, 'cart.get', undefined, shopper)).status).toBe(200);
    const depth = await inARow(async () => expect((await order()).status).toBe(200));
    expect(depth).toBe(2);
    await Promise.all(afterwards);
    const placed = await test.db.select().from(orders).where(eq(orders.customerId, shopper.id));
    expect(placed).toHaveLength(1);
    const [receipt] = await test.db
      .select()
      .from(receipts)
      .where(eq(receipts.orderId, placed[0]?.id ?? ''));
    expect(receipt?.totalAmount).toBe(placed[0]?.total);
  });

  it('writes nothing for a session that has ended, though its shopper was remembered', async () => {
    const shopper = await buyer('Signed Out Buyer', '+256772000991');
    const piece = await addProduct(test.db, { name: 'Kanzu Linen', price: 80_000, stock: 5 });
    expect((await queryOverHttp(test.db, 'cart.get', undefined, shopper)).status).toBe(200);
    await authPost(auth, '/sign-out', {}, { cookie: shopper.cookie });
    const add = await mutateOverHttp(test.db, 'cart.add', { variantId: piece.variantId }, shopper);
    expect(add.status).toBe(401);
    const placed = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId: randomUUID(),
        items: [{ variantId: piece.variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
      },
      shopper,
    );
    expect(placed.status).toBe(401);
    expect(await test.db.select().from(cartItems).where(eq(cartItems.userId, shopper.id))).toEqual(
      [],
    );
    expect(await test.db.select().from(orders).where(eq(orders.customerId, shopper.id))).toEqual(
      [],
    );
    expect(await stockOf(test.db, { variantId: piece.variantId })).toBe(5);
  });

  it('writes nothing for a session past its expiry, though its row is still there', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const piece = await addProduct(test.db, { name: 'Gomesi Sash', price: 30_000, stock: 5 });
    expect((await queryOverHttp(test.db, 'cart.get', undefined, shopper)).status).toBe(200);
    await test.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(session.userId, shopper.id));
    const add = await mutateOverHttp(test.db, 'cart.add', { variantId: piece.variantId }, shopper);
    expect(add.status).toBe(401);
    expect(await test.db.select().from(cartItems).where(eq(cartItems.userId, shopper.id))).toEqual(
      [],
    );
  });

  it('past its limit, refuses the change in the same trip and writes nothing', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const piece = await addProduct(test.db, { name: 'Barkcloth Tote', price: 60_000, stock: 5 });
    expect((await queryOverHttp(test.db, 'cart.get', undefined, shopper)).status).toBe(200);
    // The window's attempts all used up (CART_LIMIT), as a flood would leave it.
    await test.db.execute(sql`
      insert into rate_limit (id, key, count, last_request)
      values (gen_random_uuid()::text, ${`cart:user:${shopper.id}`}, ${CART_LIMIT.max},
              (extract(epoch from now()) * 1000)::bigint + 60000)`);
    const depth = await inARow(async () => {
      const add = await mutateOverHttp(
        test.db,
        'cart.add',
        { variantId: piece.variantId },
        shopper,
      );
      expect(add.status).toBe(429);
      expect(add.body.error?.message).toMatch(/Too many attempts/);
    });
    expect(depth).toBe(1);
    expect(await test.db.select().from(cartItems).where(eq(cartItems.userId, shopper.id))).toEqual(
      [],
    );
  });
});
