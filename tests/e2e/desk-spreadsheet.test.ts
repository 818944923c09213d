// The catalogue as a spreadsheet in the browser (issue 22), as a staff member at the shop's
// counter: download the CSV, upload a file with a bad row and read the row's problem, upload a
// good file and read the summary. At 360 and 1366 px, axe clean in light and dark.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { SPREADSHEET_COLUMNS } from '#core/desk-spreadsheet.ts';
import { createDb } from '#db/client.ts';
import { setRole } from '#server/services/staff-service.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

async function shootAndCheck(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
    await expectNoSeriousViolations(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const csvFile = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text, 'utf8'),
});

describe('the spreadsheet page', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`downloads, refuses a bad row, imports a good file at ${viewport.width} px`, async () => {
      const staff = await verifiedShopper(db, 'Sarah Staff');
      await setRole(db, staff.email, 'staff');
      const { page, errors } = await newPage(viewport);
      await signIn(page, staff);
      await page.goto('/desk/spreadsheet');
      await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^duuka-products-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await readFile((await download.path()) as string, 'utf8');
      expect(text.split('\r\n')[0]).toBe(`\uFEFF${SPREADSHEET_COLUMNS.join(',')}`);

      const tag = randomUUID().slice(0, 6);
      const file = page.getByLabel('CSV file');
      await file.setInputFiles(
        csvFile(
          'bad.csv',
          `name,sku,size,price,stock\r\nLinen Shirt ${tag},LS-${tag}-M,M,89000,2\r\nLinen Shirt ${tag},LS-${tag}-L,L,89 000,2\r\n`,
        ),
      );
      await page.getByRole('button', { name: 'Import' }).click();
      const problems = page.getByRole('list', { name: 'Problems in the file' });
      await problems.getByText('Row 3: price must be a whole number of shillings.').waitFor();
      expect(
        (await db.execute(sql`select 1 from product_variants where sku like ${`LS-${tag}-%`}`))
          .rows,
      ).toHaveLength(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await shootAndCheck(page, `spreadsheet-problems-${viewport.width}`);

      await file.setInputFiles(
        csvFile(
          'good.csv',
          `name,kind,sku,size,price,stock\r\nLinen Shirt ${tag},clothes,LS-${tag}-M,M,89000,2\r\nLinen Shirt ${tag},clothes,LS-${tag}-L,L,89000,1\r\n`,
        ),
      );
      await page.getByRole('button', { name: 'Import' }).click();
      // Only what changed: the new product, listed with its variants.
      await page.getByText('1 product created', { exact: true }).waitFor();
      await page
        .getByRole('list', { name: 'What changed' })
        .getByText(`new, 2 variants: LS-${tag}-M, LS-${tag}-L`)
        .waitFor();
      await page.getByText('Catalogue imported').waitFor();
      // The refused file's problems are gone with the new try.
      expect(await problems.count()).toBe(0);
      const made = await db.execute<{ stock: number }>(
        sql`select stock from product_variants where sku like ${`LS-${tag}-%`} order by sku`,
      );
      expect(made.rows.map((row) => Number(row.stock))).toEqual([1, 2]);
      await shootAndCheck(page, `spreadsheet-imported-${viewport.width}`);
      expect(errors).toEqual([]);
    });
  }
});
