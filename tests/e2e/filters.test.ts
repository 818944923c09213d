// Finding the right piece (issue 21): the filter bar on /products and /search, at phone width in
// a sheet and at desktop width inline, shareable filtered URLs rendered on the server, and axe in
// light and dark, against the production build and the demo catalogue.
import { sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { shop } from '../support/shop.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);

/** The demo pieces having a variant in `size` (in stock when asked), cheapest first. */
async function piecesIn(size: string, inStock = false) {
  const result = await db.execute<{ name: string; price: number }>(sql`
    select p.product_name as name, p.price from products p
    where exists (select 1 from product_variants v where v.product_id = p.id
                  and v.options->>'Size' = ${size} and (${!inStock} or v.stock > 0))
    order by p.price, p.id`);
  return result.rows.map((r) => ({ name: r.name, price: Number(r.price) }));
}

/** A size or colour chip: the label around its (visually hidden) radio. */
const chip = (group: Locator, name: RegExp) =>
  group.getByRole('radio', { name }).locator('xpath=..');

/** Waits for the listing's count to read `n pieces`. */
const counted = (page: Page, n: number) =>
  page.locator('header p', { hasText: new RegExp(`^${n} pieces?$`) }).waitFor();

describe('filters on a phone', () => {
  it('open in a sheet: a size and a sort, applied, change the URL, the count and the results', async () => {
    const { page, errors } = await newPage(PHONE);
    await page.goto('/products');
    const marker = await page.evaluate(() => {
      Object.assign(window, { sameDocument: true });
      return true;
    });
    expect(marker).toBe(true);
    // At phone width the inline bar is hidden; the Filters button opens the sheet.
    await expect(page.getByRole('group', { name: 'Size' }).first().isVisible()).resolves.toBe(
      false,
    );
    const button = page.getByRole('button', { name: /^Filters/ });
    await button.click();
    const sheet = page.getByRole('dialog', { name: 'Filters' });
    await sheet.waitFor();
    // Escape closes it; focus stays inside while open (a modal dialog).
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(
      true,
    );
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await button.click();
    await sheet.waitFor();

    const inM = await piecesIn('M');
    expect(inM.length).toBeGreaterThan(1);
    await chip(sheet.getByRole('group', { name: 'Size' }), /^M[\s,]/).click();
    await sheet.getByRole('combobox', { name: 'Sort by' }).selectOption('price-asc');
    if (process.env.FILTER_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.FILTER_SCREENSHOTS}/phone-sheet.png` });
    }
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await sheet.getByRole('button', { name: 'Apply' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await page.waitForURL(/size=M/);
    const url = new URL(page.url());
    expect(url.searchParams.get('size')).toBe('M');
    expect(url.searchParams.get('sort')).toBe('price-asc');
    await counted(page, inM.length);
    const cards = page.getByRole('list', { name: 'All Products' }).getByRole('listitem');
    await expect(cards.first().textContent()).resolves.toContain(inM[0]?.name);
    // No reload: the same document, navigated by the router.
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    await expect(button.textContent()).resolves.toMatch(/Filters\s*1/);
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });

  it('a filtered empty result explains itself and clears', async () => {
    const { page } = await newPage(PHONE);
    await page.goto('/products?size=XS&maxPrice=1000');
    await page.getByText('No pieces in size XS up to UGX 1,000.').waitFor();
    if (process.env.FILTER_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.FILTER_SCREENSHOTS}/phone-empty.png` });
    }
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => u.pathname === '/products' && u.search === '');
    await page.locator('header p', { hasText: /pieces$/ }).waitFor();
  });
});

