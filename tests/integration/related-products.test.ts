import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories } from '#db/schema/index.ts';
import { tripsOf } from '#local/distance.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase();
});
afterAll(() => test.close());

const piece = (name: string, price: number, stock = 5, category?: number) =>
  addProduct(test.db, { name, price, stock, category });

describe('catalogue.related', () => {
  it('same category in stock nearest in price first, then the nearest prices elsewhere; never itself', async () => {
    const [dresses] = await test.db.insert(categories).values({ name: 'Dresses' }).returning();
    const [bags] = await test.db.insert(categories).values({ name: 'Bags' }).returning();
    const id = dresses?.id ?? 0;
    const gomesi = await piece('Gomesi', 100_000, 3, id);
    const near = await piece('Kitenge Midi', 110_000, 2, id);
    const far = await piece('Silk Maxi', 300_000, 2, id);
    await piece('Sold Out Wrap', 100_500, 0, id);
    const bagNear = await piece('Raffia Tote', 99_000, 4, bags?.id);
    const plain = await piece('Cotton Scarf', 95_000, 4);
    await piece('Far Away Coat', 900_000, 4);

    const related = await callerFor(test.db).catalogue.related({ id: gomesi.id });
    expect(related.category).toEqual({ id, name: 'Dresses' });
    expect(related.products.map((p) => p.name)).toEqual([
      near.name,
      far.name,
      bagNear.name,
      plain.name,
    ]);
  });

  it('a product with no category: nearest prices; an unknown id: nothing; a bad id: the catalogue text', async () => {
    const alone = await piece('Lonely Brooch', 42_000, 1);
    const related = await callerFor(test.db).catalogue.related({ id: alone.id });
    expect(related.category).toBeNull();
    expect(related.products).toHaveLength(4);
    expect(related.products.every((p) => p.stock > 0 && p.id !== alone.id)).toBe(true);
    expect(await callerFor(test.db).catalogue.related({ id: 2_000_000 })).toEqual({
      category: null,
      products: [],
    });
    await expect(callerFor(test.db).catalogue.related({ id: -1 as number })).rejects.toThrow();
  });
});

describe('catalogue.related by slug', () => {
  it('answers as by id, in one round trip; an unknown, hidden or impossible slug: nothing', async () => {
    const [coats] = await test.db.insert(categories).values({ name: 'Coats' }).returning();
    const coat = await piece('Barkcloth Trench', 250_000, 3, coats?.id);
    await piece('Wool Cape', 240_000, 2, coats?.id);
    const caller = callerFor(test.db);
    const byId = await caller.catalogue.related({ id: coat.id });
    expect(byId.category?.name).toBe('Coats');
    const trips = tripsOf(test.databaseUrl);
    const mark = await trips.mark();
    expect(await caller.catalogue.related({ slug: coat.slug })).toEqual(byId);
    expect((await trips.since(mark)).count).toBe(1);
    for (const slug of ['no-such-piece', '', 'x'.repeat(5_000), 'nul\u0000slug'])
      expect(await caller.catalogue.related({ slug })).toEqual({ category: null, products: [] });
    await expect(caller.catalogue.related({ slug: 42 } as never)).rejects.toThrow();
  });
});
