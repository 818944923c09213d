// The desk from end to end, as the issue asks (issue 22), in the browser against the production
// build: a staff member on a phone in the shop creates a dress in three sizes and two colours,
// uploads two photos from files and publishes it; a visitor finds it on /shop; a shopper buys the
// last M · Indigo; another asks to be told when it's back; the staff member reads the sale in the
// stock log, restocks the size, and the back-in-stock text shows on the message log. Once with the
// staff at 360 px and the shoppers at 1366, once the other way round.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { products, productVariants, stockMovements } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { shop } from '../support/shop.ts';
import { type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const FILES = '/tmp/duuka/desk-flow-files';
const SHOTS = '/tmp/duuka';
const photos = [`${FILES}/front.jpg`, `${FILES}/back.png`];
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
/** A save's answer on a loaded CI machine (two cores, every project at once) may take a while. */
const SAVED = 20_000;

beforeAll(async () => {
  await mkdir(FILES, { recursive: true });
  const drawn = (background: string) =>
    sharp({ create: { width: 1200, height: 1500, channels: 3, background } });
  await writeFile(photos[0] as string, await drawn('#2f3d6b').jpeg().toBuffer());
  await writeFile(photos[1] as string, await drawn('#c8892f').png().toBuffer());
});
afterAll(closeBrowser);

async function variantOf(productId: number, label: string) {
  const [row] = await db
    .select({ id: productVariants.id, stock: productVariants.stock })
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), eq(productVariants.label, label)));
  if (!row) throw new Error(`no ${label}`);
  return row;
}

/** A shopper chooses a colour and a size on the piece's page. */
async function choose(page: Page, colour: string, size: string) {
  for (const [option, value] of [
    ['Colour', colour],
    ['Size', size],
  ] as const) {
    await page
      .getByRole('radiogroup', { name: option, exact: true })
      .locator('label', { hasText: new RegExp(`^${value}`) })
      .click();
  }
}

