// One order on the desk in the browser (issue 34, decision 0075), against the production build,
// at 360 px and 1366 px: the owner opens a shopper's order by its address, finds the customer's
// call and WhatsApp links and the packing slip's link, adds a private note, moves the order on
// with the big button (the rider asked for out for delivery) and sees the new status and the
// text it sent; the order's record shows each step. Nothing wider than the screen; light and
// dark looked at (E2E_SHOTS=1 writes /tmp/duuka/desk-order-*.png).
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { formatUGX } from '#core/money.ts';
import { createDb } from '#db/client.ts';
import { deskRecords, orders, smsNotifications } from '#db/schema/index.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

const widest = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

async function shots(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('one order on the desk', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`at ${viewport.width} px: opened, called, noted and moved on with the big button`, async () => {
      const owner = await deskOwner(db);
      const digits = String(Date.now()).slice(-6);
      const phone = `+256772${digits}`;
      const customer = await verifiedShopper(db, 'Aisha Nakimuli', { phone });
      const piece = await demoPiece(db, { minStock: 4 });
      const placed = await placeOrder(
        db,
        { id: customer.id, email: customer.email, name: customer.name },
        {
          orderId: randomUUID(),
          lines: [{ variantId: piece.variantId, quantity: 2 }],
          paymentMethod: 'cash_on_delivery',
          delivery: {
            optionId: 'kampala',
            area: 'Kololo',
            landmark: 'Behind the Total petrol station on Acacia Avenue',
          },
        },
      );
      if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
      const { orderId, total } = placed.order;
      const head = orderId.slice(0, 8);

      const { page, errors } = await newPage(viewport);
      await signIn(page, owner);
      await page.goto(`/desk/orders/${orderId}`);
      const view = page.getByTestId('desk-order');
      await view.getByRole('heading', { name: `#${head}` }).waitFor();
      await view.getByTestId('order-status').getByText('Pending').waitFor();
      expect(await view.getByTestId('order-total').textContent()).toBe(formatUGX(total));
      await view.getByTestId('pieces').getByText(piece.name).first().waitFor();
      await view.getByTestId('delivery').getByText('Kololo').waitFor();
      expect(await view.getByTestId('back-to-orders').getAttribute('href')).toBe('/desk/orders');

      // The customer's links, and the packing slip's (opened in a new tab).
      await view.getByTestId('customer').getByText('Aisha Nakimuli').waitFor();
      const customerCard = view.getByTestId('quick-actions');
      expect(await customerCard.getByTestId('call-customer').getAttribute('href')).toBe(
        `tel:${phone}`,
      );
      expect(await customerCard.getByTestId('whatsapp-customer').getAttribute('href')).toBe(
        `https://wa.me/${phone.slice(1)}`,
      );
      const slip = customerCard.getByTestId('packing-slip');
      expect(await slip.getAttribute('href')).toBe(`/api/desk/orders/${orderId}/packing-slip.pdf`);
      expect(await slip.getAttribute('target')).toBe('_blank');
      expect(await widest(page)).toBeLessThanOrEqual(viewport.width);
      await shots(page, `desk-order-${viewport.width}`);
      expect(await seriousViolations(page)).toEqual([]);

      // A private note.
      const notes = view.getByTestId('notes');
      await notes.getByLabel('Add a note').fill('Wants it gift-wrapped.\nCall before 5pm.');
      await notes.getByRole('button', { name: 'Save' }).click();
      await notes
        .getByTestId('note')
        .getByText(/Wants it gift-wrapped\./)
        .waitFor();
      await view
        .getByTestId('order-record')
        .locator('[data-action="order.noted"]')
        .getByText('Note added')
        .waitFor();

      // The big button: Start packing (no text), then Out for delivery (asks the rider).
      const next = view.getByTestId('next-move');
      const button = next.getByTestId('next-move-button');
      await expect.poll(() => button.textContent()).toBe('Start packing');
      await next.getByText('This move sends the customer no text.').waitFor();
      await button.click();
      await view.getByTestId('order-status').getByText('Processing').waitFor();
      await expect.poll(() => button.textContent()).toBe('Out for delivery');
      await button.click();
      await next.getByLabel("Rider's name").fill('Okello');
      await next.getByLabel("Rider's phone").fill('0772 123 456');
      // Before: the text it will send, with the rider as typed.
      await next
        .getByTestId('text-preview')
        .getByText(/is out for delivery with Okello \(0772 123 456\)/)
        .waitFor();
      await next.getByRole('button', { name: 'Confirm: out for delivery' }).click();
      await view.getByTestId('order-status').getByText('Out for delivery').waitFor();
      // After: the status, the text it sent, and the text in the order's texts.
      await next.getByTestId('moved').getByText('The order is now out for delivery.').waitFor();
      await next
        .getByTestId('text-sent')
        .getByText(new RegExp(`Order RCP-${head} is out for delivery with Okello`))
        .waitFor();
      await view
        .getByTestId('texts')
        .locator('[data-kind="out-for-delivery"]')
        .getByText(/out for delivery with Okello/)
        .first()
        .waitFor();
      await expect.poll(() => button.textContent()).toBe('Delivered');
      // The full status control follows the order.
      expect(
        await view.getByTestId('status-control').getByLabel(`Status of order ${head}`).inputValue(),
      ).toBe('out_for_delivery');
      const record = view.getByTestId('order-record');
      await record
        .getByText('From Processing to Out for delivery · rider Okello (0772 123 456)')
        .waitFor();
      await record.getByText('From Pending to Processing').waitFor();
      expect(await widest(page)).toBeLessThanOrEqual(viewport.width);
      await shots(page, `desk-order-moved-${viewport.width}`);

      const [stored] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(stored).toMatchObject({ status: 'out_for_delivery', riderName: 'Okello' });
      const texts = await db
        .select()
        .from(smsNotifications)
        .where(
          and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'out-for-delivery')),
        );
      expect(texts.map((t) => t.recipientPhone)).toEqual([phone]);
      const recorded = await db.select().from(deskRecords).where(eq(deskRecords.orderId, orderId));
      expect(recorded.map((r) => r.action).sort()).toEqual([
        'order.noted',
        'order.status',
        'order.status',
      ]);
      // The desk's Record page says the same in words.
      await page.goto('/desk/record');
      const line = page
        .getByRole('list', { name: 'Desk record' })
        .getByRole('listitem')
        .filter({ hasText: `Order #${head}` });
      await line.getByText('From Processing to Out for delivery · rider Okello').first().waitFor();
      await line.getByText('Note added').first().waitFor();
      expect(await widest(page)).toBeLessThanOrEqual(viewport.width);
      expect(errors).toEqual([]);
    });
  }

  it('an unknown order says so, with the way back', async () => {
    const owner = await deskOwner(db);
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, owner);
    await page.goto(`/desk/orders/${randomUUID()}`);
    await page.getByText('No order has this number: it may have been deleted.').first().waitFor();
    await page.getByTestId('back-to-orders').waitFor();
    expect(await widest(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    // The 404 answer is logged by the browser as a failed request; nothing else.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });
});
