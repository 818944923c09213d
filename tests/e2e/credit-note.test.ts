// A refund's credit note in the browser (issue 36), against the production build: the shopper
// opens /order-history/{orderId}/credit-note/{refundId}, reads CRN-…, the amount, where the money
// went and its reference, and downloads the PDF; another shopper gets the 404. At 360 and 1366
// px, light and dark.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { formatUGX } from '#core/money.ts';
import { createDb } from '#db/client.ts';
import { payments, refunds } from '#db/schema/index.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { pdfText } from '../support/pdf.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/shots-refunds';

describe('the credit note', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`at ${viewport.width} px: the shopper reads her credit note and downloads it`, async () => {
      const customer = await verifiedShopper(db, 'Sarah Namuli', { phone: '+256772555301' });
      const piece = await demoPiece(db, { minStock: 4 });
      const placed = await placeOrder(
        db,
        { id: customer.id, email: customer.email, name: customer.name },
        {
          orderId: randomUUID(),
          lines: [{ variantId: piece.variantId, quantity: 1 }],
          paymentMethod: 'mobile_money',
        },
      );
      if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
      const { orderId, total } = placed.order;
      const paymentId = randomUUID();
      await db.insert(payments).values({
        id: paymentId,
        orderId,
        customerId: customer.id,
        network: 'mtn',
        phone: '+256772555301',
        amount: total,
        status: 'refunded',
        transactionId: `MTN-${viewport.width}-1`,
        callbackSecret: randomUUID(),
      });
      const [refund] = await db
        .insert(refunds)
        .values({
          orderId,
          paymentId,
          customerId: customer.id,
          method: 'mtn',
          amount: total,
          status: 'succeeded',
          reference: `8812${viewport.width}`,
          settledAt: new Date(),
        })
        .returning({ id: refunds.id });
      const refundId = refund?.id ?? '';
      const number = `CRN-${refundId.slice(0, 8)}`;

      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, errors } = await newPage(viewport, { colorScheme });
        await signIn(page, customer);
        await page.goto(`/order-history/${orderId}/credit-note/${refundId}`);
        const sheet = page.getByTestId('credit-note');
        await sheet.getByText(number).waitFor();
        await sheet.getByText('MTN Mobile Money').waitFor();
        await sheet.getByText(`8812${viewport.width}`).waitFor();
        expect(await page.getByTestId('credit-note-amount').textContent()).toBe(formatUGX(total));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({
          path: `${SHOTS}/credit-note-${viewport.width}-${colorScheme}.png`,
          fullPage: true,
        });
        const pdf = await page.request.get(`/api/credit-notes/${refundId}`);
        expect(pdf.status()).toBe(200);
        expect(pdf.headers()['content-type']).toBe('application/pdf');
        const text = await pdfText(await pdf.body(), { mode: 'layout' });
        expect(text).toContain(number);
        expect(text).toContain(formatUGX(total));
        expect(errors).toEqual([]);
        await page.context().close();
      }

      // Another shopper: the same 404 as an unknown id, on screen and for the PDF.
      const other = await verifiedShopper(db, 'Amina Other', { phone: '+256772555302' });
      const { page } = await newPage(viewport);
      await signIn(page, other);
      await page.goto(`/order-history/${orderId}/credit-note/${refundId}`);
      await page.getByText('This credit note is not in your order history.').waitFor();
      expect((await page.request.get(`/api/credit-notes/${refundId}`)).status()).toBe(404);
      await page.context().close();
    });
  }
});
