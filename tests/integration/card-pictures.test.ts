// A card's picture carries the WebP widths stored for it, so the card's <picture> offers the width
// it shows (issue 21); a picture stored without copies (an older upload, an SVG) has none.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase();
});
afterAll(() => test.close());

describe('card pictures', () => {
  it('gives a card the widths of its picture, and none to a picture without copies', async () => {
    const drawn = await addProduct(test.db, {
      name: 'Drawn Dress',
      price: 90_000,
      image: '/images/products/drawn-dress/piece.jpg',
    });
    const old = await addProduct(test.db, {
      name: 'Old Scarf',
      price: 30_000,
      image: '/images/products/old-scarf.svg',
    });
    await test.db.execute(sql`
      insert into product_images (product_id, url, alt, colour, widths, position) values
        (${drawn.id}, '/images/products/drawn-dress/detail.jpg', 'Drawn Dress: close detail', null, '{400}', 1),
        (${drawn.id}, '/images/products/drawn-dress/piece.jpg', 'Drawn Dress', null, '{400,800,1200}', 0),
        (${old.id}, '/images/products/old-scarf.svg', 'Old Scarf', null, '{}', 0)`);
    const { newArrivals } = await callerFor(test.db).catalogue.home();
    const card = (id: number) => newArrivals.find((p) => p.id === id);
    expect(card(drawn.id)?.image_url).toBe('/images/products/drawn-dress/piece.jpg');
    expect(card(drawn.id)?.imageWidths).toEqual([400, 800, 1200]);
    expect(card(old.id)).toBeDefined();
    expect(card(old.id)).not.toHaveProperty('imageWidths');
    // The product page reads every picture, in order.
    const page = await callerFor(test.db).catalogue.product({ id: drawn.id });
    expect(page.images.map((i) => [i.url, i.widths])).toEqual([
      ['/images/products/drawn-dress/piece.jpg', [400, 800, 1200]],
      ['/images/products/drawn-dress/detail.jpg', [400]],
    ]);
  });
});
