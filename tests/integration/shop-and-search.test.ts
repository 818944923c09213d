import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, productCategories, products } from '#db/schema/index.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
const day = 86_400_000;

// 10 products, newest first: prices straddle both thresholds exactly.
const catalogue = [
  { name: 'Premium Edge Coat', price: 100_001, description: 'Wool coat' },
  { name: 'Hundred Flat Blazer', price: 100_000, description: 'Linen blazer' },
  { name: 'Featured Edge Dress', price: 50_001, description: 'Cotton dress' },
  { name: 'Fifty Flat Skirt', price: 50_000, description: 'A 100% cotton skirt' },
  { name: 'Cheap_Tee', price: 15_000, description: 'Rib tee' },
  { name: 'Kitenge Wrap', price: 45_000, description: 'Bold KITENGE print' },
  { name: 'Silk Scarf', price: 30_000, description: 'Hand-rolled edges' },
  { name: 'Gold Hoops', price: 250_000, description: 'Kampala gold' },
  { name: 'Beaded Clutch', price: 120_000, description: 'Glass beads, 50% off never' },
  { name: 'Canvas Tote', price: 20_000, description: 'Everyday tote' },
];

beforeAll(async () => {
  test = await openTestDatabase();
  for (const [i, p] of catalogue.entries()) {
    await addProduct(test.db, {
      name: p.name,
      price: p.price,
      stock: 5,
      description: p.description,
      createdAt: new Date(Date.now() - i * day),
    });
  }
});
afterAll(() => test.close());

describe('shop rows', () => {
  it('groups at the exact thresholds, with counts by the spec rules', async () => {
    const { total, rows } = await callerFor(test.db).catalogue.shop();
    expect(total).toBe(10);
    const byGroup = Object.fromEntries(rows.map((r) => [r.group, r]));
    // New Arrivals: 30 % of 10 = 3.
    expect(byGroup.new?.count).toBe(3);
    expect(byGroup.new?.products.map((p) => p.name)).toEqual([
      'Premium Edge Coat',
      'Hundred Flat Blazer',
      'Featured Edge Dress',
    ]);
    // Featured: price over 50,000, first 6 (there are 5).
    expect(byGroup.featured?.products.map((p) => p.name)).toEqual([
      'Premium Edge Coat',
      'Hundred Flat Blazer',
      'Featured Edge Dress',
      'Gold Hoops',
      'Beaded Clutch',
    ]);
    expect(byGroup.featured?.count).toBe(5);
    // Affordable: 50,000 or less, including 50,000 exactly.
    expect(byGroup.affordable?.count).toBe(5);
    expect(byGroup.affordable?.products.map((p) => p.price).every((p) => p <= 50_000)).toBe(true);
    expect(byGroup.affordable?.products.some((p) => p.price === 50_000)).toBe(true);
    // Premium: over 100,000 — 100,000 exactly is not premium.
    expect(byGroup.premium?.products.map((p) => p.name)).toEqual([
      'Premium Edge Coat',
      'Gold Hoops',
      'Beaded Clutch',
    ]);
    expect(rows.map((r) => r.title)).toEqual([
      'New Arrivals',
      'Featured Items',
      'Affordable Picks',
      'Premium Collection',
    ]);
  });

  it('rounds the New Arrivals share up and pages the full listing', async () => {
    const listing = await callerFor(test.db).catalogue.list({ group: 'new' });
    expect(listing.total).toBe(3);
    expect(listing.products).toHaveLength(3);
    const affordable = await callerFor(test.db).catalogue.list({ group: 'affordable' });
    expect(affordable.total).toBe(5);
  });

  it('lists a category and refuses an unknown one', async () => {
    const [bags] = await test.db.insert(categories).values({ name: 'Bags' }).returning();
    const all = await test.db.select().from(products);
    const bagIds = all.filter((p) => /Clutch|Tote/.test(p.productName)).map((p) => p.id);
    await test.db
      .insert(productCategories)
      .values(bagIds.map((productId) => ({ productId, categoryId: bags?.id ?? 0 })));
    const listing = await callerFor(test.db).catalogue.list({ categoryId: bags?.id });
    expect(listing.category?.name).toBe('Bags');
    expect(listing.products.map((p) => p.name).sort()).toEqual(['Beaded Clutch', 'Canvas Tote']);
    const unknown = await queryOverHttp(test.db, 'catalogue.list', { categoryId: 99_999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe('Category not found');
  });
});

describe('search', () => {
  const search = (term: string, scope?: 'all' | 'name') =>
    callerFor(test.db).catalogue.search({ term, scope });

  it('is case-insensitive on name or description, and trims the term', async () => {
    expect((await search('  kitenge ')).products.map((p) => p.name)).toEqual(['Kitenge Wrap']);
    expect((await search('KAMPALA')).products.map((p) => p.name)).toEqual(['Gold Hoops']);
    expect((await search('tote')).total).toBe(1);
  });

  it('reads names and descriptions on the search screen too (issue 32: scope is ignored)', async () => {
    expect((await search('kampala', 'name')).products.map((p) => p.name)).toEqual(['Gold Hoops']);
    expect((await search('gold', 'name')).products.map((p) => p.name)).toEqual(['Gold Hoops']);
  });

  it('pages results and keeps the exact total on every page', async () => {
    const first = await callerFor(test.db).catalogue.search({ term: 'edge', page: 1 });
    const second = await callerFor(test.db).catalogue.search({ term: 'edge', page: 2 });
    expect(first.total).toBe(
      catalogue.filter((p) => `${p.name} ${p.description}`.toLowerCase().includes('edge')).length,
    );
    expect(first.total).toBe(3);
    expect(first.pageCount).toBe(1);
    expect(second).toMatchObject({ products: [], total: first.total, page: 2 });
  });

  it('does nothing for an empty term', async () => {
    expect(await search('   ')).toEqual({
      products: [],
      total: 0,
      totalCapped: false,
      page: 1,
      pageCount: 1,
      term: '',
      suggestions: [],
      filters: {},
      sort: 'newest',
      facets: { sizes: [], colours: [], exact: true },
    });
  });

  it('matches % and _ literally', async () => {
    expect((await search('50%')).products.map((p) => p.name)).toEqual(['Beaded Clutch']);
    expect((await search('100%')).products.map((p) => p.name)).toEqual(['Fifty Flat Skirt']);
    expect((await search('p_t')).products.map((p) => p.name)).toEqual(['Cheap_Tee']);
    // A word of one or two characters is the start of a name's word (issue 38): no name has a
    // word starting with %, _ or a backslash; as wildcards they would have matched every piece.
    for (const word of ['%', '_', '\\', '%%', '_t']) expect((await search(word)).total).toBe(0);
  });

  it('answers bad input with a clear error', async () => {
    const huge = await queryOverHttp(test.db, 'catalogue.search', { term: 'x'.repeat(10_000) });
    expect(huge.status).toBe(400);
    expect(huge.body.error?.message).toBe('Search terms can be at most 100 characters.');
    const wrongType = await queryOverHttp(test.db, 'catalogue.search', { term: { $ne: '' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error?.message).toBe('An error occurred while searching.');
    const badScope = await queryOverHttp(test.db, 'catalogue.search', { term: 'a', scope: 'sql' });
    expect(badScope.status).toBe(400);
  });
});
