// What a new shopper saw, round two (issue 24): the moments that broke trust, each held by what a
// shopper or the owner would notice, at a phone's width and a desktop's.
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import { createDb } from '#db/client.ts';
import { cartItems } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(inject('databaseUrl'));
afterAll(closeBrowser);

describe('settings on a phone', () => {
  it('shows every section tab whole at 390 px, none scrolled out of sight', async () => {
    const shopper = await verifiedShopper(db, 'Joan Settings');
    const { page, errors } = await newPage(PHONE);
    await signIn(page, shopper);
    await page.goto('/settings');
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    await nav.getByRole('link', { name: 'Preferences' }).waitFor();
    const boxes = await nav.getByRole('link').evaluateAll((links) =>
      links.map((link) => {
        const box = link.getBoundingClientRect();
        const list = link.closest('ul') as HTMLElement;
        return {
          name: link.textContent,
          inside: box.left >= 0 && box.right <= document.documentElement.clientWidth,
          clipped: list.scrollWidth > list.clientWidth,
        };
      }),
    );
    expect(boxes.map((b) => b.name)).toEqual([
      'Account',
      'Notifications',
      'Privacy',
      'Preferences',
    ]);
    for (const box of boxes) expect(box).toMatchObject({ inside: true, clipped: false });
    expect(errors).toEqual([]);
  });
});

describe('figures in the display face', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`are lining and of one width on the desk's pages (${viewport.width} px)`, async () => {
      const owner = await verifiedShopper(db, 'Nora Owner');
      await setRole(db, owner.email, 'owner');
      const { page, errors } = await newPage(viewport);
      await signIn(page, owner);
      const figures: { text: string; numeric: string }[] = [];
      // The morning view, the orders page's counts, the delivery page's promise of fees and days.
      for (const path of ['/operator', '/operator/orders', '/operator/delivery']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
        figures.push(
          ...(await page.locator('.font-display').evaluateAll((elements) =>
            elements
              .filter((element) => /\d/.test(element.textContent ?? ''))
              .map((element) => ({
                text: (element.textContent ?? '').trim().slice(0, 80),
                numeric: getComputedStyle(element).fontVariantNumeric,
              })),
          )),
        );
      }
      // The delivery page's promise is among them (its fees and days).
      expect(figures.some((f) => /\d+ days/.test(f.text))).toBe(true);
      for (const figure of figures) {
        expect(figure.numeric, figure.text).toContain('lining-nums');
        expect(figure.numeric, figure.text).toContain('tabular-nums');
      }
      expect(errors).toEqual([]);
    });
  }
});

