// Stock at the desk in the browser (issue 22), against the production build: a staff member
// finds a dress, restocks one size with the Adjust form and sees the toast and the change in the
// Stock log; on a phone, one size's own log with a piece taken away. axe in light and dark.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { stockMovements } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct, stockOf } from '../support/catalogue.ts';
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

/** axe finds nothing serious in light and in dark. */
async function expectAccessible(page: Page, shot?: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await expectNoSeriousViolations(page, scheme);
  }
  if (shot) await page.screenshot({ path: `${SHOTS}/${shot}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

let dressCounter = 0;
const dress = () => {
  dressCounter += 1;
  const name = `Kitenge Wrap Dress ${Date.now().toString(36)}${dressCounter}`;
  return addProduct(db, {
    name,
    price: 150_000,
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    stock: { S: 4, M: 0, L: 2 },
  });
};

describe('the stock page', () => {
  it('staff restock a size: the toast, the level, the Stock log row (1366 px)', async () => {
    const piece = await dress();
    const m = piece.variants.M as number;
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, await staffMember());
    await page.goto('/desk/stock');
    await page.getByRole('heading', { name: 'Stock', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Low stock' }).waitFor();
    await page.getByText(/Pieces with \d+ or fewer left/).waitFor();
    await page.getByLabel('Piece or SKU').fill(piece.name);
    const found = page.getByRole('list', { name: 'Pieces found' });
    await found.getByRole('listitem').nth(2).waitFor();
    await expectAccessible(page, 'desk-stock-1366');
    await page.screenshot({ path: `${SHOTS}/desk-stock-1366.png`, fullPage: true });

    await found.getByRole('button', { name: `Adjust stock for ${piece.name} · M` }).click();
    const form = page.getByRole('dialog', { name: `${piece.name} · M` });
    await form.getByLabel('Change').fill('2');
    await form.getByRole('button', { name: 'One more' }).click();
    await expect.poll(() => form.getByLabel('Change').inputValue()).toBe('3');
    await form.getByLabel('Reason').selectOption({ label: 'Received' });
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/desk-stock-form-1366.png` });
    await form.getByRole('button', { name: 'Save change' }).click();
    await page.getByText('Stock is now 3').waitFor();
    await form.waitFor({ state: 'detached' });

    const log = page.getByRole('list', { name: 'Stock log' });
    const row = log
      .getByRole('listitem')
      .filter({ hasText: `${piece.name} · M` })
      .first();
    await row.getByText('Received').waitFor();
    await expect.poll(() => row.innerText()).toContain('+3');
    expect(await row.innerText()).toContain('3 after');
    expect(await row.innerText()).toContain(staff?.email);
    expect(await stockOf(db, { variantId: m })).toBe(3);
    const moves = await db.select().from(stockMovements).where(eq(stockMovements.variantId, m));
    expect(moves.map((r) => [r.reason, r.change, r.stockAfter])).toEqual([
      ['counted', 0, 0],
      ['received', 3, 3],
    ]);
    await page.screenshot({ path: `${SHOTS}/desk-stock-saved-1366.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('on a phone: one size’s log, a piece taken away, a refusal below zero kept in the form (360 px)', async () => {
    const piece = await dress();
    const l = piece.variants.L as number;
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, await staffMember());
    await page.goto(`/desk/stock?variant=${l}`);
    await page.getByRole('heading', { name: `${piece.name} · L` }).waitFor();
    const log = page.getByRole('list', { name: 'Stock log' });
    await log.getByText('Counted').waitFor();
    await expectAccessible(page, 'desk-stock-360');
    await page.screenshot({ path: `${SHOTS}/desk-stock-360.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );

    await page.getByRole('button', { name: `Adjust stock for ${piece.name} · L` }).click();
    const form = page.getByRole('dialog', { name: `${piece.name} · L` });
    const change = form.getByLabel('Change');
    // Big − and + for one hand: 1 → 0 → −1 … → −3, more than the 2 left.
    for (let i = 0; i < 4; i += 1) await form.getByRole('button', { name: 'One less' }).click();
    await expect.poll(() => change.inputValue()).toBe('-3');
    const box = await form.getByRole('button', { name: 'One less' }).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await form.getByLabel('Reason').selectOption({ label: 'Damaged' });
    await form.getByRole('button', { name: 'Save change' }).click();
    await form.getByText('Only 2 left: stock can’t go below zero.').waitFor();
    expect(await change.inputValue()).toBe('-3');
    await page.screenshot({ path: `${SHOTS}/desk-stock-refused-360.png` });
    await expectAccessible(page);

    await form.getByRole('button', { name: 'One more' }).click();
    await form.getByRole('button', { name: 'Save change' }).click();
    await page.getByText('Stock is now 0').waitFor();
    const row = log.getByRole('listitem').first();
    await row.getByText('Damaged').waitFor();
    expect(await row.innerText()).toContain('\u22122');
    expect(await row.innerText()).toContain('0 after');
    await page.screenshot({ path: `${SHOTS}/desk-stock-saved-360.png`, fullPage: true });
    expect(await stockOf(db, { variantId: l })).toBe(0);
    expect(errors).toEqual([]);
  });
});
