// Delivery the Kampala way in the browser (issue 23), against the production build: the product
// page's promise from the shop's options; the checkout's choice, whose fee and total change at once
// (pickup free, upcountry 15,000 without cash on delivery) before Place Order; the area asked for;
// the receipt naming the option; a pickup order the desk marks ready, and the shopper's steps
// on /orders. At 390 and 1366 px, axe-clean in light and dark, screenshots under /tmp/duuka-a/.
import { mkdir } from 'node:fs/promises';
import { eq, notInArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_WORDING } from '#core/delivery-choice.ts';
import { DELIVERY_TEXT, FREE_DELIVERY_KEY } from '#core/delivery-rules.ts';
import { formatUGX } from '#core/money.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';
import { createDb } from '#db/client.ts';
import { deliveryOptions, orders, systemSettings } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { findDemoPieces, setStock } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka-a';

/** The migration's defaults: whatever another test left, this one reads the shop's own. */
async function defaultDelivery() {
  const defaults = [
    { id: 'kampala', fee: 5000, minDays: 1, maxDays: 3, cashOnDelivery: true, position: 1 },
    { id: 'pickup', fee: 0, minDays: 0, maxDays: 1, cashOnDelivery: true, position: 2 },
    { id: 'upcountry', fee: 15000, minDays: 3, maxDays: 5, cashOnDelivery: false, position: 3 },
  ];
  for (const { id, ...option } of defaults) {
    await db
      .update(deliveryOptions)
      .set({ ...option, active: true })
      .where(eq(deliveryOptions.id, id));
  }
  // Options another test added are not offered here.
  await db
    .update(deliveryOptions)
    .set({ active: false })
    .where(notInArray(deliveryOptions.id, ['kampala', 'pickup', 'upcountry']));
  await db.delete(systemSettings).where(eq(systemSettings.settingKey, FREE_DELIVERY_KEY));
}

/** The summary's total, as a number. */
async function totalShown(page: Page): Promise<number> {
  const text = await page.getByTestId('summary-total').textContent();
  return Number((text ?? '').replace(/\D/g, ''));
}

/** Light and dark: axe finds nothing serious, and a screenshot of each to look at. */
async function lookAt(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await settle(page);
    await page.mouse.move(0, 0);
    let found: Awaited<ReturnType<typeof seriousViolations>> = [];
    await expect
      .poll(async () => (found = await seriousViolations(page)), {
        timeout: 5_000,
        message: `axe on ${name} (${scheme})`,
      })
      .toEqual([])
      .catch(() => expect(found, `axe on ${name} (${scheme})`).toEqual([]));
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
}

/**
 * Puts the piece in the shopper's cart from its page and opens the checkout; the options come
 * with the page (no request for them once it is live).
 */
async function toCheckout(page: Page, slug: string) {
  await page.goto(`/products/${slug}`);
  await page
    .getByTestId('product-details')
    .getByRole('button', { name: /^Add (1 )?to Cart$/ })
    .click();
  await expect
    .poll(() =>
      page.getByRole('banner').getByRole('link', { name: /^Cart/ }).getAttribute('aria-label'),
    )
    .toBe('Cart, 1 item');
  const asked: string[] = [];
  const listen = (request: { url: () => string }) => {
    if (request.url().includes('checkout.deliveryOptions')) asked.push(request.url());
  };
  page.on('request', listen);
  await page.goto('/checkout');
  await page.getByRole('group', { name: 'Delivery', exact: true }).waitFor();
  page.off('request', listen);
  expect(asked).toEqual([]);
  const html = await (await page.request.get('/checkout')).text();
  expect(html).toContain('Upcountry by bus courier');
}

const placedOrder = async (shopper: Shopper) => {
  const placed = await db.select().from(orders).where(eq(orders.customerId, shopper.id));
  return placed;
};

