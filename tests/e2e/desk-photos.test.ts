// The desk's photos panel in the browser (issue 22, decision 0045), against the production build
// in workerd with its local R2 and Images: a staff member uploads two photos from files, reorders
// them, gives the first a colour and alt text, saves, and a shopper sees them on the product page.
// At 360 and 1366 px, axe clean in light and dark.
import { mkdir, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_TEXT } from '#core/desk-photos.ts';
import { createDb } from '#db/client.ts';
import { productImages, products } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';
const FILES = '/tmp/duuka/desk-photos-files';

let staff: Shopper;
const files = {
  front: `${FILES}/front.jpg`,
  back: `${FILES}/back.png`,
  fake: `${FILES}/fake.jpg`,
  small: `${FILES}/small.jpg`,
};

beforeAll(async () => {
  await mkdir(FILES, { recursive: true });
  // Two phone-like pictures (portrait, larger than any copy), a text file named .jpg and a
  // picture too small for the shop (300 × 600).
  const drawn = (background: string, stripe: string) =>
    sharp({ create: { width: 1500, height: 1875, channels: 3, background } }).composite([
      {
        input: {
          create: { width: 1500, height: 300, channels: 3, background: stripe },
        },
        top: 780,
        left: 0,
      },
    ]);
  await writeFile(files.front, await drawn('#b5543a', '#f3e6d8').jpeg().toBuffer());
  await writeFile(files.back, await drawn('#2f3d6b', '#d9b26a').png().toBuffer());
  await writeFile(files.fake, 'This is a note, not a picture.');
  const small = sharp({ create: { width: 300, height: 600, channels: 3, background: '#b5543a' } });
  await writeFile(files.small, await small.jpeg().toBuffer());
  staff = await verifiedShopper(db, 'Sam Staff');
  await setRole(db, staff.email, 'staff');
});

