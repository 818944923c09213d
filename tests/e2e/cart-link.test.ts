// A cart link (issue 37), in the browser against the production build: staff send a shopper
// `/cart?add=…` on WhatsApp; opening it as a visitor at 360 px (her cart in this browser) or signed
// in at 1366 px (her cart on the server, a piece already in it) fills the cart once: a sold-out
// size is left out and said so, a quantity above the stock is lowered and said so, the address
// bar is plain /cart, and a reload adds nothing more.

import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartLinkPath } from '#core/cart-link.ts';
import { formatUGX } from '#core/money.ts';
import { createDb } from '#db/client.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka';

beforeAll(() => mkdir(SHOTS, { recursive: true }));
afterAll(closeBrowser);

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000 });

/**
 * The pieces a link names, fresh for each test (a unique word in each name): a dress whose S is
 * sold out and M has 4, a clutch with 1 left, earrings with plenty; the demo's pictures.
 */
async function piecesForALink() {
  const word = randomUUID().slice(0, 4).toUpperCase();
  const dress = await addProduct(db, {
    name: `Kitenge Wrap Dress ${word}`,
    price: 185_000,
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    stock: { S: 0, M: 4, L: 2 },
    image: '/images/products/ankara-wrap-dress/indigo.jpg',
    createdAt: LONG_AGO,
  });
  const clutch = await addProduct(db, {
    name: `Barkcloth Evening Clutch ${word}`,
    price: 95_000,
    stock: 1,
    image: '/images/products/barkcloth-evening-clutch/piece.jpg',
    createdAt: LONG_AGO,
  });
  const earrings = await addProduct(db, {
    name: `Brass Cowrie Earrings ${word}`,
    price: 45_000,
    stock: 10,
    image: '/images/products/brass-cowrie-drop-earrings/piece.jpg',
    createdAt: LONG_AGO,
  });
  const link = cartLinkPath([
    { variantId: dress.variants.M as number, quantity: 2 },
    { variantId: dress.variants.S as number, quantity: 1 },
    { variantId: clutch.variantId, quantity: 3 },
    { variantId: earrings.variantId, quantity: 2 },
  ]);
  return { dress, clutch, earrings, link };
}

/** Each line of the cart: its name and size, its quantity and its total. */
async function cartLines(page: Page) {
  const items = page.getByRole('list', { name: 'Cart items' }).getByRole('listitem');
  return items.evaluateAll((lines) =>
    lines.map((line) => ({
      name: line.querySelector('h2')?.textContent ?? '',
      size: line.querySelector('[data-testid="variant-label"]')?.textContent ?? '',
      quantity: Number(line.querySelector('output')?.textContent),
      total: line.querySelector('[data-testid="line-total"]')?.textContent ?? '',
    })),
  );
}

/** Older than the demo's pieces: the full-size pictures stay off the shop's first rows, which
 * other files weigh (picture-budget, less-data) on the same shop. */
const LONG_AGO = new Date('2020-01-01T00:00:00Z');

/** Waits until every picture of the cart's lines has arrived (none broken, none still blank). */
async function picturesShown(page: Page) {
  const pictures = page.getByRole('list', { name: 'Cart items' }).locator('img');
  await poll(() =>
    pictures.evaluateAll((imgs) =>
      imgs.every(
        (img) =>
          img instanceof HTMLImageElement &&
          img.complete &&
          img.naturalWidth > 0 &&
          !img.currentSrc.includes('placeholder'),
      ),
    ),
  ).toBe(true);
}

/** Reloads and waits for the page to run again. */
async function reload(page: Page) {
  await page.reload();
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
}

