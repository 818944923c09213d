// The orders screens in the browser, against the production build in workerd: /orders (two
// panels, receipt, print, PDF, delete), /order-history (table, badges, details) and the guards
// (visitors, someone else's order), at phone and desktop widths.
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { orders, receipts } from '#db/schema/index.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { findDemoPieces } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { SHOPPER_PASSWORD, type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);

const SHOTS = '/tmp/duuka';
const _PASSWORD = SHOPPER_PASSWORD;

type Placed = { id: string; total: number; lines: { name: string; price: number; qty: number }[] };

/** A verified shopper with a phone and an address in their profile. */
const newShopper = (name: string) =>
  verifiedShopper(db, name, { phone: '+256772123456', address: 'Plot 12 Ntinda Road, Kampala' });

/** Places an order for the shopper the way checkout does (the server's own placeOrder). */
async function order(shopper: Shopper, quantities: number[]): Promise<Placed> {
  const stocked = await findDemoPieces(db, { minStock: 5, limit: quantities.length });
  const lines = stocked.map((p, i) => ({ variantId: p.variantId, quantity: quantities[i] ?? 1 }));
  const result = await placeOrder(db, shopper, {
    orderId: randomUUID(),
    lines,
    paymentMethod: 'mobile_money',
  });
  if (!result.ok) throw new Error(`order refused: ${JSON.stringify(result.problem)}`);
  return {
    id: result.order.orderId,
    total: result.order.total,
    lines: stocked.map((p, i) => ({
      name: p.name,
      price: p.price,
      qty: quantities[i] ?? 1,
    })),
  };
}

const ugx = (n: number) => `UGX ${n.toLocaleString('en-US')}`;

async function shoot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** axe clean in the light and the dark scheme. */
async function expectNoViolations(page: Page) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

