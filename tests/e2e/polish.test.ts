// What a new shopper noticed (issue 13), checked in the browser against the production build:
// the page's language, overlays in every theme combination, phones at 360 px, categories from the
// side menu, titles, the signed-in /login and the dialog's 'Add 1 to Cart'.
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { formatUGX } from '#core/money.ts';
import { SETTINGS_STORAGE_KEY } from '#core/settings-rules.ts';
import { createDb } from '#db/client.ts';
import { cartItems, orders, systemSettings } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { shop } from '../support/shop.ts';
import { anyClientIp, SHOPPER_PASSWORD, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

/** A demo piece in stock sold in one size (no size to choose before adding it). */
const aProduct = () => demoPiece(db, { minStock: 6 });

/** Cached settings as the settings screen leaves them in this browser. */
async function cacheAppearance(
  page: Page,
  appearance: { darkMode: boolean; language: string; currency?: string },
) {
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key as string, value as string),
    [SETTINGS_STORAGE_KEY, JSON.stringify({ appearance: { currency: 'UGX', ...appearance } })],
  );
}

describe('the page speaks the language of its text', () => {
  it('keeps lang="en" whatever language a shopper chose, on first paint and after', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await page.goto('/about');
    await cacheAppearance(page, { darkMode: true, language: 'sw' });
    await page.reload();
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    // The theme from the same cache still applies before the first paint.
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(errors).toEqual([]);
  });
});

/** Black at this opacity, as Chromium reports it (Tailwind 4 writes colours in oklab). */
const BLACK = (alpha: number) =>
  new RegExp(`^(rgba\\(0, 0, 0, ${alpha}\\)|oklab\\(0 0 0 / ${alpha}\\))$`);

describe('overlays dim the page in every theme', () => {
  const combinations = [
    ['light device', 'light', null],
    ['dark device', 'dark', null],
    ['light device, dark chosen', 'light', true],
    ['dark device, light chosen', 'dark', false],
  ] as const;
  for (const [label, device, darkMode] of combinations) {
    it(`the product dialog and the side menu: a dark scrim (${label})`, async () => {
      const { page, errors } = await newPage(DESKTOP);
      await page.emulateMedia({ colorScheme: device });
      await page.goto('/shop');
      if (darkMode !== null) {
        await cacheAppearance(page, { darkMode, language: 'en' });
        await page.reload();
      }
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await page.getByTestId('product-card').first().getByRole('button').first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const scrim = await dialog.evaluate(
        (element) => getComputedStyle(element, '::backdrop').backgroundColor,
      );
      expect(scrim).toMatch(BLACK(0.6));
      await page.screenshot({ path: `${SHOTS}/polish-dialog-${device}-${darkMode}.png` });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Open menu' }).click();
      const menuScrim = page.locator('#side-menu > div[aria-hidden]');
      await expect
        .poll(() => menuScrim.evaluate((element) => getComputedStyle(element).backgroundColor))
        .toMatch(BLACK(0.55));
      expect(errors).toEqual([]);
    });
  }
});

