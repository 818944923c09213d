// Choosing a size and colour (issue 21): the product page's Size and Colour radio groups, the
// gallery that follows the colour and swipes on a phone, the full-screen view, the size guide,
// ?variant= links, Add to Cart refused without a size, "Tell me when it's back", and the product
// dialog opened from a card. axe clean, light and dark, at 390 and 1366 px.
import { mkdirSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { backInStockRequests, cartItems, products, productVariants } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { addProduct, type TestPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = 'tests/e2e/screenshots';
const DRESS = '/products/ankara-wrap-dress';
const poll = expect.poll;

/** The variant ids of the demo's Ankara Wrap Dress by label ('M · Indigo'). */
let dress: Record<string, number> = {};
/** A piece added for the cards: two sizes left, one dearer, on sale. */
let cardPiece: TestPiece;
let shopper: Shopper;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const rows = await db
    .select({ id: productVariants.id, label: productVariants.label })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(products.slug, 'ankara-wrap-dress'));
  dress = Object.fromEntries(rows.map((row) => [row.label, row.id]));
  cardPiece = await addProduct(db, {
    name: 'Zebrawood Test Frock',
    price: 120_000,
    compareAtPrice: 150_000,
    options: [{ name: 'Size', values: ['S', 'M', 'L', 'XL'] }],
    stock: { M: 3, L: 12 },
    createdAt: new Date('2001-01-01T00:00:00Z'),
  });
  // The L costs more: the card reads "from".
  await db
    .update(productVariants)
    .set({ price: 135_000 })
    .where(eq(productVariants.id, cardPiece.variants.L as number));
  shopper = await verifiedShopper(db, 'Variant Shopper', { phone: '+256772123470' });
});

afterAll(async () => {
  await db.delete(cartItems).where(eq(cartItems.userId, shopper.id));
  await db.delete(backInStockRequests).where(eq(backInStockRequests.userId, shopper.id));
  await db.delete(products).where(inArray(products.id, [cardPiece.id]));
  await closeBrowser();
});

/** Console errors, leaving out the demo pictures not drawn yet (they show the placeholder). */
const realErrors = (errors: string[]) =>
  errors.filter((error) => !/Failed to load resource.*404/.test(error));

const group = (page: Page, name: 'Size' | 'Colour') =>
  page.getByRole('radiogroup', { name, exact: true });
/** Chooses a value by its pill (the radio itself is visually hidden). */
const choose = (page: Page, name: 'Size' | 'Colour', value: string) =>
  group(page, name)
    .locator('label', { hasText: new RegExp(`^${value}`) })
    .click();
const gallery = (page: Page) => page.getByRole('region', { name: 'Pictures of Ankara Wrap Dress' });
const shownAlt = (page: Page) => gallery(page).getAttribute('data-current-alt');
const variantInUrl = (page: Page) => new URL(page.url()).searchParams.get('variant');

async function expectNoViolations(page: Page) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

async function shoot(page: Page, name: string, fullPage = true) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function cartLines(userId: string) {
  return db
    .select({ variantId: cartItems.variantId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.userId, userId));
}

