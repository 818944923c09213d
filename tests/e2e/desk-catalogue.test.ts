// The desk's catalogue in the browser, against the production build: a staff member creates a
// dress in three sizes and two colours on a phone and at a desk, publishes it, a visitor finds it
// on /shop; a price is edited; a failed save keeps what was typed. axe, light and dark, on the
// list and the editor.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DESK_CATALOGUE_TEXT } from '#core/desk-catalogue.ts';
import { createDb } from '#db/client.ts';
import { categories, products, productVariants } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

/** axe in the light and the dark theme, with a screenshot of each. */
async function axeBothThemes(page: Page, shot: string) {
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
  await page.screenshot({ path: `${SHOTS}/${shot}-light.png`, fullPage: true });
  await page.screenshot({ path: `${SHOTS}/${shot}-light-top.png` });
  await expectNoSeriousViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await settle(page);
  await page.screenshot({ path: `${SHOTS}/${shot}-dark.png`, fullPage: true });
  await expectNoSeriousViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

describe('the desk’s catalogue', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`staff create a dress, publish it, a visitor finds it; a price is edited (${viewport.width} px)`, async () => {
      const staff = await verifiedShopper(db, 'Sarah Staff');
      await setRole(db, staff.email, 'staff');
      const [category] = await db.select().from(categories).orderBy(categories.name).limit(1);
      // The width in the name keeps the two runs' suggested SKUs apart (KWD3… and KWD1…).
      const name = `Kitenge Wrap Dress ${viewport.width} ${randomUUID().slice(0, 6)}`;

      const { page, errors } = await newPage(viewport);
      await signIn(page, staff);
      await page.goto('/desk/products');
      await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'New product' }).click();
      await page.getByRole('heading', { name: 'New product', level: 1 }).waitFor();

      await page.getByLabel('Name', { exact: true }).fill(name);
      await page
        .getByLabel('Description', { exact: true })
        .fill('Hand-printed kitenge, wrapped and tied at the waist.');
      if (category) await page.getByRole('checkbox', { name: category.name }).check();
      const sizes = page.getByRole('group', { name: 'Sizes' });
      for (const size of ['S', 'M', 'L']) {
        await sizes.getByRole('button', { name: size, exact: true }).click();
        await expect
          .poll(() =>
            sizes.getByRole('button', { name: size, exact: true }).getAttribute('aria-pressed'),
          )
          .toBe('true');
      }
      for (const colour of ['Indigo', 'Ochre']) {
        await page.getByLabel('Add a colour', { exact: true }).fill(colour);
        await page.getByRole('button', { name: 'Add colour' }).click();
      }
      await page.getByLabel('Price for all', { exact: true }).fill('145000');
      await page.getByRole('button', { name: 'Apply' }).click();
      expect(await page.getByLabel('Price for L · Ochre', { exact: true }).inputValue()).toBe(
        '145000',
      );
      expect(await page.getByLabel('SKU for M · Indigo', { exact: true }).inputValue()).toMatch(
        /^KWD\w*-M-IND$/,
      );
      for (const size of ['S', 'M', 'L']) {
        for (const colour of ['Indigo', 'Ochre']) {
          await page
            .getByLabel(`Stock for ${size} · ${colour}`, { exact: true })
            .fill(size === 'M' ? '3' : '2');
        }
      }
      await page.getByLabel('Compare-at price for M · Indigo', { exact: true }).fill('180000');
      await page
        .getByRole('radiogroup', { name: 'Status' })
        .getByRole('radio', { name: 'Published' })
        .check();

      // A bad price refuses the save with the server's text, and keeps everything typed.
      await page.getByLabel('Price for S · Ochre', { exact: true }).fill('abc');
      await page.getByRole('button', { name: 'Save product' }).click();
      await page.getByRole('alert').getByText(DESK_CATALOGUE_TEXT.badPrice).waitFor();
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(name);
      expect(await page.getByLabel('Stock for M · Ochre', { exact: true }).inputValue()).toBe('3');
      expect(await db.select().from(products).where(eq(products.productName, name))).toEqual([]);

      await page.getByLabel('Price for S · Ochre', { exact: true }).fill('145000');
      await page.getByRole('button', { name: 'Save product' }).click();
      await page.getByText('Product saved').waitFor();
      await page.waitForURL(/\/desk\/products\/\d+$/);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      const [saved] = await db.select().from(products).where(eq(products.productName, name));
      expect(saved).toMatchObject({ status: 'published', price: 145_000, kind: 'clothes' });
      const variants = await db
        .select()
        .from(productVariants)
        .where(eq(productVariants.productId, saved?.id ?? 0))
        .orderBy(productVariants.position);
      expect(variants.map((v) => [v.label, v.stock])).toEqual([
        ['S · Indigo', 2],
        ['S · Ochre', 2],
        ['M · Indigo', 3],
        ['M · Ochre', 3],
        ['L · Indigo', 2],
        ['L · Ochre', 2],
      ]);
      expect(variants[2]?.compareAtPrice).toBe(180_000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.getByRole('link', { name: 'View in shop' }).waitFor();
      const m = variants[2]?.id;
      expect(
        await page.getByRole('link', { name: 'Stock log for M · Indigo' }).getAttribute('href'),
      ).toBe(`/desk/stock?variant=${m}`);
      await axeBothThemes(page, `desk-product-editor-${viewport.width}`);

      await page.getByLabel('Price for M · Ochre', { exact: true }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/desk-product-variants-${viewport.width}.png` });

      // Edit a price.
      await page.getByLabel('Price for M · Ochre', { exact: true }).fill('150000');
      await page.getByRole('button', { name: 'Save product' }).click();
      await page.getByText('Product saved').first().waitFor();
      await expect
        .poll(async () => {
          const [row] = await db
            .select()
            .from(productVariants)
            .where(
              and(
                eq(productVariants.productId, saved?.id ?? 0),
                eq(productVariants.label, 'M · Ochre'),
              ),
            );
          return row?.price;
        })
        .toBe(150_000);
      await expect
        .poll(() => page.getByLabel('Price for M · Ochre', { exact: true }).inputValue())
        .toBe('150000');

      // The list: found by name, with its status and price.
      await page.goto('/desk/products');
      await page.getByLabel('Search the catalogue', { exact: true }).fill(name);
      const row = page
        .getByRole('list', { name: 'Products' })
        .getByRole('link', { name: new RegExp(name) });
      await row.waitFor();
      await expect
        .poll(() => page.getByRole('list', { name: 'Products' }).getByRole('listitem').count())
        .toBe(1);
      expect(await row.innerText()).toMatch(
        /Published[\s\S]*6 variants[\s\S]*From UGX 145,000[\s\S]*14 in stock/,
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await axeBothThemes(page, `desk-products-${viewport.width}`);

      // A piece without sizes or colours: one row, labelled plainly.
      await page.getByRole('link', { name: 'New product' }).click();
      const bag = `Raffia Market Bag ${viewport.width} ${randomUUID().slice(0, 6)}`;
      await page.getByLabel('Name', { exact: true }).fill(bag);
      await page.getByLabel('Size system', { exact: true }).selectOption('one-size');
      expect(await page.getByRole('group', { name: 'Sizes' }).count()).toBe(0);
      expect(await page.getByLabel('SKU', { exact: true }).inputValue()).toMatch(/^RMB/);
      await page.getByLabel('Price', { exact: true }).fill('90000');
      await page.getByLabel('Stock', { exact: true }).fill('4');
      await page.getByRole('button', { name: 'Save product' }).click();
      await page.waitForURL(/\/desk\/products\/\d+$/);
      await page.getByRole('heading', { name: bag, level: 1 }).waitFor();
      const [made] = await db.select().from(products).where(eq(products.productName, bag));
      expect(made).toMatchObject({ status: 'draft', kind: 'one-size', price: 90_000, options: [] });
      expect(errors).toEqual([]);

      // A visitor finds it on /shop.
      const visitor = await newPage(viewport);
      await visitor.page.goto(`/shop?q=${encodeURIComponent(name)}`);
      const card = visitor.page.getByTestId('product-card').filter({ hasText: name });
      await card.first().waitFor();
      expect(await card.first().innerText()).toContain('UGX 145,000');
      await visitor.page.goto(`/products/${saved?.slug}`);
      await visitor.page.getByRole('heading', { name, level: 1 }).waitFor();
      expect(visitor.errors).toEqual([]);
    });
  }
});
