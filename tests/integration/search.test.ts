// Search that understands a shopper (issue 32): every word of the term must match, in any order,
// in the name, the description, a category, or a variant's colour or size; a size ("M") matches a
// size exactly; when nothing matches, the nearest names are offered ("Did you mean …"). The
// filters, facets and sorting work on a search as on any listing, and the assistant's catalogue
// search still answers.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories } from '#db/schema/index.ts';
import { searchCatalogue } from '#server/services/chat/catalogue-tools.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
const minute = 60_000;

beforeAll(async () => {
  test = await openTestDatabase();
  const [dresses] = await test.db
    .insert(categories)
    .values({ name: 'Dresses' })
    .returning({ id: categories.id });
  const clothes = [{ name: 'Size', values: ['S', 'M', 'L'] }];
  // Newest first: the order a search lists them in.
  const pieces = [
    {
      // "red" is a colour, "dress" its category: neither is in its name or description.
      name: 'Nakato Wrap',
      description: 'Soft cotton, tied at the waist.',
      options: [...clothes, { name: 'Colour', values: ['Red', 'Indigo'] }],
      category: dresses?.id,
    },
    {
      name: 'Linen Shirt Dress',
      description: 'Made for hot afternoons.',
      options: [
        { name: 'Size', values: ['L'] },
        { name: 'Colour', values: ['White'] },
      ],
    },
    {
      name: 'Linen Trousers',
      description: 'Wide legs, a drawstring waist.',
      options: [
        { name: 'Size', values: ['M', 'L'] },
        { name: 'Colour', values: ['Sand'] },
      ],
    },
    {
      // Many m's, no size M.
      name: 'Mummy Maxi Gomesi',
      description: 'Linen sash, made to measure.',
      options: [],
    },
    {
      name: 'Red Kitenge Skirt',
      description: 'A bold print.',
      options: [{ name: 'Size', values: ['S'] }],
    },
  ];
  for (const [i, piece] of pieces.entries()) {
    await addProduct(test.db, {
      ...piece,
      price: 50_000 + i * 1_000,
      stock: 3,
      ...(piece.options.length
        ? {
            stock: Object.fromEntries(combos(piece.options).map((label) => [label, 3])),
          }
        : {}),
      createdAt: new Date(Date.now() - i * minute),
    });
  }
});
afterAll(() => test.close());

/** Every variant label of a product's options ("S · Red"), for its stock. */
function combos(options: { name: string; values: string[] }[]): string[] {
  let labels = [''];
  for (const option of options) {
    labels = labels.flatMap((label) =>
      option.values.map((value) => (label ? `${label} · ${value}` : value)),
    );
  }
  return labels;
}

const search = (term: string, more: Record<string, unknown> = {}) =>
  callerFor(test.db).catalogue.search({ term, ...more });
const names = async (term: string, more: Record<string, unknown> = {}) =>
  (await search(term, more)).products.map((p) => p.name);

describe('a search reads every word, in any order, in every field a shopper means', () => {
  it('"red dress" and "dress red": a colour and a category, or a name', async () => {
    expect(await names('red dress')).toEqual(['Nakato Wrap']);
    expect(await names('dress red')).toEqual(['Nakato Wrap']);
    expect(await names('RED   Dress ')).toEqual(['Nakato Wrap']);
    // One word is enough when it is the only one: a colour, a name, a category.
    expect(await names('red')).toEqual(['Nakato Wrap', 'Red Kitenge Skirt']);
    expect(await names('dress')).toEqual(['Nakato Wrap', 'Linen Shirt Dress']);
  });

  it('"linen M": a size matches a variant’s size exactly, not every text holding an m', async () => {
    expect(await names('linen M')).toEqual(['Linen Trousers']);
    expect(await names('m linen')).toEqual(['Linen Trousers']);
    expect(await names('linen')).toEqual([
      'Linen Shirt Dress',
      'Linen Trousers',
      'Mummy Maxi Gomesi',
    ]);
    const count = await search('linen M');
    expect(count).toMatchObject({ total: 1, pageCount: 1, suggestions: [] });
  });

  it('keeps the filters, facets and sorting of a listing', async () => {
    const sorted = await search('linen', { sort: 'price-desc' });
    expect(sorted.products.map((p) => p.name)).toEqual([
      'Mummy Maxi Gomesi',
      'Linen Trousers',
      'Linen Shirt Dress',
    ]);
    expect(sorted.facets.sizes).toEqual([
      { value: 'M', count: 1 },
      { value: 'L', count: 2 },
    ]);
    expect(await names('linen', { filters: { size: 'L' } })).toEqual([
      'Linen Shirt Dress',
      'Linen Trousers',
    ]);
    expect(await names('red', { filters: { colour: 'Indigo' } })).toEqual(['Nakato Wrap']);
  });

  it('offers the nearest names when nothing matches: "Did you mean …"', async () => {
    const missed = await search('nakatto');
    expect(missed).toMatchObject({ total: 0, products: [] });
    expect(missed.suggestions).toEqual(['Nakato Wrap']);
    expect((await search('kitenje skirt')).suggestions).toContain('Red Kitenge Skirt');
    // Found: nothing is offered.
    expect((await search('nakato')).suggestions).toEqual([]);
    // Nothing near: nothing offered.
    expect((await search('zzqx')).suggestions).toEqual([]);
  });

  it('reads one indexed column for the words (products_search_trgm_idx)', async () => {
    const indexes = await test.db.execute<{ indexdef: string }>(
      sql`select indexdef from pg_indexes where indexname = 'products_search_trgm_idx'`,
    );
    expect(indexes.rows[0]?.indexdef).toMatch(/gin \(search_text gin_trgm_ops\)/i);
  });

  it('leaves the assistant’s catalogue search answering', async () => {
    const rows = await searchCatalogue(test.db, 'linen trousers');
    expect(rows.map((row) => row.name)).toContain('Linen Trousers');
  });
});
