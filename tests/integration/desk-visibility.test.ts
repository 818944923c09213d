// Drafts and archived pieces are invisible to shoppers (issue 22, decision 0044): every shopper
// read carries `onSale` (server/services/catalogue-service.ts). A draft is nowhere — listings and their
// filters and facets, search, home and shop rows, categories, related pieces, the product page,
// the sitemap, the assistant's tools and cards — and can't be added, bought or asked for; once
// published it is everywhere; archived, it hides again while the orders that sold it stay
// readable. And a publish shows at once through the edge page cache: the cache is keyed by the
// catalogue version, which the desk's write bumps in its own batch.
import { randomUUID } from 'node:crypto';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '#core/catalogue.ts';
import type { ProductStatus } from '#core/desk-roles.ts';
import { CHECKOUT_TEXT } from '#core/order-rules.ts';
import {
  backInStockRequests,
  categories,
  products,
  profiles,
  smsNotifications,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { cachedPage, type PageCache } from '#server/http/page-cache.ts';
import { appRouter } from '#server/routers/index.ts';
import { textBackInStock } from '#server/services/back-in-stock.ts';
import { productSlugs } from '#server/services/catalogue-service.ts';
import { bumpCatalogueVersion, catalogueVersion } from '#server/services/catalogue-version.ts';
import { foundProducts, shopTools } from '#server/services/chat/assistant.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { orderBook } from '#server/services/desk-orders-service.ts';
import { receiptFor } from '#server/services/orders-service.ts';
import { receiptPdf } from '#server/services/receipt-pdf.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, setStock, type TestPiece } from '../support/catalogue.ts';
import { pdfText } from '../support/pdf.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, testContext } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(async () => {
  await test?.close();
});

/** Sets a product's status as the desk saves it: with the catalogue version, in one batch. */
async function setStatus(productId: number, status: ProductStatus) {
  await test.db.batch([
    test.db.update(products).set({ status }).where(eq(products.id, productId)),
    bumpCatalogueVersion(test.db),
  ]);
}