describe('phones', () => {
  const SCREENS = [
    '/',
    '/shop',
    '/products',
    '/products?group=new',
    '/search?q=dress',
    '/about',
    '/contact',
    '/cart',
    '/login',
    '/register',
    '/terms',
    '/privacy',
    '/cookies',
    '/forgot-password',
    '/reset-password?token=abc',
  ];

  for (const width of [360, 390, 768]) {
    it(`nothing overflows the screen at ${width} px`, async () => {
      const piece = await aProduct();
      const { page, errors } = await newPage({ width, height: 800 });
      for (const path of [...SCREENS, `/products/${piece.slug}`]) {
        await page.goto(path);
        await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
        const wide = await page.evaluate(() => {
          const limit = document.documentElement.clientWidth;
          // Elements past the right edge, except inside a horizontal scroller (product rows).
          return [...document.querySelectorAll('body *')]
            .filter((element) => {
              const box = element.getBoundingClientRect();
              if (box.width === 0 || box.right <= limit + 0.5) return false;
              for (let up = element.parentElement; up; up = up.parentElement) {
                const overflow = getComputedStyle(up).overflowX;
                if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') {
                  return false;
                }
              }
              return true;
            })
            .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 80));
        });
        expect({ path, wide }).toEqual({ path, wide: [] });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          width,
        );
      }
      expect(errors).toEqual([]);
    });
  }

  it('keeps a card’s Add to Cart on one line and names on up to two, at 360 px', async () => {
    // The longest name of a piece in stock sold in one size (a sized piece's card may ask for a
    // size instead), in its category's listing.
    const [longest] = (
      await db.execute<{ name: string; category_id: number }>(sql`
        select p.product_name as name, pc.category_id
        from products p join product_categories pc on pc.product_id = p.id
        where (select count(*) from product_variants v where v.product_id = p.id) = 1
          and exists (select 1 from product_variants v where v.product_id = p.id and v.stock > 0)
        order by length(p.product_name) desc, p.id limit 1`)
    ).rows;
    if (!longest) throw new Error('the demo catalogue has pieces in one size');
    const { page } = await newPage({ width: 360, height: 800 });
    await page.goto(`/products?category=${longest.category_id}`);
    const card = page.getByTestId('product-card').filter({ hasText: longest.name }).first();
    const button = card.getByRole('button', { name: 'Add to Cart' });
    const height = await button.evaluate((element) => element.getBoundingClientRect().height);
    expect(height).toBeLessThan(50); // one line: the button's own 44 px
    const lines = await card
      .getByRole('heading')
      .evaluate((element) => Math.round(element.getBoundingClientRect().height / 20));
    expect(lines).toBe(2);
    await page.screenshot({ path: `${SHOTS}/polish-products-360.png` });
  });

  it('reaches the categories from the side menu', async () => {
    const { page, errors } = await newPage(PHONE);
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByText('Categories').click();
    const first = menu.locator('a[href*="category="]').first();
    await first.waitFor();
    const name = (await first.textContent())?.trim() ?? '';
    expect(name.length).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/polish-menu-categories-390.png` });
    expect(await seriousViolations(page)).toEqual([]);
    await first.click();
    await page.waitForURL(/\/products\?category=\d+/);
    await page.getByRole('heading', { name }).first().waitFor();
    expect(errors).toEqual([]);
  });
});

describe('the product dialog on a phone', () => {
  for (const width of [360, 390]) {
    it(`keeps the total and the add button in view at ${width} px, and adds from there`, async () => {
      const { page, errors } = await newPage({ width, height: 740 });
      await page.goto('/shop');
      // A demo piece with a full description (a test's own products may have none).
      await page
        .getByTestId('product-card')
        .filter({ hasText: 'Brass Cowrie Drop Earrings' })
        .first()
        .getByRole('button')
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      // It opens at its top, the picture and the close button whole, and focus on Close.
      const close = dialog.getByRole('button', { name: 'Close' });
      await expect
        .poll(() => close.evaluate((button) => document.activeElement === button))
        .toBe(true);
      expect(await dialog.evaluate((element) => element.scrollTop)).toBe(0);
      const closeBox = await close.boundingBox();
      const dialogBox = await dialog.boundingBox();
      expect(closeBox && dialogBox && closeBox.y >= dialogBox.y).toBe(true);
      const add = dialog.getByRole('button', { name: 'Add 1 to Cart' });
      const total = dialog.getByText('Total:');
      for (const element of [add, total]) {
        const box = await element.boundingBox();
        if (!box) throw new Error('shown in the dialog');
        expect(box.y + box.height).toBeLessThanOrEqual(740);
        expect(box.y).toBeGreaterThan(0);
      }
      // Nothing covers the button: it is what a tap on its middle reaches.
      expect(
        await add.evaluate((button) => {
          const box = button.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return button.contains(hit);
        }),
      ).toBe(true);
      await page.screenshot({ path: `${SHOTS}/polish-dialog-phone-${width}.png` });
      await add.click(); // a visitor: the add is remembered and the log-in screen opens
      await page.waitForURL(/\/login$/);
      expect(errors).toEqual([]);
    });
  }
});

describe('an approximate price in the chosen currency', () => {
  it('shows ≈ US$ beside UGX in the shop, and the checkout charges UGX and says so', async () => {
    const [rates] = await db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, 'exchange_rates'));
    const usd = JSON.parse(rates?.settingValue ?? '{}').USD as number;
    expect(usd).toBeGreaterThan(0);
    const piece = await aProduct();
    const shopper = await verifiedShopper(db, 'Moses Kato', { phone: '+256772000001' });
    await db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
    const { page, errors } = await newPage(DESKTOP);
    const signIn = await page.request.post('/api/auth/sign-in/email', {
      data: { email: shopper.email, password: SHOPPER_PASSWORD },
      headers: { origin: shop().url, 'cf-connecting-ip': anyClientIp() },
    });
    expect(signIn.status()).toBe(200);
    await page.goto(`/products/${piece.slug}`);
    await cacheAppearance(page, { darkMode: false, language: 'en', currency: 'USD' });
    await page.reload();
    const approx = `≈ US$ ${Math.round(piece.price / usd).toLocaleString('en-US')}`;
    await page.getByText(approx).first().waitFor();
    await page.screenshot({ path: `${SHOTS}/polish-usd-product.png` });

    const total = piece.price + 5000;
    await page.goto('/checkout');
    await fillDeliveryArea(page);
    const note = page.getByTestId('charged-in-ugx');
    await note.waitFor();
    expect(await note.textContent()).toContain(`You pay ${formatUGX(total)}`);
    expect(await note.textContent()).toContain('The shop charges in UGX only.');
    await page.getByRole('radio', { name: /Cash on Delivery/ }).check();
    await page.getByRole('button', { name: 'Place Order' }).click();
    // Cash on delivery lands on the order itself (to be paid when delivered).
    await page.waitForURL('**/orders?order=*');
    const [order] = await db.select().from(orders).where(eq(orders.customerId, shopper.id));
    expect(order?.total).toBe(total);
    expect(errors).toEqual([]);
  });
});

describe('the product page', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`has a breadcrumb and "You may also like", with its JSON-LD intact (${label})`, async () => {
      const piece = await aProduct();
      const { page, errors } = await newPage(viewport);
      const answer = await page.goto(`/products/${piece.slug}`);
      // Server-rendered: the related pieces and the breadcrumb are in the HTML itself.
      const html = (await answer?.text()) ?? '';
      expect(html).toContain('You may also like');
      expect(html).toContain('application/ld+json');
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
      await crumbs.getByRole('link', { name: 'Shop' }).waitFor();
      expect(await crumbs.locator('[aria-current="page"]').textContent()).toBe(piece.name);
      const related = page.getByRole('list', { name: 'You may also like' });
      await related.waitFor();
      const names = await related.getByRole('heading').allTextContents();
      expect(names.length).toBeGreaterThan(0);
      expect(names.length).toBeLessThanOrEqual(4);
      expect(names).not.toContain(piece.name);
      const ld = await page.locator('script[type="application/ld+json"]').first().textContent();
      expect(JSON.parse(ld ?? '{}')).toMatchObject({ '@type': 'Product', name: piece.name });
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await settle(page);
        await page.screenshot({
          path: `${SHOTS}/polish-product-${label}-${scheme}.png`,
          fullPage: true,
        });
        expect(await seriousViolations(page)).toEqual([]);
      }
      expect(errors).toEqual([]);
    });
  }
});

describe('art direction', () => {
  /** The box of the first element matching `selector`, in CSS pixels. */
  const box = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => {
        const { left, top, width, height } = element.getBoundingClientRect();
        return { left, top, width, height };
      });

  it('composes the hero as a spread: the piece fills its half and its caption links to it', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await page.goto('/');
    const slide = '[aria-roledescription="slide"][data-active="true"]';
    const hero = await box(page, '[aria-roledescription="carousel"]');
    const picture = await box(page, `${slide} figure`);
    // Right half, edge to edge, full height: no framed thumbnail in an empty field.
    expect(Math.abs(picture.left - DESKTOP.width / 2)).toBeLessThan(2);
    expect(Math.abs(picture.width - DESKTOP.width / 2)).toBeLessThan(2);
    expect(Math.abs(picture.height - hero.height)).toBeLessThan(2);
    const image = await box(page, `${slide} figure img`);
    expect(image).toEqual(picture);
    const caption = page.locator(`${slide} figcaption a`);
    const name = await page.locator(`${slide} figure img`).getAttribute('alt');
    await expect(caption.textContent()).resolves.toContain(name);
    await expect(caption.getAttribute('href')).resolves.toMatch(/^\/products\/[a-z0-9-]+$/);

    // On a phone the piece spans the screen above the words.
    await page.setViewportSize(PHONE);
    const onPhone = await box(page, `${slide} figure`);
    expect(onPhone.width).toBe(PHONE.width);
    const title = await box(page, `${slide} h2`);
    expect(title.top).toBeGreaterThan(onPhone.top + onPhone.height);
    expect(errors).toEqual([]);
  });

  it('shows a whole drawn still life beside the sign-in and join forms', async () => {
    const { page, errors } = await newPage(DESKTOP);
    for (const [path, art] of [
      ['/login', '/images/panels/sign-in.svg'],
      ['/register', '/images/panels/join.svg'],
    ] as const) {
      await page.goto(path);
      const panel = page.locator('main figure img');
      await expect(panel.getAttribute('src')).resolves.toBe(art);
      // Portrait art in a portrait-ish frame, cropped only at its calm top: the floor stays.
      await expect(
        panel.evaluate((img: HTMLImageElement) => getComputedStyle(img).objectPosition),
      ).resolves.toBe('50% 100%');
      const frame = await box(page, 'main figure');
      expect(frame.height / frame.width).toBeGreaterThan(0.95);
    }
    expect(errors).toEqual([]);
  });

  it('fills the contact hero: the words on one half, the atelier on the other', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await page.goto('/contact');
    const hero = await box(page, 'section[aria-labelledby="contact-heading"]');
    const art = await box(page, 'section[aria-labelledby="contact-heading"] img');
    expect(Math.abs(art.left - DESKTOP.width / 2)).toBeLessThan(2);
    expect(Math.abs(art.left + art.width - DESKTOP.width)).toBeLessThan(2);
    expect(Math.abs(art.height - hero.height)).toBeLessThan(2);
    expect(errors).toEqual([]);
  });
});

describe('consistency', () => {
  it('titles every page as "Page · duuka"', async () => {
    const piece = await aProduct();
    const { page } = await newPage(DESKTOP);
    for (const path of [
      '/shop',
      '/products',
      '/search',
      '/about',
      '/contact',
      '/cart',
      '/login',
      '/register',
      '/terms',
      '/privacy',
      '/cookies',
      '/forgot-password',
      '/reset-password',
    ]) {
      await page.goto(path);
      expect(await page.title()).toMatch(/^[A-Z][^·]* · duuka$/);
    }
    await page.goto(`/products/${piece.slug}`);
    expect(await page.title()).toBe(`${piece.name} · duuka`);
  });

  it('sends a signed-in shopper from /login and /register to the front page', async () => {
    const shopper = await verifiedShopper(db, 'Ruth Akello', { phone: '+256772000001' });
    const { page } = await newPage(DESKTOP);
    const answer = await page.request.post('/api/auth/sign-in/email', {
      data: { email: shopper.email, password: SHOPPER_PASSWORD },
      headers: { origin: shop().url, 'cf-connecting-ip': anyClientIp() },
    });
    expect(answer.status()).toBe(200);
    for (const path of ['/login', '/register']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/');
    }
    // Settings offers two-factor sign-in for real (tests/e2e/two-factor.test.ts), no bare switch.
    await page.goto('/settings');
    await page.getByTestId('two-factor').getByRole('button', { name: 'Turn on' }).waitFor();
    await expect(page.getByRole('switch', { name: /two-factor/i }).count()).resolves.toBe(0);
  });

  it('says "Add 1 to Cart" in the product dialog', async () => {
    const { page } = await newPage(DESKTOP);
    await page.goto('/shop');
    await page.getByTestId('product-card').first().getByRole('button').first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add 1 to Cart' }).waitFor();
  });
});
