// Finding the right piece (issue 21): filters and sorts on catalogue.list and catalogue.search,
// their facets and counts, and bad filters from URLs and callers. PGlite by default; PostgreSQL
// with TEST_DATABASE_URL.
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_PAGE_SIZE } from '#core/catalogue.ts';
import { filtersOf, listingPageSearch, searchPageSearch } from '#core/listing.ts';
import { FILTER_TEXT, noFilteredPiecesText } from '#core/listing-text.ts';
import { categories } from '#db/schema/index.ts';
import { addProduct, type TestPiece } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let caller: ReturnType<typeof callerFor>;
let dresses: number;
let tees: number;
const pieces: Record<string, TestPiece> = {};
const day = 86_400_000;
const at = (days: number) => new Date(Date.UTC(2026, 10, 20) - days * day);

beforeAll(async () => {
  test = await openTestDatabase();
  caller = callerFor(test.db);
  const [c1, c2] = await test.db
    .insert(categories)
    .values([{ name: 'Filter Test Pieces' }, { name: 'Filter Test Tees' }])
    .returning();
  dresses = c1?.id ?? 0;
  tees = c2?.id ?? 0;
  // Newest first: wrap, shirt, sandals, hoops, cotton. Wrap and cotton cost the same.
  pieces.wrap = await addProduct(test.db, {
    name: 'Indigo Wrap Dress',
    price: 40_000,
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Indigo', 'Ochre'] },
    ],
    // M comes in stock only in Ochre; Indigo only in S.
    stock: { 'M · Ochre': 3, 'S · Indigo': 2 },
    createdAt: at(1),
    category: dresses,
  });
  pieces.shirt = await addProduct(test.db, {
    name: 'Linen Shirt',
    price: 60_000,
    options: [{ name: 'Size', values: ['M', 'L'] }],
    stock: { M: 0, L: 5 },
    createdAt: at(2),
    category: dresses,
  });
  pieces.sandals = await addProduct(test.db, {
    name: 'Leather Sandals',
    price: 90_000,
    kind: 'shoes',
    options: [{ name: 'Size', values: ['38', '39'] }],
    stock: { '38': 1 },
    createdAt: at(3),
    category: dresses,
  });
  pieces.hoops = await addProduct(test.db, {
    name: 'Gold Hoops',
    price: 120_000,
    stock: 4,
    createdAt: at(4),
    category: dresses,
  });
  pieces.cotton = await addProduct(test.db, {
    name: 'Cotton Day Dress',
    price: 40_000,
    options: [
      { name: 'Size', values: ['XS', 'M'] },
      { name: 'Colour', values: ['Indigo'] },
    ],
    stock: { 'M · Indigo': 2 },
    createdAt: at(5),
    category: dresses,
  });
  // 30 tees in size M, for pages.
  for (let i = 0; i < 30; i++) {
    await addProduct(test.db, {
      name: `Plain Tee ${String(i).padStart(2, '0')}`,
      price: 10_000 + i * 100,
      options: [{ name: 'Size', values: ['M', 'L'] }],
      stock: { M: 1 },
      createdAt: at(10 + i),
      category: tees,
    });
  }
});
afterAll(() => test.close());

const names = (listing: { products: { name: string }[] }) => listing.products.map((p) => p.name);
const inDresses = (input: Parameters<typeof caller.catalogue.list>[0] = {}) =>
  caller.catalogue.list({ categoryId: dresses, ...input });

