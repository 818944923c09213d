import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, productCategories, products, productVariants } from '#db/schema/index.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { addProduct, stockOf, type TestPiece } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase();
});
afterAll(() => test.close());

const day = 86_400_000;
const added = new Map<string, TestPiece>();
async function addProducts(
  rows: { name: string; price: number; stock?: number; daysAgo: number }[],
) {
  for (const r of rows) {
    const piece = await addProduct(test.db, {
      name: r.name,
      price: r.price,
      stock: r.stock ?? 20,
      image: `/images/products/${r.name}.svg`,
      createdAt: new Date(Date.now() - r.daysAgo * day),
    });
    added.set(r.name, piece);
  }
}

describe('catalogue router', () => {
  it('starts empty and shows no groups for an empty catalogue', async () => {
    const home = await callerFor(test.db).catalogue.home();
    expect({ ...home, slides: home.slides.map((s) => s.title) }).toEqual({
      // The hero's slides are the migration's until the desk saves others (issue 34).
      slides: ['New Collection', 'Premium Quality', 'Limited Edition'],
      featured: [],
      newArrivals: [],
    });
  });

  it('home: Featured is price over 50,000 (first 8), New Arrivals the newest 8', async () => {
    await addProducts([
      { name: 'Boundary Fifty', price: 50_000, daysAgo: 1 },
      { name: 'Just Over', price: 50_001, daysAgo: 2 },
      ...Array.from({ length: 9 }, (_, i) => ({
        name: `Gown ${i}`,
        price: 120_000 + i,
        daysAgo: 10 + i,
      })),
    ]);
    const home = await callerFor(test.db).catalogue.home();
    expect(home.featured.map((p) => p.name)).toEqual([
      'Just Over',
      ...Array.from({ length: 7 }, (_, i) => `Gown ${i}`),
    ]);
    expect(home.newArrivals.map((p) => p.name)).toEqual([
      'Boundary Fifty',
      'Just Over',
      ...Array.from({ length: 6 }, (_, i) => `Gown ${i}`),
    ]);
  });

  it('returns products in the spec shape', async () => {
    const [first] = (await callerFor(test.db).catalogue.home()).newArrivals;
    const piece = added.get('Boundary Fifty');
    expect(first).toEqual({
      id: piece?.id,
      slug: piece?.slug,
      name: 'Boundary Fifty',
      price: 50_000,
      priceTo: 50_000,
      compareAtPrice: null,
      sale: null,
      image_url: '/images/products/Boundary Fifty.svg',
      quantity: 20,
      stock: 20,
      // One variant: a card can add it at once; no sizes.
      variantId: piece?.variantId,
      sizesLeft: null,
    });
    expect(first?.slug).toMatch(/^boundary-fifty-/);
  });

  it('lists categories by name and finds one product', async () => {
    await test.db
      .insert(categories)
      .values([{ name: 'Shoes' }, { name: 'Bags' }, { name: 'Dresses' }]);
    const caller = callerFor(test.db);
    expect((await caller.catalogue.categories()).map((c) => c.name)).toEqual([
      'Bags',
      'Dresses',
      'Shoes',
    ]);
    const [gown] = await test.db.select().from(products).where(eq(products.productName, 'Gown 3'));
    await expect(caller.catalogue.product({ id: gown?.id ?? 0 })).resolves.toMatchObject({
      name: 'Gown 3',
    });
  });

  it('answers bad input with a clear error and no stack trace', async () => {
    const wrongType = await queryOverHttp(test.db, 'catalogue.product', { id: 'abc' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error?.message).toBe('Product id must be a number');
    expect(JSON.stringify(wrongType.body)).not.toContain('stack');

    const missing = await queryOverHttp(test.db, 'catalogue.product', { id: 999_999 });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.message).toBe('Product not found');

    const huge = await queryOverHttp(test.db, 'catalogue.product', { id: 1e20 });
    expect(huge.status).toBe(400);
    expect(huge.body.error?.message).toBe('Product id is too large');
  });
});

describe('stock', () => {
  it('can never go below zero: the database itself refuses', async () => {
    await addProducts([{ name: 'Last Pair', price: 90_000, stock: 1, daysAgo: 0 }]);
    const variantId = added.get('Last Pair')?.variantId ?? 0;
    const sell = () =>
      test.db
        .update(productVariants)
        .set({ stock: sql`${productVariants.stock} - 1` })
        .where(eq(productVariants.id, variantId));
    await sell();
    const oversell = await sell().then(
      () => null,
      (error: { cause?: { code?: string; constraint?: string } }) => error.cause,
    );
    expect(oversell).toMatchObject({ code: '23514', constraint: 'product_variants_stock_check' });
    expect(await stockOf(test.db, { variantId })).toBe(0);
  });

  it('refuses a negative price', async () => {
    const error = await addProducts([{ name: 'Free Money', price: -1, daysAgo: 0 }]).then(
      () => null,
      (e: { cause?: { code?: string } }) => e.cause,
    );
    expect(error).toMatchObject({ code: '23514' });
  });
});

describe('demo catalogue', () => {
  it('seeds an empty shop once, filling every group', async () => {
    const fresh = await openTestDatabase();
    try {
      expect(await seedDemoCatalogue(fresh.db)).toBe(true);
      expect(await seedDemoCatalogue(fresh.db)).toBe(false);
      const all = await fresh.db.select().from(products);
      expect(all.length).toBeGreaterThanOrEqual(48);
      expect(all.filter((p) => p.price <= 50_000).length).toBeGreaterThan(0);
      expect(all.filter((p) => p.price > 50_000).length).toBeGreaterThan(0);
      expect(all.filter((p) => p.price > 100_000).length).toBeGreaterThan(0);
      const variants = await fresh.db.select().from(productVariants);
      const stock = new Map<number, number>();
      for (const v of variants) stock.set(v.productId, (stock.get(v.productId) ?? 0) + v.stock);
      // Every piece has its variants; some pieces are sold out, some nearly.
      expect([...stock.keys()].sort()).toEqual(all.map((p) => p.id).sort());
      expect(all.some((p) => stock.get(p.id) === 0)).toBe(true);
      expect(all.some((p) => (stock.get(p.id) ?? 0) > 0 && (stock.get(p.id) ?? 0) < 10)).toBe(true);
      const links = await fresh.db.select().from(productCategories);
      expect(links.length).toBe(all.length);
    } finally {
      await fresh.close();
    }
  });
});
