// What a new shopper saw, round two (issue 24): the moments that broke trust, each held by what a
// shopper or the owner would notice, at a phone's width and a desktop's.
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import { createDb } from '#db/client.ts';
import { cartItems } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, SMALL_PHONE } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
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
      for (const path of ['/desk', '/desk/orders', '/desk/delivery']) {
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
    // This test is about the network. Once, in a full run with two files side by side, the
    // card's dialog did not open in 10 s after the first tap (not reproduced alone): the
    // shopper taps again, as one would (storefront.test.ts holds the dialog itself).
    const details = page.getByRole('link', { name: 'View full details' });
    for (let tap = 1; ; tap++) {
      await page.getByLabel(`View ${piece.name}`, { exact: true }).first().click();
      const opened = await details.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      if (opened) break;
      if (tap === 3) throw new Error(`${piece.name}'s dialog did not open after ${tap} taps`);
    }
    await details.click();
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

describe('the "Ask duuka" button', () => {
  // Everything a shopper can press or type into, but the button itself; the page is looked at
  // at rest, half-way down and at its foot. What the fixed header covers while scrolled is the
  // header's (it is there at every width, and the page starts below it), not the button's.
  const covered = (page: Page) =>
    page.evaluate(() => {
      const button = [...document.querySelectorAll('button')].find(
        (element) =>
          (element.getAttribute('aria-label') ?? element.textContent)?.trim() === 'Ask duuka',
      );
      if (!button) return ['no "Ask duuka" button'];
      const box = button.getBoundingClientRect();
      // The shop's own header (the banner) is the page's first.
      const banner = document.querySelector('header');
      const header = banner?.getBoundingClientRect().bottom ?? 0;
      const controls = document.querySelectorAll<HTMLElement>(
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])',
      );
      return [...controls]
        .filter((control) => control !== button && !control.contains(button))
        .filter((control) => control.checkVisibility({ visibilityProperty: true }))
        .filter((control) => {
          const r = control.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) return false;
          if (!banner?.contains(control) && r.top < header) return false;
          return (
            r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom
          );
        })
        .map(
          (control) =>
            `${control.tagName} “${(control.getAttribute('aria-label') ?? control.textContent ?? '').trim().slice(0, 40)}”`,
        );
    });

  for (const viewport of [SMALL_PHONE, PHONE, { width: 768, height: 1024 }, DESKTOP]) {
    it(`covers nothing a shopper can press on /, /shop, /login and /cart (${viewport.width} px)`, async () => {
      const shopper = await verifiedShopper(db, 'Ruth Button');
      for (const piece of [await demoPiece(db, { skip: 1 }), await demoPiece(db, { skip: 2 })])
        await db
          .insert(cartItems)
          .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
      const { page, errors } = await newPage(viewport);
      const found: string[] = [];
      const look = async (path: string) => {
        for (const at of [0, 0.5, 1]) {
          await page.evaluate(
            (share) =>
              window.scrollTo({
                top: share * (document.documentElement.scrollHeight - window.innerHeight),
                behavior: 'instant',
              }),
            at,
          );
          for (const control of await covered(page)) found.push(`${path} at ${at}: ${control}`);
        }
      };
      for (const path of ['/', '/shop', '/login']) {
        await page.goto(path);
        if (path === '/')
          await page.screenshot({ path: `/tmp/duuka/ask-duuka-${viewport.width}.png` });
        await look(path);
      }
      await signIn(page, shopper);
      await page.goto('/cart');
      await page.getByRole('button', { name: 'Proceed to Checkout' }).waitFor();
      await look('/cart');
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});

describe('text on a phone keeps the page’s left edge', () => {
  // Where a line of text starts (its letters, not its box: a right-aligned label's box can start
  // at the margin while its words do not).
  const textLeft = (locator: Locator) =>
    locator.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return Math.round(range.getBoundingClientRect().left);
    });

  it('on the product page: the name, price and promise start where the breadcrumb does, the picture runs edge to edge (390 px)', async () => {
    // A piece with pictures: the newest one-size pieces may be other files' pieces, without any.
    const piece = await demoPiece(db, { skip: 2, pictured: true });
    const { page, errors } = await newPage(PHONE);
    await page.goto(`/products/${piece.slug}`);
    const margin = await textLeft(
      page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Shop' }),
    );
    expect(margin).toBe(16);
    const details = page.getByTestId('product-details');
    expect(await textLeft(details.getByRole('heading', { level: 1 }))).toBe(margin);
    expect(await textLeft(page.getByTestId('delivery-promise'))).toBeGreaterThanOrEqual(margin);
    expect(Math.round((await details.boundingBox())?.x ?? -1)).toBe(margin);
    const picture = await page.locator('.product-gallery').boundingBox();
    expect([picture?.x, picture?.width]).toEqual([0, PHONE.width]);
    await page.screenshot({ path: '/tmp/duuka/second-look-product-390.png' });
    expect(errors).toEqual([]);
  });

  it('on /orders: "Order total" and its amount start on the heading’s line (390 px)', async () => {
    const shopper = await verifiedShopper(db, 'Grace Total', { phone: '+256772000001' });
    const piece = await demoPiece(db, { minStock: 6, skip: 4 });
    await db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
    const { page, errors } = await newPage(PHONE);
    await signIn(page, shopper);
    await page.goto('/checkout');
    await fillDeliveryArea(page);
    await page.getByRole('radio', { name: /Cash on Delivery/ }).check();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL('**/orders?order=*', { timeout: 20_000 });
    const details = page.getByRole('region', { name: 'Order details' });
    const heading = details.getByRole('heading', { name: /^Order #/ });
    await heading.waitFor();
    const label = details.getByText('Order total', { exact: true });
    const amount = label.locator('xpath=following-sibling::p[1]');
    expect(await amount.textContent()).toMatch(/^UGX [\d,]+$/);
    const left = await textLeft(heading);
    expect(await textLeft(label)).toBe(left);
    expect(await textLeft(amount)).toBe(left);
    expect(errors).toEqual([]);
  });
});