describe('filters', () => {
  it('without filters answers as before, newest first, with empty filters', async () => {
    const listing = await inDresses();
    expect(names(listing)).toEqual([
      'Indigo Wrap Dress',
      'Linen Shirt',
      'Leather Sandals',
      'Gold Hoops',
      'Cotton Day Dress',
    ]);
    expect(listing.total).toBe(5);
    expect(listing.filters).toEqual({});
    expect(listing.sort).toBe('newest');
  });

  it('size matches pieces having a variant in it, sold out or not', async () => {
    const listing = await inDresses({ filters: { size: 'M' } });
    expect(names(listing)).toEqual(['Indigo Wrap Dress', 'Linen Shirt', 'Cotton Day Dress']);
    expect(listing.total).toBe(3);
    expect(names(await inDresses({ filters: { size: '38' } }))).toEqual(['Leather Sandals']);
    expect((await inDresses({ filters: { size: 'XXL' } })).total).toBe(0);
  });

  it('in stock with a size needs that size in stock', async () => {
    const listing = await inDresses({ filters: { size: 'M', inStock: true } });
    expect(names(listing)).toEqual(['Indigo Wrap Dress', 'Cotton Day Dress']);
    expect(listing.total).toBe(2);
    expect(names(await inDresses({ filters: { size: '39', inStock: true } }))).toEqual([]);
  });

  it('size, colour and in stock must meet in one variant', async () => {
    // The wrap has M (in Ochre) and Indigo (in S) in stock, but no M in Indigo.
    expect(names(await inDresses({ filters: { size: 'M', colour: 'Indigo' } }))).toEqual([
      'Indigo Wrap Dress',
      'Cotton Day Dress',
    ]);
    expect(
      names(await inDresses({ filters: { size: 'M', colour: 'Indigo', inStock: true } })),
    ).toEqual(['Cotton Day Dress']);
    expect(names(await inDresses({ filters: { colour: 'Ochre' } }))).toEqual(['Indigo Wrap Dress']);
  });

  it('in stock alone keeps pieces with any variant left', async () => {
    const listing = await inDresses({ filters: { inStock: true } });
    expect(listing.total).toBe(5);
    await addProduct(test.db, {
      name: 'Sold Out Scarf',
      price: 20_000,
      stock: 0,
      createdAt: at(6),
      category: dresses,
    });
    expect((await inDresses()).total).toBe(6);
    expect((await inDresses({ filters: { inStock: true } })).total).toBe(5);
    expect(names(await inDresses({ filters: { inStock: true } }))).not.toContain('Sold Out Scarf');
  });

  it('prices filter on the "from" price, both ends included', async () => {
    expect(names(await inDresses({ filters: { maxPrice: 40_000 } }))).toEqual([
      'Indigo Wrap Dress',
      'Cotton Day Dress',
      'Sold Out Scarf',
    ]);
    expect(names(await inDresses({ filters: { minPrice: 90_000 } }))).toEqual([
      'Leather Sandals',
      'Gold Hoops',
    ]);
    expect(names(await inDresses({ filters: { minPrice: 50_000, maxPrice: 90_000 } }))).toEqual([
      'Linen Shirt',
      'Leather Sandals',
    ]);
    expect(
      names(await inDresses({ filters: { minPrice: 40_000, maxPrice: 40_000, size: 'M' } })),
    ).toEqual(['Indigo Wrap Dress', 'Cotton Day Dress']);
  });

  it('combines with a group', async () => {
    const premium = await caller.catalogue.list({ group: 'premium', filters: { inStock: true } });
    expect(names(premium)).toContain('Gold Hoops');
    expect(premium.products.every((p) => p.price > 100_000)).toBe(true);
    const affordable = await caller.catalogue.list({
      group: 'affordable',
      filters: { size: 'M', inStock: true },
    });
    expect(affordable.total).toBe(32); // the wrap, the cotton dress and 30 tees
  });
});

describe('sorts', () => {
  it('price low to high and high to low, ties in id order', async () => {
    const up = await inDresses({ sort: 'price-asc' });
    expect(names(up)).toEqual([
      'Sold Out Scarf',
      'Indigo Wrap Dress',
      'Cotton Day Dress',
      'Linen Shirt',
      'Leather Sandals',
      'Gold Hoops',
    ]);
    expect(pieces.wrap?.id).toBeLessThan(pieces.cotton?.id ?? 0);
    const down = await inDresses({ sort: 'price-desc' });
    expect(names(down)).toEqual([
      'Gold Hoops',
      'Leather Sandals',
      'Linen Shirt',
      'Cotton Day Dress',
      'Indigo Wrap Dress',
      'Sold Out Scarf',
    ]);
    expect(up.sort).toBe('price-asc');
  });

  it('sorts a filtered search', async () => {
    const search = await caller.catalogue.search({
      term: 'dress',
      scope: 'name',
      sort: 'price-desc',
      filters: { size: 'M' },
    });
    expect(names(search)).toEqual(['Cotton Day Dress', 'Indigo Wrap Dress']);
    expect(search.total).toBe(2);
    const inStock = await caller.catalogue.search({
      term: 'dress',
      filters: { size: 'M', colour: 'Indigo', inStock: true },
    });
    expect(names(inStock)).toEqual(['Cotton Day Dress']);
  });
});

