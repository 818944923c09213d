import { randomUUID } from 'node:crypto';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopNewArrivalsCount } from '#core/catalogue.ts';
import { AUTOPLAY_MS, FETCH_AHEAD_MS } from '#core/home-slides.ts';
import { formatUGX } from '#core/money.ts';
import { createDb } from '#db/client.ts';
import { categories, productImages, products, productVariants } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, openBrowser, PHONE } from '../support/browser.ts';
import { addProduct, demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';

const db = createDb(shop().databaseUrl);
let all: (typeof products.$inferSelect)[];
beforeAll(async () => {
  all = await db.select().from(products);
});
afterAll(closeBrowser);

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The phone Lighthouse emulates (Moto G Power). */
const LIGHTHOUSE_PHONE = { width: 412, height: 823 };

/**
 * The cumulative layout shift while a page loads on a phone with a slow CPU (Lighthouse's 4x):
 * the summed value of layout-shift entries not caused by input. Not "isMobile" emulation: it
 * resizes the viewport when the meta viewport is read, which Chromium counts as input, and the
 * early shifts would then be marked hadRecentInput and missed.
 */
async function layoutShiftWhileLoading(path: string, viewport: { width: number; height: number }) {
  const context = await (await openBrowser()).newContext({
    viewport,
    hasTouch: true,
    baseURL: shop().url,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    const seen = { shift: 0 };
    Object.assign(window, { layoutShift: seen });
    new PerformanceObserver((list) => {
      const entries = list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[];
      for (const entry of entries) {
        if (!entry.hadRecentInput) seen.shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const shift = await page.evaluate(
    () => (window as unknown as { layoutShift: { shift: number } }).layoutShift.shift,
  );
  await context.close();
  return { shift, errors };
}

describe('home', () => {
  it('autoplays the hero every 5 s, loops, and pauses on hover', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await page.clock.install();
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Highlights' });
    const active = () => hero.locator('[data-active="true"]').getAttribute('aria-label');
    await expect(active()).resolves.toBe('1 of 3');
    await hero.getByRole('heading', { name: 'New Collection' }).waitFor();
    // Only the shown slide's picture comes with the page; the next one is fetched shortly before
    // it shows (FETCH_AHEAD_MS), while the first is still on screen.
    const pictured = () =>
      hero
        .getByTestId('hero-slide')
        .evaluateAll((slides) => slides.map((slide) => slide.querySelector('img') !== null));
    await expect(pictured()).resolves.toEqual([true, false, false]);
    await page.clock.runFor(AUTOPLAY_MS - FETCH_AHEAD_MS + 100);
    await expect.poll(pictured).toEqual([true, true, false]);
    await expect(active()).resolves.toBe('1 of 3');
    await page.clock.runFor(FETCH_AHEAD_MS);
    await expect.poll(active).toBe('2 of 3');
    await page.clock.runFor(5100);
    await expect.poll(active).toBe('3 of 3');
    await page.clock.runFor(5100);
    await expect.poll(active).toBe('1 of 3');
    // Hovering pauses it; leaving resumes.
    await hero.hover();
    await expect(hero.getAttribute('data-playing')).resolves.toBe('false');
    await page.clock.runFor(12_000);
    await expect(active()).resolves.toBe('1 of 3');
    // Arrows and dots move it by hand.
    await hero.getByRole('button', { name: 'Next slide' }).click();
    await expect.poll(active).toBe('2 of 3');
    await hero.getByRole('button', { name: /Go to slide 3/ }).click();
    await expect.poll(active).toBe('3 of 3');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the hero still for shoppers who prefer reduced motion', async () => {
    const { page } = await newPage(DESKTOP);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Highlights' });
    await expect.poll(() => hero.getAttribute('data-playing')).toBe('false');
    await page.clock.runFor(11_000);
    await expect(hero.locator('[data-active="true"]').getAttribute('aria-label')).resolves.toBe(
      '1 of 3',
    );
    await page.context().close();
  });

  it('has the community block leading to registration and the shop', async () => {
    const { page } = await newPage(PHONE);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Join Our Fashion Community' }).waitFor();
    await expect(
      page.getByRole('link', { name: 'Create Account' }).getAttribute('href'),
    ).resolves.toBe('/register');
    await expect(
      page.getByRole('link', { name: 'Browse Collection' }).getAttribute('href'),
    ).resolves.toBe('/shop');
    await page.context().close();
  });
});

describe('shop', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows each group row with its count at ${viewport.width}px`, async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto('/shop');
      const featured = all.filter((p) => p.price > 50_000).length;
      const affordable = all.filter((p) => p.price <= 50_000).length;
      const premium = all.filter((p) => p.price > 100_000).length;
      const expected: [string, number, number][] = [
        [
          'New Arrivals',
          shopNewArrivalsCount(all.length),
          Math.min(24, shopNewArrivalsCount(all.length)),
        ],
        ['Featured Items', Math.min(6, featured), Math.min(6, featured)],
        ['Affordable Picks', affordable, Math.min(24, affordable)],
        ['Premium Collection', premium, Math.min(24, premium)],
      ];
      for (const [title, count, shown] of expected) {
        const row = region(page, `${title} ${count} ${count === 1 ? 'item' : 'items'}`);
        await expect(row.getByTestId('product-card').count()).resolves.toBe(shown);
      }
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('scrolls a row 300 px per button press', async () => {
    const { page } = await newPage(DESKTOP);
    await page.goto('/shop');
    const list = page.locator('section').filter({ hasText: 'Affordable Picks' }).locator('ul');
    await page.getByRole('button', { name: 'Scroll Affordable Picks right' }).click();
    await expect.poll(() => list.evaluate((el) => el.scrollLeft)).toBeGreaterThanOrEqual(290);
    const after = await list.evaluate((el) => el.scrollLeft);
    expect(after).toBeLessThanOrEqual(310);
    await page.getByRole('button', { name: 'Scroll Affordable Picks left' }).click();
    await expect.poll(() => list.evaluate((el) => el.scrollLeft)).toBe(0);
    await page.context().close();
  });

  // Lighthouse measured 0.27 on a phone: with the fallback fonts a row's heading wrapped its
  // buttons onto a second line, with the web fonts it did not, and the first scroller jumped.
  for (const phone of [PHONE, LIGHTHOUSE_PHONE]) {
    it(`does not shift while it loads at ${phone.width}px (layout shift under 0.02)`, async () => {
      const { shift, errors } = await layoutShiftWhileLoading('/shop', phone);
      expect(shift).toBeLessThan(0.02);
      expect(errors).toEqual([]);
    });
  }

  it('searches from the header and clears the search', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('  kitenge ');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/shop\?q=kitenge/);
    const matching = all.filter((p) =>
      `${p.productName} ${p.description}`.toLowerCase().includes('kitenge'),
    );
    await page
      .getByRole('heading', { name: `${matching.length} product(s) found for "kitenge"` })
      .waitFor();
    await expect(page.getByTestId('product-card').count()).resolves.toBe(matching.length);
    await page.getByRole('link', { name: 'Clear Search' }).click();
    await page.waitForURL((url) => url.pathname === '/shop' && !url.search);
    await page.getByRole('heading', { name: /New Arrivals/ }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says No Results Found, with ways on', async () => {
    const { page } = await newPage(PHONE);
    await page.goto('/shop?q=zzqx-nothing');
    await page.getByRole('heading', { name: 'No Results Found' }).waitFor();
    await expect(
      page.getByRole('link', { name: 'Browse All Products' }).getAttribute('href'),
    ).resolves.toBe('/shop');
    await page.getByRole('button', { name: 'Try Another Search' }).click();
    await page.waitForURL((url) => url.pathname === '/shop' && !url.search);
    await page.context().close();
  });
});

describe('search screen', () => {
  it('on a phone, searches as the shopper types: every word, in any field; a near miss offers a name', async () => {
    const piece = await addProduct(db, {
      name: `Nakato Busuuti ${randomUUID().slice(0, 4)}`,
      price: 160_000,
      description: 'Tied at the waist.',
      // Two sizes: a piece of one variant is what other tests take as a demo piece (demoPiece).
      options: [
        { name: 'Size', values: ['M', 'L'] },
        { name: 'Colour', values: ['Red'] },
      ],
      stock: { 'M · Red': 4, 'L · Red': 2 },
    });
    const { page, errors } = await newPage(PHONE);
    await page.goto('/search');
    await page.getByText('Start typing to search for products.').waitFor();
    const box = page.getByRole('searchbox', { name: 'Search products' });
    // No Search button pressed: the page follows the box once typing pauses. A colour and a
    // word of the name, in any order.
    await box.pressSequentially('red busuuti', { delay: 40 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'red busuuti');
    const card = page.getByRole('button', { name: `View ${piece.name}` });
    await card.waitFor();
    // A misspelt name: nothing found, and the nearest name offered as a search of its own.
    await box.fill('nakatto');
    await page.getByText('No products found for your search.').waitFor();
    const offered = page.getByTestId('did-you-mean');
    await offered.getByRole('link', { name: piece.name }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === piece.name);
    await card.waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('categories', () => {
  it('opens a category from the header dropdown', async () => {
    const [category] = await db.select().from(categories).orderBy(asc(categories.name)).limit(1);
    const { page, errors } = await newPage(DESKTOP);
    await page.goto('/');
    await page.getByRole('button', { name: 'Categories' }).click();
    await page.getByRole('link', { name: category?.name }).click();
    await page.waitForURL(`**/products?category=${category?.id}`);
    await page.getByRole('heading', { level: 1, name: category?.name }).waitFor();
    await expect(page.getByTestId('product-card').count()).resolves.toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('product card and dialog', () => {
  it('steps the quantity between 1 and the stock, with the total', async () => {
    // A piece in one size with only a few left (the fewest), so no size is chosen first.
    const low = await demoPiece(db, { minStock: 2, maxStock: 9, fewestFirst: true });
    const n = low.stock;
    const { page, errors } = await newPage(DESKTOP);
    await page.goto(`/shop?q=${encodeURIComponent(low.name)}`);
    const card = page.getByTestId('product-card').filter({ hasText: low.name });
    await card.getByText(`Only ${n} left`).waitFor();
    await card.getByRole('button', { name: `View ${low.name}` }).click();
    const dialog = page.getByRole('dialog', { name: low.name });
    await dialog.getByText(`Only ${n} left in stock`).waitFor();
    await dialog.getByText(`${n} available`).waitFor();
    const decrease = dialog.getByRole('button', { name: 'Decrease quantity' });
    const increase = dialog.getByRole('button', { name: 'Increase quantity' });
    await expect(decrease.isDisabled()).resolves.toBe(true);
    for (let i = 1; i < n; i++) {
      await expect(increase.isDisabled()).resolves.toBe(false);
      await increase.click();
    }
    await expect(increase.isDisabled()).resolves.toBe(true);
    await expect(decrease.isDisabled()).resolves.toBe(false);
    await dialog.getByRole('button', { name: `Add ${n} to Cart` }).waitFor();
    await dialog.getByText(`Total: ${formatUGX(low.price * n)}`).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('disables add to cart for a sold-out product', async () => {
    const soldOut = await demoPiece(db, { maxStock: 0 });
    const { page } = await newPage(PHONE);
    await page.goto(`/shop?q=${encodeURIComponent(soldOut.name)}`);
    const card = page.getByTestId('product-card').filter({ hasText: soldOut.name });
    const button = card.getByRole('button', { name: 'Out of Stock' });
    await expect(button.isDisabled()).resolves.toBe(true);
    await expect(button.getAttribute('title')).resolves.toBe('Out of Stock');
    await page.context().close();
  });

  it('sends a shopper who is not logged in to /login from add to cart', async () => {
    const inStock = await demoPiece(db, { minStock: 11 });
    const { page } = await newPage(DESKTOP);
    await page.goto(`/products/${inStock.slug}`);
    // The piece's own button (the related pieces below have theirs).
    await page.getByRole('button', { name: 'Add 1 to Cart' }).click();
    await page.waitForURL('**/login');
    await page.context().close();
  });

  it('shows the placeholder when a product image is broken', async () => {
    const piece = await demoPiece(db, { maxPrice: 50_000 });
    const [victim] = await db.select().from(products).where(eq(products.id, piece.id));
    if (!victim) throw new Error('no product');
    // Its pictures break too: the page may show them rather than the card's one.
    const pictures = await db
      .select({ id: productImages.id, url: productImages.url, widths: productImages.widths })
      .from(productImages)
      .where(eq(productImages.productId, victim.id));
    await db.batch([
      db
        .update(products)
        .set({ productImage: '/images/products/missing.svg' })
        .where(eq(products.id, victim.id)),
      db
        .update(productImages)
        .set({ url: '/images/products/missing.jpg', widths: [] })
        .where(eq(productImages.productId, victim.id)),
    ]);
    try {
      const { page } = await newPage(DESKTOP);
      await page.goto(`/products/${victim.slug}`);
      const image = page.getByRole('img', { name: victim.productName, exact: true }).first();
      await expect.poll(() => image.getAttribute('src')).toBe('/images/placeholder.svg');
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await page.context().close();
    } finally {
      await db
        .update(products)
        .set({ productImage: victim.productImage })
        .where(eq(products.id, victim.id));
      for (const picture of pictures) {
        await db
          .update(productImages)
          .set({ url: picture.url, widths: picture.widths })
          .where(eq(productImages.id, picture.id));
      }
    }
  });
});

describe('shareable product pages', () => {
  it('are rendered on the server with canonical, Open Graph and Product JSON-LD', async () => {
    // A sold-out piece in one size: its one offer (an Offer per variant) is out of stock.
    const soldOut = await demoPiece(db, { maxStock: 0 });
    const product = all.find((p) => p.id === soldOut.id);
    if (!product) throw new Error('no product');
    const response = await fetch(`${shop().url}/products/${product.slug}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const url = `${shop().url}/products/${product.slug}`;
    expect(html).toContain(`<link rel="canonical" href="${url}"`);
    expect(html).toContain('property="og:type" content="product"');
    // (Every script in the page carries the CSP nonce, this data block too.)
    const ld = html.match(/<script [^>]*type="application\/ld\+json"[^>]*>(.*?)<\/script>/)?.[1];
    expect(JSON.parse(ld ?? 'null')).toMatchObject({
      '@type': 'Product',
      name: product.productName,
      offers: [
        {
          priceCurrency: 'UGX',
          price: product.price,
          availability: 'https://schema.org/OutOfStock',
          url,
        },
      ],
    });
  });

  it('answers an unknown product or category with a clear 404 page', async () => {
    expect((await fetch(`${shop().url}/products/no-such-piece`)).status).toBe(404);
    expect((await fetch(`${shop().url}/products?category=999999`)).status).toBe(404);
    expect((await fetch(`${shop().url}/no/such/page`)).status).toBe(404);
    const { page } = await newPage(PHONE);
    await page.goto('/products/no-such-piece');
    await page.getByRole('heading', { name: 'Product not found' }).waitFor();
    await page.context().close();
  });
});

describe('side menu', () => {
  it('slides in with the logged-out entries and closes with Esc', async () => {
    const { page } = await newPage(PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await expect.poll(() => menu.isVisible()).toBe(true);
    const names = await menu.getByRole('link').allTextContents();
    expect(names).toEqual(['Home', 'Shop', 'Cart', 'Contact Us', 'Login', 'Register']);
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.locator('dialog#side-menu').evaluate((d: HTMLDialogElement) => d.open))
      .toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Shop' }).click();
    await page.waitForURL('**/shop');
    await page.context().close();
  });
});

describe('accessibility', () => {
  const pages = [
    '/',
    '/shop',
    '/shop?q=dress',
    '/search?q=dress',
    '/products',
    '/products/ankara-wrap-dress',
    '/login',
    '/register',
    '/contact',
  ];
  for (const viewport of [DESKTOP, PHONE]) {
    it(`has no serious or critical axe violations at ${viewport.width}px`, async () => {
      const [category] = await db.select().from(categories).limit(1);
      const { page } = await newPage(viewport);
      for (const path of [...pages, `/products?category=${category?.id}`]) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        expect({ path, violations: await seriousViolations(page) }).toEqual({
          path,
          violations: [],
        });
      }
      await page.context().close();
    });
  }
});

describe('an empty catalogue', () => {
  it('says No Products Available with a Refresh Page button', async () => {
    // Set the catalogue aside in real tables (each query may use another connection) and
    // put it back afterwards, ids and links included.
    // Deleting products also takes their variants and pictures, the cart lines and back-in-stock
    // requests naming those variants, and unlinks order items: all kept aside too.
    const [[variantsBefore], [productsBefore]] = await db.batch([
      db.select({ n: count() }).from(productVariants),
      db.select({ n: count() }).from(products),
      db.execute(sql`create table e2e_products as select * from products`),
      // Postgres keeps the search text itself (a generated column, migration 0017): not copied back.
      db.execute(sql`alter table e2e_products drop column search_text`),
      db.execute(sql`create table e2e_product_variants as select * from product_variants`),
      db.execute(sql`create table e2e_product_images as select * from product_images`),
      db.execute(sql`create table e2e_product_categories as select * from product_categories`),
      db.execute(sql`create table e2e_product_sellers as select * from product_sellers`),
      db.execute(sql`create table e2e_cart_items as select * from cart_items`),
      db.execute(sql`create table e2e_back_in_stock as select * from back_in_stock_requests`),
      db.execute(
        sql`create table e2e_order_item_links as select id, product_id, variant_id from order_items`,
      ),
      db.execute(sql`delete from products`),
    ]);
    try {
      const { page, errors } = await newPage(PHONE);
      await page.goto('/shop');
      await page.getByRole('heading', { name: 'No Products Available' }).waitFor();
      await page
        .getByText("We're working hard to bring you amazing products. Check back soon!")
        .waitFor();
      await page.getByRole('button', { name: 'Refresh Page' }).click();
      await page.waitForSelector('html[data-hydrated]');
      await page.getByRole('heading', { name: 'No Products Available' }).waitFor();
      await page.goto('/');
      await expect(page.getByRole('region', { name: 'Featured Collection' }).count()).resolves.toBe(
        0,
      );
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      const [copied] = (
        await db.execute<{ columns: string }>(sql`
          select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as columns
          from information_schema.columns where table_name = 'e2e_products'`)
      ).rows;
      const columns = sql.raw(copied?.columns ?? '*');
      await db.batch([
        db.execute(
          sql`insert into products (${columns}) overriding system value
              select ${columns} from e2e_products`,
        ),
        // Named columns: size and colour are generated from the options (migration 0012).
        db.execute(sql`
          insert into product_variants (id, product_id, sku, options, label, price,
                                        compare_at_price, stock, position)
          select id, product_id, sku, options, label, price, compare_at_price, stock, position
          from e2e_product_variants`),
        db.execute(
          sql`insert into product_images overriding system value select * from e2e_product_images`,
        ),
        db.execute(sql`insert into product_categories select * from e2e_product_categories`),
        db.execute(sql`insert into product_sellers select * from e2e_product_sellers`),
        db.execute(sql`insert into cart_items select * from e2e_cart_items`),
        db.execute(sql`insert into back_in_stock_requests select * from e2e_back_in_stock`),
        db.execute(sql`
          update order_items o set product_id = e.product_id, variant_id = e.variant_id
          from e2e_order_item_links e where o.id = e.id`),
        db.execute(sql`
          drop table e2e_products, e2e_product_variants, e2e_product_images,
            e2e_product_categories, e2e_product_sellers, e2e_cart_items, e2e_back_in_stock,
            e2e_order_item_links`),
      ]);
    }
    const [[restored], [variantsAfter]] = await db.batch([
      db.select({ n: count() }).from(products),
      db.select({ n: count() }).from(productVariants),
    ]);
    expect(restored?.n).toBe(productsBefore?.n);
    expect(variantsAfter?.n).toBe(variantsBefore?.n);
  });
});
