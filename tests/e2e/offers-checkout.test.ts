// Issue 35 in the browser, at 360 and 1366 px: a shopper types a discount code on the cart, sees
// the saving on the line and in the totals, a wrong code is told its text, the code goes with her
// to the checkout, removing it restores the total; the order placed with it shows the saving and
// the offer's name on /orders and on the receipt. Screens light and dark, each audited by axe.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUGX } from '#core/money.ts';
import { OFFER_TEXT } from '#core/offers.ts';
import { createDb } from '#db/client.ts';
import { cartItems, orderOffers, orders, promotions, valueAccounts } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { demoPieces, setStock } from '../support/catalogue.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/duuka';
const SAVING = 2000;
const DELIVERY = 5000;

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });

/** Screenshots in light and dark, each audited by axe. */
async function lookAt(page: Page, name: string, width: number) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    // A fade the last scheme started still runs (CI read a total mid-fade once): wait it out.
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({
      path: `${SHOTS}/offers-${name}-${width}-${scheme}.png`,
      fullPage: true,
    });
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
}

/** A code of this run's own, UGX 2,000 off the whole order. */
async function fixedOffer(label: string) {
  const code = `NAKATO${randomUUID().slice(0, 6).toUpperCase()}`;
  const name = `Nakato's friends ${label}`;
  await db.insert(promotions).values({ name, code, kind: 'fixed', value: SAVING });
  return { code, name };
}

const summary = (page: Page) => page.getByRole('region', { name: 'Order Summary' });
const total = (page: Page) => summary(page).getByTestId('summary-total').textContent();

