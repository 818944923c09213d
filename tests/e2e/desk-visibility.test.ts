// Drafts through the real Worker build (issue 22, decision 0044): a draft's page is the app's 404
// (with or without ?variant=) and it is not in the sitemap; and with the edge page cache on, as in
// production, /shop and a product page come from the cache until the desk publishes, when the
// next anonymous request shows the change at once.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_TEXT } from '#core/cart-rules.ts';
import type { ProductStatus } from '#core/desk-roles.ts';
import { createDb } from '#db/client.ts';
import { cartItems, products } from '#db/schema/index.ts';
import { freePort } from '#local/free-port.ts';
import { localAccountSecrets } from '#local/secrets.ts';
import { WORKER_VARIABLES } from '#server/env.ts';
import { bumpCatalogueVersion } from '#server/services/catalogue-version.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct, type TestPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const fetchPage = (path: string) => fetch(`${shop().url}${path}`);

/** As the desk saves a status: with the catalogue version, in one batch. */
async function setStatus(productId: number, status: ProductStatus) {
  await db.batch([
    db.update(products).set({ status }).where(eq(products.id, productId)),
    bumpCatalogueVersion(db),
  ]);
}

async function draft(name: string): Promise<TestPiece> {
  const piece = await addProduct(db, {
    name: `${name} ${randomUUID().slice(0, 6)}`,
    price: 121_000,
    options: [{ name: 'Size', values: ['S', 'M'] }],
    stock: { S: 2, M: 3 },
  });
  await setStatus(piece.id, 'draft');
  return piece;
}

describe('a draft on the production build', () => {
  it('is the 404 page by its URL, with or without ?variant=, and not in the sitemap', async () => {
    const piece = await draft('Draft Kaftan');
    const never = await fetchPage('/products/no-such-piece-ever');
    expect(never.status).toBe(404);
    const neverTitle = (await never.text()).match(/<title>([^<]*)<\/title>/)?.[1];
    for (const path of [
      `/products/${piece.slug}`,
      `/products/${piece.slug}?variant=${piece.variants.M}`,
    ]) {
      const page = await fetchPage(path);
      expect(page.status, path).toBe(404);
      const html = await page.text();
      expect(html.match(/<title>([^<]*)<\/title>/)?.[1], path).toBe(neverTitle);
      expect(html).not.toContain(piece.name);
    }
    expect(await (await fetchPage('/sitemap.xml')).text()).not.toContain(piece.slug);
    await setStatus(piece.id, 'published');
    expect((await fetchPage(`/products/${piece.slug}?variant=${piece.variants.M}`)).status).toBe(
      200,
    );
    expect(await (await fetchPage('/sitemap.xml')).text()).toContain(piece.slug);
    await setStatus(piece.id, 'archived');
    expect((await fetchPage(`/products/${piece.slug}`)).status).toBe(404);
  });
});

describe('a cart line of a piece taken off sale', () => {
  afterAll(closeBrowser);

  it('stays in the cart, marked no longer available, at 360 and 1366 px, light and dark', async () => {
    const piece = await draft('Archived Shuka');
    await setStatus(piece.id, 'published');
    const shopper = await verifiedShopper(db, 'Achieng Cart', {
      phone: '+256772555111',
      address: 'Plot 9, Kampala Road',
    });
    // In the cart while it was on sale; then the desk archives it.
    await db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: piece.variants.M ?? 0, quantity: 1 });
    await setStatus(piece.id, 'archived');
    for (const viewport of [SMALL_PHONE, DESKTOP]) {
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await page.goto('/cart');
      const line = page.getByRole('listitem').filter({ hasText: piece.name });
      await line.getByText(CART_TEXT.noLongerAvailable).waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await settle(page);
        await expectNoSeriousViolations(page, `${viewport.width} ${scheme}`);
        await page.screenshot({
          path: `/tmp/duuka/cart-no-longer-available-${viewport.width}-${scheme}.png`,
          fullPage: true,
        });
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});

describe('the edge page cache on the production build', () => {
  // A second shop on the same build and database, with the cache on as in production (the
  // shared one runs with PAGE_CACHE_SECONDS=0).
  let server: PreviewServer | undefined;
  let cachedUrl = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    const port = await freePort();
    cachedUrl = `http://127.0.0.1:${port}`;
    for (const name of WORKER_VARIABLES) Reflect.deleteProperty(process.env, name);
    Object.assign(process.env, localAccountSecrets(cachedUrl), shop().fakeEnv, {
      DATABASE_URL: shop().databaseUrl,
      PAGE_CACHE_SECONDS: '60',
    });
    server = await preview({ preview: { port, strictPort: true }, logLevel: 'warn' });
  });
  afterAll(async () => {
    await server?.close();
    for (const name of WORKER_VARIABLES) Reflect.deleteProperty(process.env, name);
    Object.assign(process.env, saved);
  });

  const visit = async (path: string) => {
    const response = await fetch(`${cachedUrl}${path}`);
    return {
      status: response.status,
      cache: response.headers.get('x-duuka-cache'),
      html: await response.text(),
    };
  };

  it('serves /shop and a product page from the cache, and shows a publish at once', async () => {
    const piece = await draft('Cached Gomesi');
    const shown = await addProduct(db, {
      name: `On Sale ${randomUUID().slice(0, 6)}`,
      price: 64_000,
    });

    const first = await visit('/shop');
    expect(first).toMatchObject({ status: 200 });
    expect(first.html).not.toContain(piece.name);
    expect(await visit('/shop')).toMatchObject({ status: 200, cache: 'hit' });
    await visit(`/products/${shown.slug}`);
    expect(await visit(`/products/${shown.slug}`)).toMatchObject({ status: 200, cache: 'hit' });
    expect(await visit(`/products/${piece.slug}`)).toMatchObject({ status: 404 });

    await setStatus(piece.id, 'published');
    const after = await visit('/shop');
    expect(after).toMatchObject({ status: 200, cache: 'miss' });
    expect(after.html).toContain(piece.name);
    const page = await visit(`/products/${piece.slug}`);
    expect(page).toMatchObject({ status: 200, cache: 'miss' });
    expect(page.html).toContain(piece.name);
    expect(await visit(`/products/${piece.slug}`)).toMatchObject({ status: 200, cache: 'hit' });

    await setStatus(piece.id, 'archived');
    const archived = await visit('/shop');
    expect(archived).toMatchObject({ status: 200, cache: 'miss' });
    expect(archived.html).not.toContain(piece.name);
    expect(await visit(`/products/${piece.slug}`)).toMatchObject({ status: 404 });
  });
});
