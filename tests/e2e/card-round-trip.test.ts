// The card payment's round trip through the Worker (production build in workerd) and the fake
// Pesapal, below the screens: payments.start answers Pesapal's page, the fake's page approves or
// declines in Chromium, its IPN and the browser's return reach the shop's routes, and the browser
// lands on /orders?order={id}. The checkout and /orders screens have their own tests.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { orders, payments } from '#db/schema/index.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);

describe('a card payment through Pesapal', () => {
  for (const [label, viewport, decision, skip] of [
    ['desktop', DESKTOP, 'Approve payment', 2],
    ['phone', PHONE, 'Decline payment', 3],
  ] as const) {
    it(`${decision}: the fake's page, then back on /orders with the order settled (${label})`, async () => {
      const shopper = await verifiedShopper(db, 'Sarah Namubiru', {
        phone: '+256772000001',
        address: 'Plot 3 Acacia Avenue',
      });
      const piece = await demoPiece(db, { minStock: 6, skip: skip });
      const { page } = await newPage(viewport);
      await signIn(page, shopper);
      const orderId = crypto.randomUUID();
      const trpc = (path: string, input: unknown) =>
        page.request.post(`/api/trpc/${path}`, {
          data: input,
          headers: { origin: shop().url, 'content-type': 'application/json' },
        });
      const placed = await trpc('checkout.placeOrder', {
        orderId,
        items: [{ variantId: piece.variantId, quantity: 1 }],
        paymentMethod: 'card',
      });
      expect(placed.status()).toBe(200);
      const started = await trpc('payments.start', { orderId });
      expect(started.status()).toBe(200);
      const payment = (await started.json()).result.data as { redirectUrl: string; id: string };
      expect(payment).toMatchObject({ network: 'pesapal', state: 'pending', phone: '' });

      // As the checkout does: the shop's page sends the browser to Pesapal's.
      await page.goto('/orders');
      await page.evaluate((url) => window.location.assign(url), payment.redirectUrl);
      await page.getByText('Pesapal (test)').waitFor();
      await page.getByRole('button', { name: decision }).click();
      await page.waitForURL(`**/orders?order=${orderId}`);

      const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
      const [row] = await db.select().from(payments).where(eq(payments.id, payment.id));
      if (decision === 'Approve payment') {
        expect(order?.status).toBe('processing');
        expect(row).toMatchObject({ status: 'successful', network: 'pesapal' });
        expect(row?.transactionId).toMatch(/^PSP\d{10}$/);
      } else {
        expect(order?.status).toBe('pending');
        expect(row).toMatchObject({ status: 'failed', reason: 'declined' });
      }
    });
  }
});