describe('pages', () => {
  it('keep the filters and the order, without overlap', async () => {
    const input = {
      categoryId: tees,
      filters: { size: 'M', inStock: true },
      sort: 'price-desc' as const,
    };
    const first = await caller.catalogue.list(input);
    const second = await caller.catalogue.list({ ...input, page: 2 });
    expect(first.total).toBe(30);
    expect(first.pageCount).toBe(2);
    expect(first.products).toHaveLength(LISTING_PAGE_SIZE);
    expect(second.products).toHaveLength(30 - LISTING_PAGE_SIZE);
    const all = [...first.products, ...second.products];
    expect(new Set(all.map((p) => p.id)).size).toBe(30);
    expect(all.map((p) => p.price)).toEqual([...all.map((p) => p.price)].sort((a, b) => b - a));
    const none = await caller.catalogue.list({ ...input, filters: { size: 'L', inStock: true } });
    expect(none.total).toBe(0);
    expect(none.pageCount).toBe(1);
  });
});

describe('facets', () => {
  it('count pieces per size and colour, in size order', async () => {
    const { facets } = await inDresses();
    expect(facets.exact).toBe(true);
    expect(facets.sizes).toEqual([
      { value: 'XS', count: 1 },
      { value: 'S', count: 1 },
      { value: 'M', count: 3 },
      { value: 'L', count: 2 },
      { value: '38', count: 1 },
      { value: '39', count: 1 },
    ]);
    expect(facets.colours).toEqual([
      { value: 'Indigo', count: 2 },
      { value: 'Ochre', count: 1 },
    ]);
  });

  it('in stock only counts variants with pieces left', async () => {
    const { facets } = await inDresses({ filters: { inStock: true } });
    expect(facets.sizes).toEqual([
      { value: 'S', count: 1 },
      { value: 'M', count: 2 },
      { value: 'L', count: 1 },
      { value: '38', count: 1 },
    ]);
    expect(facets.colours).toEqual([
      { value: 'Indigo', count: 2 },
      { value: 'Ochre', count: 1 },
    ]);
  });

  it('a chosen size leaves its own facet whole and narrows the colours; a count is what choosing shows', async () => {
    const listing = await inDresses({ filters: { size: 'M', inStock: true } });
    expect(listing.facets.sizes.map((s) => s.value)).toEqual(['S', 'M', 'L', '38']);
    expect(listing.facets.colours).toEqual([
      { value: 'Indigo', count: 1 },
      { value: 'Ochre', count: 1 },
    ]);
    for (const { value, count } of listing.facets.colours) {
      const chosen = await inDresses({ filters: { size: 'M', inStock: true, colour: value } });
      expect(chosen.total).toBe(count);
    }
    // Price narrows the facets too.
    const cheap = await inDresses({ filters: { maxPrice: 40_000 } });
    expect(cheap.facets.sizes.map((s) => s.value)).toEqual(['XS', 'S', 'M', 'L']);
  });

  it('of a search follow its term', async () => {
    const search = await caller.catalogue.search({ term: 'tee', scope: 'name' });
    expect(search.total).toBe(30);
    expect(search.facets.sizes).toEqual([
      { value: 'M', count: 30 },
      { value: 'L', count: 30 },
    ]);
    expect(search.facets.colours).toEqual([]);
  });
});