describe('a cart link', () => {
  it('fills a visitor’s cart once at 360 px: sold out left out, the stock respected', async () => {
    const { dress, clutch, earrings, link } = await piecesForALink();
    expect(link).toMatch(/^\/cart\?add=\d+x2,\d+x1,\d+x3,\d+x2$/);
    const { page, errors } = await newPage(SMALL_PHONE);
    await page.goto(link);

    // The address bar says /cart at once: the link is gone from this tab's history.
    await page.waitForURL((url) => url.pathname === '/cart' && url.search === '');
    const notes = page.getByTestId('cart-link-notes');
    await poll(() => notes.getByRole('listitem').allTextContents()).toEqual([
      `${dress.name} (M): 2 added.`,
      `${dress.name} (S) is sold out: not added.`,
      `Only 1 left of ${clutch.name}: 1 added.`,
      `${earrings.name}: 2 added.`,
    ]);
    const filled = [
      { name: dress.name, size: 'Size and colour: M', quantity: 2, total: formatUGX(370_000) },
      { name: clutch.name, size: '', quantity: 1, total: formatUGX(95_000) },
      { name: earrings.name, size: '', quantity: 2, total: formatUGX(90_000) },
    ];
    await poll(() => cartLines(page)).toEqual(filled);
    await page.getByText('Subtotal (5 items)').waitFor();
    // The summary's figures are the shop's preview of the cart, a moment behind its lines.
    await poll(() => page.getByTestId('order-summary').textContent()).toContain(formatUGX(555_000));
    await page.waitForLoadState('networkidle');
    await page.mouse.move(0, 0);
    await poll(() => seriousViolations(page)).toEqual([]);
    await picturesShown(page);
    // A picture below a phone's first screen is drawn once it has been on screen: the full-page
    // picture of the page showed the last line's blank. Back at the top, the header is too.
    await page
      .getByRole('list', { name: 'Cart items' })
      .getByRole('listitem')
      .last()
      .scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/cart-link-360.png`, fullPage: true });
    // Nothing on the narrowest phone runs off the side.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      SMALL_PHONE.width,
    );

    // Reloaded, the cart is as it was: nothing added twice, no notes.
    await reload(page);
    await poll(() => cartLines(page)).toEqual(filled);
    await expect(notes.count()).resolves.toBe(0);
    // The visitor's cart is this browser's.
    const saved = await page.evaluate(() => localStorage.getItem('cart'));
    expect(JSON.parse(saved ?? '{}').productsInCart).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it('adds to a signed-in shopper’s cart once at 1366 px, on top of what is there', async () => {
    const { dress, clutch, earrings, link } = await piecesForALink();
    const shopper = await verifiedShopper(db, 'Nakato Link');
    // A pair of the earrings already in her cart (the server's), from an earlier visit.
    await db.execute(
      sql`insert into cart_items (user_id, variant_id, quantity)
          values (${shopper.id}, ${earrings.variantId}, 1)`,
    );
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, shopper);
    await page.goto(link);

    await page.waitForURL((url) => url.pathname === '/cart' && url.search === '');
    const notes = page.getByTestId('cart-link-notes');
    await poll(() => notes.getByRole('listitem').allTextContents()).toEqual([
      `${dress.name} (M): 2 added.`,
      `${dress.name} (S) is sold out: not added.`,
      `Only 1 left of ${clutch.name}: 1 added.`,
      `${earrings.name}: 2 added.`,
    ]);
    const filled = [
      { name: earrings.name, size: '', quantity: 3, total: formatUGX(135_000) },
      { name: dress.name, size: 'Size and colour: M', quantity: 2, total: formatUGX(370_000) },
      { name: clutch.name, size: '', quantity: 1, total: formatUGX(95_000) },
    ];
    await poll(() => cartLines(page)).toEqual(filled);
    await page.getByText('Subtotal (6 items)').waitFor();
    await poll(() => page.getByTestId('order-summary').textContent()).toContain(formatUGX(600_000));
    // Her cart is the server's: the link's lines are there.
    const inCart = async () =>
      (
        await db.execute<{ variant_id: number; quantity: number }>(
          sql`select variant_id, quantity from cart_items where user_id = ${shopper.id}
              order by variant_id`,
        )
      ).rows.map((r) => [Number(r.variant_id), Number(r.quantity)]);
    const onServer = [
      [dress.variants.M, 2],
      [clutch.variantId, 1],
      [earrings.variantId, 3],
    ].sort((a, b) => Number(a[0]) - Number(b[0]));
    await poll(inCart).toEqual(onServer);
    await page.waitForLoadState('networkidle');
    await page.mouse.move(0, 0);
    await poll(() => seriousViolations(page)).toEqual([]);
    await picturesShown(page);
    await page.screenshot({ path: `${SHOTS}/cart-link-1366.png`, fullPage: true });

    // Reloaded, and back where she came from and forward again: nothing added twice.
    await reload(page);
    await poll(() => cartLines(page)).toEqual(filled);
    await expect(notes.count()).resolves.toBe(0);
    await page.goto('/shop');
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/cart' && url.search === '');
    await poll(() => cartLines(page)).toEqual(filled);
    expect(await inCart()).toEqual(onServer);
    expect(errors).toEqual([]);
  });

  it('says so when the link is broken, and adds nothing', async () => {
    const { page, errors } = await newPage(SMALL_PHONE);
    await page.goto('/cart?add=12x0,abc');
    await page.waitForURL((url) => url.pathname === '/cart' && url.search === '');
    await page
      .getByTestId('cart-link-notes')
      .getByText('This cart link is not complete, so nothing was added. Ask us for a new one.')
      .waitFor();
    await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
    // Dismissed, the note goes.
    await page.getByTestId('cart-link-notes').getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('cart-link-notes').count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });
});
