// A piece bought in a size and colour, in the browser against the production build in workerd:
// the shopper chooses Indigo and M on the Ankara Wrap Dress's page and adds it, then sees
// "M · Indigo" on /cart, /checkout, /orders, /order-history/{id}, the receipt and the receipt
// PDF, at 390 and 1366 px; axe clean on /cart and /orders in light and dark.
import { mkdir, writeFile } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { orderItems, products, productVariants } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { pdfPicture, pdfText } from '../support/pdf.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka';
const DRESS = 'Ankara Wrap Dress';
const LABEL = 'M · Indigo';

beforeAll(() => mkdir(SHOTS, { recursive: true }));
afterAll(closeBrowser);

/** The demo dress's "M · Indigo" variant, given enough pieces for this file's two purchases. */
async function mIndigo(): Promise<number> {
  const [row] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.productName, DRESS), eq(productVariants.label, LABEL)));
  if (!row) throw new Error(`the demo catalogue has the ${DRESS} in ${LABEL}`);
  await db.execute(
    sql`update product_variants set stock = greatest(stock, 5) where id = ${row.id}`,
  );
  return row.id;
}

/** axe clean in the light and the dark scheme, with a screenshot of each. */
async function lookAt(page: Page, name: string) {
  // The page's own reads first (a panel arriving after the check is read mid-fade), and the
  // pointer off the page: a hovered row's colours fade with the scheme's.
  await page.waitForLoadState('networkidle');
  await page.mouse.move(0, 0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await settle(page);
    // Read again until clean: a row's colours cross-fade with the scheme, and a check that lands
    // mid-fade (seen on PostgreSQL only) reads half-faded text; a real violation stays and fails.
    // One scan took up to 13 s on a busy 2-core machine (issue 32, E2E_PROFILE): a poll shorter
    // than a scan failed a clean page; this one leaves room for a few.
    await expect.poll(() => seriousViolations(page), { timeout: 20_000 }).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/variant-${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await settle(page);
}

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });

describe('a piece bought in a size and colour', () => {
  for (const [label, viewport] of [
    ['390', PHONE],
    ['1366', DESKTOP],
  ] as const) {
    it(`shows "M · Indigo" through cart, checkout, orders, receipt and PDF (${label})`, async () => {
      const variantId = await mIndigo();
      const shopper: Shopper = await verifiedShopper(db, `Amara ${label}`, {
        phone: '+256772123456',
        address: 'Plot 12 Ntinda Road, Kampala',
      });
      const { page, errors } = await newPage(viewport);
      const missing: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
      });
      await signIn(page, shopper);

      // The product page: choose the colour and the size, as a shopper does, and add.
      await page.goto('/products/ankara-wrap-dress');
      for (const [option, value] of [
        ['Colour', 'Indigo'],
        ['Size', 'M'],
      ] as const) {
        await page
          .getByRole('radiogroup', { name: option, exact: true })
          .locator('label', { hasText: new RegExp(`^${value}`) })
          .click();
      }
      await page.waitForURL(new RegExp(`[?&]variant=${variantId}(&|$)`));
      await page.getByRole('button', { name: 'Add 1 to Cart' }).click();
      await page.waitForURL('**/cart');

      // The cart: the line names its size and colour; its controls say which size.
      const line = page
        .getByRole('list', { name: 'Cart items' })
        .getByRole('listitem')
        .filter({ hasText: DRESS });
      await poll(() => line.getByTestId('variant-label').textContent()).toContain(LABEL);
      await line.getByRole('button', { name: `Remove ${DRESS} (${LABEL})` }).waitFor();
      await lookAt(page, `cart-${label}`);

      // The checkout's summary of items.
      await page.goto('/checkout');
      await fillDeliveryArea(page);
      const items = page.getByRole('region', { name: 'Your Items' });
      await poll(() => items.getByTestId('variant-label').textContent()).toContain(LABEL);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${SHOTS}/variant-checkout-${label}.png`, fullPage: true });
      await page.getByRole('radio', { name: /Cash on Delivery/ }).check();
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.waitForURL(/\/orders\?order=/);
      const orderId = new URL(page.url()).searchParams.get('order') ?? '';
      expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
      const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
      expect(item).toMatchObject({ variantId, variantLabel: LABEL, name: DRESS });

      // /orders: the order's items name the size.
      const ordered = page.getByRole('region', { name: 'Items ordered' });
      await poll(() => ordered.getByTestId('variant-label').textContent()).toContain(LABEL);
      await lookAt(page, `orders-${label}`);

      // The receipt tab, and the receipt PDF read back as a reader shows it.
      await page.getByRole('tab', { name: 'Receipt' }).click();
      const receipt = page.getByTestId('receipt');
      await poll(() => receipt.getByTestId('variant-label').textContent()).toBe(LABEL);
      await expect(
        receipt.getByRole('cell', { name: new RegExp(DRESS) }).textContent(),
      ).resolves.toContain(LABEL);
      await settle(page);
      await page.screenshot({ path: `${SHOTS}/variant-receipt-${label}.png`, fullPage: true });
      const pdf = await page.request.get(`/api/orders/${orderId}/receipt.pdf`);
      expect(pdf.status()).toBe(200);
      const file = `${SHOTS}/variant-receipt-${label}.pdf`;
      const body = await pdf.body();
      await writeFile(file, body);
      const text = await pdfText(body, { mode: 'layout' });
      const lines = text.split('\n');
      const at = lines.findIndex((l) => l.includes(DRESS));
      expect(at).toBeGreaterThan(-1);
      expect(lines[at + 1]?.trim()).toBe(LABEL);
      await pdfPicture(body, file.replace(/\.pdf$/, '-1.png'), { dpi: 70 });

      // The table reading's details page shows it too.
      await page.goto(`/order-history/${orderId}`);
      const details = page.getByRole('region', { name: 'Items ordered' });
      await poll(() => details.getByTestId('variant-label').textContent()).toContain(LABEL);
      // The demo's raster pictures are drawn by another change (issue 21's gallery): until they
      // land, a missing picture shows the placeholder; anything else missing is a failure.
      const pictures = (url: string) => url.includes('/images/products/');
      expect(missing.filter((url) => !pictures(url))).toEqual([]);
      if (missing.every(pictures)) {
        expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
      } else expect(errors).toEqual([]);
    });
  }

  it('the desk names the size of each piece, and the texts say M/Indigo', async () => {
    const variantId = await mIndigo();
    const shopper = await verifiedShopper(db, 'Brenda Desk', { phone: '+256772123457' });
    const operator = await deskOwner(db);
    const { page: buyer } = await newPage(DESKTOP);
    await signIn(buyer, shopper);
    const origin = shop().url;
    const placed = await buyer.request.post('/api/trpc/checkout.placeOrder', {
      data: {
        orderId: crypto.randomUUID(),
        items: [{ variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
      },
      headers: { origin },
    });
    expect(placed.status()).toBe(200);
    const { orderId } = (await placed.json()).result.data as { orderId: string };
    for (const viewport of [DESKTOP, PHONE]) {
      const { page } = await newPage(viewport);
      await signIn(page, operator);
      // The order's own page (issue 34): its pieces and the texts sent for it.
      await page.goto(`/desk/orders/${orderId}`);
      const row = page.getByTestId('desk-order');
      const pieces = row.getByTestId('pieces');
      await poll(() => pieces.textContent()).toContain(`${DRESS}${LABEL}`);
      await poll(() => pieces.getByTestId('variant-label').textContent()).toBe(LABEL);
      // The customer's confirmation names the piece, its size as GSM-7 can carry it.
      const log = row.getByTestId('texts');
      await log.getByText(`${DRESS} (M/Indigo), UGX 150,000`).first().waitFor({ timeout: 15_000 });
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/variant-operator-${viewport.width}.png` });
    }
  });
});