describe('bad filters', () => {
  const cases: [string, unknown, string][] = [
    ['a size of the wrong type', { filters: { size: 5 } }, FILTER_TEXT.badSize],
    ['a huge size', { filters: { size: 'x'.repeat(10_000) } }, FILTER_TEXT.badSize],
    ['a size with NUL', { filters: { size: 'M\u0000' } }, FILTER_TEXT.badSize],
    ['an empty colour', { filters: { colour: '  ' } }, FILTER_TEXT.badColour],
    ['a negative price', { filters: { minPrice: -1 } }, FILTER_TEXT.badPrice],
    ['a fractional price', { filters: { maxPrice: 1.5 } }, FILTER_TEXT.badPrice],
    ['a price as text', { filters: { maxPrice: '50000' } }, FILTER_TEXT.badPrice],
    ['a huge price', { filters: { maxPrice: 1e20 } }, FILTER_TEXT.badPrice],
    ['min above max', { filters: { minPrice: 90_000, maxPrice: 10_000 } }, FILTER_TEXT.priceOrder],
    ['in stock as text', { filters: { inStock: 'yes' } }, FILTER_TEXT.badStock],
    ['filters as text', { filters: 'size=M' }, FILTER_TEXT.badFilters],
    ['an unknown filter', { filters: { brand: 'x' } }, FILTER_TEXT.badFilters],
    ['an unknown sort', { sort: 'cheapest' }, FILTER_TEXT.unknownSort],
    ['a sort of the wrong type', { sort: ['price-asc'] }, FILTER_TEXT.unknownSort],
  ];
  for (const [what, input, message] of cases) {
    it(`refuses ${what} with a clear text on list and search`, async () => {
      const list = await queryOverHttp(test.db, 'catalogue.list', input);
      expect(list.status).toBe(400);
      expect(list.body.error?.message).toBe(message);
      const search = await queryOverHttp(test.db, 'catalogue.search', {
        term: 'dress',
        ...(input as object),
      });
      expect(search.status).toBe(400);
      expect(search.body.error?.message).toBe(message);
    });
  }

  it('takes odd but valid values without a 500', async () => {
    for (const size of ["M' or '1'='1", '%', '"}', 'Ünïcode', '\\']) {
      const answer = await queryOverHttp(test.db, 'catalogue.list', { filters: { size } });
      expect(answer.status).toBe(200);
    }
    const huge = await queryOverHttp(test.db, 'catalogue.list', {
      filters: { minPrice: 2_147_483_647 },
    });
    expect(huge.status).toBe(200);
  });

  it('reads a bad URL value as no filter (the nearest sensible page)', () => {
    const read = (search: Record<string, unknown>) => v.parse(listingPageSearch, search);
    expect(read({ size: 38, colour: 'Indigo', minPrice: '50,000', inStock: 'on' })).toMatchObject({
      size: 38,
      colour: 'Indigo',
      minPrice: 50_000,
      inStock: 1,
    });
    expect(read({ size: ' XL ', inStock: true })).toMatchObject({ size: 'XL', inStock: 1 });
    expect(filtersOf(read({ size: 38, inStock: 1 }))).toEqual({ size: '38', inStock: true });
    expect(filtersOf(read({ sort: 'price-asc' }))).toBeUndefined();
    expect(
      read({
        size: 'x'.repeat(10_000),
        colour: 'A\u0000',
        minPrice: -5,
        maxPrice: 'abc',
        inStock: 'yes',
        sort: 'cheapest',
      }),
    ).toEqual({
      category: undefined,
      group: undefined,
      page: undefined,
      size: undefined,
      colour: undefined,
      minPrice: undefined,
      maxPrice: undefined,
      inStock: undefined,
      sort: undefined,
    });
    expect(read({ size: { $ne: 1 }, colour: [], maxPrice: 1.5, sort: 'price-asc' })).toMatchObject({
      size: undefined,
      colour: undefined,
      maxPrice: undefined,
      sort: 'price-asc',
    });
    // Bounds typed the wrong way round read as the range meant.
    expect(read({ minPrice: 90_000, maxPrice: 20_000 })).toMatchObject({
      minPrice: 20_000,
      maxPrice: 90_000,
    });
    // A GET form's empty fields are no filter.
    expect(
      v.parse(searchPageSearch, { q: 'dress', size: '', minPrice: '', inStock: '' }),
    ).toMatchObject({ q: 'dress', size: undefined, minPrice: undefined, inStock: undefined });
  });

  it('explains an empty result', async () => {
    const filters = { size: 'XS', maxPrice: 30_000 };
    expect((await inDresses({ filters })).total).toBe(0);
    expect(noFilteredPiecesText(filters)).toBe('No pieces in size XS up to UGX 30,000.');
    expect(
      noFilteredPiecesText({ colour: 'Indigo', inStock: true, minPrice: 1, maxPrice: 2 }, 'tee'),
    ).toBe('No in-stock Indigo pieces matching “tee” between UGX 1 and UGX 2.');
  });
});