/** A signed-in shopper with a complete profile and a phone for texts. */
async function shopper() {
  const account = await signedInShopper(test.db, auth);
  const phone = `+2567729${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
  await test.db
    .update(profiles)
    .set({ fullName: account.name, phone, address: 'Plot 4, Kampala Road' })
    .where(eq(profiles.id, account.id));
  return { ...account, phone };
}

const visitor = () => callerFor(test.db).catalogue;
const as = (who: { cookie: string }) => callerFor(test.db, new Headers({ cookie: who.cookie }));

/** The assistant's tools as one reply gets them, called as the model would. */
function assistant() {
  const found = foundProducts();
  const set = shopTools(
    test.db,
    { id: 'no-one', email: 'no-one@example.ug', name: 'No One' },
    new Set(),
    found,
  );
  const options = { toolCallId: 'call', messages: [], context: {} };
  return {
    found,
    // biome-ignore-start lint/style/noNonNullAssertion: the tools have an execute.
    search: async (query: string) =>
      (await set.searchProducts.execute!({ query }, options)) as { name: string }[],
    availability: async (product: string) =>
      (await set.productAvailability.execute!({ product, size: 'M' }, options)) as {
        name?: string;
        found?: boolean;
      },
    recommendations: async () =>
      (await set.recommendations.execute!({}, options)) as { name: string }[],
    // biome-ignore-end lint/style/noNonNullAssertion: the tools have an execute.
  };
}

const rejects = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
  );

// The piece under test: a name, a colour and a price no other piece has, in a category, with
// a neighbour of the same category and price whose "You may also like" would show it.
const word = `Zuvela${randomUUID().slice(0, 6)}`;
const COLOUR = 'Nile Turquoise';
const PRICE = 183_457;
let gown: TestPiece;
let neighbour: TestPiece;
let categoryId: number;

beforeAll(async () => {
  const [category] = await test.db
    .insert(categories)
    .values({ name: `Evening ${randomUUID().slice(0, 6)}` })
    .returning({ id: categories.id });
  categoryId = category?.id ?? 0;
  neighbour = await addProduct(test.db, {
    name: `Neighbour ${randomUUID().slice(0, 6)} Wrap`,
    price: PRICE,
    category: categoryId,
    stock: 5,
  });
  gown = await addProduct(test.db, {
    name: `${word} Kitenge Gown`,
    description: 'A hand-finished evening gown.',
    price: PRICE,
    category: categoryId,
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: [COLOUR] },
    ],
    // L is sold out: what a shopper could ask to be told about.
    stock: { [`S · ${COLOUR}`]: 3, [`M · ${COLOUR}`]: 4, [`L · ${COLOUR}`]: 0 },
  });
  await setStatus(gown.id, 'draft');
});

const variant = (label: string) => gown.variants[`${label} · ${COLOUR}`] ?? 0;

/** Every place a shopper could meet the gown, and whether it shows there. */
async function whereShown(): Promise<Record<string, boolean>> {
  const shop = visitor();
  const has = (list: { id: number }[]) => list.some((p) => p.id === gown.id);
  const all = await shop.list({ page: 1 });
  const filtered = await shop.list({ page: 1, filters: { colour: COLOUR, size: 'M' } });
  const inCategory = await shop.list({ categoryId, page: 1, filters: { minPrice: PRICE } });
  const newest = await shop.list({ group: 'new', page: 1 });
  const featured = await shop.list({ group: 'featured', page: 1, filters: { minPrice: PRICE } });
  const searched = await shop.search({ term: word, page: 1 });
  const byName = await shop.search({ term: word.toLowerCase(), scope: 'name', page: 1 });
  const home = await shop.home();
  const rows = await shop.shop();
  const bySlug = await rejects(shop.productBySlug({ slug: gown.slug }));
  const byId = await rejects(shop.product({ id: gown.id }));
  const related = await shop.related({ id: neighbour.id });
  const sitemap = await productSlugs(test.db);
  const chat = assistant();
  const chatSearch = await chat.search(`${word} gown`);
  const chatAvailability = await chat.availability(`${word} Kitenge Gown`);
  const chatRecommends = await chat.recommendations();
  return {
    listing: has(all.products),
    'listing filtered by size and colour': filtered.total > 0 && has(filtered.products),
    'colour facet': all.facets.colours.some((c) => c.value === COLOUR),
    'category and its count': has(inCategory.products) && inCategory.total > 0,
    'new arrivals': has(newest.products),
    'featured listing': has(featured.products),
    search: has(searched.products) && searched.total === 1,
    'search by name': has(byName.products),
    'home rows': has(home.featured) && has(home.newArrivals),
    'shop rows': rows.rows.some((row) => has(row.products)),
    'product by slug': bySlug === null,
    'product by id': byId === null,
    'you may also like': has(related.products),
    sitemap: sitemap.some((p) => p.slug === gown.slug),
    'assistant search': chatSearch.some((p) => p.name === gown.name),
    'assistant availability': chatAvailability.name === gown.name,
    'assistant recommendations': chatRecommends.some((p) => p.name === gown.name),
    'assistant cards': chat.found.cards.has(gown.id),
  };
}

const everywhere = (shown: boolean) =>
  Object.fromEntries(Object.keys(PLACES).map((place) => [place, shown]));
const PLACES = {
  listing: 0,
  'listing filtered by size and colour': 0,
  'colour facet': 0,
  'category and its count': 0,
  'new arrivals': 0,
  'featured listing': 0,
  search: 0,
  'search by name': 0,
  'home rows': 0,
  'shop rows': 0,
  'product by slug': 0,
  'product by id': 0,
  'you may also like': 0,
  sitemap: 0,
  'assistant search': 0,
  'assistant availability': 0,
  'assistant recommendations': 0,
  'assistant cards': 0,
};

describe('a draft, published, then archived', () => {
  let buyer: Awaited<ReturnType<typeof shopper>>;
  let orderId: string;

  it('a draft is invisible to shoppers everywhere, and can be neither added, bought nor asked for', async () => {
    expect(await whereShown()).toEqual(everywhere(false));
    // The product page's own answer is the 404 a slug that never existed gets.
    expect(await rejects(visitor().productBySlug({ slug: gown.slug }))).toEqual(
      await rejects(visitor().productBySlug({ slug: `no-such-piece-${randomUUID()}` })),
    );
    expect(await rejects(visitor().productBySlug({ slug: gown.slug }))).toEqual({
      code: 'NOT_FOUND',
      message: TEXT.productNotFound,
    });
    // Nothing about it leaks through "You may also like" asked by its own id.
    expect(await visitor().related({ id: gown.id })).toEqual({ category: null, products: [] });

    buyer = await shopper();
    expect(await rejects(as(buyer).cart.add({ variantId: variant('M') }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Product not found',
    });
    expect(
      await rejects(as(buyer).cart.merge({ items: [{ variantId: variant('M'), quantity: 1 }] })),
    ).toBeNull();
    // Named by its product, too: missing, not "choose a size" (nothing says it has sizes).
    expect(await rejects(as(buyer).cart.add({ productId: gown.id }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Product not found',
    });
    expect((await as(buyer).cart.get()).productsInCart).toEqual([]);
    expect(
      await rejects(
        as(buyer).checkout.placeOrder({
          orderId: randomUUID(),
          items: [{ productId: gown.id, quantity: 1 }],
          paymentMethod: 'cash_on_delivery',
        }),
      ),
    ).toEqual({ code: 'NOT_FOUND', message: CHECKOUT_TEXT.productNotFound(`#${gown.id}`) });
    expect(
      await rejects(
        as(buyer).checkout.placeOrder({
          orderId: randomUUID(),
          items: [{ variantId: variant('M'), quantity: 1 }],
          paymentMethod: 'cash_on_delivery',
        }),
      ),
    ).toEqual({ code: 'NOT_FOUND', message: CHECKOUT_TEXT.productNotFound(`#${variant('M')}`) });
    expect(await rejects(as(buyer).catalogue.notifyWhenBack({ variantId: variant('L') }))).toEqual({
      code: 'NOT_FOUND',
      message: TEXT.productNotFound,
    });
    const asked = await test.db
      .select()
      .from(backInStockRequests)
      .where(eq(backInStockRequests.variantId, variant('L')));
    expect(asked).toEqual([]);
    expect(await stockOfVariant(variant('M'))).toBe(4);
  });

  it('published, it shows everywhere at once, and sells', async () => {
    await setStatus(gown.id, 'published');
    expect(await whereShown()).toEqual(everywhere(true));
    const page = await visitor().productBySlug({ slug: gown.slug });
    expect(page.variants.map((v) => v.label)).toEqual([
      `S · ${COLOUR}`,
      `M · ${COLOUR}`,
      `L · ${COLOUR}`,
    ]);

    const cart = await as(buyer).cart.add({ variantId: variant('M') });
    expect(cart.productsInCart.map((l) => [l.variantId, l.stock])).toEqual([[variant('M'), 4]]);
    expect(await as(buyer).catalogue.notifyWhenBack({ variantId: variant('L') })).toEqual({
      asked: true,
    });
    orderId = randomUUID();
    await as(buyer).checkout.placeOrder({
      orderId,
      items: [{ variantId: variant('M'), quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
    });
    expect(await stockOfVariant(variant('M'))).toBe(3);
    // A second piece waits in the cart for the archive below.
    await as(buyer).cart.add({ variantId: variant('S') });
  });

  it('archived, it hides again; its cart line is no longer available; its old order stays readable', async () => {
    await setStatus(gown.id, 'archived');
    expect(await whereShown()).toEqual(everywhere(false));

    // The shopper's own line stays listed, with nothing left to buy…
    const cart = await as(buyer).cart.get();
    const line = cart.productsInCart.find((l) => l.variantId === variant('S'));
    expect(line).toMatchObject({ name: gown.name, label: `S · ${COLOUR}`, stock: 0 });
    // …can't grow, and is refused at checkout with the spec's text for a piece gone.
    expect(await rejects(as(buyer).cart.add({ variantId: variant('S') }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Product not found',
    });
    expect(await rejects(as(buyer).cart.update({ variantId: variant('S'), quantity: 2 }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Product not found',
    });
    expect(
      await rejects(
        as(buyer).checkout.placeOrder({
          orderId: randomUUID(),
          items: [{ variantId: variant('S'), quantity: 1 }],
          paymentMethod: 'cash_on_delivery',
        }),
      ),
    ).toEqual({ code: 'NOT_FOUND', message: CHECKOUT_TEXT.productNotFound(`#${variant('S')}`) });
    expect(await stockOfVariant(variant('S'))).toBe(3);
    // It can still be taken out of the cart.
    const emptied = await as(buyer).cart.remove({ variantId: variant('S') });
    expect(emptied.productsInCart.some((l) => l.variantId === variant('S'))).toBe(false);

    // Restocked while archived: nobody is texted about a hidden piece; the request waits.
    await setStock(test.db, variant('L'), 2);
    const sent = await textBackInStock(testContext(test.db, new Headers()), [variant('L')]);
    expect(sent).toBe(0);
    const texts = await test.db
      .select()
      .from(smsNotifications)
      .where(
        and(
          eq(smsNotifications.kind, 'back-in-stock'),
          eq(smsNotifications.recipientPhone, buyer.phone),
        ),
      );
    expect(texts).toEqual([]);
    expect(
      await test.db
        .select()
        .from(backInStockRequests)
        .where(eq(backInStockRequests.variantId, variant('L'))),
    ).toHaveLength(1);

    // The order placed while it was on sale reads as it was sold: name, label and price.
    const sold = { name: gown.name, variant: `M · ${COLOUR}`, price: PRICE, quantity: 1 };
    const listed = (await as(buyer).orders.list()).find((o) => o.id === orderId);
    expect(listed?.items).toEqual([expect.objectContaining(sold)]);
    const one = await as(buyer).orders.byId({ id: orderId });
    expect(one.items).toEqual([expect.objectContaining(sold)]);
    const receipt = await as(buyer).orders.receipt({ orderId });
    expect(receipt.items).toEqual([
      expect.objectContaining({ name: gown.name, variant: `M · ${COLOUR}`, price: PRICE }),
    ]);
    const pdf = await pdftotext(await receiptPdf(await requireReceipt(buyer.id, orderId)));
    expect(pdf).toContain(gown.name);
    expect(pdf).toContain(`M · ${COLOUR}`);
    expect(pdf).toContain('UGX 183,457');
    const desk = (await orderBook(test.db, { q: orderId })).orders.find((o) => o.id === orderId);
    expect(desk?.pieces).toEqual([{ name: gown.name, variant: `M · ${COLOUR}`, quantity: 1 }]);
    // The operator's list as the desk reads it.
    const operator = callerFor(test.db, new Headers({ cookie: buyer.cookie }), {
      ownerEmails: [buyer.email],
    }).desk;
    expect((await operator.orders()).orders.some((o) => o.id === orderId)).toBe(true);
  });

  it('archived between checkout’s read and its write: the write itself sells nothing', async () => {
    await setStatus(gown.id, 'published');
    const before = await stockOfVariant(variant('S'));
    // The desk archives it just after checkout read it as on sale: right before the one write.
    let archived = false;
    const racing = new Proxy(test.db, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== 'execute') return typeof value === 'function' ? value.bind(target) : value;
        return async (query: Parameters<typeof target.execute>[0]) => {
          if (!archived) {
            archived = true;
            await setStatus(gown.id, 'archived');
          }
          return target.execute(query);
        };
      },
    });
    const raced = randomUUID();
    const result = await placeOrder(racing, buyer, {
      orderId: raced,
      lines: [{ variantId: variant('S'), quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
    });
    expect(archived).toBe(true);
    expect(result).toEqual({
      ok: false,
      problem: 'product-missing',
      name: `#${variant('S')}`,
    });
    const orders = await test.db.execute(sql`select 1 from orders where id = ${raced}`);
    expect(orders.rows).toHaveLength(0);
    expect(await stockOfVariant(variant('S'))).toBe(before);
  });
});

async function stockOfVariant(variantId: number) {
  const result = await test.db.execute<{ stock: number }>(
    sql`select stock from product_variants where id = ${variantId}`,
  );
  return Number(result.rows[0]?.stock);
}

async function requireReceipt(userId: string, orderId: string) {
  const receipt = await receiptFor(test.db, userId, orderId, null);
  if (!receipt) throw new Error('no receipt');
  return receipt;
}

/** The receipt PDF's text as a reader shows it (tests/support/pdf.ts). */
const pdftotext = (pdf: Uint8Array) => pdfText(pdf, { mode: 'layout' });

describe('publishing through the edge page cache', () => {
  /** caches.default as the Cache API keeps GETs: by URL. */
  function memoryCache(): PageCache {
    const kept = new Map<string, Response>();
    return {
      match: async (key) => kept.get(key instanceof Request ? key.url : String(key))?.clone(),
      put: async (key, response) => {
        kept.set(key instanceof Request ? key.url : String(key), response.clone());
      },
    };
  }

  /** An anonymous GET through the Worker's page cache, keyed by the catalogue version as the
   * Worker keys it (app/server.ts), answered by the real router when not kept. */
  function edge() {
    const cache = memoryCache();
    let renders = 0;
    const get = async (path: string) => {
      const request = new Request(`http://shop.test${path}`);
      const kept: Promise<unknown>[] = [];
      const response = await cachedPage(
        request,
        randomUUID(),
        async () => {
          renders += 1;
          return fetchRequestHandler({
            endpoint: '/api/trpc',
            req: request,
            router: appRouter,
            createContext: () => testContext(test.db, request.headers),
          });
        },
        {
          cache,
          seconds: 60,
          build: 'build-1',
          keep: (work) => kept.push(work),
          version: () => catalogueVersion(test.db),
        },
      );
      await Promise.all(kept);
      return {
        status: response.status,
        cache: response.headers.get('x-duuka-cache'),
        body: await response.text(),
      };
    };
    return { get, renders: () => renders };
  }

  const shopPath = '/api/trpc/catalogue.shop';
  const pagePath = (slug: string) =>
    `/api/trpc/catalogue.productBySlug?input=${encodeURIComponent(JSON.stringify({ slug }))}`;

  it('serves /shop and a product page from the cache, and a publish shows at once', async () => {
    const dress = await addProduct(test.db, {
      name: `Cached ${randomUUID().slice(0, 6)} Busuuti`,
      price: 99_000,
      stock: 4,
    });
    await setStatus(dress.id, 'draft');
    const { get, renders } = edge();

    // Kept: the second anonymous request is answered from the cache, without rendering.
    const first = await get(shopPath);
    expect(first).toMatchObject({ status: 200, cache: 'miss' });
    expect(first.body).not.toContain(dress.name);
    expect(await get(shopPath)).toMatchObject({ status: 200, cache: 'hit', body: first.body });
    const neighbourPage = await get(pagePath(neighbour.slug));
    expect(neighbourPage).toMatchObject({ status: 200, cache: 'miss' });
    expect(await get(pagePath(neighbour.slug))).toMatchObject({ cache: 'hit' });
    // The draft's page is the 404, never kept.
    expect(await get(pagePath(dress.slug))).toMatchObject({ status: 404, cache: null });
    const rendered = renders();

    // A change that did not bump the version (never the desk's way) is not seen: the cache holds.
    await test.db.update(products).set({ status: 'published' }).where(eq(products.id, dress.id));
    expect(await get(shopPath)).toMatchObject({ cache: 'hit', body: first.body });
    expect(renders()).toBe(rendered);
    await test.db.update(products).set({ status: 'draft' }).where(eq(products.id, dress.id));

    // Published as the desk does it (status and version in one batch): the next request is new.
    await setStatus(dress.id, 'published');
    const after = await get(shopPath);
    expect(after).toMatchObject({ status: 200, cache: 'miss' });
    expect(after.body).toContain(dress.name);
    const page = await get(pagePath(dress.slug));
    expect(page).toMatchObject({ status: 200, cache: 'miss' });
    expect(page.body).toContain(dress.name);
    expect(await get(pagePath(dress.slug))).toMatchObject({ cache: 'hit' });
    expect(await get(pagePath(neighbour.slug))).toMatchObject({ cache: 'miss' });
    expect(await get(shopPath)).toMatchObject({ cache: 'hit', body: after.body });

    // Archived the same way: gone at once.
    await setStatus(dress.id, 'archived');
    const archived = await get(shopPath);
    expect(archived).toMatchObject({ cache: 'miss' });
    expect(archived.body).not.toContain(dress.name);
    expect(await get(pagePath(dress.slug))).toMatchObject({ status: 404 });
  });
});
