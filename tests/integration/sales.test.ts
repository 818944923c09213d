// A false sale (issue 32): a compare-at price on one variant (L · Rust, 1 left) made the whole
// piece read "Was UGX 150,000 Now 135,000" on the listing, the search and the product page. A
// sale is shown on the variants on sale only: a card of a piece on sale in some sizes carries no
// struck price (its text says "Sale in some sizes"), and the product page's variants each carry
// their own.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productVariants } from '#db/schema/index.ts';
import { addProduct, type TestPiece } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let partly: TestPiece;
let wholly: TestPiece;

beforeAll(async () => {
  test = await openTestDatabase();
  const options = [
    { name: 'Size', values: ['M', 'L'] },
    { name: 'Colour', values: ['Rust'] },
  ];
  partly = await addProduct(test.db, {
    name: 'Rust Linen Shift',
    price: 135_000,
    options,
    stock: { 'M · Rust': 6, 'L · Rust': 1 },
  });
  // One variant on sale: L · Rust, 1 left.
  await test.db
    .update(productVariants)
    .set({ compareAtPrice: 150_000 })
    .where(eq(productVariants.id, partly.variants['L · Rust'] ?? 0));
  wholly = await addProduct(test.db, {
    name: 'Ochre Wrap Skirt',
    price: 90_000,
    options,
    stock: { 'M · Rust': 3, 'L · Rust': 3 },
    compareAtPrice: 120_000,
  });
  // Its L costs more and was more: the card strikes the lowest "was".
  await test.db.execute(
    sql`update product_variants set price = 100000, compare_at_price = 140000
        where id = ${wholly.variants['L · Rust'] ?? 0}`,
  );
});
afterAll(() => test.close());

const visitor = () => callerFor(test.db).catalogue;

describe('a sale on some variants', () => {
  it('is not the piece’s sale on the listing and the search: no struck price, "some"', async () => {
    const listed = await visitor().list({});
    const searched = await visitor().search({ term: 'rust linen' });
    for (const cards of [listed.products, searched.products]) {
      expect(cards.find((card) => card.id === partly.id)).toMatchObject({
        price: 135_000,
        compareAtPrice: null,
        sale: 'some',
      });
    }
  });

  it('shows on the product page on that variant only', async () => {
    const page = await visitor().productBySlug({ slug: partly.slug });
    expect(page).toMatchObject({ compareAtPrice: null, sale: 'some' });
    expect(
      page.variants.map((v) => ({ label: v.label, price: v.price, was: v.compareAtPrice })),
    ).toEqual([
      { label: 'M · Rust', price: 135_000, was: null },
      { label: 'L · Rust', price: 135_000, was: 150_000 },
    ]);
    expect(page.variants.map((v) => v.sku).every((sku) => sku.length > 0)).toBe(true);
  });

  it('a sale on every variant is the piece’s: struck at the lowest compare-at price', async () => {
    const listed = await visitor().list({});
    const card = listed.products.find((p) => p.id === wholly.id);
    expect(card).toMatchObject({
      price: 90_000,
      priceTo: 100_000,
      compareAtPrice: 120_000,
      sale: 'all',
    });
    const page = await visitor().productBySlug({ slug: wholly.slug });
    expect(page).toMatchObject({ compareAtPrice: 120_000, sale: 'all' });
  });
});
