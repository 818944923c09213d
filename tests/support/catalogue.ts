// Pieces for tests: a product with its variants in one statement, and the demo catalogue's
// pieces read with their stock. Every test that needs something to sell starts here.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { slugify } from '#core/slug.ts';
import { type Kind, type ProductOption, variantLabel } from '#core/variants.ts';
import type { Db } from '#db/client.ts';

export type TestPiece = {
  id: number;
  slug: string;
  name: string;
  price: number;
  /** The first variant (the only one of a piece without options). */
  variantId: number;
  /** Every variant's id by its label ('' for a piece without options). */
  variants: Record<string, number>;
};

/**
 * Adds a product with a unique slug. Without `options` it has one variant holding `stock`; with
 * them, `stock` gives each variant's pieces by label ("M · Indigo"), 0 for any not named.
 */
export async function addProduct(
  db: Db,
  piece: {
    name?: string;
    price: number;
    stock?: number | Record<string, number>;
    options?: ProductOption[];
    kind?: Kind;
    description?: string | null;
    image?: string | null;
    compareAtPrice?: number | null;
    createdAt?: Date;
    category?: number;
  },
): Promise<TestPiece> {
  const name = piece.name ?? `Test piece ${randomUUID().slice(0, 8)}`;
  const slug = `${slugify(name)}-${randomUUID()}`;
  const options = piece.options ?? [];
  let combos: Record<string, string>[] = [{}];
  for (const option of options) {
    combos = combos.flatMap((c) => option.values.map((value) => ({ ...c, [option.name]: value })));
  }
  const variants = combos.map((combo, position) => {
    const label = variantLabel(combo, options);
    const stock = typeof piece.stock === 'object' ? (piece.stock[label] ?? 0) : (piece.stock ?? 10);
    return {
      sku: `T-${randomUUID()}`,
      options: combo,
      label,
      stock,
      position,
      compareAtPrice: piece.compareAtPrice ?? null,
    };
  });
  const result = await db.execute<{ id: number; variants: { id: number; label: string }[] }>(sql`
    with product as (
      insert into products (product_name, slug, price, description, product_image, kind, options,
                            created_at)
      values (${name}, ${slug}, ${piece.price}, ${piece.description ?? null},
              ${piece.image ?? null}, ${piece.kind ?? (options.length ? 'clothes' : 'one-size')},
              ${JSON.stringify(options)}::jsonb, ${(piece.createdAt ?? new Date()).toISOString()})
      returning id
    ),
    variant as (
      insert into product_variants (product_id, sku, options, label, stock, position,
                                    compare_at_price)
      select product.id, v.sku, v.options, v.label, v.stock, v.position, v."compareAtPrice"
      from product, json_to_recordset(${JSON.stringify(variants)}::json)
        as v(sku text, options jsonb, label text, stock int, position int, "compareAtPrice" int)
      returning id, label, position, sku, stock
    ),
    counted as (
      insert into stock_movements (variant_id, sku, change, stock_after, reason)
      select id, sku, stock, stock, 'counted' from variant
    ),
    category as (
      insert into product_categories (product_id, category_id)
      select product.id, ${piece.category ?? null}::int from product
      where ${piece.category ?? null}::int is not null
    )
    select product.id,
           (select json_agg(json_build_object('id', id, 'label', label) order by position)
            from variant) as variants
    from product`);
  const row = result.rows[0];
  if (!row) throw new Error('the product was not added');
  const ids = Object.fromEntries(row.variants.map((v) => [v.label, v.id]));
  const first = row.variants[0];
  if (!first) throw new Error('the product has no variant');
  return {
    id: Number(row.id),
    slug,
    name,
    price: piece.price,
    variantId: first.id,
    variants: ids,
  };
}

/** A piece's stock now: one variant's, or all of a product's. */
export async function stockOf(db: Db, of: { variantId: number } | { productId: number }) {
  const result = await db.execute<{ stock: number | string }>(
    'variantId' in of
      ? sql`select stock from product_variants where id = ${of.variantId}`
      : sql`select coalesce(sum(stock), 0) as stock from product_variants where product_id = ${of.productId}`,
  );
  return Number(result.rows[0]?.stock ?? 0);
}

