// The desk on a phone (issue 34, decision 0079), in Chromium against the production build: at
// 360 px a bottom bar of Today, Orders, Inbox, Products and More (the rest in a sheet); at 1366 px one
// row of every section; no shop footer or newsletter on the desk; every desk page within 360 px
// (the element that sticks out named); a staff member refused the record reads so at once, after
// one request; a stock count sets the shelf's number.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { stockMovements } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { addProduct, stockOf } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka';
afterAll(closeBrowser);

/** The page drawn: its heading, and nothing still loading. */
async function drawn(page: Page) {
  await page.locator('main h1').first().waitFor();
  await expect
    .poll(
      () =>
        page
          .locator('main')
          .getByText(/^Loading/)
          .count(),
      { timeout: 15_000 },
    )
    .toBe(0);
}

/** The page's width, and the deepest elements reaching past `limit` when it is too wide. */
function overflow(page: Page, limit: number) {
  return page.evaluate((max) => {
    const width = document.scrollingElement?.scrollWidth ?? 0;
    if (width <= max) return { width, wide: [] as string[] };
    // Fixed bars follow the widened page: not the cause, left out.
    const fixed = (el: Element) => {
      for (let at: Element | null = el; at; at = at.parentElement) {
        if (getComputedStyle(at).position === 'fixed') return true;
      }
      return false;
    };
    const out = [...document.querySelectorAll('body *')].filter(
      (el) => el.getBoundingClientRect().right > max + 0.5 && !fixed(el),
    );
    const deepest = out.filter((el) => !out.some((other) => other !== el && el.contains(other)));
    return {
      width,
      wide: deepest.slice(0, 5).map((el) => {
        const classes = [...el.classList].slice(0, 4).join('.');
        const text = (el.textContent ?? '').trim().slice(0, 30);
        return `${el.tagName.toLowerCase()}.${classes} “${text}” → ${Math.round(el.getBoundingClientRect().right)}px`;
      }),
    };
  }, limit);
}

