// The desk's catalogue (issue 22, decision 0043): products created and edited through
// desk.saveProduct as staff call it, on a real database through the Neon driver. One write per
// save: a refused save writes nothing; a retried key answers the first save; every save is
// recorded; every stock change is in the stock log; a sale made while the editor was open stands.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_CATALOGUE_TEXT, type ProductSaveInput } from '#core/desk-catalogue.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import {
  deskRecords,
  orderItems,
  productCategories,
  products,
  productVariants,
  profiles,
  smsNotifications,
  stockMovements,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { saveProducts } from '#server/services/desk-catalogue-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let staff: DeskMember;
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  staff = await deskMember(test.db, auth, 'staff');
});
afterAll(async () => {
  await Promise.allSettled(background);
  await test?.close();
});

const desk = (who: { cookie: string } = staff) =>
  deskCaller(test.db, who, { auth, background: (work) => background.push(work) });

async function settle() {
  while (background.length > 0) await Promise.all(background.splice(0));
}

let categoryIds: number[] = [];
async function categories(): Promise<number[]> {
  if (categoryIds.length) return categoryIds;
  const rows = await test.db.execute<{ id: number }>(
    sql`insert into categories (name) values (${`Dresses ${randomUUID()}`}), (${`New in ${randomUUID()}`})
        returning id`,
  );
  categoryIds = rows.rows.map((r) => Number(r.id));
  return categoryIds;
}

/** A dress in sizes × colours, each variant at `price` with `stock` pieces. */
function dress(
  name: string,
  { sizes = ['S', 'M', 'L'], colours = ['Indigo', 'Ochre'], price = 145_000, stock = 2 } = {},
): ProductSaveInput {
  const sku = randomUUID().slice(0, 8).toUpperCase();
  return {
    name,
    description: 'A wrap dress in Ugandan cotton.',
    categoryIds: categoryIds.slice(0, 1),
    status: 'published',
    options: [
      { name: 'Size', values: sizes },
      { name: 'Colour', values: colours },
    ],
    variants: sizes.flatMap((size) =>
      colours.map((colour) => ({
        options: { Size: size, Colour: colour },
        sku: `${sku}-${size}-${colour.slice(0, 3).toUpperCase()}`,
        price,
        stock,
      })),
    ),
  };
}

const unique = (name: string) => `${name} ${randomUUID().slice(0, 6)}`;
const countOf = async (table: typeof products | typeof deskRecords) =>
  Number((await test.db.select({ n: sql<number>`count(*)` }).from(table))[0]?.n);

async function variantsOf(productId: number) {
  return test.db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(productVariants.position);
}

/** Each variant's stock equals the sum of its log. */
async function expectLogMatchesStock(productId: number) {
  const rows = await test.db.execute<{ stock: number; logged: number }>(sql`
    select v.stock, coalesce((select sum(change) from stock_movements m where m.variant_id = v.id), 0)
           as logged
    from product_variants v where v.product_id = ${productId}`);
  expect(rows.rows.length).toBeGreaterThan(0);
  for (const row of rows.rows) expect(Number(row.logged)).toBe(Number(row.stock));
}

type Shopper = Awaited<ReturnType<typeof signedInShopper>> & { phone: string };
let phones = 0;
async function shopper(): Promise<Shopper> {
  const account = await signedInShopper(test.db, auth);
  phones += 1;
  const phone = `+2567731${String(phones).padStart(5, '0')}`;
  await test.db
    .update(profiles)
    .set({ fullName: account.name, phone, address: 'Plot 4, Kampala Road' })
    .where(eq(profiles.id, account.id));
  return { ...account, phone };
}

