// The desk's money in the browser (decision 0037), against the production build: the desk
// sees a bank-transfer order awaiting, marks it paid with the bank's reference and sees it paid;
// a refund due is shown and Mark refunded records it. At phone and desktop widths.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { formatUGX } from '#core/money.ts';
import { createDb } from '#db/client.ts';
import { orders, payments, systemSettings } from '#db/schema/index.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { pdfText } from '../support/pdf.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/shots-desk';

async function anOrder(
  customer: Shopper,
  paymentMethod: 'bank_transfer' | 'mobile_money' | 'card',
) {
  const piece = await demoPiece(db, { minStock: 6 });
  const placed = await placeOrder(
    db,
    { id: customer.id, email: customer.email, name: customer.name },
    { orderId: randomUUID(), lines: [{ variantId: piece.variantId, quantity: 1 }], paymentMethod },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return placed.order;
}

/** The receipt PDF as the customer downloads it, read back as a reader shows it. */
async function receiptText(page: Page, orderId: string): Promise<string> {
  const answer = await page.request.get(`/api/orders/${orderId}/receipt.pdf`);
  expect(answer.status()).toBe(200);
  return pdfText(await answer.body(), { mode: 'layout' });
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('the desk’s money', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`at ${viewport.width} px: a bank transfer is marked paid, and a refund due is marked refunded`, async () => {
      const operator = await deskOwner(db);
      const customer = await verifiedShopper(db, 'Sarah Namuli', { phone: '+256772555201' });
      const transfer = await anOrder(customer, 'bank_transfer');
      const owed = await anOrder(customer, 'mobile_money');
      const [due] = await db
        .insert(payments)
        .values({
          id: randomUUID(),
          orderId: owed.orderId,
          customerId: customer.id,
          network: 'mtn',
          phone: '+256772555201',
          amount: owed.total,
          status: 'refund_due',
          transactionId: `MTN-${viewport.width}-4410`,
          callbackSecret: randomUUID(),
        })
        .returning();
      // A card payment that brought less than the total: shown, never paying the order.
      const card = await anOrder(customer, 'card');
      await db.insert(payments).values({
        id: randomUUID(),
        orderId: card.orderId,
        customerId: customer.id,
        network: 'pesapal',
        amount: card.total,
        status: 'short',
        receivedAmount: 20_000,
        receivedCurrency: 'UGX',
        transactionId: `PP-${viewport.width}-77`,
        callbackSecret: randomUUID(),
      });
      const head = transfer.orderId.slice(0, 8);
      const owedHead = owed.orderId.slice(0, 8);

      // The customer's receipt, on screen and as a PDF: UNPAID, with the reference to quote.
      const shop = await newPage(viewport);
      await signIn(shop.page, customer);
      await shop.page.goto(`/orders?order=${transfer.orderId}`);
      await shop.page.getByRole('tab', { name: 'Receipt' }).click();
      const sheet = shop.page.getByTestId('receipt-payment');
      await sheet.getByText('UNPAID', { exact: true }).waitFor();
      await sheet.getByText(`Quote this reference with your transfer: RCP-${head}`).waitFor();
      expect(await receiptText(shop.page, transfer.orderId)).toContain('UNPAID');
      await sheet.scrollIntoViewIfNeeded();
      await shop.page.screenshot({ path: `${SHOTS}/receipt-unpaid-${viewport.width}.png` });

      const { page, errors } = await newPage(viewport);
      await signIn(page, operator);
      await page.goto('/desk/orders');
      const money = page.locator('section[aria-labelledby="desk-money"]');
      await money.getByRole('heading', { name: 'Money', exact: true }).waitFor();
      const toConfirm = money.getByRole('list', { name: 'Bank transfers and cash to confirm' });
      const awaiting = toConfirm.getByRole('listitem', { name: `Awaiting #${head}` });
      await awaiting.getByText(/Bank Transfer · Sarah Namuli · Pending · waiting/).waitFor();
      const refunds = money.getByRole('list', { name: 'Refunds due' });
      const refundRow = refunds.getByRole('listitem', { name: `Payment for #${owedHead}` });
      await refundRow.getByText(`ref MTN-${viewport.width}-4410`, { exact: false }).waitFor();
      await money
        .getByRole('list', { name: 'Short or reversed' })
        .getByRole('listitem', { name: `Payment for #${card.orderId.slice(0, 8)}` })
        .getByText(`Short: received UGX 20,000 of ${formatUGX(card.total)}`)
        .waitFor();
      expect(await fitsWidth(page)).toBeLessThanOrEqual(viewport.width);
      await money.screenshot({ path: `${SHOTS}/money-${viewport.width}.png` });
      await page.screenshot({ path: `${SHOTS}/operator-${viewport.width}.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);

      // Mark paid, with the bank's reference, on the order's own page (issue 34).
      await page.goto(`/desk/orders/${transfer.orderId}`);
      const view = page.getByTestId('desk-order');
      const next = view.getByTestId('next-move');
      await next.getByRole('button', { name: 'Mark paid' }).click();
      await next.getByLabel('Bank reference').fill('FT26329XK81');
      await next.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(`Order #${head} is marked paid`).waitFor();
      await view.getByTestId('order-status').getByText('Processing').waitFor();
      await view
        .getByTestId('payments')
        .getByText(/ref FT26329XK81/)
        .waitFor();
      expect(await next.getByRole('button', { name: 'Mark paid' }).count()).toBe(0);
      await view
        .getByTestId('order-record')
        .getByText('Ref FT26329XK81', { exact: false })
        .waitFor();
      await page.goto('/desk/orders');
      await money.getByRole('heading', { name: 'Money', exact: true }).waitFor();
      await expect.poll(() => awaiting.count()).toBe(0);
      const [order] = await db.select().from(orders).where(eq(orders.id, transfer.orderId));
      expect(order?.status).toBe('processing');
      const recorded = await db
        .select()
        .from(payments)
        .where(eq(payments.orderId, transfer.orderId));
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({
        network: 'bank_transfer',
        status: 'successful',
        transactionId: 'FT26329XK81',
        confirmedBy: operator.id,
      });

      // The customer sees it paid: the receipt says PAID, how, and the bank's reference.
      await shop.page.reload();
      await shop.page.getByRole('tab', { name: 'Receipt' }).click();
      await sheet.getByText('PAID', { exact: true }).waitFor();
      await sheet.getByText('Bank Transfer · Reference FT26329XK81').waitFor();
      expect(await sheet.getByText(/Quote this reference/).count()).toBe(0);
      const pdf = await receiptText(shop.page, transfer.orderId);
      expect(pdf).toMatch(/\bPAID\b/);
      expect(pdf).not.toContain('UNPAID');
      expect(pdf).toContain('FT26329XK81');
      await sheet.scrollIntoViewIfNeeded();
      await shop.page.screenshot({ path: `${SHOTS}/receipt-paid-${viewport.width}.png` });
      expect(shop.errors).toEqual([]);

      // Mark refunded, with the refund's reference, on the order's own page (issue 34).
      await page.goto(`/desk/orders/${owed.orderId}`);
      const owedView = page.getByTestId('desk-order').getByTestId('payments');
      const duePayment = owedView.locator('li[data-status="refund_due"]');
      await duePayment.getByRole('button', { name: 'Mark refunded' }).click();
      await duePayment.getByLabel('Refund reference').fill('MTN-REV-5521');
      await duePayment.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Refund recorded').first().waitFor();
      await owedView.getByText('Refunded · ref MTN-REV-5521', { exact: false }).waitFor();
      await page.goto('/desk/orders');
      await money.getByRole('heading', { name: 'Money', exact: true }).waitFor();
      await expect.poll(() => refundRow.count()).toBe(0);
      await money
        .getByRole('list', { name: 'Refunded this week' })
        .getByRole('listitem', { name: `Payment for #${owedHead}` })
        .getByText('Refunded · ref MTN-REV-5521')
        .waitFor();
      const [refunded] = await db
        .select()
        .from(payments)
        .where(eq(payments.id, due?.id ?? ''));
      expect(refunded).toMatchObject({ status: 'refunded', refundReference: 'MTN-REV-5521' });
      expect(await fitsWidth(page)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: `${SHOTS}/operator-after-${viewport.width}.png` });
      if (viewport === PHONE) {
        // The smallest phones the shop supports: still nothing wider than the screen.
        await page.setViewportSize({ width: 360, height: 780 });
        expect(await fitsWidth(page)).toBeLessThanOrEqual(360);
        await page.screenshot({ path: `${SHOTS}/operator-360.png`, fullPage: true });
      }
      expect(errors).toEqual([]);
    });
  }

  it('when Airtel refuses the signature, the Money view says first which padding to set', async () => {
    const operator = await deskOwner(db);
    // As the payments service keeps it after Airtel's DP00800001026 (airtel-signature.ts).
    await db
      .insert(systemSettings)
      .values({
        settingKey: 'airtel_signature_refused',
        settingValue: JSON.stringify({ padding: 'pkcs1', keyFrom: 'airtel' }),
      })
      .onConflictDoNothing();
    try {
      const { page, errors } = await newPage(PHONE);
      await signIn(page, operator);
      await page.goto('/desk/orders');
      const money = page.locator('section[aria-labelledby="desk-money"]');
      await money
        .getByRole('alert')
        .getByText(
          "Airtel refused the shop's signature: set AIRTEL_RSA_PADDING to oaep (it is pkcs1 now), then try an Airtel payment again. Until then every Airtel Money payment fails.",
        )
        .waitFor();
      expect(await fitsWidth(page)).toBeLessThanOrEqual(PHONE.width);
      expect(errors).toEqual([]);
    } finally {
      await db
        .delete(systemSettings)
        .where(eq(systemSettings.settingKey, 'airtel_signature_refused'));
    }
  });
});