describe('filters at desktop width', () => {
  it('are an inline bar; a chip applies at once without a reload', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await page.goto('/products?sort=price-desc');
    await expect(page.getByRole('button', { name: /^Filters/ }).isVisible()).resolves.toBe(false);
    const bar = page.getByRole('region', { name: 'Filters and sort' });
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const inStockM = await piecesIn('M', true);
    await bar.getByText('In stock only').click();
    await page.waitForURL(/inStock=1/);
    await chip(bar.getByRole('group', { name: 'Size' }), /^M[\s,]/).click();
    await page.waitForURL(/size=M/);
    await counted(page, inStockM.length);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('price-desc');
    const cards = page.getByRole('list', { name: 'All Products' }).getByRole('listitem');
    await expect(cards.first().textContent()).resolves.toContain(inStockM.at(-1)?.name);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    if (process.env.FILTER_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.FILTER_SCREENSHOTS}/desktop-light.png` });
    }
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });

  it('work on /search with the term kept', async () => {
    const { page } = await newPage(DESKTOP);
    await page.goto('/search?q=dress');
    const bar = page.getByRole('region', { name: 'Filters and sort' });
    await bar.getByRole('combobox', { name: 'Sort by' }).selectOption('price-asc');
    await page.waitForURL(/sort=price-asc/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('dress');
    // The spec's texts are unchanged without a filter.
    await page.goto('/search?q=tuxedo');
    await page.getByText('No products found for your search.').waitFor();
  });
});

describe('a shared filtered URL', () => {
  it('renders filtered on the server (no JavaScript)', async () => {
    const inM = await piecesIn('M');
    const html = await (await fetch(`${shop().url}/products?size=M&sort=price-asc`)).text();
    expect(html).toMatch(new RegExp(`>${inM.length}(<!-- -->)? (<!-- -->)?pieces<`));
    const first = html.indexOf(inM[0]?.name ?? '@');
    const last = html.indexOf(inM[Math.min(inM.length, 24) - 1]?.name ?? '@'); // page 1's last
    expect(first).toBeGreaterThan(0);
    expect(last).toBeGreaterThan(first);
    // The no-JavaScript form: a GET form to the same URL, the chosen size checked.
    const forms = html.match(/<form[^>]*>/g) ?? [];
    expect(forms.some((f) => f.includes('method="get"') && f.includes('action="/products"'))).toBe(
      true,
    );
    const input = (page: string, name: string, value: string) =>
      (page.match(/<input[^>]*>/g) ?? []).filter(
        (tag) => tag.includes(`name="${name}"`) && tag.includes(`value="${value}"`),
      );
    // Two forms before JavaScript: the inline bar and the phone's disclosure.
    expect(input(html, 'size', 'M')).toEqual([
      expect.stringContaining('checked'),
      expect.stringContaining('checked'),
    ]);
    expect(input(html, 'size', 'L').some((tag) => tag.includes('checked'))).toBe(false);
    // A bad value is no filter, never an error page.
    const bad = await fetch(`${shop().url}/products?size=%00&minPrice=-5&sort=cheap`);
    expect(bad.status).toBe(200);
    const search = await (await fetch(`${shop().url}/search?q=dress&inStock=1`)).text();
    expect(input(search, 'inStock', '1')).toEqual([
      expect.stringContaining('checked'),
      expect.stringContaining('checked'),
    ]);
    expect(input(search, 'q', 'dress')).toHaveLength(2);
  });
});

describe('axe', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`finds nothing serious in ${scheme}, inline and in the sheet`, async () => {
      const desktop = await newPage(DESKTOP);
      await desktop.page.emulateMedia({ colorScheme: scheme });
      await desktop.page.goto('/products?size=M&inStock=1');
      await settle(desktop.page);
      await expect(seriousViolations(desktop.page)).resolves.toEqual([]);
      if (process.env.FILTER_SCREENSHOTS) {
        await desktop.page.screenshot({
          path: `${process.env.FILTER_SCREENSHOTS}/desktop-${scheme}-filtered.png`,
        });
      }
      const phone = await newPage(PHONE);
      await phone.page.emulateMedia({ colorScheme: scheme });
      await phone.page.goto('/search?q=dress&colour=Indigo');
      await phone.page.getByRole('button', { name: /^Filters/ }).click();
      await phone.page.getByRole('dialog', { name: 'Filters' }).waitFor();
      await settle(phone.page);
      await expect(seriousViolations(phone.page)).resolves.toEqual([]);
      if (process.env.FILTER_SCREENSHOTS) {
        await phone.page.screenshot({
          path: `${process.env.FILTER_SCREENSHOTS}/phone-${scheme}-sheet.png`,
        });
      }
    });
  }
});