async function shoot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the desk on a phone', () => {
  it('360 px: the bottom bar, More opens the rest, no footer, every desk page within 360 px', async () => {
    const piece = await addProduct(db, { name: 'Phone Desk Dress', price: 120_000, stock: 3 });
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, await deskOwner(db));
    await page.goto('/desk');
    await drawn(page);

    const bar = page.getByTestId('desk-bottom-bar');
    await bar.waitFor();
    expect(await page.getByTestId('desk-top-bar').isVisible()).toBe(false);
    const places = bar.locator('a, button');
    // The browser tests' shop has WhatsApp (the fake): its inbox is a daily place.
    expect(await places.allInnerTexts()).toEqual(['Today', 'Orders', 'Inbox', 'Products', 'More']);
    for (const box of await places.evaluateAll((els) =>
      els.map((el) => el.getBoundingClientRect().toJSON()),
    )) {
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.bottom).toBeLessThanOrEqual(SMALL_PHONE.height + 0.5);
    }
    await expect
      .poll(() => bar.getByRole('link', { name: 'Today' }).getAttribute('aria-current'))
      .toBe('page');
    // No shop footer, newsletter, cart or search on the desk; a way back to the shop.
    expect(await page.locator('footer').count()).toBe(0);
    expect(await page.getByText(/newsletter/i).count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Cart/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to the shop' }).waitFor();
    // The page's end is not under the bar: its last section ends a bar's height above the
    // document's end, so scrolled to the bottom it sits above the bar.
    const barHeight = (await bar.boundingBox())?.height ?? 0;
    const room = await page.evaluate(() => {
      const sections = document.querySelectorAll('main section');
      const last = sections[sections.length - 1]?.getBoundingClientRect();
      const end = document.scrollingElement?.scrollHeight ?? 0;
      return end - ((last?.bottom ?? 0) + window.scrollY);
    });
    expect(room).toBeGreaterThanOrEqual(barHeight);
    await shoot(page, 'desk-phone-today-360');

    // More: the rest of the desk, the owner's sections with them.
    await bar.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByRole('dialog', { name: 'More of the desk' });
    await sheet.waitFor();
    for (const label of [
      'Returns',
      'Stock',
      'Spreadsheet',
      'Delivery',
      'Offers',
      'Campaigns',
      'Gift cards',
      'Settings',
      'Staff',
      'Record',
    ]) {
      await sheet.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await shoot(page, 'desk-phone-more-360');
    await sheet.getByRole('link', { name: 'Stock', exact: true }).click();
    await page.waitForURL('**/desk/stock');
    await sheet.waitFor({ state: 'detached' });
    expect(await bar.getByRole('button', { name: 'More' }).getAttribute('aria-current')).toBe(
      'page',
    );

    const routes = [
      '/desk',
      '/desk/orders',
      '/desk/orders/new',
      '/desk/inbox',
      '/desk/returns',
      '/desk/customers',
      '/desk/credit',
      '/desk/products',
      '/desk/products/new',
      `/desk/products/${piece.id}`,
      '/desk/stock',
      `/desk/stock?variant=${piece.variantId}`,
      '/desk/spreadsheet',
      '/desk/delivery',
      '/desk/offers',
      '/desk/settings',
      '/desk/staff',
      '/desk/record',
      '/desk/home',
      '/desk/details',
      '/desk/campaigns',
    ];
    const tooWide: Record<string, unknown> = {};
    for (const route of routes) {
      await page.goto(route);
      await drawn(page);
      const measured = await overflow(page, SMALL_PHONE.width);
      if (measured.width > SMALL_PHONE.width) tooWide[route] = measured;
      expect(await page.locator('footer').count(), route).toBe(0);
    }
    expect(tooWide).toEqual({});
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('1366 px: every section in one row, no bottom bar, no footer', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, await deskOwner(db));
    await page.goto('/desk/orders');
    await drawn(page);
    const top = page.getByTestId('desk-top-bar');
    await top.waitFor();
    expect(await page.getByTestId('desk-bottom-bar').isVisible()).toBe(false);
    const links = top.getByRole('link');
    expect(await links.allInnerTexts()).toEqual([
      'Today',
      'Orders',
      'Inbox',
      'Returns',
      'Customers',
      'Products',
      'Stock',
      'Spreadsheet',
      'Delivery',
      'Offers',
      'Campaigns',
      'Gift cards',
      'Home page',
      'Settings',
      'Staff',
      'Record',
      'Shop details',
    ]);
    const tops = await links.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
    expect(new Set(tops).size).toBe(1);
    // All of them in sight: none scrolled out of the row at 1366 px.
    const rights = await links.evaluateAll((els) =>
      els.map((el) => el.getBoundingClientRect().right <= window.innerWidth),
    );
    expect(rights.every(Boolean)).toBe(true);
    // Nor cut off at the row's own edge (it scrolls sideways when too narrow).
    const row = top.locator('ul').first();
    expect(await row.evaluate((ul) => ul.scrollWidth <= ul.clientWidth)).toBe(true);
    expect(await top.getByRole('link', { name: 'Orders' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await page.locator('footer').count()).toBe(0);
    await shoot(page, 'desk-phone-nav-1366');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a staff member refused the record reads the refusal at once, after one request', async () => {
    const staff = await verifiedShopper(db, 'Refused Staff');
    await setRole(db, staff.email, 'staff');
    const { page } = await newPage(SMALL_PHONE);
    await signIn(page, staff);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('desk.record')) asked.push(request.url());
    });
    await page.goto('/desk/record');
    await page.getByText('Only the shop’s owner can do this.').waitFor({ timeout: 3_000 });
    expect(await page.getByText(/Loading the record/).count()).toBe(0);
    expect(asked).toHaveLength(1);
    // Staff see no owner's sections under More.
    await page.getByTestId('desk-bottom-bar').getByRole('button', { name: 'More' }).click();
    const sheet = page.getByRole('dialog', { name: 'More of the desk' });
    await sheet.getByRole('link', { name: 'Stock', exact: true }).waitFor();
    expect(await sheet.getByRole('link', { name: 'Record', exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('a stock count at 360 px: "How many on the shelf?", the difference shown, the stock set', async () => {
    const piece = await addProduct(db, { name: 'Counted Shelf Wrap', price: 90_000, stock: 4 });
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, await deskOwner(db));
    await page.goto(`/desk/stock?variant=${piece.variantId}`);
    await drawn(page);
    await page.getByRole('button', { name: 'Adjust stock for Counted Shelf Wrap' }).first().click();
    const form = page.getByRole('dialog', { name: 'Counted Shelf Wrap' });
    await form.getByLabel('Reason').selectOption({ label: 'Counted' });
    const shelf = form.getByLabel('How many on the shelf?');
    expect(await shelf.inputValue()).toBe('4');
    await shelf.fill('6');
    await form.getByText('Logs +2 (4 in stock now).').waitFor();
    await shoot(page, 'desk-phone-count-360');
    await form.getByRole('button', { name: 'Save change' }).click();
    await page.getByText('Stock is now 6').waitFor({ timeout: 20_000 });
    expect(await stockOf(db, { variantId: piece.variantId })).toBe(6);
    const moves = await db
      .select({ change: stockMovements.change, reason: stockMovements.reason })
      .from(stockMovements)
      .where(eq(stockMovements.variantId, piece.variantId))
      .orderBy(stockMovements.id);
    expect(moves.at(-1)).toEqual({ change: 2, reason: 'counted' });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