async function expectClean(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
    await expectNoSeriousViolations(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

/** True once the image has loaded a picture (not broken, not the placeholder). */
const loaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((images) =>
      (images as HTMLImageElement[]).map((img) => img.complete && img.naturalWidth > 0),
    );

describe('the photos panel', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`uploads, orders, describes and saves photos a shopper then sees (${viewport.width} px)`, async () => {
      const dress = await addProduct(db, {
        name: `Bark Cloth Wrap ${viewport.width}`,
        price: 240_000,
        options: [
          { name: 'Size', values: ['S', 'M', 'L'] },
          { name: 'Colour', values: ['Terracotta', 'Indigo'] },
        ],
      });
      const { page, errors } = await newPage(viewport);
      await signIn(page, staff);
      await page.goto(`/desk/products/${dress.id}`);
      await page.getByRole('heading', { name: 'Photos', level: 2 }).waitFor();
      await page.getByText('No photos yet.').waitFor();

      // A text file named .jpg is refused by its bytes, with the clear text.
      await page.getByLabel('Add photos').setInputFiles(files.fake);
      await page.getByRole('alert').filter({ hasText: PHOTO_TEXT.notImage }).waitFor();
      await page.getByRole('button', { name: 'Dismiss' }).click();
      // A picture too small for the shop's copies is refused with its size.
      await page.getByLabel('Add photos').setInputFiles(files.small);
      await page
        .getByRole('alert')
        .filter({ hasText: PHOTO_TEXT.tooSmall(300, 600) })
        .waitFor();
      await page.getByRole('button', { name: 'Dismiss' }).click();

      // Each file shows its own progress while it is sent (the first upload is held here).
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/desk/products/*/photos', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByLabel('Add photos').setInputFiles([files.front, files.back]);
      await page.getByRole('progressbar', { name: 'Uploading front.jpg' }).waitFor();
      await page.getByRole('progressbar', { name: 'Uploading back.png' }).waitFor();
      // One at a time: the second waits for the first.
      const uploads = page.getByRole('list', { name: 'Uploads' });
      await uploads
        .getByRole('listitem')
        .filter({ hasText: 'back.png' })
        .getByText('Waiting')
        .waitFor();
      await page.screenshot({ path: `${SHOTS}/desk-photos-uploading-${viewport.width}.png` });
      release();
      const list = page.getByRole('list', { name: 'Photos' });
      await expect.poll(() => list.getByRole('listitem').count(), { timeout: 20_000 }).toBe(2);
      await expect
        .poll(() => loaded(page, 'ul[aria-label="Photos"] img'), { timeout: 20_000 })
        .toEqual([true, true]);
      expect(await page.getByLabel('Alt text for photo 1').inputValue()).toBe(dress.name);

      // The back (photo 2) first; the front goes down, gets a colour and its own description.
      await page.getByRole('button', { name: 'Move photo 2 up' }).click();
      await page.getByLabel('Alt text for photo 2').fill(`${dress.name}, the front in terracotta`);
      await page.getByLabel('Colour for photo 2').selectOption('Terracotta');
      await page.getByLabel('Alt text for photo 1').fill(`${dress.name}, the back`);
      expect(
        await page.getByLabel('Colour for photo 1').locator('option').allTextContents(),
      ).toEqual(['All colours', 'Terracotta', 'Indigo']);
      await page.getByRole('button', { name: 'Save photos' }).click();
      await page.getByText('Photos saved').waitFor();

      const rows = await db
        .select()
        .from(productImages)
        .where(eq(productImages.productId, dress.id))
        .orderBy(productImages.position);
      expect(rows.map((r) => [r.alt, r.colour, r.url.split('.').at(-1)])).toEqual([
        [`${dress.name}, the back`, null, 'png'],
        [`${dress.name}, the front in terracotta`, 'Terracotta', 'jpg'],
      ]);

      // A third photo, taken by mistake: removed, and gone once saved.
      await page.getByLabel('Add photos').setInputFiles([files.front]);
      await expect.poll(() => list.getByRole('listitem').count(), { timeout: 20_000 }).toBe(3);
      await page.getByRole('button', { name: 'Remove photo 3' }).click();
      await page.getByRole('button', { name: 'Save photos' }).click();
      await expect
        .poll(
          async () =>
            (await db.select().from(productImages).where(eq(productImages.productId, dress.id)))
              .length,
        )
        .toBe(2);
      const [product] = await db.select().from(products).where(eq(products.id, dress.id));
      expect(product?.productImage).toBe(rows[0]?.url);

      // Thumb-sized controls, nothing wider than the screen.
      for (const name of ['Move photo 1 down', 'Remove photo 1', 'Save photos']) {
        const box = await page.getByRole('button', { name }).boundingBox();
        expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await expectClean(page, `desk-photos-${viewport.width}`);
      // The only errors the browser logs are the two refused files' answers (400), shown as their
      // texts above.
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);

      // A shopper: the product page shows the photos, as resized copies that load.
      const shopper = await newPage(viewport);
      await shopper.page.goto(`/products/${dress.slug}`);
      const main = shopper.page.getByRole('img', { name: `${dress.name}, the back` }).first();
      await main.waitFor();
      await expect
        .poll(
          () =>
            main.evaluate((img: HTMLImageElement) => ({
              ok: img.complete && img.naturalWidth > 0,
              src: img.currentSrc.replace(/^https?:\/\/[^/]+/, ''),
            })),
          { timeout: 20_000 },
        )
        .toEqual({
          ok: true,
          src: expect.stringMatching(/^\/photos\/products\/\d+\/.+\.png\?w=\d+$/),
        });
      const copy = await shopper.page.request.get(`${rows[0]?.url}?w=400`, {
        headers: { accept: 'image/avif,image/webp,*/*' },
      });
      expect(copy.status()).toBe(200);
      expect(copy.headers()['content-type']).toMatch(/^image\/(avif|webp)$/);
      expect(copy.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await sharp(await copy.body()).metadata()).width).toBe(400);
      await shopper.page.screenshot({
        path: `${SHOTS}/desk-photos-shopper-${viewport.width}.png`,
        fullPage: false,
      });
      expect(shopper.errors).toEqual([]);
    });
  }
});