describe('a discount code at the cart and the checkout', () => {
  beforeAll(() => mkdir(SHOTS, { recursive: true }));

  for (const [label, viewport, skip] of [
    ['phone', SMALL_PHONE, 6],
    ['desktop', DESKTOP, 7],
  ] as const) {
    it(`applies a code, shows the saving, is told a wrong code, places the order and sees it on the receipt (${label})`, async () => {
      const piece = (await demoPieces(db, 1, skip + 1))[skip];
      if (!piece) throw new Error('the demo catalogue has pieces in one size in stock');
      await setStock(db, piece.variantId, 5);
      const offer = await fixedOffer(label);
      const shopper = await verifiedShopper(db, `Nakato ${label}`, { phone: '+256772000004' });
      await db
        .insert(cartItems)
        .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);

      // The cart: a wrong code gets its own text; the right one its name and saving.
      await page.goto('/cart');
      const field = page.getByLabel('Discount or gift card code');
      await field.fill('nope-2026');
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await page.getByText(OFFER_TEXT.unknown('NOPE-2026')).waitFor();
      await lookAt(page, 'cart-wrong-code', viewport.width);
      await page.getByRole('button', { name: 'Remove code NOPE-2026' }).click();
      await poll(() => page.getByText(OFFER_TEXT.unknown('NOPE-2026')).count()).toBe(0);

      await field.fill(offer.code.toLowerCase());
      await field.press('Enter');
      const chip = page.getByTestId('offer-chip').filter({ hasText: offer.code });
      await chip.getByText(offer.name).waitFor();
      await chip.getByText(`−${formatUGX(SAVING)}`).waitFor();
      await page
        .getByTestId('line-saving')
        .getByText(`−${formatUGX(SAVING)}`)
        .waitFor();
      await summary(page).getByTestId('summary-discount').getByText(offer.name).waitFor();
      await poll(() => total(page)).toBe(formatUGX(piece.price - SAVING));
      await lookAt(page, 'cart-code', viewport.width);

      // The checkout keeps the code; removing it restores the total, applying it again takes it off.
      await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
      await page.waitForURL('**/checkout');
      await page
        .getByTestId('offer-chip')
        .filter({ hasText: offer.code })
        .getByText(offer.name)
        .waitFor();
      await poll(() => total(page)).toBe(formatUGX(piece.price + DELIVERY - SAVING));
      await page
        .getByTestId('line-saving')
        .getByText(`−${formatUGX(SAVING)}`)
        .waitFor();
      await page.getByRole('button', { name: `Remove code ${offer.code}` }).click();
      await poll(() => total(page)).toBe(formatUGX(piece.price + DELIVERY));
      expect(await summary(page).getByTestId('summary-discount').count()).toBe(0);
      await page.getByLabel('Discount or gift card code').fill(offer.code);
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await poll(() => total(page)).toBe(formatUGX(piece.price + DELIVERY - SAVING));
      await fillDeliveryArea(page);
      await page.getByRole('radio', { name: /Cash on Delivery/ }).check();
      await lookAt(page, 'checkout-code', viewport.width);

      // Placed: the order carries the offer, /orders and the receipt say so.
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.waitForURL((url) => url.pathname === '/orders');
      const orderId = new URL(page.url()).searchParams.get('order') ?? '';
      const [placed] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(placed).toMatchObject({ discount: SAVING, total: piece.price + DELIVERY - SAVING });
      expect(await db.select().from(orderOffers).where(eq(orderOffers.orderId, orderId))).toEqual([
        expect.objectContaining({ code: offer.code, name: offer.name, amount: SAVING }),
      ]);
      await page.getByTestId('order-discount').getByText(offer.name, { exact: false }).waitFor();
      await page.getByRole('tab', { name: 'Receipt' }).click();
      const discount = page.getByTestId('receipt').getByTestId('receipt-discount');
      await discount.getByText(`${offer.name} (${offer.code})`).waitFor();
      await discount.getByText(`− ${formatUGX(SAVING)}`).waitFor();
      await lookAt(page, 'receipt', viewport.width);
      // The next cart starts without the spent code.
      expect(await page.evaluate(() => sessionStorage.getItem('checkoutCodes'))).toBeNull();
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  for (const [label, viewport, skip] of [
    ['phone', SMALL_PHONE, 8],
    ['desktop', DESKTOP, 9],
  ] as const) {
    it(`spends store credit that covers the order: nothing to pay, no way of paying asked (${label})`, async () => {
      const piece = (await demoPieces(db, 1, skip + 1))[skip];
      if (!piece) throw new Error('the demo catalogue has pieces in one size in stock');
      await setStock(db, piece.variantId, 5);
      const shopper = await verifiedShopper(db, `Achen ${label}`, { phone: '+256772000004' });
      const due = piece.price + DELIVERY;
      await db
        .insert(valueAccounts)
        .values({ kind: 'store_credit', userId: shopper.id, balance: due + 50_000 });
      await db
        .insert(cartItems)
        .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);

      await page.goto('/checkout');
      const useCredit = page.getByRole('checkbox', {
        name: `Use my store credit (${formatUGX(due)})`,
      });
      await useCredit.check();
      await summary(page)
        .getByTestId('summary-credit')
        .getByText(`−${formatUGX(due)}`)
        .waitFor();
      await poll(() => total(page)).toBe(formatUGX(0));
      await page.getByTestId('nothing-to-pay').getByText('Nothing to pay').waitFor();
      expect(await page.getByRole('radio', { name: /Mobile Money/ }).count()).toBe(0);
      await fillDeliveryArea(page);
      await lookAt(page, 'checkout-credit', viewport.width);
      // Unticked: the order is paid as any other again.
      await useCredit.uncheck();
      await poll(() => total(page)).toBe(formatUGX(due));
      await page.getByRole('radio', { name: /Mobile Money/ }).waitFor();
      await useCredit.check();
      await poll(() => total(page)).toBe(formatUGX(0));

      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.waitForURL((url) => url.pathname === '/orders');
      const orderId = new URL(page.url()).searchParams.get('order') ?? '';
      const [placed] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(placed).toMatchObject({ credit: due, total: 0 });
      await page
        .getByTestId('order-credit')
        .getByText(`− ${formatUGX(due)}`)
        .waitFor();
      const [account] = await db
        .select()
        .from(valueAccounts)
        .where(eq(valueAccounts.userId, shopper.id));
      expect(account?.balance).toBe(50_000);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('a code used up while she checks out refuses the order with its reason; without it the order is placed', async () => {
    const piece = (await demoPieces(db, 1, 11))[10];
    if (!piece) throw new Error('the demo catalogue has pieces in one size in stock');
    await setStock(db, piece.variantId, 5);
    const offer = await fixedOffer('last use');
    const shopper = await verifiedShopper(db, 'Apio late', { phone: '+256772000004' });
    await db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, shopper);
    await page.goto('/checkout');
    await page.getByLabel('Discount or gift card code').fill(offer.code);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await poll(() => total(page)).toBe(formatUGX(piece.price + DELIVERY - SAVING));
    await fillDeliveryArea(page);
    await page.getByRole('radio', { name: /Cash on Delivery/ }).check();

    // Someone else took the last use meanwhile: no order at the full price behind her back.
    await db.update(promotions).set({ usageLimit: 0 }).where(eq(promotions.code, offer.code));
    await page.getByRole('button', { name: 'Place Order' }).click();
    await summary(page).getByText(OFFER_TEXT.usedUp(offer.code)).first().waitFor();
    expect(
      await db.select({ id: orders.id }).from(orders).where(eq(orders.customerId, shopper.id)),
    ).toEqual([]);
    await lookAt(page, 'checkout-refused', SMALL_PHONE.width);

    // She removes the code: the full total, and the order goes through.
    await page.getByRole('button', { name: `Remove code ${offer.code}` }).click();
    await poll(() => total(page)).toBe(formatUGX(piece.price + DELIVERY));
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL((url) => url.pathname === '/orders');
    const [placed] = await db.select().from(orders).where(eq(orders.customerId, shopper.id));
    expect(placed).toMatchObject({ discount: 0, total: piece.price + DELIVERY });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