/** Sets a variant's stock (as the shop's staff would: a count, in the stock log). */
export async function setStock(db: Db, variantId: number, stock: number) {
  await db.execute(sql`
    with before as (select stock from product_variants where id = ${variantId}),
    counted as (
      update product_variants set stock = ${stock} where id = ${variantId}
      returning id, sku, stock
    )
    insert into stock_movements (variant_id, sku, change, stock_after, reason)
    select counted.id, counted.sku, counted.stock - before.stock, counted.stock, 'counted'
    from counted, before`);
}

/** A demo piece sold in one variant, with its only variant and its stock now. */
export type DemoPiece = {
  id: number;
  slug: string;
  name: string;
  price: number;
  variantId: number;
  stock: number;
  /** The card's picture. */
  image: string | null;
};

/**
 * Demo pieces sold in one variant, with at least `minStock` in stock, newest first: the ids a
 * cart or an order can name with `{ productId }` or `{ variantId }`.
 */
export function demoPieces(db: Db, minStock = 1, limit = 20): Promise<DemoPiece[]> {
  return findDemoPieces(db, { minStock, limit });
}

/**
 * Demo pieces sold in one variant (bags, jewellery, accessories: no size to choose), chosen by
 * their stock now and price. Newest first; with `fewestFirst` the lowest stock first, with
 * `priciestFirst` the dearest first.
 */
export async function findDemoPieces(
  db: Db,
  filter: {
    minStock?: number;
    maxStock?: number;
    minPrice?: number;
    maxPrice?: number;
    fewestFirst?: boolean;
    priciestFirst?: boolean;
    /** Only pieces with pictures (the newest one-size pieces may be other tests', without). */
    pictured?: boolean;
    /** Pieces to pass over first, so tests can take different pieces. */
    skip?: number;
    limit?: number;
  } = {},
): Promise<DemoPiece[]> {
  const { minStock = 0, maxStock = null, minPrice = 0, maxPrice = null } = filter;
  const result = await db.execute<{
    id: number;
    slug: string;
    name: string;
    price: number;
    variant_id: number;
    stock: number;
    image: string | null;
  }>(sql`
    select p.id, p.slug, p.product_name as name, coalesce(v.price, p.price) as price,
           v.id as variant_id, v.stock, p.product_image as image
    from products p join product_variants v on v.product_id = p.id
    where v.stock >= ${minStock}
      and (${maxStock}::int is null or v.stock <= ${maxStock}::int)
      and coalesce(v.price, p.price) >= ${minPrice}
      and (${maxPrice}::int is null or coalesce(v.price, p.price) <= ${maxPrice}::int)
      and (select count(*) from product_variants s where s.product_id = p.id) = 1
      -- On sale: a piece another test left as a draft (the desk's new products) is no one's.
      and p.status = 'published'
      and (not ${filter.pictured ?? false}
           or exists (select 1 from product_images i where i.product_id = p.id))
    order by ${filter.fewestFirst ? sql`v.stock,` : sql``}
             ${filter.priciestFirst ? sql`coalesce(v.price, p.price) desc,` : sql``}
             p.created_at desc, p.id desc
    limit ${filter.limit ?? 20} offset ${filter.skip ?? 0}`);
  return result.rows.map((r) => ({
    id: Number(r.id),
    slug: r.slug,
    name: r.name,
    price: Number(r.price),
    variantId: Number(r.variant_id),
    stock: Number(r.stock),
    image: r.image,
  }));
}

/** The first demo piece `findDemoPieces` gives, or a clear failure naming what was looked for. */
export async function demoPiece(
  db: Db,
  filter: Parameters<typeof findDemoPieces>[1] = {},
): Promise<DemoPiece> {
  const [piece] = await findDemoPieces(db, { ...filter, limit: 1 });
  if (!piece)
    throw new Error(`the demo catalogue has no piece in one size with ${JSON.stringify(filter)}`);
  return piece;
}
