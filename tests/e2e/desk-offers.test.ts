// Offers on the desk in the browser (issue 35), against the production build: on a 360 px phone
// the owner creates "Weekend sale", 20 % off Dresses for this weekend (the shortcut: Saturday 00:00
// to Monday 00:00 Kampala time), and a visitor's dress listing and product page show it (the
// badge, the offer's price beside the struck price, the JSON-LD's price); at 1366 px the desk's
// list shows it with its figures. axe clean in light and dark.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thisWeekend, toKampalaInput } from '#core/offer-form.ts';
import { createDb } from '#db/client.ts';
import { categories, orderOffers, orders, profiles, promotions, user } from '#db/schema/index.ts';
import { bumpCatalogueVersion } from '#server/services/catalogue-version.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct, type TestPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka-desk-offers';
const NAME = `Weekend sale ${randomUUID().slice(0, 4)}`;

let owner: Shopper;
let dresses: { id: number; name: string };
let dress: TestPiece;
beforeAll(async () => {
  owner = await deskOwner(db);
  const name = `Dresses ${randomUUID().slice(0, 6)}`;
  const [row] = await db.insert(categories).values({ name }).returning({ id: categories.id });
  dresses = { id: row?.id ?? 0, name };
  dress = await addProduct(db, {
    name: 'Busuuti Evening Dress',
    price: 85_000,
    stock: 5,
    category: dresses.id,
  });
});
afterAll(async () => {
  // The browser tests share one shop: the sale ends with this file.
  await db.batch([
    db.update(promotions).set({ active: false }).where(eq(promotions.name, NAME)),
    bumpCatalogueVersion(db),
  ]);
  await closeBrowser();
});

async function shotsAndAxe(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
    await expectNoSeriousViolations(page, `${name} ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

describe('offers on the desk', () => {
  it('the owner creates a weekend sale on a phone and the shop shows it (360 px)', async () => {
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, owner);
    await page.goto('/desk/offers');
    await page.getByRole('button', { name: 'New offer' }).click();
    const form = page.getByRole('form', { name: 'New offer' });
    await form.getByLabel('Name').fill(NAME);
    // 10 % off is the form's start; the owner makes it 20.
    await expect(form.getByLabel('Percent off').inputValue()).resolves.toBe('10');
    await form.getByLabel('Percent off').fill('20');
    await form.getByText('Categories or pieces', { exact: true }).click();
    await form.getByText(dresses.name, { exact: true }).click();
    await form.getByRole('button', { name: 'This weekend' }).click();
    const weekend = thisWeekend(new Date());
    await expect(form.getByLabel('Starts').inputValue()).resolves.toBe(
      toKampalaInput(weekend.startsAt),
    );
    await expect(form.getByLabel('Ends').inputValue()).resolves.toBe(
      toKampalaInput(weekend.endsAt),
    );
    expect(toKampalaInput(weekend.endsAt)).toMatch(/T00:00$/);
    // On a weekday the weekend is still to come: the sale starts now instead, so the shop shows it.
    const weekendNow = Date.parse(weekend.startsAt) <= Date.now();
    if (!weekendNow) await form.getByLabel('Starts').fill('');
    await fitsWidth(page, SMALL_PHONE.width);
    await shotsAndAxe(page, 'desk-offer-form-360');
    await form.getByRole('button', { name: 'Save offer' }).click();
    await page.getByText('Offer saved').first().waitFor();
    const card = page.getByRole('article', { name: NAME });
    await card.getByText('Automatic').waitFor();
    await card.getByText('Running').waitFor();
    await card.getByText('20% off · chosen pieces').waitFor();
    await fitsWidth(page, SMALL_PHONE.width);
    await shotsAndAxe(page, 'desk-offers-360');
    expect(errors).toEqual([]);
    await page.context().close();

    // A visitor (no session: the edge-cached pages) sees it on the dresses and the dress.
    const visitor = await newPage(SMALL_PHONE);
    const label = weekendNow ? '20% off this weekend' : /^20% off until /;
    await visitor.page.goto(`/products?category=${dresses.id}`);
    const shown = visitor.page.getByTestId('product-card').filter({ hasText: dress.name });
    await expect(shown.getByTestId('offer-badge').textContent()).resolves.toMatch(label);
    const price = await shown.getByTestId('compare-at').textContent();
    expect(price).toContain('UGX 85,000');
    await expect(shown.textContent()).resolves.toContain('UGX 68,000');
    await fitsWidth(visitor.page, SMALL_PHONE.width);
    await shotsAndAxe(visitor.page, 'desk-offers-listing-360');
    await visitor.page.goto(`/products/${dress.slug}`);
    await expect(visitor.page.getByTestId('offer-badge').first().textContent()).resolves.toMatch(
      label,
    );
    await expect(
      visitor.page.getByTestId('product-price').first().textContent(),
    ).resolves.toContain('UGX 68,000');
    const ld = await visitor.page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) => scripts.map((s) => s.textContent ?? ''));
    const product = ld.map((text) => JSON.parse(text)).find((d) => d['@type'] === 'Product');
    expect(product.offers[0]).toMatchObject({ price: 68_000 });
    expect(product.offers[0].priceValidUntil).toBe(weekend.endsAt);
    await shotsAndAxe(visitor.page, 'desk-offers-product-360');
    expect(visitor.errors).toEqual([]);
    await visitor.page.context().close();
  });

  it('at 1366 px the list shows the sale with its orders and sales', async () => {
    const [offer] = await db.select().from(promotions).where(eq(promotions.name, NAME));
    if (!offer) throw new Error('the sale was not saved');
    // A shopper's order, placed through the checkout's write while the sale runs.
    const id = randomUUID();
    const email = `${id}@example.ug`;
    await db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
    await db.insert(profiles).values({
      id,
      email,
      fullName: 'Nakato Achieng',
      phone: `+25677${String(Date.now()).slice(-7)}`,
    });
    const placed = await placeOrder(
      db,
      { id, email, name: 'Nakato Achieng' },
      {
        orderId: randomUUID(),
        lines: [{ variantId: dress.variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
        delivery: { optionId: 'pickup' },
      },
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
    // The checkout's write gave the running sale to the dress and counted its use.
    expect(
      await db
        .select({ promotionId: orderOffers.promotionId })
        .from(orderOffers)
        .where(eq(orderOffers.orderId, placed.order.orderId)),
    ).toEqual([{ promotionId: offer.id }]);
    const [row] = await db
      .select({ total: orders.total })
      .from(orders)
      .where(eq(orders.id, placed.order.orderId));

    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, owner);
    await page.goto('/desk/offers');
    const card = page.getByRole('article', { name: NAME });
    await expect(card.getByTestId('offer-uses').textContent()).resolves.toBe('1');
    await expect(card.getByTestId('offer-sales').textContent()).resolves.toBe(
      `UGX ${(row?.total ?? 0).toLocaleString('en-US')} · 1 order`,
    );
    // Editing it opens the form with what was saved.
    await card.getByRole('button', { name: `Edit ${NAME}` }).click();
    const form = page.getByRole('form', { name: 'Edit offer' });
    await expect(form.getByLabel('Name').inputValue()).resolves.toBe(NAME);
    await expect(form.getByLabel('Percent off').inputValue()).resolves.toBe('20');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await card.waitFor();
    await shotsAndAxe(page, 'desk-offers-1366');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
