// Search that does not grow with the catalogue (issue 38): on a shop of 1,500+ pieces the counts
// stop at 1,000 and say so ("1,000+ pieces"), the pages still reach the last piece, a word of one
// or two letters is the start of a name's word, and the facets read as before.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
const SHIRTS = 1_500;

beforeAll(async () => {
  test = await openTestDatabase();
  // 1,500 shirts in one statement: shirt i costs 20,000 + 10 i (so the first 1,000 cost at most
  // 30,000) and comes in M (i even) or L (i odd), one piece in stock.
  await test.db.execute(sql`
    with made as (
      insert into products (product_name, slug, price, kind, options, created_at)
      select 'Saffron Linen Shirt ' || i, 'saffron-linen-shirt-' || i, 20000 + i * 10, 'clothes',
        jsonb_build_array(jsonb_build_object('name', 'Size',
          'values', jsonb_build_array(case when i % 2 = 0 then 'M' else 'L' end))),
        now() - i * interval '1 minute'
      from generate_series(1, ${SHIRTS}) as i
      returning id, options->0->'values'->>0 as size
    )
    insert into product_variants (product_id, sku, options, label, stock)
    select id, 'SHIRT-' || id, jsonb_build_object('Size', size), size, 1 from made`);
  // Pieces whose names start a word with "ki", or hold it inside a word, at 150,000 and up.
  const named = [
    { name: 'Kitenge Wrap' },
    { name: 'Red Kitenge Skirt' },
    { name: 'Patchwork-Kitenge Bag' },
    { name: 'Silk Kimono Robe' },
    { name: 'Makika Clutch' },
    { name: 'Plain Tee', description: 'Trimmed in kitenge.' },
  ];
  for (const [i, piece] of named.entries()) {
    await addProduct(test.db, { ...piece, price: 150_000 + i, stock: 2 });
  }
});
afterAll(() => test?.close());

const caller = () => callerFor(test.db).catalogue;
const names = async (term: string) =>
  (await caller().search({ term })).products.map((p) => p.name).sort();

describe('counts stop at 1,000', () => {
  it('says 1,000 and that there are more, on a listing, a search and the shop’s rows', async () => {
    const all = await caller().list({});
    expect(all).toMatchObject({ total: 1_000, totalCapped: true, pageCount: 42 });
    expect(all.products).toHaveLength(24);
    const shirts = await caller().search({ term: 'linen shirt' });
    expect(shirts).toMatchObject({ total: 1_000, totalCapped: true, pageCount: 42 });
    const shop = await caller().shop();
    expect(shop).toMatchObject({ total: 1_000, totalCapped: true });
    const rows = Object.fromEntries(shop.rows.map((row) => [row.group, row]));
    // New Arrivals is 30 % of everything: of 1,000+, 300+.
    expect(rows.new).toMatchObject({ count: 300, countCapped: true });
    expect(rows.affordable).toMatchObject({ count: 1_000, countCapped: true });
    expect(rows.premium).toMatchObject({ count: 6, countCapped: false });
  });

  it('counts exactly up to 1,000, and 1,001 as 1,000 and more', async () => {
    const thousand = await caller().list({ filters: { maxPrice: 30_000 } });
    expect(thousand).toMatchObject({ total: 1_000, totalCapped: false, pageCount: 42 });
    const more = await caller().list({ filters: { maxPrice: 30_010 } });
    expect(more).toMatchObject({ total: 1_000, totalCapped: true });
    const fewer = await caller().list({ filters: { maxPrice: 29_990 } });
    expect(fewer).toMatchObject({ total: 999, totalCapped: false, pageCount: 42 });
  });

  it('still pages to the last piece: each page knows of the next', async () => {
    const pieces = SHIRTS + 6;
    const lastPage = Math.ceil(pieces / 24);
    const at42 = await caller().list({ page: 42 });
    expect(at42).toMatchObject({ totalCapped: true, pageCount: 43 });
    expect(at42.products).toHaveLength(24);
    const last = await caller().list({ page: lastPage });
    expect(last).toMatchObject({ total: 1_000, totalCapped: true, pageCount: lastPage });
    expect(last.products).toHaveLength(pieces - (lastPage - 1) * 24);
    // Newest first: the oldest shirt is the last piece.
    expect(last.products.at(-1)?.name).toBe(`Saffron Linen Shirt ${SHIRTS}`);
  });
});

describe('a word of one or two letters', () => {
  it('finds the start of a word of the name, after a space or a hyphen', async () => {
    const found = [
      'Kitenge Wrap',
      'Patchwork-Kitenge Bag',
      'Red Kitenge Skirt',
      'Silk Kimono Robe',
    ];
    expect(await names('ki')).toEqual(found);
    expect(await names('KI')).toEqual(found);
    expect(await names('k')).toEqual(found);
    expect(await names('ki wrap')).toEqual(['Kitenge Wrap']);
  });

  it('does not find it inside a word, nor in a description', async () => {
    const found = await names('ki');
    expect(found).not.toContain('Makika Clutch');
    expect(found).not.toContain('Plain Tee');
    // A longer word is still found anywhere.
    expect(await names('kitenge')).toEqual([
      'Kitenge Wrap',
      'Patchwork-Kitenge Bag',
      'Plain Tee',
      'Red Kitenge Skirt',
    ]);
    expect(await names('kix')).toEqual([]);
    expect(await names('aki')).toEqual(['Makika Clutch']);
  });
});

describe('facets', () => {
  it('are exact up to 1,000 pieces and leave a chosen size’s own facet whole', async () => {
    // Shirts 1–999: 499 in M (even), 500 in L.
    const listing = await caller().list({ filters: { maxPrice: 29_990 } });
    expect(listing.facets).toEqual({
      sizes: [
        { value: 'M', count: 499 },
        { value: 'L', count: 500 },
      ],
      colours: [],
      exact: true,
    });
    const inM = await caller().list({ filters: { maxPrice: 29_990, size: 'M' } });
    expect(inM.total).toBe(499);
    expect(inM.facets.sizes).toEqual(listing.facets.sizes);
  });

  it('beyond 1,000 pieces name the values without exact counts', async () => {
    const { facets } = await caller().list({});
    expect(facets.exact).toBe(false);
    expect(facets.sizes.map((s) => s.value)).toEqual(['M', 'L']);
  });
});