async function buy(buyer: Shopper, variantId: number, quantity = 1) {
  const orderId = randomUUID();
  const placed = await placeOrder(test.db, buyer, {
    orderId,
    lines: [{ variantId, quantity }],
    paymentMethod: 'cash_on_delivery',
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return orderId;
}

describe('desk.saveProduct', () => {
  it('creates a dress, then edits it: slug, categories, options, variants, lowest price', async () => {
    const [dresses, newIn] = await categories();
    const name = unique('Ankara Wrap Dress');
    const created = await desk().saveProduct({ ...dress(name), requestKey: randomUUID() });
    expect(created.slug).toBe(name.toLowerCase().replace(/ /g, '-'));

    const read = await desk().product({ id: created.id });
    expect(read).toMatchObject({
      name,
      status: 'published',
      kind: 'clothes',
      categoryIds: [dresses],
      options: [
        { name: 'Size', values: ['S', 'M', 'L'] },
        { name: 'Colour', values: ['Indigo', 'Ochre'] },
      ],
    });
    expect(read.variants.map((v) => v.label)).toEqual([
      'S · Indigo',
      'S · Ochre',
      'M · Indigo',
      'M · Ochre',
      'L · Indigo',
      'L · Ochre',
    ]);

    // The same name again: its own slug.
    const twin = await desk().saveProduct(dress(name));
    expect(twin.slug).toBe(`${created.slug}-2`);

    // Edit: one variant cheaper, L dropped, XL added, another category, a draft.
    const kept = read.variants.filter((v) => !v.label.startsWith('L'));
    const edited = await desk().saveProduct({
      id: created.id,
      name,
      description: 'Now with pockets.',
      categoryIds: [newIn as number, dresses as number],
      status: 'draft',
      options: [
        { name: 'Size', values: ['S', 'M', 'XL'] },
        { name: 'Colour', values: ['Indigo', 'Ochre'] },
      ],
      variants: [
        ...kept.map((v, i) => ({
          id: v.id,
          options: v.options,
          sku: v.sku,
          price: i === 0 ? 120_000 : v.price,
          compareAtPrice: i === 0 ? 145_000 : undefined,
          stock: v.stock,
        })),
        {
          options: { Size: 'XL', Colour: 'Indigo' },
          sku: `XL-${randomUUID().slice(0, 8)}`,
          price: 150_000,
          stock: 1,
        },
      ],
    });
    expect(edited).toEqual({ id: created.id, slug: created.slug });
    const after = await desk().product({ id: created.id });
    expect(after.status).toBe('draft');
    expect(after.description).toBe('Now with pockets.');
    expect(after.categoryIds.sort()).toEqual([dresses, newIn].sort());
    expect(after.variants.map((v) => v.label)).toEqual([
      'S · Indigo',
      'S · Ochre',
      'M · Indigo',
      'M · Ochre',
      'XL · Indigo',
    ]);
    expect(after.variants[0]).toMatchObject({ price: 120_000, compareAtPrice: 145_000 });
    const [row] = await test.db.select().from(products).where(eq(products.id, created.id));
    expect(row?.price).toBe(120_000);
    await expectLogMatchesStock(created.id);

    // Renamed: a new slug from the new name.
    const renamed = await desk().saveProduct({
      id: created.id,
      ...{ ...dress(`${name} Long`), variants: [] },
      variants: after.variants.map((v) => ({
        id: v.id,
        options: v.options,
        sku: v.sku,
        price: v.price,
        stock: v.stock,
      })),
      options: after.options,
    });
    expect(renamed.slug).toBe(`${created.slug}-long`);

    // Listed at the desk, found by name and by SKU, with the draft filter.
    const listed = await desk().products({ q: name.slice(-6) });
    expect(listed.map((p) => p.id)).toEqual([twin.id, created.id]);
    expect(listed[1]).toMatchObject({
      status: 'published',
      priceFrom: 120_000,
      priceTo: 150_000,
      variants: 5,
    });
    const bySku = await desk().products({ q: after.variants[4]?.sku.toLowerCase() });
    expect(bySku.map((p) => p.id)).toEqual([created.id]);
    const published = await desk().products({ status: 'published' });
    expect(published.every((p) => p.status === 'published')).toBe(true);
    expect(published.map((p) => p.id)).toContain(created.id);
    const drafts = await desk().products({ status: 'draft' });
    expect(drafts.every((p) => p.status === 'draft')).toBe(true);
    expect(drafts.map((p) => p.id)).not.toContain(created.id);
  });

  it('saves back a product made before the desk unchanged (read, then saved as the editor does)', async () => {
    const piece = await addProduct(test.db, {
      name: unique('Seeded Ankara Dress'),
      price: 145_000,
      options: [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Colour', values: ['Indigo'] },
      ],
      stock: { 'S · Indigo': 2, 'M · Indigo': 1 },
    });
    const read = await desk().product({ id: piece.id });
    expect(read.variants.map((v) => v.price)).toEqual([145_000, 145_000]);
    const logged = await test.db.select().from(stockMovements);
    const saved = await desk().saveProduct({
      id: read.id,
      name: read.name,
      description: read.description,
      categoryIds: read.categoryIds,
      status: read.status,
      kind: read.kind,
      options: read.options,
      variants: read.variants.map((v) => ({
        id: v.id,
        options: v.options,
        sku: v.sku,
        price: v.price,
        compareAtPrice: v.compareAtPrice,
        stock: v.stock,
        stockWas: v.stock,
      })),
      requestKey: randomUUID(),
    });
    expect(saved).toEqual({ id: piece.id, slug: piece.slug });
    const again = await desk().product({ id: piece.id });
    expect(again).toEqual(read);
    expect(await test.db.select().from(stockMovements)).toHaveLength(logged.length);
  });

  it('refuses a customer; staff may edit the catalogue', async () => {
    await categories();
    const customer = await signedInShopper(test.db, auth);
    const before = await countOf(products);
    for (const call of [
      () => desk(customer).saveProduct(dress(unique('Refused'))),
      () => desk(customer).products({}),
      () => desk(customer).product({ id: 1 }),
    ]) {
      await expect(call()).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: DESK_TEXT.deskOnly,
      });
    }
    expect(await countOf(products)).toBe(before);
    await expect(desk().product({ id: 2_000_000_000 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('refuses a bad variant, and the whole save, with nothing written', async () => {
    await categories();
    const products0 = await countOf(products);
    const records0 = await countOf(deskRecords);
    const bad = dress(unique('Kitenge Skirt'));
    const cases: [ProductSaveInput, string][] = [
      [
        { ...bad, variants: [...bad.variants, { ...bad.variants[0], sku: 'OTHER-1' } as never] },
        DESK_CATALOGUE_TEXT.variantTwice('S · Indigo'),
      ],
      [
        {
          ...bad,
          variants: bad.variants.map((v, i) =>
            i === 2 ? { ...v, options: { Size: 'XXL', Colour: 'Indigo' } } : v,
          ),
        },
        DESK_CATALOGUE_TEXT.variantOptions('XXL · Indigo'),
      ],
      [
        {
          ...bad,
          variants: bad.variants.map((v, i) => (i === 1 ? { ...v, compareAtPrice: v.price } : v)),
        },
        DESK_CATALOGUE_TEXT.compareAtNotAbove('S · Ochre'),
      ],
      [
        { ...bad, variants: bad.variants.map((v) => ({ ...v, sku: 'SAME' })) },
        DESK_CATALOGUE_TEXT.skuTwice('SAME'),
      ],
      [{ ...bad, name: 'Bad\u0000name' }, DESK_CATALOGUE_TEXT.controlCharacters],
      [{ ...bad, name: 'x'.repeat(5000) }, DESK_CATALOGUE_TEXT.nameLong],
      [
        { ...bad, options: [{ name: 'Fabric', values: ['Silk'] }] } as never,
        DESK_CATALOGUE_TEXT.badOption,
      ],
      [
        { ...bad, variants: bad.variants.map((v) => ({ ...v, price: -1 })) },
        DESK_CATALOGUE_TEXT.badPrice,
      ],
      [
        { ...bad, variants: bad.variants.map((v) => ({ ...v, stock: 1.5 })) },
        DESK_CATALOGUE_TEXT.badStock,
      ],
      [
        { ...bad, variants: bad.variants.map((v) => ({ ...v, price: '100' })) } as never,
        DESK_CATALOGUE_TEXT.badPrice,
      ],
      [{ ...bad, categoryIds: [2_000_000_000] }, DESK_CATALOGUE_TEXT.badCategory],
      [{ ...bad, id: 2_000_000_000 }, DESK_CATALOGUE_TEXT.badId],
    ];
    for (const [input, message] of cases) {
      await expect(desk().saveProduct(input), message).rejects.toMatchObject({ message });
    }
    // Another product's SKU: refused before writing.
    const other = await desk().saveProduct(dress(unique('Other')));
    const [taken] = await variantsOf(other.id);
    const stealing = {
      ...bad,
      variants: bad.variants.map((v, i) => (i === 3 ? { ...v, sku: taken?.sku as string } : v)),
    };
    await expect(desk().saveProduct(stealing)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: DESK_CATALOGUE_TEXT.skuTaken(taken?.sku as string),
    });
    // In another case it is the same SKU to the people at the desk.
    const lower = String(taken?.sku).toLowerCase();
    await expect(
      desk().saveProduct({
        ...bad,
        variants: bad.variants.map((v, i) => (i === 3 ? { ...v, sku: lower } : v)),
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: DESK_CATALOGUE_TEXT.skuTaken(lower) });
    // Another product's variant id.
    const mine = await desk().saveProduct(dress(unique('Mine')));
    const theirs = await desk().product({ id: other.id });
    const mineRead = await desk().product({ id: mine.id });
    await expect(
      desk().saveProduct({
        ...dress(mineRead.name),
        id: mine.id,
        options: mineRead.options,
        variants: mineRead.variants.map((v, i) => ({
          options: v.options,
          sku: v.sku,
          price: v.price,
          stock: v.stock,
          id: i === 0 ? theirs.variants[0]?.id : v.id,
          compareAtPrice: null,
        })),
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: DESK_CATALOGUE_TEXT.badVariantId });

    // An import of two, the second bad: neither is written.
    const { saveProductInput } = await import('#core/desk-catalogue.ts');
    const v = await import('valibot');
    const good = v.parse(saveProductInput, dress(unique('Import good')));
    const clash = v.parse(saveProductInput, {
      ...dress(unique('Import clash')),
      variants: dress('x').variants.map((variant, i) =>
        i === 0 ? { ...variant, sku: taken?.sku as string } : variant,
      ),
    });
    const answer = await saveProducts(test.db, { email: staff.email }, [good, clash], {
      reason: 'imported',
    });
    expect(answer).toEqual({
      ok: false,
      problem: 'conflict',
      text: DESK_CATALOGUE_TEXT.skuTaken(taken?.sku as string),
      index: 1,
    });
    expect(await countOf(products)).toBe(products0 + 2);
    expect(await countOf(deskRecords)).toBe(records0 + 2);
  });

  it('answers a repeated request key with the first save, and records every save', async () => {
    await categories();
    const name = unique('Busuuti');
    const requestKey = randomUUID();
    const input = { ...dress(name), requestKey };
    const [first, second] = [await desk().saveProduct(input), await desk().saveProduct(input)];
    expect(second).toEqual(first);
    const twice = await Promise.allSettled([
      desk().saveProduct({ ...dress(unique('Gomesi')), requestKey: randomUUID() }),
      desk().saveProduct({ ...dress(unique('Gomesi')), requestKey: randomUUID() }),
    ]);
    expect(twice.every((r) => r.status === 'fulfilled')).toBe(true);
    const made = await test.db.select().from(products).where(eq(products.productName, name));
    expect(made).toHaveLength(1);
    const records = await test.db.select().from(deskRecords).where(eq(deskRecords.subject, name));
    expect(records).toEqual([
      expect.objectContaining({
        actorEmail: staff.email,
        action: 'product.saved',
        requestKey,
        details: expect.objectContaining({ saved: [first] }),
      }),
    ]);
    // A double tap: the same save twice at once is one product, both answered alike.
    const tapped = unique('Double tap');
    const tap = { ...dress(tapped), requestKey: randomUUID() };
    const [a, b] = await Promise.all([desk().saveProduct(tap), desk().saveProduct(tap)]);
    expect(b).toEqual(a);
    expect(
      await test.db.select().from(products).where(eq(products.productName, tapped)),
    ).toHaveLength(1);
    // The same key for another product's save answers the first save, writing nothing.
    const reused = await desk().saveProduct({ ...dress(unique('Reused key')), requestKey });
    expect(reused).toEqual(first);
  });

  it('logs stock changes, and applies stockWas as a difference while a checkout sells', async () => {
    await categories();
    const name = unique('Linen Shirt Dress');
    const created = await desk().saveProduct(
      dress(name, { sizes: ['M'], colours: ['Indigo'], stock: 3 }),
    );
    const loaded = await desk().product({ id: created.id });
    const variant = loaded.variants[0] as (typeof loaded.variants)[number];

    // A shopper buys one while the editor is open with 3; the editor adds 2 ("5").
    await buy(await shopper(), variant.id);
    await desk().saveProduct({
      ...dress(name),
      id: created.id,
      options: loaded.options,
      variants: [
        {
          id: variant.id,
          options: variant.options,
          sku: variant.sku,
          price: variant.price,
          stock: 5,
          stockWas: 3,
        },
      ],
    });
    const [now] = await variantsOf(created.id);
    expect(now?.stock).toBe(4);
    const moves = await test.db
      .select()
      .from(stockMovements)
      .where(and(eq(stockMovements.variantId, variant.id), eq(stockMovements.reason, 'saved')))
      .orderBy(stockMovements.id);
    expect(moves.map((m) => [m.change, m.stockAfter, m.actorEmail])).toEqual([
      [3, 3, staff.email],
      [2, 4, staff.email],
    ]);

    // Taking off more than is left now refuses, nothing written.
    await buy(await shopper(), variant.id, 3);
    await expect(
      desk().saveProduct({
        ...dress(name),
        id: created.id,
        options: loaded.options,
        variants: [
          {
            id: variant.id,
            options: variant.options,
            sku: variant.sku,
            price: 1,
            stock: 0,
            stockWas: 2,
          },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: DESK_CATALOGUE_TEXT.notEnoughStock('M · Indigo'),
    });
    const [still] = await variantsOf(created.id);
    expect(still).toMatchObject({ stock: 1, price: variant.price });
  });

  it('removes a variant an order bought, and the order stays readable', async () => {
    await categories();
    const name = unique('Barkcloth Jacket');
    const created = await desk().saveProduct(dress(name, { colours: ['Brown'] }));
    const loaded = await desk().product({ id: created.id });
    const m = loaded.variants.find((v) => v.label === 'M · Brown');
    const buyer = await shopper();
    const orderId = await buy(buyer, m?.id as number);
    await desk().saveProduct({
      ...dress(name),
      id: created.id,
      options: [
        { name: 'Size', values: ['S', 'L'] },
        { name: 'Colour', values: ['Brown'] },
      ],
      variants: loaded.variants
        .filter((v) => v.id !== m?.id)
        .map((v) => ({ id: v.id, options: v.options, sku: v.sku, price: v.price, stock: v.stock })),
    });
    expect((await variantsOf(created.id)).map((v) => v.label)).toEqual(['S · Brown', 'L · Brown']);
    const [item] = await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(item).toMatchObject({ variantId: null, variantLabel: 'M · Brown' });
    const order = await callerFor(test.db, new Headers({ cookie: buyer.cookie }), {
      auth,
    }).orders.byId({ id: orderId });
    expect(JSON.stringify(order)).toContain('M · Brown');
    // The product itself is never deleted.
    expect(await test.db.select().from(products).where(eq(products.id, created.id))).toHaveLength(
      1,
    );
    const categorised = await test.db
      .select()
      .from(productCategories)
      .where(eq(productCategories.productId, created.id));
    expect(categorised).toHaveLength(1);
  });

  it('restocking a size someone asked for from 0 answers it and texts the asker', async () => {
    await categories();
    const name = unique('Silk Kaftan');
    const created = await desk().saveProduct(
      dress(name, { sizes: ['M', 'L'], colours: ['Gold'], stock: 0 }),
    );
    const loaded = await desk().product({ id: created.id });
    const m = loaded.variants[0] as (typeof loaded.variants)[number];
    const asker = await shopper();
    const asking = callerFor(test.db, new Headers({ cookie: asker.cookie }), { auth });
    expect(await asking.catalogue.notifyWhenBack({ variantId: m.id })).toEqual({ asked: true });

    const { saveProductInput } = await import('#core/desk-catalogue.ts');
    const v = await import('valibot');
    const save = v.parse(saveProductInput, {
      ...dress(name),
      id: created.id,
      options: loaded.options,
      variants: loaded.variants.map((variant) => ({
        id: variant.id,
        options: variant.options,
        sku: variant.sku,
        price: variant.price,
        stock: variant.id === m.id ? 2 : 0,
        stockWas: 0,
      })),
    });
    const answer = await saveProducts(test.db, { email: staff.email }, [save], { reason: 'saved' });
    expect(answer).toEqual({ ok: true, saved: [created], restocked: [m.id] });

    // Through the router, the text follows in the background: sold out again, then restocked.
    const restock = (stock: number) =>
      desk().saveProduct({
        ...dress(name),
        id: created.id,
        options: loaded.options,
        variants: loaded.variants.map((variant) => ({
          id: variant.id,
          options: variant.options,
          sku: variant.sku,
          price: variant.price,
          stock: variant.id === m.id ? stock : 0,
        })),
      });
    await restock(0);
    await settle();
    expect(await asking.catalogue.notifyWhenBack({ variantId: m.id })).toEqual({ asked: true });
    await restock(3);
    await settle();
    const texts = await test.db
      .select()
      .from(smsNotifications)
      .where(
        and(
          eq(smsNotifications.kind, 'back-in-stock'),
          eq(smsNotifications.recipientPhone, asker.phone),
        ),
      );
    expect(texts).toHaveLength(1);
    expect(texts[0]?.messageContent).toContain('M/Gold');
  });
});
