// The providers' callbacks alone, in the production Worker (workerd): Airtel's v2 request signed
// with WebCrypto there and its hashed callback verified there; an MTN payment that expired and was
// approved late is counted when MTN's callback comes. Nobody polls: no page is open, no cron runs.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { orders, payments, receipts } from '#db/schema/index.ts';
import { demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { sessionCookie, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const shopUrl = shop().url;
const fakeBase = new URL(shop().fakeEnv.AIRTEL_BASE_URL ?? '').origin;

async function placedOrder(name: string, phone: string) {
  const shopper = await verifiedShopper(db, name, { phone, address: 'Plot 9 Bukoto Street' });
  const cookie = await sessionCookie(shopper);
  const piece = await demoPiece(db, { minStock: 6, skip: 5 });
  const orderId = crypto.randomUUID();
  const post = (path: string, body: unknown) =>
    fetch(`${shopUrl}/api/trpc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: shopUrl },
      body: JSON.stringify(body),
    });
  const placed = await post('checkout.placeOrder', {
    orderId,
    items: [{ variantId: piece.variantId, quantity: 1 }],
    paymentMethod: 'mobile_money',
  });
  expect(placed.status).toBe(200);
  const started = await post('payments.start', { orderId });
  expect(started.status).toBe(200);
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  return { orderId, payment };
}

const orderStatus = async (orderId: string) =>
  (await db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status;

describe('callbacks alone, in the Worker', () => {
  it('Airtel: a signed v2 request, then Airtel’s hashed callback pays the order', async () => {
    const { orderId, payment } = await placedOrder('Ruth Akello', '+256752000001');
    const requests = (await (await fetch(`${fakeBase}/__requests`)).json()) as {
      reference: string;
      version?: string;
    }[];
    // The fake only takes v2 with an x-signature/x-key its private key reads as the body.
    expect(requests.find((r) => r.reference === payment?.id)?.version).toBe('v2');
    await expect
      .poll(() => orderStatus(orderId), { timeout: 15_000, interval: 250 })
      .toBe('processing');
    const [paid] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(paid?.status).toBe('successful');
    expect(paid?.transactionId).toMatch(/^MP\d{10}$/);
  });

  it('MTN: an expired payment approved late is counted when MTN calls back', async () => {
    const { orderId, payment } = await placedOrder('Samuel Ouma', '+256772000004');
    // What the sweep does after 5 minutes without an answer.
    await db
      .update(payments)
      .set({
        status: 'expired',
        reason: 'expired',
        createdAt: sql`now() - interval '7 minutes'`,
        checkedAt: sql`now() - interval '1 minute'`,
      })
      .where(eq(payments.id, payment?.id ?? ''));
    // The payer approves now; MTN calls the request's callback URL once.
    await fetch(`${fakeBase}/__decide/${payment?.id}`, {
      method: 'POST',
      body: JSON.stringify({ status: 'SUCCESSFUL' }),
    });
    await expect
      .poll(() => orderStatus(orderId), { timeout: 15_000, interval: 250 })
      .toBe('processing');
    const [paid] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(paid?.status).toBe('successful');
    const [receipt] = await db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(receipt?.transactionId).toBe(paid?.transactionId);
  });
});
