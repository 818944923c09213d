// Issue 35: an order's discount and the offers that gave it, and the gift card or credit spent, as
// the shopper's orders, the receipt (rebuilt when none was stored) and the desk's order page read
// them. The order is placed as today, then given what the checkout's write gives an order with
// offers (order_offers rows, discount, credit, total), so these reads are tested on their own.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderOffers, orders, profiles, promotions, receipts } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
type Shopper = Awaited<ReturnType<typeof signedInShopper>>;
let nakato: Shopper;
let owner: DeskMember;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  nakato = await signedInShopper(test.db, auth, { name: 'Nakato Namubiru' });
  owner = await deskMember(test.db, auth, 'owner');
  await test.db
    .update(profiles)
    .set({ phone: '+256772123456', address: 'Plot 7 Acacia Avenue, Kampala' })
    .where(eq(profiles.id, nakato.id));
});
afterAll(() => test.close());

const as = (shopper: Shopper) =>
  callerFor(test.db, new Headers({ cookie: shopper.cookie }), { auth });

async function placed(price: number) {
  const dress = await addProduct(test.db, { name: 'Kitenge Wrap Dress', price, stock: 5 });
  const orderId = randomUUID();
  const result = await placeOrder(test.db, nakato, {
    orderId,
    lines: [{ variantId: dress.variantId, quantity: 1 }],
    paymentMethod: 'mobile_money',
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return orderId;
}

/** An offer as an order's copy names it; switched off, so no later order of this file is given it. */
async function offer(name: string, code: string | null) {
  const [row] = await test.db
    .insert(promotions)
    .values({ name, code, kind: 'fixed', value: 1000, active: false })
    .returning({ id: promotions.id });
  if (!row) throw new Error('no promotion');
  return row.id;
}

describe("an order's offers, as its readers show them", () => {
  it('the orders, the rebuilt receipt and the desk carry the discount, its offers and the credit', async () => {
    const orderId = await placed(100_000);
    const weekend = await offer('Weekend sale', null);
    const nakato10 = await offer('Nakato friends', `NAKATO${weekend}`);
    await test.db.insert(orderOffers).values([
      { orderId, promotionId: weekend, code: null, name: 'Weekend sale', amount: 2_000 },
      {
        orderId,
        promotionId: nakato10,
        code: `NAKATO${weekend}`,
        name: 'Nakato friends',
        amount: 10_000,
      },
    ]);
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    if (!order) throw new Error('no order');
    const total = order.subtotal + order.deliveryFee - 12_000 - 30_000;
    await test.db
      .update(orders)
      .set({ discount: 12_000, credit: 30_000, total })
      .where(eq(orders.id, orderId));
    // The receipt is rebuilt from the order (the fallback every reader has).
    await test.db.delete(receipts).where(eq(receipts.orderId, orderId));

    const offers = [
      { code: `NAKATO${weekend}`, name: 'Nakato friends', amount: 10_000 },
      { code: null, name: 'Weekend sale', amount: 2_000 },
    ];
    const listed = (await as(nakato).orders.list()).find((o) => o.id === orderId);
    expect(listed).toMatchObject({ discount: 12_000, credit: 30_000, total, offers });

    const receipt = await as(nakato).orders.receipt({ orderId });
    expect(receipt).toMatchObject({ discount: 12_000, credit: 30_000, total, offers });

    const desk = await deskCaller(test.db, owner).order({ id: orderId });
    expect(desk).toMatchObject({ discount: 12_000, credit: 30_000, total, offers });
  });

  it('an order without offers keeps its 0 discount and shows none', async () => {
    const orderId = await placed(50_000);
    const listed = (await as(nakato).orders.list()).find((o) => o.id === orderId);
    expect(listed).toMatchObject({ discount: 0, credit: 0, offers: [] });
    const receipt = await as(nakato).orders.receipt({ orderId });
    expect(receipt?.discount).toBe(0);
    expect(receipt).not.toHaveProperty('offers');
    expect(receipt).not.toHaveProperty('credit');
    expect(await deskCaller(test.db, owner).order({ id: orderId })).toMatchObject({
      discount: 0,
      offers: [],
    });
  });
});