for (const [label, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  const px = viewport.width;

  describe(`choosing a size and colour at ${px} px`, () => {
    it('chooses colour and size: the pictures follow the colour, the URL names the variant', async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto(DRESS);
      const colour = group(page, 'Colour');
      const size = group(page, 'Size');
      await expect(colour.getByRole('radio', { name: 'Indigo' }).isChecked()).resolves.toBe(true);
      await expect(shownAlt(page)).resolves.toBe('Ankara Wrap Dress in Indigo');
      // No size is chosen for the shopper, so no variant is in the URL yet.
      expect(variantInUrl(page)).toBeNull();
      await expect(size.getByRole('radio', { checked: true }).count()).resolves.toBe(0);

      await choose(page, 'Colour', 'Terracotta');
      await poll(() => shownAlt(page)).toBe('Ankara Wrap Dress in Terracotta');
      await expect(gallery(page).getAttribute('data-current-colour')).resolves.toBe('Terracotta');
      // The gallery shows Terracotta's own pictures and those of no colour, not Indigo's.
      const alts = await gallery(page)
        .getByTestId('gallery-strip')
        .locator('img')
        .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')));
      expect(alts).toContain('Ankara Wrap Dress in Terracotta');
      expect(alts).not.toContain('Ankara Wrap Dress in Indigo');

      // XXL in Terracotta is sold out: shown, disabled, struck and named so.
      const xxl = size.getByRole('radio', { name: 'XXL, sold out' });
      await expect(xxl.getAttribute('aria-disabled')).resolves.toBe('true');
      await expect(xxl.isDisabled()).resolves.toBe(true);
      const struck = await size
        .locator('label', { hasText: /^XXL/ })
        .locator('.variant-pill-value')
        .evaluate((el) => getComputedStyle(el).textDecorationLine);
      expect(struck).toContain('line-through');
      await expect(size.getByRole('radio', { name: 'M', exact: true }).isDisabled()).resolves.toBe(
        false,
      );
      await shoot(page, `variants-terracotta-${px}`);

      await choose(page, 'Colour', 'Indigo');
      await choose(page, 'Size', 'M');
      await poll(() => variantInUrl(page)).toBe(String(dress['M · Indigo']));
      await page.getByText('Only 2 left in stock').waitFor();
      await page.getByText('2 available').waitFor();
      await expect(page.getByTestId('product-price').textContent()).resolves.toContain(
        'UGX 145,000',
      );
      // Choosing replaced the URL (no new history entry) and kept the scroll.
      await poll(() => shownAlt(page)).toBe('Ankara Wrap Dress in Indigo');
      await shoot(page, `variants-m-indigo-${px}`);
      await expectNoViolations(page);
      expect(realErrors(errors)).toEqual([]);
      await page.context().close();
    });

    it('opens a shared ?variant= link with it chosen; a bad one chooses nothing', async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto(`${DRESS}?variant=${dress['M · Terracotta']}`);
      await expect(
        group(page, 'Size').getByRole('radio', { name: 'M', exact: true }).isChecked(),
      ).resolves.toBe(true);
      await expect(
        group(page, 'Colour').getByRole('radio', { name: 'Terracotta' }).isChecked(),
      ).resolves.toBe(true);
      await expect(shownAlt(page)).resolves.toBe('Ankara Wrap Dress in Terracotta');
      // Server-rendered that way: the HTML itself has it checked.
      const html = await (
        await page.request.get(`${DRESS}?variant=${dress['M · Terracotta']}`)
      ).text();
      const terracotta = html.match(/<input[^>]*value="Terracotta"[^>]*>/)?.[0] ?? '';
      expect(terracotta).toContain('checked');

      for (const bad of ['abc', '0', '999999999', String(cardPiece.variantId)]) {
        const response = await page.goto(`${DRESS}?variant=${bad}`);
        expect(response?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: 'Ankara Wrap Dress' }).waitFor();
        await expect(
          group(page, 'Size').getByRole('radio', { checked: true }).count(),
        ).resolves.toBe(0);
      }
      expect(realErrors(errors)).toEqual([]);
      await page.context().close();
    });

    it('refuses Add to Cart without a size, then adds M · Indigo', async () => {
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await db.delete(cartItems).where(eq(cartItems.userId, shopper.id));
      await page.goto(DRESS);
      await page.getByRole('button', { name: 'Add 1 to Cart' }).click();
      const size = group(page, 'Size');
      await size.page().getByText('Please choose a size.').waitFor();
      // Said by the Size group itself, and focus went there.
      await expect(size.getAttribute('aria-invalid')).resolves.toBe('true');
      const description = await size.getAttribute('aria-describedby');
      await expect(page.locator(`[id="${description}"]`).textContent()).resolves.toBe(
        'Please choose a size.',
      );
      await poll(() =>
        page.evaluate(() =>
          document.activeElement?.closest('[role=radiogroup]')?.getAttribute('data-option'),
        ),
      ).toBe('Size');
      expect(new URL(page.url()).pathname).toBe(DRESS);
      await expect(cartLines(shopper.id)).resolves.toEqual([]);
      if (px === PHONE.width) await shoot(page, `variants-choose-size-${px}`, false);

      await choose(page, 'Size', 'M');
      await expect(page.getByText('Please choose a size.').count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Add 1 to Cart' }).click();
      await page.waitForURL('**/cart');
      await expect(cartLines(shopper.id)).resolves.toEqual([
        { variantId: dress['M · Indigo'], quantity: 1 },
      ]);
      // The browser's copy of the cart names the size and colour.
      await poll(async () => {
        const saved = await page.evaluate(() => localStorage.getItem('cart'));
        return (
          JSON.parse(saved ?? '{"productsInCart":[]}').productsInCart as { label: string }[]
        ).map((line) => line.label);
      }).toEqual(['M · Indigo']);
      expect(realErrors(errors)).toEqual([]);
      await page.context().close();
    });

    it('offers "Tell me when it’s back" for a sold-out size', async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto(`${DRESS}?variant=${dress['XXL · Terracotta']}`);
      await expect(
        group(page, 'Size').getByRole('radio', { name: 'XXL, sold out' }).isChecked(),
      ).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Out of Stock' }).isDisabled()).resolves.toBe(
        true,
      );
      await page.getByRole('button', { name: 'Tell me when it’s back' }).click();
      const signInLink = page.getByRole('link', { name: 'Sign in to be told when it’s back.' });
      await expect(signInLink.getAttribute('href')).resolves.toBe('/login');

      await signIn(page, shopper);
      await page.reload();
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await page.getByRole('button', { name: 'Tell me when it’s back' }).click();
      await page.getByText('We’ll text you when it’s back.').waitFor();
      const asked = await db
        .select()
        .from(backInStockRequests)
        .where(
          and(
            eq(backInStockRequests.userId, shopper.id),
            eq(backInStockRequests.variantId, dress['XXL · Terracotta'] as number),
          ),
        );
      expect(asked).toHaveLength(1);
      await expectNoViolations(page);
      expect(realErrors(errors)).toEqual([]);
      await page.context().close();
    });

    it('opens the size guide and the full-screen view as dialogs that give focus back', async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto(DRESS);
      const opener = page.getByRole('button', { name: 'Size guide' });
      await opener.click();
      const guide = page.getByRole('dialog', { name: 'Size guide: clothes' });
      await guide.waitFor();
      const table = guide.getByRole('table');
      await expect(
        table.getByRole('columnheader').evaluateAll((cells) => cells.map((c) => c.textContent)),
      ).resolves.toEqual(['Size', 'Bust', 'Waist', 'Hips', 'Length']);
      await expect(
        table.getByRole('rowheader').evaluateAll((cells) => cells.map((c) => c.textContent)),
      ).resolves.toEqual(['XS', 'S', 'M', 'L', 'XL', 'XXL']);
      await shoot(page, `variants-size-guide-${px}`, false);
      await expectNoViolations(page);
      await page.keyboard.press('Escape');
      await guide.waitFor({ state: 'detached' });
      await expect(opener.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

      const enlarge = page.getByRole('button', { name: 'Enlarge picture' });
      await enlarge.click();
      const zoom = page.getByTestId('zoom-view');
      await zoom.waitFor();
      await expect(zoom.getAttribute('aria-label')).resolves.toBe(
        'Ankara Wrap Dress: picture 1 of 2',
      );
      await page.getByRole('dialog').getByRole('button', { name: 'Next picture' }).click();
      await poll(() => zoom.getAttribute('aria-label')).toBe('Ankara Wrap Dress: picture 2 of 2');
      await shoot(page, `variants-zoom-${px}`, false);
      await page.keyboard.press('Escape');
      await zoom.waitFor({ state: 'detached' });
      await expect(enlarge.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      // The page's strip moved with it.
      await expect(shownAlt(page)).resolves.toBe('Ankara Wrap Dress: close detail');
      expect(realErrors(errors)).toEqual([]);
      await page.context().close();
    });

    it('chooses in the product dialog opened from a card with sizes', async () => {
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await db.delete(cartItems).where(eq(cartItems.userId, shopper.id));
      await page.goto(`/search?q=${encodeURIComponent(cardPiece.name)}`);
      const card = page.getByTestId('product-card').filter({ hasText: cardPiece.name });
      // The card: "from" the lowest price, the sale's price struck, and the sizes left.
      await expect(card.textContent()).resolves.toContain('from UGX 120,000');
      await expect(card.getByTestId('compare-at').textContent()).resolves.toContain('UGX 150,000');
      await card.getByText('Only M, L left').waitFor();
      await shoot(page, `variants-card-${px}`, false);

      // Its Add to Cart adds nothing blindly: it opens the dialog to choose a size.
      const add = card.getByRole('button', { name: 'Add to Cart' });
      await expect(add.getAttribute('aria-haspopup')).resolves.toBe('dialog');
      await add.click();
      const dialog = page.getByRole('dialog', { name: cardPiece.name });
      await dialog.getByRole('radiogroup', { name: 'Size', exact: true }).waitFor();
      await expect(cartLines(shopper.id)).resolves.toEqual([]);
      await dialog.getByRole('button', { name: 'Add 1 to Cart' }).click();
      await dialog.getByText('Please choose a size.').waitFor();
      await expect(cartLines(shopper.id)).resolves.toEqual([]);
      await expect(
        dialog.getByRole('radio', { name: 'S, sold out' }).getAttribute('aria-disabled'),
      ).resolves.toBe('true');

      await dialog.locator('label', { hasText: /^L$/ }).click();
      await expect(dialog.getByTestId('product-price').textContent()).resolves.toContain(
        'UGX 135,000',
      );
      await dialog.locator('label', { hasText: /^M$/ }).click();
      await dialog.getByText('Only 3 left in stock').waitFor();
      await dialog.getByText('3 available').waitFor();
      await dialog.getByRole('button', { name: 'Increase quantity' }).click();
      await dialog.getByText('Total: UGX 240,000').waitFor();
      await shoot(page, `variants-dialog-${px}`, false);
      await expectNoViolations(page);
      await dialog.getByRole('button', { name: 'Add 2 to Cart' }).click();
      await page.waitForURL('**/cart');
      await expect(cartLines(shopper.id)).resolves.toEqual([
        { variantId: cardPiece.variants.M, quantity: 2 },
      ]);
      expect(realErrors(errors)).toEqual([]);
      await page.context().close();
    });

    if (label === 'phone') {
      it('swipes the gallery on a phone: the shown picture and its thumbnail follow', async () => {
        const { page, errors } = await newPage(viewport);
        await page.goto(DRESS);
        const strip = gallery(page).getByTestId('gallery-strip');
        await expect(shownAlt(page)).resolves.toBe('Ankara Wrap Dress in Indigo');
        const box = await strip.boundingBox();
        if (!box) throw new Error('no gallery strip');
        // A real touch swipe, right to left, through Chromium's input pipeline (touch events,
        // not a scripted scrollLeft): the browser scrolls the strip and snaps it.
        const cdp = await page.context().newCDPSession(page);
        const y = Math.round(box.y + box.height / 2);
        const from = Math.round(box.x + box.width * 0.8);
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchStart',
          touchPoints: [{ x: from, y }],
        });
        for (let step = 1; step <= 10; step++) {
          const x = from - Math.round((box.width * 0.6 * step) / 10);
          await cdp.send('Input.dispatchTouchEvent', {
            type: 'touchMove',
            touchPoints: [{ x, y }],
          });
          await page.waitForTimeout(16);
        }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        await poll(() => shownAlt(page)).toBe('Ankara Wrap Dress: close detail');
        await poll(() =>
          gallery(page).locator('[aria-current="true"]').getAttribute('aria-label'),
        ).toBe('Picture 2 of 2: Ankara Wrap Dress: close detail');
        // And a thumbnail brings the first back.
        await gallery(page)
          .getByRole('button', { name: /^Picture 1 of 2/ })
          .click();
        await poll(() => shownAlt(page)).toBe('Ankara Wrap Dress in Indigo');
        expect(realErrors(errors)).toEqual([]);
        await page.context().close();
      });
    } else {
      it('moves through the gallery with the arrow keys', async () => {
        const { page, errors } = await newPage(viewport);
        await page.goto(DRESS);
        await gallery(page).getByTestId('gallery-strip').focus();
        await page.keyboard.press('ArrowRight');
        await poll(() => shownAlt(page)).toBe('Ankara Wrap Dress: close detail');
        await page.keyboard.press('ArrowRight');
        await poll(() => shownAlt(page)).toBe('Ankara Wrap Dress in Indigo');
        expect(realErrors(errors)).toEqual([]);
        await page.context().close();
      });
    }
  });
}

