// Returns and exchanges from the shopper's side (issue 36), in the browser against the production
// build in workerd, at 360 and 1366 px: on a delivered order she asks to exchange her M for an L
// and sees "Requested" on the order; a sold-out size is explained (on the form, and when the
// server answers that it sold out meanwhile) with the sizes left and a refund offered; the form's
// controls have their names and work from the keyboard; axe clean in light and dark; a piece the
// desk marked non-returnable says so on its page.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct, setStock, type TestPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka';

beforeAll(() => mkdir(SHOTS, { recursive: true }));
afterAll(closeBrowser);

/** A shirt in M, L and XL (XL sold out), bought in M by a new shopper, delivered. */
async function deliveredShirt(): Promise<{ shopper: Shopper; shirt: TestPiece; orderId: string }> {
  const shirt = await addProduct(db, {
    name: `Linen Shirt ${randomUUID().slice(0, 6)}`,
    price: 85_000,
    options: [{ name: 'Size', values: ['M', 'L', 'XL'] }],
    stock: { M: 4, L: 3, XL: 0 },
  });
  const shopper = await verifiedShopper(db, 'Nakato Returns', {
    phone: '+256772123456',
    address: 'Plot 12 Ntinda Road, Kampala',
  });
  const placed = await placeOrder(db, shopper, {
    orderId: randomUUID(),
    lines: [{ variantId: shirt.variants.M as number, quantity: 1 }],
    paymentMethod: 'cash_on_delivery',
  });
  if (!placed.ok) throw new Error(`order refused: ${JSON.stringify(placed.problem)}`);
  const orderId = placed.order.orderId;
  // Delivered as the desk would move it (the trigger stamps delivered_at: day 0 of the window).
  await db.execute(sql`update orders set status = 'delivered' where id = ${orderId}::uuid`);
  return { shopper, shirt, orderId };
}

/** axe clean in the light and the dark scheme; the screenshots when asked (E2E_SHOTS=1). */
async function lookAt(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.mouse.move(0, 0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await settle(page);
    await expect.poll(() => seriousViolations(page), { timeout: 20_000 }).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/returns-${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await settle(page);
}

describe.each([
  ['360', SMALL_PHONE],
  ['1366', DESKTOP],
])('a shopper’s exchange at %s px', (width, viewport) => {
  it('asks to exchange M for L on a delivered order and sees it requested', async () => {
    const { shopper, shirt, orderId } = await deliveredShirt();
    const { page, errors } = await newPage(viewport);
    await signIn(page, shopper);
    await page.goto(`/order-history/${orderId}`);

    const ask = page.getByRole('link', { name: 'Return or exchange' });
    await ask.waitFor({ timeout: 15_000 });
    await ask.click();
    await page.waitForURL(`**/order-history/${orderId}/return`);
    // The form's route loads its own code and the order's options: on a busy machine, seconds.
    await page.getByRole('heading', { level: 1, name: 'Return or exchange' }).waitFor();

    // By keyboard: the piece's checkbox is named by the piece, the reason by its label.
    const piece = page.getByRole('checkbox', { name: new RegExp(shirt.name) });
    await piece.focus();
    await page.keyboard.press('Space');
    expect(await piece.isChecked()).toBe(true);
    await page.getByRole('combobox', { name: 'Why?' }).selectOption('too_small');
    expect(await page.getByRole('radio', { name: /Exchange/ }).isChecked()).toBe(true);

    // The sizes instead of M: XL shown as sold out; chosen anyway, the form says so and offers L.
    const choices = page.getByRole('group', { name: /Instead of M/ });
    // Tapped as a shopper taps it: the pill (the radio inside is named by it).
    await choices.locator('label').filter({ hasText: /^XL/ }).click();
    expect(await choices.getByRole('radio', { name: /XL/ }).isChecked()).toBe(true);
    const soldOut = page.getByTestId('sold-out-choice');
    await expect.poll(() => soldOut.textContent()).toContain('XL is sold out');
    expect(await soldOut.getByRole('button', { name: 'Ask for a refund instead' }).count()).toBe(1);
    await lookAt(page, `sold-out-${width}`);
    await soldOut.getByRole('button', { name: 'L', exact: true }).click();
    expect(await choices.getByRole('radio', { name: 'L', exact: true }).isChecked()).toBe(true);
    expect(await soldOut.count()).toBe(0);
    await lookAt(page, `form-${width}`);

    // A double tap sends one return.
    const send = page.getByRole('button', { name: 'Send request' });
    await send.dblclick();
    await page.waitForURL(`**/order-history/${orderId}`);
    const card = page.getByTestId('return-card');
    await expect
      .poll(() => card.getByTestId('return-status').textContent(), { timeout: 15_000 })
      .toBe('Requested');
    expect(await card.getByRole('list', { name: 'Return progress' }).textContent()).toContain(
      'Requested',
    );
    await expect.poll(() => card.textContent()).toContain('→ L');
    const [{ n }] = (
      await db.execute<{ n: number }>(
        sql`select count(*)::int as n from returns where order_id = ${orderId}::uuid`,
      )
    ).rows as [{ n: number }];
    expect(n).toBe(1);
    // Its one piece is in the return now: nothing left to ask for.
    await lookAt(page, `requested-${width}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('a size sold out while the form is open', () => {
  it('the server’s answer is explained, with the sizes left and a refund', async () => {
    const { shopper, shirt, orderId } = await deliveredShirt();
    const { page } = await newPage(SMALL_PHONE);
    await signIn(page, shopper);
    await page.goto(`/order-history/${orderId}/return`);
    await page.getByRole('checkbox', { name: new RegExp(shirt.name) }).check();
    await page.getByRole('combobox', { name: 'Why?' }).selectOption('too_small');
    await page
      .getByRole('group', { name: /Instead of M/ })
      .locator('label')
      .filter({ hasText: /^L$/ })
      .click();
    // Another shopper takes the last L meanwhile.
    await setStock(db, shirt.variants.L as number, 0);
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 })
      .toContain('sold out');
    const soldOut = page.getByTestId('sold-out-choice');
    await expect.poll(() => soldOut.count()).toBe(1);
    await soldOut.getByRole('button', { name: 'Ask for a refund instead' }).click();
    expect(await page.getByRole('radio', { name: /Refund/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /To my payment/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.waitForURL(`**/order-history/${orderId}`);
    await expect
      .poll(() => page.getByTestId('return-card').getByTestId('return-status').textContent(), {
        timeout: 15_000,
      })
      .toBe('Requested');
    await page.context().close();
  });
});

describe('a piece that cannot be returned', () => {
  it('says so on its page', async () => {
    const earrings = await addProduct(db, {
      name: `Brass Earrings ${randomUUID().slice(0, 6)}`,
      price: 30_000,
    });
    await db.execute(sql`update products set returnable = false where id = ${earrings.id}`);
    const { page } = await newPage(SMALL_PHONE);
    await page.goto(`/products/${earrings.slug}`);
    await expect
      .poll(() => page.getByTestId('not-returnable').textContent(), { timeout: 15_000 })
      .toContain('cannot be returned');
    await page.context().close();
  });
});
