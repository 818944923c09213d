// The session read once per request, and a query started as the shopper its cookie was last read
// as, beside the read that checks it (decision 0054): one trip in a row, and never an answer for
// a session that has ended or a shopper who has changed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems } from '#db/schema/index.ts';
import { tripsOf } from '#local/distance.ts';
import type { Auth } from '#server/auth.ts';
import { setRole } from '#server/services/staff.ts';
import { authPost, signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

/** The database 30 ms away: what goes out side by side overlaps, what waits does not. */
async function inARow(run: () => Promise<unknown>) {
  const trips = tripsOf(test.databaseUrl);
  await trips.setLatency(30);
  try {
    const mark = await trips.mark();
    await run();
    return (await trips.since(mark)).depth;
  } finally {
    await trips.setLatency(0);
  }
}

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

describe('a protected change', () => {
  it('always waits for the session: nothing is written for a session that has ended', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const piece = await addProduct(test.db, { name: 'Kanzu Linen', price: 80_000, stock: 5 });
    const cart = () => queryOverHttp(test.db, 'cart.get', undefined, { cookie: shopper.cookie });
    expect((await cart()).status).toBe(200); // its shopper is remembered
    await authPost(auth, '/sign-out', {}, { cookie: shopper.cookie });
    const add = await mutateOverHttp(
      test.db,
      'cart.add',
      { variantId: piece.variantId },
      { cookie: shopper.cookie },
    );
    expect(add.status).toBe(401);
    const rows = await test.db.select().from(cartItems).where(eq(cartItems.userId, shopper.id));
    expect(rows).toEqual([]);
  });
});