describe('orders screens', () => {
  let amara: Shopper;
  let recent: Placed;
  let older: Placed;

  beforeAll(async () => {
    amara = await newShopper('Amara Nakato');
    older = await order(amara, [1]);
    recent = await order(amara, [2, 1]);
    // The older order: placed at 01:30 in Kampala on 5 March (22:30 UTC on the 4th), cancelled,
    // and without a stored receipt.
    const placedAt = new Date('2026-03-04T22:30:00Z');
    await db
      .update(orders)
      .set({ createdAt: placedAt, orderDate: placedAt, status: 'cancelled' })
      .where(eq(orders.id, older.id));
    await db.delete(receipts).where(eq(receipts.orderId, older.id));
  });

  it('sends visitors to /login, the history with the spec toast', async () => {
    const { page, errors } = await newPage(PHONE);
    const answer = await page.goto('/orders');
    await page.waitForURL('**/login');
    expect(answer?.status()).toBe(200);
    await page.goto('/order-history');
    await page.getByText('Please login to view this page').waitFor();
    await page.waitForURL('**/login');
    await page.goto(`/order-history/${recent.id}`);
    await page.waitForURL('**/login');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the orders, their details and the receipt at desktop width', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, amara);
    await page.goto('/orders');
    await page.getByRole('heading', { name: '2 order(s) found' }).waitFor();
    await page.getByRole('heading', { name: 'Select an Order' }).waitFor();
    await expectNoViolations(page);

    // Newest first; picking one puts it in the URL and in the right panel.
    const list = page.getByTestId('order-list').getByRole('link');
    await expect(list.allInnerTexts()).resolves.toEqual([
      expect.stringContaining(`#${recent.id.slice(0, 8)}`),
      expect.stringContaining(`#${older.id.slice(0, 8)}`),
    ]);
    await list.first().click();
    await page.waitForURL(`**/orders?order=${recent.id}`);
    const details = page.getByRole('region', { name: 'Order details' });
    await details.getByText('Order Confirmation').waitFor();
    await details.getByRole('heading', { name: `Order #${recent.id.slice(0, 8)}` }).waitFor();
    await details.getByText('Amara Nakato').waitFor();
    await details.getByText('Pending').waitFor();
    for (const line of recent.lines) {
      await details.getByText(line.name, { exact: true }).waitFor();
      await details.getByText(`Qty ${line.qty} × ${ugx(line.price)}`).waitFor();
      await details
        .getByText(ugx(line.price * line.qty), { exact: true })
        .first()
        .waitFor();
    }
    await expect(details.getByText(ugx(recent.total), { exact: true }).count()).resolves.toBe(2);

    // A reload keeps the selection (and the tabs answer once the page is live).
    await page.reload();
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await details.getByRole('heading', { name: `Order #${recent.id.slice(0, 8)}` }).waitFor();

    // The receipt tab: the stored receipt, its customer, address parts and totals; no tax line.
    await page.getByRole('tab', { name: 'Receipt' }).click();
    const receipt = page.getByTestId('receipt');
    await receipt.getByText(`RCP-${recent.id.slice(0, 8)}`).waitFor();
    await receipt.getByText('Mobile Money').waitFor();
    await expect(page.getByTestId('receipt-address').innerText()).resolves.toBe(
      'Plot 12 Ntinda Road\nKampala\nUganda',
    );
    await expect(receipt.getByText('Tax', { exact: true }).count()).resolves.toBe(0);
    await receipt.getByText('Delivery Fee').waitFor();
    await receipt.getByText(ugx(recent.total), { exact: true }).waitFor();
    expect(page.url()).toContain('view=receipt');
    await expectNoViolations(page);
    await shoot(page, 'orders-receipt-1366');

    // Download PDF: a real PDF of this order.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download PDF' }).click(),
    ]);
    const path = await download.path();
    const pdf = await readFile(path);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(5000);
    expect(download.suggestedFilename()).toBe(`duuka-RCP-${recent.id.slice(0, 8)}.pdf`);
    await writeFile(`${SHOTS}/orders-receipt.pdf`, pdf);

    // Print Receipt prints the receipt alone: no header, list or buttons on paper.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('receipt').isVisible()).resolves.toBe(true);
    for (const hidden of [
      page.getByRole('banner'),
      page.getByTestId('order-list'),
      page.getByRole('button', { name: 'Print Receipt' }),
      page.getByRole('contentinfo'),
    ]) {
      await expect(hidden.first().isVisible()).resolves.toBe(false);
    }
    await page.screenshot({ path: `${SHOTS}/orders-print-1366.png`, fullPage: true });
    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/orders-print-1366-dark.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen', colorScheme: 'light' });

    // Print in a new window: a window with the receipt, printed after 500 ms.
    await page.evaluate(() => {
      const open = window.open.bind(window);
      window.open = (...args) => {
        const win = open(...args);
        if (win) {
          const w = window as unknown as { printedAfter?: number };
          const started = performance.now();
          win.print = () => {
            w.printedAfter = performance.now() - started;
          };
        }
        return win;
      };
    });
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Print in New Window' }).click(),
    ]);
    await popup.getByText(`RCP-${recent.id.slice(0, 8)}`).waitFor();
    await expect(popup.getByRole('button').count()).resolves.toBe(0);
    await expect
      .poll(() => page.evaluate(() => (window as { printedAfter?: number }).printedAfter))
      .toBeGreaterThanOrEqual(500);
    await popup.close();

    // Back to Order Details; the other order has no receipt: its tab is disabled.
    await page.getByRole('button', { name: 'Back to Order Details' }).click();
    await details.getByText('Order Confirmation').waitFor();
    await list.nth(1).click();
    await details.getByRole('heading', { name: `Order #${older.id.slice(0, 8)}` }).waitFor();
    const unavailable = page.getByRole('tab', { name: 'Receipt (Unavailable)' });
    await expect(unavailable.isDisabled()).resolves.toBe(true);
    await details.getByText('Cancelled').waitFor();
    await shoot(page, 'orders-1366');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('lists the history with dates, totals and badges, and opens the details', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, amara);
    await page.goto('/order-history');
    await page.getByRole('heading', { name: 'ORDER HISTORY' }).waitFor();
    const rows = page.getByRole('row');
    await expect(rows.count()).resolves.toBe(3); // header + 2
    const newest = rows.nth(1);
    await newest.getByText(`#${recent.id.slice(-8)}`).waitFor();
    await newest.getByText(ugx(recent.total)).waitFor();
    await expect(newest.locator('[data-tone]').getAttribute('data-tone')).resolves.toBe('yellow');
    const oldest = rows.nth(2);
    await oldest.getByText('05.03.2026').waitFor();
    await oldest.getByText(ugx(older.total)).waitFor();
    await expect(oldest.locator('[data-tone]').getAttribute('data-tone')).resolves.toBe('red');
    await expectNoViolations(page);
    await shoot(page, 'order-history-1366');

    await newest.getByRole('link', { name: /View Details/ }).click();
    await page.waitForURL(`**/order-history/${recent.id}`);
    await page.getByText('Order Confirmation').waitFor();
    await page.getByRole('heading', { name: `Order #${recent.id.slice(0, 8)}` }).waitFor();
    await page.getByRole('tab', { name: 'Receipt' }).click();
    await page
      .getByTestId('receipt')
      .getByText(`RCP-${recent.id.slice(0, 8)}`)
      .waitFor();
    await expectNoViolations(page);

    // Server-rendered too: a direct visit answers 200 with the order.
    const direct = await page.goto(`/order-history/${recent.id}`);
    expect(direct?.status()).toBe(200);
    await page.getByRole('heading', { name: `Order #${recent.id.slice(0, 8)}` }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("keeps another shopper out: their history, someone else's order and PDF", async () => {
    const musa = await newShopper('Musa Okello');
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, musa);
    for (const path of [`/order-history/${recent.id}`, '/order-history/not-an-order']) {
      const answer = await page.goto(path);
      expect(answer?.status()).toBe(404);
      await page.getByRole('heading', { name: 'Order not found' }).waitFor();
    }
    const pdf = await page.request.get(`/api/orders/${recent.id}/receipt.pdf`);
    expect(pdf.status()).toBe(404);

    // Their own, empty lists.
    await page.goto('/orders');
    await page.getByText('No orders yet', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'No Orders Yet' }).waitFor();
    await expect(page.getByRole('link', { name: 'Shop Now' }).getAttribute('href')).resolves.toBe(
      '/shop',
    );
    await expectNoViolations(page);
    await page.goto('/order-history');
    await page.getByRole('heading', { name: 'No Orders Found' }).waitFor();
    await page.getByText("You haven't placed any orders yet.").waitFor();
    await page.getByRole('link', { name: 'Start Shopping' }).click();
    await page.waitForURL('**/products');
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.context().close();
  });

  it('works on a phone: stacked panels, receipt, print view, a failed and a real delete', async () => {
    const { page, errors } = await newPage(PHONE);
    await signIn(page, amara);
    await page.goto('/orders');
    await page.getByRole('heading', { name: '2 order(s) found' }).waitFor();
    const list = page.getByTestId('order-list');
    const details = page.getByRole('region', { name: 'Order details' });
    const [listBox, detailsBox] = await Promise.all([list.boundingBox(), details.boundingBox()]);
    expect(detailsBox?.y).toBeGreaterThan((listBox?.y ?? 0) + (listBox?.height ?? 0) - 1);
    expect(detailsBox?.width).toBeGreaterThan(300);

    await list.getByRole('link').first().click();
    await details.getByRole('heading', { name: `Order #${recent.id.slice(0, 8)}` }).waitFor();
    await expect(details.getByText('Order Confirmation').isVisible()).resolves.toBe(true);
    await page.getByRole('tab', { name: 'Receipt' }).click();
    await page
      .getByTestId('receipt')
      .getByText(`RCP-${recent.id.slice(0, 8)}`)
      .waitFor();
    const noSideScroll = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await expect(noSideScroll()).resolves.toBe(true);
    await shoot(page, 'orders-receipt-390');
    await details.screenshot({ path: `${SHOTS}/orders-receipt-390-panel.png` });
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: `${SHOTS}/orders-print-390.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    await page.goto('/order-history');
    await page.getByRole('heading', { name: 'ORDER HISTORY' }).waitFor();
    await page.getByRole('row').nth(2).getByText('05.03.2026').waitFor();
    await expect(noSideScroll()).resolves.toBe(true);
    await expectNoViolations(page);
    await shoot(page, 'order-history-390');

    // Delete: the server refuses once (toast), then it goes (toast, the list updates).
    await page.goto(`/orders?order=${older.id}`);
    await details.getByRole('heading', { name: `Order #${older.id.slice(0, 8)}` }).waitFor();
    await page.route('**/api/trpc/orders.delete**', (route) => route.abort('failed'));
    await details.getByRole('button', { name: 'Delete order' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete order' }).click();
    await page.getByText('Failed to delete order').waitFor();
    await page.unroute('**/api/trpc/orders.delete**');
    await details.getByRole('button', { name: 'Delete order' }).click();
    await expect(
      page.getByRole('heading', { name: `Delete order #${older.id.slice(0, 8)}?` }).isVisible(),
    ).resolves.toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete order' }).click();
    await page.getByText('Order deleted successfully').waitFor();
    await page.getByRole('heading', { name: '1 order(s) found' }).waitFor();
    await page.getByRole('heading', { name: 'Select an Order' }).waitFor();
    const gone = await db.select().from(orders).where(eq(orders.id, older.id));
    expect(gone).toEqual([]);
    await page.goto('/order-history');
    await expect(page.getByRole('row').count()).resolves.toBe(2);
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await page.context().close();
  });
});