describe('the boutique’s desk, from a new dress to a back-in-stock text', () => {
  for (const [staffView, shopperView] of [
    [SMALL_PHONE, DESKTOP],
    [DESKTOP, SMALL_PHONE],
  ] as const) {
    it(`staff at ${staffView.width} px, shoppers at ${shopperView.width} px`, async () => {
      // The width in the name keeps the two runs' suggested SKUs apart (KMD3… and KMD1…).
      const name = `Kitenge Midi Dress ${staffView.width} ${randomUUID().slice(0, 6)}`;
      const staff: Shopper = await verifiedShopper(db, 'Grace Staff');
      await setRole(db, staff.email, 'staff');
      const desk = await newPage(staffView);
      await signIn(desk.page, staff);

      // A new dress: three sizes, two colours, a price for all, one M · Indigo in stock.
      await desk.page.goto('/desk/products');
      await desk.page.getByRole('link', { name: 'New product' }).click();
      await desk.page.getByLabel('Name', { exact: true }).fill(name);
      await desk.page
        .getByLabel('Description', { exact: true })
        .fill('A midi in hand-printed kitenge, with pockets.');
      await desk.page.getByRole('checkbox', { name: 'Dresses' }).check();
      const sizes = desk.page.getByRole('group', { name: 'Sizes' });
      for (const size of ['S', 'M', 'L']) {
        await sizes.getByRole('button', { name: size, exact: true }).click();
      }
      for (const colour of ['Indigo', 'Ochre']) {
        await desk.page.getByLabel('Add a colour', { exact: true }).fill(colour);
        await desk.page.getByRole('button', { name: 'Add colour' }).click();
      }
      await desk.page.getByLabel('Price for all', { exact: true }).fill('165000');
      await desk.page.getByRole('button', { name: 'Apply' }).click();
      for (const size of ['S', 'M', 'L']) {
        for (const colour of ['Indigo', 'Ochre']) {
          await desk.page
            .getByLabel(`Stock for ${size} · ${colour}`, { exact: true })
            .fill(size === 'M' && colour === 'Indigo' ? '1' : '4');
        }
      }
      await desk.page
        .getByRole('radiogroup', { name: 'Status' })
        .getByRole('radio', { name: 'Draft' })
        .check();
      await desk.page.getByRole('button', { name: 'Save product' }).click();
      await desk.page.getByText('Product saved').first().waitFor({ timeout: SAVED });
      await desk.page.waitForURL(/\/desk\/products\/\d+$/, { timeout: SAVED });
      const productId = Number(desk.page.url().split('/').pop());

      // Two photos from files, then published.
      await desk.page.getByLabel('Add photos').setInputFiles(photos);
      const list = desk.page.getByRole('list', { name: 'Photos' });
      await poll(() => list.getByRole('listitem').count()).toBe(2);
      await desk.page.getByLabel('Colour for photo 1').selectOption('Indigo');
      await desk.page.getByRole('button', { name: 'Save photos' }).click();
      await desk.page.getByText('Photos saved').first().waitFor({ timeout: SAVED });
      await desk.page
        .getByRole('radiogroup', { name: 'Status' })
        .getByRole('radio', { name: 'Published' })
        .check();
      await desk.page.getByRole('button', { name: 'Save product' }).click();
      await poll(async () => {
        const [row] = await db
          .select({ status: products.status })
          .from(products)
          .where(eq(products.id, productId));
        return row?.status;
      }).toBe('published');
      await desk.page.screenshot({
        path: `${SHOTS}/desk-flow-editor-${staffView.width}.png`,
        fullPage: true,
      });

      // A visitor finds it on /shop, with its picture.
      const visitor = await newPage(shopperView);
      await visitor.page.goto('/shop');
      const card = visitor.page.getByTestId('product-card').filter({ hasText: name }).first();
      await card.waitFor();
      await poll(() =>
        card
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).toBe(true);

      // A shopper buys the last M · Indigo.
      const mIndigo = await variantOf(productId, 'M · Indigo');
      const buyer = await verifiedShopper(db, 'Joan Buyer', {
        phone: '+256772300401',
        address: 'Plot 3 Bukoto Street, Kampala',
      });
      const shop = await newPage(shopperView);
      await signIn(shop.page, buyer);
      const slug = (
        await db.select({ slug: products.slug }).from(products).where(eq(products.id, productId))
      )[0]?.slug;
      await shop.page.goto(`/products/${slug}`);
      await choose(shop.page, 'Indigo', 'M');
      await shop.page.getByRole('button', { name: 'Add 1 to Cart' }).click();
      await shop.page.waitForURL('**/cart');
      await shop.page.goto('/checkout');
      await fillDeliveryArea(shop.page);
      await shop.page.getByRole('radio', { name: /Cash on Delivery/ }).check();
      await shop.page.getByRole('button', { name: 'Place Order' }).click();
      await shop.page.waitForURL(/\/orders\?order=/, { timeout: SAVED });
      expect((await variantOf(productId, 'M · Indigo')).stock).toBe(0);

      // Another shopper asks to be told when M · Indigo is back.
      const waiting = await verifiedShopper(db, 'Ruth Waiting', { phone: '+256772300402' });
      const asker = await newPage(shopperView);
      await signIn(asker.page, waiting);
      await asker.page.goto(`/products/${slug}?variant=${mIndigo.id}`);
      await asker.page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await asker.page.getByRole('button', { name: 'Tell me when it’s back' }).click();
      await asker.page.getByText('We’ll text you when it’s back.').waitFor();

      // The staff member reads the sale in the stock log and restocks the size.
      await desk.page.goto(`/desk/stock?variant=${mIndigo.id}`);
      const log = desk.page.getByRole('list', { name: 'Stock log' });
      await log.getByRole('listitem').filter({ hasText: 'Sale' }).first().waitFor();
      await desk.page.screenshot({
        path: `${SHOTS}/desk-flow-stock-log-${staffView.width}.png`,
        fullPage: true,
      });
      await desk.page
        .getByRole('button', { name: `Adjust stock for ${name} · M · Indigo` })
        .click();
      const form = desk.page.getByRole('dialog', { name: `${name} · M · Indigo` });
      await form.getByLabel('Change').fill('3');
      await form.getByLabel('Reason').selectOption({ label: 'Received' });
      await form.getByRole('button', { name: 'Save change' }).click();
      await desk.page.getByText('Stock is now 3').waitFor({ timeout: SAVED });
      const moves = await db
        .select({ change: stockMovements.change, reason: stockMovements.reason })
        .from(stockMovements)
        .where(eq(stockMovements.variantId, mIndigo.id))
        .orderBy(stockMovements.id);
      expect(moves).toEqual([
        { change: 1, reason: 'saved' },
        { change: -1, reason: 'sale' },
        { change: 3, reason: 'received' },
      ]);

      // The back-in-stock text on the message log.
      await desk.page.goto('/desk/orders');
      const sms = desk.page.getByRole('list', { name: 'Message log' });
      await sms
        .getByText(new RegExp(`${name} in M/Indigo is back in stock`))
        .first()
        .waitFor({ timeout: 15_000 });
      await desk.page.screenshot({ path: `${SHOTS}/desk-flow-sms-${staffView.width}.png` });
      for (const page of [desk, visitor, shop, asker]) {
        expect(page.errors).toEqual([]);
        await page.page.context().close();
      }
    });
  }
});
