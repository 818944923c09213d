// A phone order at the desk in the browser (issue 34), against the production build: a staff
// member takes an order for a walk-in customer (phone and name typed, a piece found and added,
// a counter sale paid in cash), lands on the order's page (/desk/orders/{id}), and the customer
// is on /desk/customers. At 360 px and 1366 px, nothing wider than the window, light and dark.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { orders, payments } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

let staff: Shopper | undefined;
async function staffMember(): Promise<Shopper> {
  if (staff) return staff;
  staff = await verifiedShopper(db, 'Sarah Staff');
  await setRole(db, staff.email, 'staff');
  return staff;
}

/** Nothing wider than the window, in light and in dark (screenshots of both when asked). */
async function fitsAndShoot(page: Page, width: number, shot: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${shot} ${scheme}`).toBeLessThanOrEqual(width);
    if (process.env.E2E_SHOTS) {
      await page.screenshot({ path: `${SHOTS}/${shot}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('a phone order for a walk-in customer', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`counter cash sale, then the order's page and the customer (${viewport.width} px)`, async () => {
      const tag = randomUUID().slice(0, 6);
      const piece = await addProduct(db, {
        name: `Barkcloth Tote ${tag}`,
        price: 65_000,
        stock: 3,
      });
      // A number nobody has: 0703 + 6 digits from the tag.
      const digits = String(Number.parseInt(tag, 16) % 1_000_000).padStart(6, '0');
      const phone = `0703 ${digits}`;
      const name = `Walk-in ${tag}`;
      const { page, errors } = await newPage(viewport);
      await signIn(page, await staffMember());
      await page.goto('/desk/orders/new');
      const form = page.getByTestId('new-order');
      await form.waitFor();
      await form.getByTestId('order-phone').fill(phone);
      await form.getByTestId('order-account').waitFor();
      await expect
        .poll(() => form.getByTestId('order-account').textContent())
        .toMatch(/No account/);
      await form.getByTestId('order-name').fill(name);
      await form.getByTestId('order-search').fill(piece.name);
      const found = form.getByTestId('order-found').filter({ hasText: piece.name });
      await found.getByRole('button', { name: 'Add' }).click();
      await form.getByTestId('order-line').filter({ hasText: piece.name }).waitFor();
      await form.getByText('Counter', { exact: true }).click();
      await expect.poll(() => form.getByLabel('Cash (paid at the counter)').isChecked()).toBe(true);
      await expect
        .poll(() => form.getByTestId('order-total-amount').textContent())
        .toBe('UGX 65,000');
      await fitsAndShoot(page, viewport.width, `desk-new-order-${viewport.width}`);

      await form.getByRole('button', { name: 'Save order' }).click();
      await page.waitForURL(/\/desk\/orders\/[0-9a-f-]{36}$/);
      const orderId = new URL(page.url()).pathname.split('/').pop() as string;
      const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(row).toMatchObject({
        customerId: null,
        customerName: name,
        source: 'counter',
        paymentMethod: 'cash',
        status: 'processing',
        total: 65_000,
      });
      const [paid] = await db.select().from(payments).where(eq(payments.orderId, orderId));
      expect(paid).toMatchObject({ network: 'cash', status: 'successful', amount: 65_000 });

      await page.goto('/desk/customers');
      // The list drawn (the page hydrated and read) before the search is typed.
      await page.getByTestId('customers').waitFor();
      await page.getByTestId('customers-search').fill(name);
      const card = page.getByTestId('customer').filter({ hasText: name });
      await card.waitFor();
      expect(await card.getByTestId('customer-phone').textContent()).toBe(`+256703${digits}`);
      expect(await card.getByRole('link', { name: 'Call' }).getAttribute('href')).toBe(
        `tel:+256703${digits}`,
      );
      expect(await card.getByRole('link', { name: 'WhatsApp' }).getAttribute('href')).toBe(
        `https://wa.me/256703${digits}`,
      );
      await fitsAndShoot(page, viewport.width, `desk-customers-${viewport.width}`);
      expect(errors).toEqual([]);
    });
  }
});
