// Orders and receipts on a real database, through the router as the browser calls it: each customer
// reaches only their own; another's order and an unknown id are the same NOT_FOUND.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems, orders, payments, profiles, receipts } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf as stockNow } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
type Shopper = Awaited<ReturnType<typeof signedInShopper>>;
let alice: Shopper;
let bob: Shopper;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  alice = await signedInShopper(test.db, auth, { name: 'Alice Namubiru' });
  bob = await signedInShopper(test.db, auth, { name: 'Bob Mugisha' });
  for (const shopper of [alice, bob]) {
    await test.db
      .update(profiles)
      .set({ phone: '+256772123456', address: 'Plot 7 Acacia Avenue, Kampala' })
      .where(eq(profiles.id, shopper.id));
  }
});
afterAll(() => test.close());

const as = (shopper: Shopper | null) =>
  callerFor(test.db, new Headers(shopper ? { cookie: shopper.cookie } : {}), { auth });

const product = (price: number, stock: number) =>
  addProduct(test.db, { name: 'Linen Kaftan', price, stock });

async function orderFor(shopper: Shopper, lines: { variantId: number; quantity: number }[]) {
  const orderId = randomUUID();
  const result = await placeOrder(test.db, shopper, {
    orderId,
    lines,
    paymentMethod: 'mobile_money',
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return orderId;
}

const stockOf = (piece: { variantId: number }) => stockNow(test.db, { variantId: piece.variantId });

describe('orders', () => {
  it('lists only the customer’s own orders, newest first, with items and totals', async () => {
    const kaftan = await product(90_000, 10);
    const first = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 1 }]);
    const second = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 2 }]);
    await orderFor(bob, [{ variantId: kaftan.variantId, quantity: 1 }]);
    const list = await as(alice).orders.list();
    expect(list.map((o) => o.id).slice(0, 2)).toEqual([second, first]);
    expect(list.every((o) => o.customerName === 'Alice Namubiru')).toBe(true);
    expect(list[0]).toMatchObject({ total: 185_000, status: 'pending', hasReceipt: true });
    expect(list[0]?.items).toEqual([
      expect.objectContaining({ name: kaftan.name, price: 90_000, quantity: 2 }),
    ]);
    expect((await as(bob).orders.list()).some((o) => o.id === first)).toBe(false);
  });

  it('each order carries its latest payment (its successful one first), the list and one order alike', async () => {
    const kaftan = await product(70_000, 10);
    const unpaid = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 1 }]);
    const declined = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 1 }]);
    const paid = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 1 }]);
    const payment = (orderId: string, status: string, minutesAgo: number, extra = {}) => ({
      id: randomUUID(),
      orderId,
      customerId: alice.id,
      network: 'mtn',
      phone: '+256772123456',
      amount: 75_000,
      status,
      callbackSecret: 'x'.repeat(32),
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
      ...extra,
    });
    await test.db.insert(payments).values([
      payment(declined, 'expired', 9),
      payment(declined, 'failed', 2, { reason: 'declined' }),
      // Paid, then a later attempt refused: the order still reads paid.
      payment(paid, 'successful', 8, { transactionId: '4021937645' }),
      payment(paid, 'failed', 1, { reason: 'declined' }),
    ]);
    const list = await as(alice).orders.list();
    const byId = (id: string) => list.find((o) => o.id === id)?.payment;
    expect(byId(unpaid)).toBeNull();
    expect(byId(declined)).toEqual({
      state: 'failed',
      reason: 'declined',
      network: 'mtn',
      transactionId: null,
    });
    expect(byId(paid)).toMatchObject({ state: 'successful', transactionId: '4021937645' });
    expect((await as(alice).orders.byId({ id: paid })).payment).toEqual(byId(paid));
    expect((await as(alice).orders.byId({ id: declined })).payment).toEqual(byId(declined));
  });

  it('the bank details for a transfer: the configured text, or null (the shop sends them)', async () => {
    const withDetails = callerFor(test.db, new Headers({ cookie: alice.cookie }), {
      auth,
      bankDetails: 'Stanbic Bank Uganda · Account number: 9030012345678',
    });
    await expect(withDetails.checkout.bankTransfer()).resolves.toEqual({
      details: 'Stanbic Bank Uganda · Account number: 9030012345678',
    });
    await expect(as(alice).checkout.bankTransfer()).resolves.toEqual({ details: null });
    await expect(as(null).checkout.bankTransfer()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it("another customer's order, receipt and delete are NOT_FOUND, like an unknown id", async () => {
    const kaftan = await product(50_000, 5);
    const theirs = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 1 }]);
    for (const id of [theirs, randomUUID()]) {
      await expect(as(bob).orders.byId({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(as(bob).orders.receipt({ orderId: id })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(as(bob).orders.delete({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(await as(alice).orders.byId({ id: theirs })).toMatchObject({ id: theirs });
    const overHttp = await queryOverHttp(
      test.db,
      'orders.byId',
      { id: 'not-a-uuid\u0000' },
      { auth },
    );
    expect(overHttp.status).toBe(401);
    await expect(as(null).orders.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('deleting a pending order returns its pieces to stock, once, with items and receipt', async () => {
    const kaftan = await product(70_000, 6);
    const orderId = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 4 }]);
    expect(await stockOf(kaftan)).toBe(2);
    const both = await Promise.allSettled([
      as(alice).orders.delete({ id: orderId }),
      as(alice).orders.delete({ id: orderId }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await stockOf(kaftan)).toBe(6);
    expect(await test.db.select().from(orders).where(eq(orders.id, orderId))).toEqual([]);
    expect(await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId))).toEqual(
      [],
    );
    expect(await test.db.select().from(receipts).where(eq(receipts.orderId, orderId))).toEqual([]);
  });

  it('deleting an order that is no longer pending keeps the stock as it is', async () => {
    const kaftan = await product(70_000, 6);
    const orderId = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 2 }]);
    await test.db.update(orders).set({ status: 'shipped' }).where(eq(orders.id, orderId));
    await as(alice).orders.delete({ id: orderId });
    expect(await stockOf(kaftan)).toBe(4);
  });

  it('a missing receipt is rebuilt from the order, its items and the profile', async () => {
    const kaftan = await product(120_000, 3);
    const orderId = await orderFor(alice, [{ variantId: kaftan.variantId, quantity: 1 }]);
    await test.db.delete(receipts).where(eq(receipts.orderId, orderId));
    const receipt = await as(alice).orders.receipt({ orderId });
    expect(receipt).toMatchObject({
      receiptNumber: `RCP-${orderId.slice(0, 8)}`,
      subtotal: 120_000,
      deliveryFee: 5000,
      discount: 0,
      total: 125_000,
      paymentMethod: 'Mobile Money',
      transactionId: null,
      customerInfo: {
        name: 'Alice Namubiru',
        phone: '+256772123456',
        address: { street: 'Plot 7 Acacia Avenue', city: 'Kampala', country: 'Uganda' },
      },
    });
    const [stored] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(stored?.receiptNumber).toBe(`RCP-${orderId.slice(0, 8)}`);
  });
});