describe('pictures and previews', () => {
  it('serves pictures as <picture> with a WebP srcset and the share picture as og:image', async () => {
    const html = await (await fetch(new URL(DRESS, shop().url))).text();
    expect(html).toMatch(
      /<source type="image\/webp" srcset="\/images\/products\/ankara-wrap-dress\/indigo-400\.webp 400w, [^"]*1200w" sizes="[^"]+"/i,
    );
    // The first picture is the LCP: fetched at once and first.
    expect(html).toMatch(
      /<img [^>]*fetchPriority="high"[^>]*alt="Ankara Wrap Dress in Indigo"|<img [^>]*alt="Ankara Wrap Dress in Indigo"[^>]*fetchPriority="high"/i,
    );
    // Nothing else of the page is fetched eagerly beside it: the thumbnails below it and the
    // next pictures load lazily, after it (issue 38: the product page's LCP).
    expect(html.match(/<img [^>]*loading="eager"/gi)).toHaveLength(1);
    expect(html).toMatch(
      /<meta property="og:image" content="http:\/\/[^"]+\/images\/products\/ankara-wrap-dress\/share\.jpg"/,
    );
    expect(html).toContain('<meta property="og:image:width" content="1200"');
    expect(html).toContain('<meta property="og:image:height" content="630"');
    // Cards of the listing too: the width they show.
    const listing = await (await fetch(new URL('/shop', shop().url))).text();
    expect(listing).toMatch(
      /<source type="image\/webp" srcset="[^"]+400w[^"]*" sizes="\(min-width: 1280px\)/i,
    );
  });
});
