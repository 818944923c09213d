// Search that does not grow with the catalogue (issue 38): a category of 1,001 pieces says
// "1,000+ pieces" and still pages on; a search of them says "1,000+ product(s) found". The pieces
// are made in one statement and taken away after, the catalogue's version raised each time so no
// kept page shows them to another test.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { bumpCatalogueVersionSql } from '#server/services/catalogue-version.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';

const SHOTS = 'tests/e2e/screenshots';
const db = createDb(shop().databaseUrl);
const word = `zawadi${randomUUID().slice(0, 6)}`;
let category = 0;

beforeAll(async () => {
  const [made] = (
    await db.execute<{ id: number }>(
      sql`insert into categories (name) values (${`Zawadi ${word}`}) returning id`,
    )
  ).rows;
  category = Number(made?.id);
  await db.execute(sql`
    with made as (
      insert into products (product_name, slug, price, description, created_at)
      select 'Zawadi Shirt ' || i, ${word} || '-' || i, 30000 + i, 'Made for ' || ${word} || '.',
        now() - i * interval '1 second'
      from generate_series(1, 1001) as i
      returning id
    ), sized as (
      insert into product_variants (product_id, sku, stock) select id, ${word} || '-' || id, 3 from made
    )
    insert into product_categories (product_id, category_id) select id, ${category} from made`);
  await db.execute(bumpCatalogueVersionSql);
});
afterAll(async () => {
  await db.execute(sql`delete from products where slug like ${`${word}-%`}`);
  await db.execute(sql`delete from categories where id = ${category}`);
  await db.execute(bumpCatalogueVersionSql);
  await closeBrowser();
});

describe('a listing of more than 1,000 pieces', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`says 1,000+ pieces and pages on at ${viewport.width}px`, async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto(`/products?category=${category}`);
      await page.getByText('1,000+ pieces', { exact: true }).waitFor();
      const pages = page.getByRole('navigation', { name: 'Pages' });
      await pages.getByText('Page 1 of 42+', { exact: true }).waitFor();
      await page.screenshot({ path: `${SHOTS}/large-catalogue-${viewport.width}.png` });
      await pages.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/large-catalogue-pages-${viewport.width}.png` });
      await pages.getByRole('link', { name: 'Next' }).click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2');
      await pages.getByText('Page 2 of 42+', { exact: true }).waitFor();
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('a search of them says 1,000+ product(s) found', async () => {
    const { page, errors } = await newPage(SMALL_PHONE);
    await page.goto(`/shop?q=${word}`);
    await page
      .getByRole('heading', { name: `1,000+ product(s) found for "${word}"` })
      .waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