describe('delivery at checkout, on the receipt and on /orders', () => {
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    await defaultDelivery();
  });

  for (const [label, viewport, skip] of [
    ['phone', PHONE, 6],
    ['desktop', DESKTOP, 7],
  ] as const) {
    it(`pickup then upcountry change the total before Place Order; the receipt names it (${label})`, async () => {
      const [piece] = await findDemoPieces(db, { minStock: 1, skip, limit: 1 });
      if (!piece) throw new Error('the demo catalogue has pieces in one size');
      await setStock(db, piece.variantId, 10);
      const shopper = await verifiedShopper(db, `Namuli ${label}`, { phone: '+256772000004' });
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);

      // The product page promises what the shop's options say, in the page as the server sends it.
      const html = await (await page.request.get(`/products/${piece.slug}`)).text();
      expect(html).toContain('Delivery in Kampala from UGX 5,000, 1–3 days · free pickup');
      await page.goto(`/products/${piece.slug}`);
      await expect(page.getByTestId('delivery-promise').textContent()).resolves.toBe(
        'Delivery in Kampala from UGX 5,000, 1–3 days · free pickup',
      );
      await page.getByTestId('delivery-promise').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/product-promise-${viewport.width}.png` });

      await toCheckout(page, piece.slug);
      const delivery = page.getByRole('group', { name: 'Delivery', exact: true });
      const summary = page.getByRole('region', { name: 'Order Summary' });
      // Kampala delivery first and chosen: the spec's 5,000.
      await expect(
        delivery.getByRole('radio', { name: /^Kampala delivery/ }).isChecked(),
      ).resolves.toBe(true);
      await delivery.getByText('Arrives in 1–3 days').waitFor();
      await expect(totalShown(page)).resolves.toBe(piece.price + 5000);
      await summary.getByText('UGX 5,000', { exact: true }).waitFor();
      await expect(page.getByLabel('Phone for the rider').inputValue()).resolves.toBe(
        '0772 000 004',
      );

      // Pickup: free, the boutique's details instead of the address; the total drops by 5,000.
      const before = await totalShown(page);
      await delivery.getByRole('radio', { name: /^Pick up at the boutique/ }).check();
      await expect.poll(() => totalShown(page)).toBe(before - 5000);
      expect(await totalShown(page)).toBe(piece.price);
      await summary.getByText('Free', { exact: true }).waitFor();
      await delivery.getByText('Collect from the boutique').waitFor();
      expect(await page.getByLabel('Area', { exact: true }).count()).toBe(0);
      // Cash on delivery is taken with a pickup: chosen now, it must move off with upcountry.
      const cash = page.getByRole('radio', { name: /Cash on Delivery/ });
      await cash.check();
      await lookAt(page, `checkout-pickup-${viewport.width}`);

      // Upcountry: items + 15,000, and no cash on delivery, saying why.
      await delivery.getByRole('radio', { name: /^Upcountry by bus courier/ }).check();
      await expect.poll(() => totalShown(page)).toBe(piece.price + 15000);
      await summary.getByText(formatUGX(15000), { exact: true }).waitFor();
      await expect(cash.isDisabled()).resolves.toBe(true);
      await expect(cash.isChecked()).resolves.toBe(false);
      await page.getByText('Not available for Upcountry by bus courier').waitFor();

      // Upcountry is no rider (issue 32): the form asks for the town, the bus company or stage and
      // the phone to call when the parcel arrives, and says what happens to it.
      const courier = DELIVERY_WORDING.courier;
      await delivery.getByText(courier.promise).waitFor();
      for (const gone of ['Area', 'Landmark', 'Phone for the rider']) {
        expect(await page.getByLabel(gone, { exact: true }).count(), gone).toBe(0);
      }
      await expect(page.getByLabel(courier.phone).inputValue()).resolves.toBe('0772 000 004');
      await expect(page.getByLabel(courier.area).getAttribute('placeholder')).resolves.toBe(
        'e.g. Mbarara',
      );

      // No town: refused before anything is sent, with placeOrder's own text.
      await page.getByRole('radio', { name: /Bank Transfer/ }).check();
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.getByText(DELIVERY_TEXT.townRequired).waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-invalid')))
        .toBe('true');
      expect(await placedOrder(shopper)).toEqual([]);

      await page.getByLabel(courier.area, { exact: true }).fill('Mbarara');
      await page.getByLabel(courier.landmark).fill('Link Bus');
      await page.getByLabel('Delivery notes').fill('Call when the bus arrives');
      await expect(page.getByText(DELIVERY_TEXT.townRequired).count()).resolves.toBe(0);
      await lookAt(page, `checkout-upcountry-${viewport.width}`);
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page
        .getByRole('heading', { level: 1, name: PAYMENT_STATE_TEXT.waitingTitle })
        .waitFor();

      const [order] = await placedOrder(shopper);
      expect(order).toMatchObject({
        deliveryOptionId: 'upcountry',
        deliveryOption: 'Upcountry by bus courier',
        deliveryKind: 'courier',
        deliveryArea: 'Mbarara',
        deliveryLandmark: 'Link Bus',
        deliveryPhone: '+256772000004',
        deliveryNotes: 'Call when the bus arrives',
        deliveryFee: 15000,
        total: piece.price + 15000,
        paymentMethod: 'bank_transfer',
      });
      if (!order) throw new Error('no order');

      // The receipt names the option and where it goes, beside its fee.
      await page.goto(`/orders?order=${order.id}&view=receipt`);
      const receipt = page.getByTestId('receipt');
      await expect(receipt.getByTestId('receipt-delivery').textContent()).resolves.toBe(
        'Upcountry by bus courier · Mbarara, collect at Link Bus',
      );
      await receipt.getByText(courier.promise).waitFor();
      await receipt.getByText(courier.calls).waitFor();
      expect(await receipt.getByText(/rider/i).count()).toBe(0);
      await receipt.getByText('UGX 15,000', { exact: true }).waitFor();
      await page.screenshot({ path: `${SHOTS}/receipt-${viewport.width}.png`, fullPage: true });

      // The order's page says the same: by bus, collected at the stage, a call when it arrives.
      await page.goto(`/orders?order=${order.id}`);
      const details = page.getByRole('region', { name: 'Order details' });
      await expect(details.getByTestId('order-delivery').textContent()).resolves.toBe(
        'Upcountry by bus courier · Mbarara, collect at Link Bus',
      );
      await details.getByTestId('order-delivery-promise').waitFor();
      await details.getByText(`${courier.calls} 0772 000 004`).waitFor();
      expect(await details.getByText(/rider/i).count()).toBe(0);
      await lookAt(page, `order-upcountry-${viewport.width}`);

      // The desk: the town, the bus company or stage, and whom to call when it arrives.
      const desk = await newPage(viewport);
      await signIn(desk.page, await deskOwner(db));
      await desk.page.goto(`/desk/orders/${order.id}`);
      const row = desk.page.getByTestId('desk-order').getByTestId('delivery');
      await row.getByText(courier.promise).waitFor();
      await row.getByText('Mbarara', { exact: true }).waitFor();
      await row.getByText('Link Bus', { exact: true }).waitFor();
      await row.getByText(courier.deskCalls, { exact: true }).waitFor();
      expect(await row.getByText('Rider calls').count()).toBe(0);
      await row.scrollIntoViewIfNeeded();
      await desk.page.screenshot({ path: `${SHOTS}/desk-upcountry-${viewport.width}.png` });
      expect(desk.errors).toEqual([]);
      await desk.page.context().close();
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it(`a pickup order marked ready by the desk shows "Ready for pickup" as its step (${label})`, async () => {
      const [piece] = await findDemoPieces(db, { minStock: 1, skip, limit: 1 });
      if (!piece) throw new Error('the demo catalogue has pieces in one size');
      await setStock(db, piece.variantId, 10);
      const shopper = await verifiedShopper(db, `Achen ${label}`, { phone: '+256772000004' });
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await toCheckout(page, piece.slug);
      await page.getByRole('radio', { name: /^Pick up at the boutique/ }).check();
      await expect.poll(() => totalShown(page)).toBe(piece.price);
      await page.getByRole('radio', { name: /Bank Transfer/ }).check();
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page
        .getByRole('heading', { level: 1, name: PAYMENT_STATE_TEXT.waitingTitle })
        .waitFor();
      const [order] = await placedOrder(shopper);
      expect(order).toMatchObject({
        deliveryOptionId: 'pickup',
        deliveryKind: 'pickup',
        deliveryArea: '',
        deliveryFee: 0,
        total: piece.price,
      });
      if (!order) throw new Error('no order');
      const head = order.id.slice(0, 8);

      // Placed: the first step is the current one.
      await page.goto(`/orders?order=${order.id}`);
      const steps = page.getByRole('list', { name: 'Order progress' });
      await expect(steps.locator('[aria-current="step"]').textContent()).resolves.toBe('Placed');

      // The operator marks it ready for pickup on the desk.
      const desk = await newPage(viewport);
      await signIn(desk.page, await deskOwner(db));
      await desk.page.goto(`/desk/orders/${order.id}`);
      const row = desk.page.getByTestId('desk-order').getByTestId('status-control');
      await row.getByLabel(`Status of order ${head}`).selectOption({ label: 'Ready for pickup' });
      await row.getByRole('button', { name: 'Update' }).click();
      await expect
        .poll(async () => (await placedOrder(shopper))[0]?.status, { timeout: 15_000 })
        .toBe('ready_for_pickup');
      expect(desk.errors).toEqual([]);
      await desk.page.context().close();

      // The shopper sees the step: Placed and Processing done, Ready for pickup now, Collected next.
      await page.reload();
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await expect(steps.locator('[aria-current="step"]').textContent()).resolves.toBe(
        'Ready for pickup',
      );
      await expect(
        steps
          .getByRole('listitem')
          .evaluateAll((items) =>
            items.map((item) => [item.textContent, item.getAttribute('data-state')]),
          ),
      ).resolves.toEqual([
        ['Placed (done)', 'done'],
        ['Processing (done)', 'done'],
        ['Ready for pickup', 'current'],
        ['Collected', 'next'],
      ]);
      await expect(page.getByTestId('order-delivery').textContent()).resolves.toBe(
        'Pick up at the boutique',
      );
      await lookAt(page, `orders-steps-${viewport.width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
