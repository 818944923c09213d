// Totals that cannot overflow (issue 20): an order worth more than 2,147,483,647 UGX (the old
// integer columns' ceiling) is placed over HTTP as the browser places it, stored to the shilling
// in the order, its items and its receipt, and answered as numbers everywhere the shopper reads
// it. Never a 500.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderItems, orders, profiles, receipts, smsNotifications } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  shopper = await signedInShopper(test.db, auth);
  await test.db
    .update(profiles)
    .set({ fullName: 'Nakato Achieng', phone: '+256772000880', address: 'Plot 4, Kampala Road' })
    .where(eq(profiles.id, shopper.id));
});
afterAll(() => test?.close());

/** The shopper's browser: their session cookie, the shop's auth. */
const shoppers = () => ({ auth, cookie: shopper.cookie });

describe('an order of UGX 3,000,005,000', () => {
  it('is placed over HTTP, stored to the shilling and read back as numbers', async () => {
    const gown = await addProduct(test.db, {
      name: 'Hand-beaded Bridal Gown',
      price: 30_000_000,
      stock: 100,
    });
    const orderId = randomUUID();
    const placed = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId,
        items: [{ variantId: gown.variantId, quantity: 100 }],
        paymentMethod: 'bank_transfer',
      },
      shoppers(),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.result?.data).toEqual({
      orderId,
      total: 3_000_005_000,
      deliveryFee: 5_000,
      created: true,
    });

    // Stored: the order, its item and its receipt, and the stock taken.
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      subtotal: 3_000_000_000,
      deliveryFee: 5_000,
      total: 3_000_005_000,
    });
    const items = await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(items.map((i) => [i.price, i.quantity])).toEqual([[30_000_000, 100]]);
    const [receipt] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(receipt).toMatchObject({ subtotal: 3_000_000_000, totalAmount: 3_000_005_000 });
    expect(await stockOf(test.db, { variantId: gown.variantId })).toBe(0);

    // What the shopper reads: numbers, not strings, and the same total everywhere.
    const list = await queryOverHttp(test.db, 'orders.list', undefined, shoppers());
    expect(list.status).toBe(200);
    const listed = ((list.body.result?.data ?? []) as { id: string; total: unknown }[]).find(
      (o) => o.id === orderId,
    );
    expect(listed?.total).toBe(3_000_005_000);
    const one = await queryOverHttp(test.db, 'orders.byId', { id: orderId }, shoppers());
    expect(one.status).toBe(200);
    expect(one.body.result?.data).toMatchObject({
      subtotal: 3_000_000_000,
      total: 3_000_005_000,
      items: [{ price: 30_000_000, quantity: 100 }],
    });
    const read = await queryOverHttp(test.db, 'orders.receipt', { orderId }, shoppers());
    expect(read.status).toBe(200);
    const data = read.body.result?.data as Record<string, unknown>;
    expect(JSON.stringify(data)).toContain('3000005000');
    expect(JSON.stringify(data)).not.toContain('"3000005000"');

    // The texts name the same amount; the desk lists it as a number.
    const texts = await test.db
      .select()
      .from(smsNotifications)
      .where(eq(smsNotifications.orderId, orderId));
    const byKind = (kind: string) => texts.find((t) => t.kind === kind)?.messageContent;
    expect(byKind('order-confirmation')).toContain(
      '(UGX 3,000,005,000) is received. Please pay by bank transfer',
    );
    expect(byKind('admin-new-order')).toContain('100 items, UGX 3,000,005,000, Bank Transfer');
    const desk = await queryOverHttp(test.db, 'desk.orders', undefined, {
      ...shoppers(),
      ownerEmails: [shopper.email.toLowerCase()],
    });
    expect(desk.status).toBe(200);
    expect(
      (
        ((desk.body.result?.data as { orders?: unknown })?.orders ?? []) as {
          id: string;
          total: unknown;
        }[]
      ).find((o) => o.id === orderId),
    ).toMatchObject({ total: 3_000_005_000, items: 100 });

    // The same order id again (a retried click) answers the same total, as a number.
    const again = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId,
        items: [{ variantId: gown.variantId, quantity: 100 }],
        paymentMethod: 'bank_transfer',
      },
      shoppers(),
    );
    expect(again.body.result?.data).toEqual({
      orderId,
      total: 3_000_005_000,
      deliveryFee: 5_000,
      created: false,
    });
  });

  it('a receipt missing from the books is rebuilt with the right total', async () => {
    const coat = await addProduct(test.db, {
      name: 'Cashmere Coat',
      price: 2_000_000_000,
      stock: 2,
    });
    const orderId = randomUUID();
    const placed = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId,
        items: [{ variantId: coat.variantId, quantity: 2 }],
        paymentMethod: 'cash_on_delivery',
      },
      shoppers(),
    );
    expect(placed.body.result?.data).toMatchObject({ total: 4_000_005_000 });
    await test.db.delete(receipts).where(eq(receipts.orderId, orderId));
    const read = await queryOverHttp(test.db, 'orders.receipt', { orderId }, shoppers());
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body.result?.data)).toContain('4000005000');
    const [rebuilt] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(rebuilt?.totalAmount).toBe(4_000_005_000);
  });
});
