// The desk in the browser, against the production build, the fake EgoSMS gateway and
// the fake mobile-money providers: a customer's order arrives with its texts; the desk ships
// it and sees the shipped text go out; a customer is refused. At phone and desktop widths.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { orders, smsNotifications } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

/** What the fake gateway accepted, to this number. */
async function textsTo(number: string): Promise<{ message: string }[]> {
  const base = new URL(shop().fakeEnv.EGOSMS_URL ?? '').origin;
  const sent = (await (await fetch(`${base}/__sent`)).json()) as {
    number: string;
    message: string;
  }[];
  // EgoSMS gets 256XXXXXXXXX, without the '+' the shop keeps.
  return sent.filter((text) => text.number === number.replace(/^\+/, ''));
}

let operator: Shopper;
describe('the desk’s orders', () => {
  it('an order’s texts go out; the desk ships it and the shipped text follows', async () => {
    operator = await deskOwner(db);
    const customer = await verifiedShopper(db, 'Daniel Ssempa', { phone: '+256772555101' });
    const piece = await demoPiece(db, { minStock: 6 });
    const shop = await newPage(DESKTOP);
    await signIn(shop.page, customer);
    const orderId = randomUUID();
    const placed = await shop.page.request.post('/api/trpc/checkout.placeOrder', {
      data: {
        orderId,
        items: [{ variantId: piece.variantId, quantity: 1 }],
        // Shipped is how an order goes upcountry (issue 23: a Kampala one goes out with a rider).
        paymentMethod: 'bank_transfer',
        deliveryOptionId: 'upcountry',
        deliveryArea: 'Gulu',
      },
    });
    expect(placed.status()).toBe(200);
    // The confirmation reaches the gateway off the request path, within moments.
    await expect
      .poll(async () => (await textsTo('+256772555101')).length, { timeout: 15_000 })
      .toBe(1);
    expect((await textsTo('+256772555101'))[0]?.message).toContain(`RCP-${orderId.slice(0, 8)}`);

    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, operator);
    // The order's own page (issue 34): its status control, and the texts sent for it.
    await page.goto(`/desk/orders/${orderId}`);
    const view = page.getByTestId('desk-order');
    await view.getByTestId('customer').getByText('Daniel Ssempa').waitFor();
    const control = view.getByTestId('status-control');
    await control.getByLabel(`Status of order ${orderId.slice(0, 8)}`).selectOption('shipped');
    await control.getByLabel('Tracking number').fill('UG-4471');
    await control.getByRole('button', { name: 'Update' }).click();
    await page.getByText(`Order #${orderId.slice(0, 8)} is shipped`).waitFor();
    await view.getByTestId('order-status').getByText('Shipped').waitFor();
    const log = view.getByTestId('texts');
    await log.getByText('(tracking UG-4471)').first().waitFor({ timeout: 15_000 });
    await expect
      .poll(async () =>
        (await textsTo('+256772555101')).map((t) => t.message.includes('has shipped')),
      )
      .toEqual([false, true]);
    const shipped = await db
      .select()
      .from(smsNotifications)
      .where(eq(smsNotifications.orderId, orderId));
    expect(shipped.find((r) => r.kind === 'shipped')?.status).toBe('sent');
    expect((await db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status).toBe(
      'shipped',
    );
    await page.screenshot({ path: `${SHOTS}/operator-1366.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('works on a phone, and a failed text can be resent', async () => {
    const [failed] = await db
      .insert(smsNotifications)
      .values({
        recipientPhone: '+256772555102',
        recipientType: 'customer',
        kind: 'promotional',
        messageContent: 'duuka: New kitenge in store.',
        status: 'failed',
        errorMessage: 'Money Not Enough To Send This Batch of Msgs',
        attempts: 1,
      })
      .returning();
    const { page, errors } = await newPage(PHONE);
    await signIn(page, operator);
    // A bookmark of the desk's first address lands on the same page under /desk.
    await page.goto('/operator/orders');
    expect(new URL(page.url()).pathname).toBe('/desk/orders');
    const item = page.locator(`li[data-status="failed"]`).filter({ hasText: '+256772555102' });
    await item.getByText('Money Not Enough To Send This Batch of Msgs').waitFor();
    await page.screenshot({ path: `${SHOTS}/operator-390.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await item.getByRole('button', { name: 'Resend' }).click();
    await expect
      .poll(
        async () =>
          (
            await db
              .select()
              .from(smsNotifications)
              .where(eq(smsNotifications.id, failed?.id ?? ''))
          )[0]?.status,
        { timeout: 15_000 },
      )
      .toBe('sent');
    expect(await textsTo('+256772555102')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('refuses a customer: Staff only.', async () => {
    const customer = await verifiedShopper(db, 'Curious Customer', { phone: '+256772555103' });
    const { page } = await newPage(DESKTOP);
    await signIn(page, customer);
    await page.goto('/desk/orders');
    await page.getByText('Staff only.').waitFor();
    const direct = await page.request.get('/api/trpc/desk.orders');
    expect(direct.status()).toBe(403);
  });
});