/** Whether the element's box lies inside the window the shopper sees now. */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe('paying by mobile money on a phone', () => {
  it('shows the payment step in view with focus in it, then lands on the paid order, details first', async () => {
    const shopper = await verifiedShopper(db, 'Rita Phone', { phone: '+256772000001' });
    const piece = await demoPiece(db, { minStock: 6, skip: 3 });
    await db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
    const total = piece.price + 5000;
    const { page, errors } = await newPage(PHONE);
    await signIn(page, shopper);
    await page.goto('/checkout');
    await fillDeliveryArea(page);
    await page.getByRole('radio', { name: /Mobile Money/ }).check();
    const placeOrder = page.getByRole('button', { name: 'Place Order' });
    await placeOrder.scrollIntoViewIfNeeded();
    await placeOrder.click();

    // Item 1: what the payment step shows is in view, focus is in it, and it is announced.
    const approve = page.getByRole('heading', { name: PAYMENT_TEXT.approve(total) });
    await approve.waitFor();
    await expect.poll(() => inView(page, approve)).toBe(true);
    await page.screenshot({ path: '/tmp/duuka/second-look-approve-390.png' });
    const panel = page.getByTestId('payment-step');
    await expect
      .poll(() => panel.evaluate((element) => element.contains(document.activeElement)))
      .toBe(true);
    expect(await panel.getAttribute('aria-live')).toBe('polite');

    // Item 2: paid, /orders opens this order, selected, its details before the list on a phone.
    await page.waitForURL('**/orders?order=*', { timeout: 20_000 });
    const details = page.getByRole('region', { name: 'Order details' });
    const heading = details.getByRole('heading', { name: /^Order #/ });
    await heading.waitFor();
    const list = page.getByRole('region', { name: /order\(s\) found/ });
    const [detailsBox, listBox] = [await details.boundingBox(), await list.boundingBox()];
    expect((detailsBox?.y ?? 0) < (listBox?.y ?? 0)).toBe(true);
    await expect.poll(() => inView(page, heading)).toBe(true);
    await page.screenshot({ path: '/tmp/duuka/second-look-orders-390.png' });
    expect(errors).toEqual([]);
  });
});

describe('the rows of pieces on Home', () => {
  it('have the shop’s arrows, reach their last pieces, and end at the page’s margin (1366 px)', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    for (const title of ['Featured Collection', 'New Arrivals']) {
      // The row's own section (the hero carousel is a region of new arrivals too).
      const row = page.locator(
        `section[aria-labelledby^="row-${title.toLowerCase().replace(/\W+/g, '-')}"]`,
      );
      const list = row.getByRole('list');
      const right = row.getByRole('button', { name: `Scroll ${title} right` });
      await right.scrollIntoViewIfNeeded();
      const before = await list.evaluate((element) => element.scrollLeft);
      await right.click();
      await expect
        .poll(() => list.evaluate((element) => element.scrollLeft))
        .toBeGreaterThan(before);
      await row.getByRole('button', { name: `Scroll ${title} left` }).click();
      await expect
        .poll(() => list.evaluate((element) => element.scrollLeft))
        .toBeLessThan(before + 1);
      // The row's visible edge is the heading's: no card reaches past the page's margin.
      const [rowBox, headingBox] = [
        await list.boundingBox(),
        await row.getByRole('heading', { name: title, exact: true, level: 2 }).boundingBox(),
      ];
      expect(Math.round((rowBox?.x ?? 0) - (headingBox?.x ?? 0))).toBe(0);
      const margin = await row.evaluate((element) => {
        const style = getComputedStyle(element);
        return element.getBoundingClientRect().right - Number.parseFloat(style.paddingRight);
      });
      expect((rowBox?.x ?? 0) + (rowBox?.width ?? 0)).toBeLessThanOrEqual(margin + 0.5);
    }
    expect(errors).toEqual([]);
  });
});

describe('the network during a purchase', () => {
  it('has no failed request from browsing to the paid order (1366 px)', async () => {
    const shopper = await verifiedShopper(db, 'Paula Network', { phone: '+256772000001' });
    const piece = await demoPiece(db, { minStock: 4, skip: 5 });
    const { page, errors } = await newPage(DESKTOP);
    const failed: string[] = [];
    page.on('requestfailed', (request) =>
      failed.push(`${request.failure()?.errorText} ${request.url()}`),
    );
    // A shopper looks at each page before the next click (nothing is cut off mid-load by them).
    const looked = () => page.waitForLoadState('networkidle');
    await signIn(page, shopper);
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await looked();
    await page.getByRole('link', { name: 'Shop', exact: true }).first().click();
    await page.waitForURL('**/shop');
    await looked();
    const search = page.getByRole('searchbox').first();
    await search.fill(piece.name);
    await search.press('Enter');
    await page.waitForURL('**/shop?q=*');
    await looked();
    await page.getByLabel(`View ${piece.name}`, { exact: true }).first().click();
    await page.getByRole('link', { name: 'View full details' }).click();
    await page.waitForURL(`**/products/${piece.slug}*`);
    await looked();
    await page
      .getByRole('button', { name: /^Add (1 )?to Cart$/ })
      .first()
      .click();
    await page.getByRole('link', { name: /^Cart/ }).first().click();
    await page.waitForURL('**/cart');
    await looked();
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL('**/checkout');
    await looked();
    await fillDeliveryArea(page);
    await page.getByRole('radio', { name: /Mobile Money/ }).check();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL('**/orders?order=*', { timeout: 20_000 });
    await page
      .getByRole('region', { name: 'Order details' })
      .getByRole('heading', { name: /^Order #/ })
      .waitFor();
    await looked();
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });
});
