// The one way products are written (issue 22, decision 0043): the editor's save and the
// spreadsheet's import both come here. It reads what it needs, checks, then writes every product
// in ONE db.batch: one statement per product (data-modifying CTEs), the desk's record and the
// catalogue's version. Nothing is half-written: a refused save writes nothing.
import { asc, eq, sql } from 'drizzle-orm';
import { type ProductSave, DESK_CATALOGUE_TEXT as T } from '#core/desk-catalogue.ts';
import type { ProductStatus } from '#core/desk-roles.ts';
import { slugify } from '#core/slug.ts';
import type { Kind, ProductOption, VariantOptions } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresError } from '#db/errors.ts';
import { productCategories, productImages, products, productVariants } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import { likePattern } from './catalogue-service.ts';
import { bumpCatalogueVersion } from './catalogue-version.ts';
import {
  type DeskActor,
  earlierAnswer,
  earlierAnswerQuery,
  isRepeatedKey,
  type KeyOwner,
  recordDeskWriteSql,
  replayOf,
} from './desk-record.ts';

export type SaveReason = 'saved' | 'imported';
export type SavedProduct = { id: number; slug: string };
/** Why a save was refused: a product or variant that isn't there, a clash with another save
 * (a SKU another product has, sales meanwhile, a race), or input the catalogue can't take. */
export type SaveProblem = 'not-found' | 'conflict' | 'invalid';
/** A refused save: its problem, the desk's text saying what (the SKU, the size) and which save. */
export type SaveRefusal = Refused<SaveProblem> & { text: string; index: number };
export type SaveProductsAnswer =
  | { ok: true; saved: SavedProduct[]; restocked: number[] }
  | SaveRefusal;

type ExistingVariant = {
  id: number;
  product_id: number;
  sku: string;
  stock: number;
  label: string;
};

/** A variant's SKU while a save moves SKUs between its product's variants ('~' is never typed). */
const MOVING = '~moving';

export async function saveProducts(
  db: Db,
  actor: DeskActor,
  saves: ProductSave[],
  options: {
    reason: SaveReason;
    requestKey?: string;
    /** More for the record's details (an import's summary, answered again to its retry). */
    recorded?: Record<string, unknown>;
  },
): Promise<SaveProductsAnswer> {
  if (saves.length === 0) return { ok: true, saved: [], restocked: [] };

  // What the checks need, and an earlier save under this key, in one round trip. The key is read
  // last (each statement sees what was committed before it): a twin save committed before the
  // checks read is found here rather than refused by them (its SKUs would look taken), and one
  // committed later fails this write on its key and is answered then.
  const ids = saves.flatMap((s) => (s.id ? [s.id] : []));
  const skus = saves.flatMap((s) => s.variants.map((v) => v.sku));
  const categoryIds = [...new Set(saves.flatMap((s) => s.categoryIds))];
  const bases = saves.map((s) => slugBase(s.name));
  const [productsFound, variantsFound, skusTaken, categoriesFound, slugsTaken, earlier] =
    await db.batch([
      db.execute<{ id: number; slug: string; name: string }>(
        sql`select id, slug, product_name as name from products where id = any(${intArray(ids)})`,
      ),
      db.execute<ExistingVariant>(
        sql`select id, product_id, sku, stock, label from product_variants
          where product_id = any(${intArray(ids)})`,
      ),
      db.execute<{ sku: string; product_id: number }>(
        // Any case: "awd-m" and "AWD-M" on two products would be one SKU to the people at the desk.
        sql`select upper(sku) as sku, product_id from product_variants
          where upper(sku) = any(${textArray(skus.map((sku) => sku.toUpperCase()))})`,
      ),
      db.execute<{ id: number }>(
        sql`select id from categories where id = any(${intArray(categoryIds)})`,
      ),
      db.execute<{ slug: string }>(
        sql`select slug from products
          where slug like any(${textArray(bases.map((b) => `${b}%`))})`,
      ),
      earlierAnswerQuery(db, options.requestKey),
    ]);
  // The key, when used already, belongs to this person's save of this kind (of these products).
  const keyOwner: KeyOwner = {
    actor,
    action: options.reason === 'imported' ? 'products.imported' : 'product.saved',
    about: (details) => ids.every((id) => savedIn(details).some((saved) => saved.id === id)),
  };
  const replayed = replayOf(earlier[0], keyOwner);
  if (replayed) return answerFrom(replayed);
  const found = new Map(productsFound.rows.map((p) => [Number(p.id), p]));
  const variantsOf = new Map<number, ExistingVariant[]>();
  for (const row of variantsFound.rows) {
    const variant = {
      ...row,
      id: Number(row.id),
      product_id: Number(row.product_id),
      stock: Number(row.stock),
    };
    variantsOf.set(variant.product_id, [...(variantsOf.get(variant.product_id) ?? []), variant]);
  }
  const ownerOfSku = new Map(skusTaken.rows.map((r) => [r.sku, Number(r.product_id)]));
  const knownCategories = new Set(categoriesFound.rows.map((c) => Number(c.id)));
  const usedSlugs = new Set(slugsTaken.rows.map((r) => r.slug));

  // The checks, product by product: the first problem refuses the whole save.
  const seenIds = new Set<number>();
  const seenSkus = new Set<string>();
  const slugs: string[] = [];
  for (const [index, save] of saves.entries()) {
    const refuse = (text: string, problem: SaveProblem = 'invalid'): SaveRefusal => ({
      ok: false,
      problem,
      text,
      index,
    });
    if (save.id !== undefined) {
      if (!found.has(save.id) || seenIds.has(save.id)) return refuse(T.badId, 'not-found');
      seenIds.add(save.id);
    }
    if (save.categoryIds.some((c) => !knownCategories.has(c))) return refuse(T.badCategory);
    const own = save.id ? (variantsOf.get(save.id) ?? []) : [];
    for (const variant of save.variants) {
      const was = variant.id === undefined ? undefined : own.find((o) => o.id === variant.id);
      if (variant.id !== undefined && !was) return refuse(T.badVariantId, 'not-found');
      const owner = ownerOfSku.get(variant.sku.toUpperCase());
      if (owner !== undefined && owner !== save.id)
        return refuse(T.skuTaken(variant.sku), 'conflict');
      if (seenSkus.has(variant.sku.toUpperCase())) return refuse(T.skuTwice(variant.sku));
      seenSkus.add(variant.sku.toUpperCase());
      if (
        was &&
        variant.stockWas !== undefined &&
        was.stock + variant.stock - variant.stockWas < 0
      ) {
        return refuse(T.notEnoughStock(variant.label), 'conflict');
      }
    }
    const slug = slugFor(save, found.get(save.id ?? 0), usedSlugs);
    usedSlugs.add(slug);
    slugs.push(slug);
  }

  // The write: per product, SKUs about to move first (so a swap meets no unique index), then its
  // one statement; then the record and the catalogue's version.
  const statements = saves.flatMap((save, index) => {
    const slug = slugs[index] as string;
    if (!save.id) return [db.execute(createStatement(save, slug, actor, options.reason))];
    const moving = movingSkus(save, variantsOf.get(save.id) ?? []);
    const write = db.execute<{ restocked: number[] | null }>(
      editStatement(save, slug, actor, options.reason),
    );
    return moving.length
      ? [
          db.execute(
            sql`update product_variants set sku = sku || ${MOVING} || id
                where id = any(${intArray(moving)})`,
          ),
          write,
        ]
      : [write];
  });
  const single = saves.length === 1 && saves[0];
  const record = db.execute(
    recordDeskWriteSql(
      actor,
      {
        action: keyOwner.action,
        subject: single ? single.name : `${saves.length} products`,
        requestKey: options.requestKey,
      },
      sql`(select jsonb_build_object(
             'saved', coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'slug', p.slug)
                               order by s.ord), '[]'::jsonb),
             'reason', ${options.reason}::text) || ${JSON.stringify(options.recorded ?? {})}::jsonb
           from unnest(${textArray(slugs)}) with ordinality as s(slug, ord)
           join products p on p.slug = s.slug)`,
    ),
  );
  const savedRead = db.execute<{ id: number; slug: string }>(
    sql`select p.id, p.slug from unnest(${textArray(slugs)}) with ordinality as s(slug, ord)
        join products p on p.slug = s.slug order by s.ord`,
  );

  let results: Awaited<ReturnType<typeof runBatch>>;
  const runBatch = () =>
    db.batch([
      ...(statements as [(typeof statements)[number], ...(typeof statements)[number][]]),
      record,
      bumpCatalogueVersion(db),
      savedRead,
    ]);
  try {
    results = await runBatch();
  } catch (error) {
    // The same key saved at the same moment (a double tap): whichever index it met first, the
    // first save's answer is there now.
    if (options.requestKey && (isRepeatedKey(error) || postgresError(error).code === PG.unique)) {
      const first = await earlierAnswer(db, options.requestKey, keyOwner);
      if (first) return answerFrom(first);
    }
    const { code, constraint } = postgresError(error);
    if (code === PG.check && constraint === 'product_variants_stock_check') {
      const index = Math.max(
        0,
        saves.findIndex((s) =>
          s.variants.some((v) => v.stockWas !== undefined && v.stock < v.stockWas),
        ),
      );
      const label = saves[index]?.variants.find(
        (v) => v.stockWas !== undefined && v.stock < v.stockWas,
      )?.label;
      return { ok: false, problem: 'conflict', text: T.notEnoughStock(label ?? ''), index };
    }
    if (code === PG.unique || code === PG.foreignKey) {
      return { ok: false, problem: 'conflict', text: T.savedAtOnce, index: 0 };
    }
    throw error;
  }
  const savedRows = results[results.length - 1] as { rows: { id: number; slug: string }[] };
  const restocked = results
    .slice(0, statements.length)
    .flatMap((r) => (r as { rows: { restocked?: number[] | null }[] }).rows[0]?.restocked ?? [])
    .map(Number);
  return {
    ok: true,
    saved: savedRows.rows.map((r) => ({ id: Number(r.id), slug: r.slug })),
    restocked,
  };
}

/** The answer recorded with a first save, for its retry (the texts were sent the first time). */
function answerFrom(details: Record<string, unknown>): SaveProductsAnswer {
  return { ok: true, saved: savedIn(details), restocked: [] };
}

const savedIn = (details: Record<string, unknown>) =>
  Array.isArray(details.saved) ? (details.saved as SavedProduct[]) : [];

function slugBase(name: string): string {
  return slugify(name).slice(0, 80).replace(/-+$/, '') || 'piece';
}

/**
 * A product keeps its slug (shared links keep working) unless it is renamed to a name that makes
 * another one; a new or renamed product gets the name's slug, -2, -3 … when another has it.
 */
function slugFor(
  save: ProductSave,
  now: { slug: string; name: string } | undefined,
  used: Set<string>,
): string {
  const base = slugBase(save.name);
  const current = now?.slug;
  if (current && (now.name === save.name || current === base)) return current;
  if (current && new RegExp(`^${base}-\\d+$`).test(current)) return current;
  let slug = base;
  for (let n = 2; used.has(slug) && slug !== current; n++) slug = `${base}-${n}`;
  return slug;
}

/** Existing variants whose SKU another variant of this save takes (a swap, or a removed one's). */
function movingSkus(save: ProductSave, own: readonly ExistingVariant[]): number[] {
  const next = new Map(save.variants.map((v) => [v.sku, v.id]));
  return own.filter((o) => next.has(o.sku) && next.get(o.sku) !== o.id).map((o) => o.id);
}

const lowestPrice = (save: ProductSave) => Math.min(...save.variants.map((v) => v.price));

const variantsJson = (save: ProductSave) =>
  JSON.stringify(
    save.variants.map((v, position) => ({
      id: v.id ?? null,
      sku: v.sku,
      options: v.options,
      label: v.label,
      price: v.price,
      compare_at_price: v.compareAtPrice,
      stock: v.stock,
      stock_was: v.stockWas ?? null,
      position,
    })),
  );

const INPUT_COLUMNS = sql`v(id int, sku text, options jsonb, label text, price int,
  compare_at_price int, stock int, stock_was int, position int)`;

function createStatement(save: ProductSave, slug: string, actor: DeskActor, reason: SaveReason) {
  return sql`
    with product as (
      insert into products (product_name, slug, price, description, kind, options, status,
                            returnable)
      values (${save.name}, ${slug}, ${lowestPrice(save)}, ${save.description || null},
              ${save.kind}, ${JSON.stringify(save.options)}::jsonb, ${save.status},
              ${save.returnable ?? true})
      returning id
    ),
    categories as (
      insert into product_categories (product_id, category_id)
      select product.id, c from product, unnest(${intArray(save.categoryIds)}) as c
    ),
    added as (
      insert into product_variants (product_id, sku, options, label, price, compare_at_price,
                                    stock, position)
      select product.id, v.sku, v.options, v.label, v.price, v.compare_at_price, v.stock,
             v.position
      from product, json_to_recordset(${variantsJson(save)}::json) as ${INPUT_COLUMNS}
      returning id, sku, stock
    ),
    logged as (
      insert into stock_movements (variant_id, sku, change, stock_after, reason, actor_email)
      select id, sku, stock, stock, ${reason}, ${actor.email} from added where stock <> 0
    )
    select null::int[] as restocked`;
}

/**
 * An edit: the product's row, its categories replaced, its variants updated (by id), added or
 * removed. Stock is set, or with `stockWas` moved by the difference from the stock now (locked
 * first), so a sale made while the editor was open stands. Answers the variants back from 0.
 */
function editStatement(save: ProductSave, slug: string, actor: DeskActor, reason: SaveReason) {
  const id = save.id as number;
  const kept = save.variants.flatMap((v) => (v.id ? [v.id] : []));
  return sql`
    with input as (
      select * from json_to_recordset(${variantsJson(save)}::json) as ${INPUT_COLUMNS}
    ),
    product as (
      update products set product_name = ${save.name}, slug = ${slug},
        price = ${lowestPrice(save)}, description = ${save.description || null},
        kind = ${save.kind}, options = ${JSON.stringify(save.options)}::jsonb,
        status = ${save.status},
        returnable = coalesce(${save.returnable ?? null}::boolean, returnable)
      where id = ${id}
      returning id
    ),
    uncategorised as (
      delete from product_categories
      where product_id = ${id} and category_id <> all(${intArray(save.categoryIds)})
    ),
    categorised as (
      insert into product_categories (product_id, category_id)
      select ${id}, c from unnest(${intArray(save.categoryIds)}) as c
      on conflict do nothing
    ),
    removed as (
      delete from product_variants
      where product_id = ${id} and id <> all(${intArray(kept)})
    ),
    now_held as (
      select pv.id, pv.stock from product_variants pv
      where pv.product_id = ${id} and pv.id = any(${intArray(kept)})
      for update
    ),
    updated as (
      update product_variants pv set sku = i.sku, options = i.options, label = i.label,
        price = i.price, compare_at_price = i.compare_at_price, position = i.position,
        stock = case when i.stock_was is null then i.stock
                     else pv.stock + (i.stock - i.stock_was) end
      from input i, now_held h
      where i.id = pv.id and h.id = pv.id and pv.product_id = ${id}
      returning pv.id, pv.sku, pv.stock, h.stock as stock_before
    ),
    added as (
      insert into product_variants (product_id, sku, options, label, price, compare_at_price,
                                    stock, position)
      select ${id}, i.sku, i.options, i.label, i.price, i.compare_at_price, i.stock, i.position
      from input i where i.id is null
      returning id, sku, stock
    ),
    logged as (
      insert into stock_movements (variant_id, sku, change, stock_after, reason, actor_email)
      select id, sku, stock - stock_before, stock, ${reason}, ${actor.email}
      from updated where stock <> stock_before
      union all
      select id, sku, stock, stock, ${reason}, ${actor.email} from added where stock <> 0
    )
    select (select array_agg(id order by id) from updated
            where stock_before = 0 and stock > 0) as restocked`;
}

const intArray = (values: readonly number[]) => sql`${sql.param(values)}::int[]`;
const textArray = (values: readonly string[]) => sql`${sql.param(values)}::text[]`;

/** A row of the desk's product list. */
export type DeskProductRow = {
  id: number;
  slug: string;
  name: string;
  status: ProductStatus;
  image: string | null;
  priceFrom: number;
  priceTo: number;
  variants: number;
  stock: number;
};

/** Every product, drafts and archived ones included, newest first; `q` matches a name or a SKU. */
export async function deskProducts(
  db: Db,
  filter: { q?: string; status?: ProductStatus },
  limit = 500,
): Promise<DeskProductRow[]> {
  const term = filter.q ? likePattern(filter.q.toLowerCase()) : null;
  const result = await db.execute<Record<string, unknown>>(sql`
    select p.id, p.slug, p.product_name as name, p.status,
           coalesce((select i.url from product_images i where i.product_id = p.id
                     order by i.position, i.id limit 1), p.product_image) as image,
           coalesce(min(coalesce(v.price, p.price)), p.price) as price_from,
           coalesce(max(coalesce(v.price, p.price)), p.price) as price_to,
           count(v.id)::int as variants, coalesce(sum(v.stock), 0)::int as stock
    from products p left join product_variants v on v.product_id = p.id
    where (${filter.status ?? null}::text is null or p.status = ${filter.status ?? null})
      and (${term}::text is null or lower(p.product_name) like ${term}
           or exists (select 1 from product_variants s
                      where s.product_id = p.id and lower(s.sku) like ${term}))
    group by p.id
    order by p.created_at desc, p.id desc
    limit ${limit}`);
  return result.rows.map((r) => ({
    id: Number(r.id),
    slug: String(r.slug),
    name: String(r.name),
    status: r.status as ProductStatus,
    image: (r.image as string | null) ?? null,
    priceFrom: Number(r.price_from),
    priceTo: Number(r.price_to),
    variants: Number(r.variants),
    stock: Number(r.stock),
  }));
}

/** Everything the editor shows of one product, or null. */
export type DeskProduct = {
  id: number;
  slug: string;
  name: string;
  description: string;
  status: ProductStatus;
  kind: Kind;
  returnable: boolean;
  categoryIds: number[];
  options: ProductOption[];
  variants: {
    id: number;
    sku: string;
    options: VariantOptions;
    label: string;
    price: number;
    compareAtPrice: number | null;
    stock: number;
  }[];
  images: { id: number; url: string; alt: string; colour: string | null }[];
};

export async function deskProduct(db: Db, id: number): Promise<DeskProduct | null> {
  const [[product], categoryRows, variants, images] = await db.batch([
    db.select().from(products).where(eq(products.id, id)),
    db
      .select({ id: productCategories.categoryId })
      .from(productCategories)
      .where(eq(productCategories.productId, id))
      .orderBy(asc(productCategories.categoryId)),
    db
      .select({
        id: productVariants.id,
        sku: productVariants.sku,
        options: productVariants.options,
        label: productVariants.label,
        price: productVariants.price,
        compareAtPrice: productVariants.compareAtPrice,
        stock: productVariants.stock,
      })
      .from(productVariants)
      .where(eq(productVariants.productId, id))
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
    db
      .select({
        id: productImages.id,
        url: productImages.url,
        alt: productImages.alt,
        colour: productImages.colour,
      })
      .from(productImages)
      .where(eq(productImages.productId, id))
      .orderBy(asc(productImages.position), asc(productImages.id)),
  ]);
  if (!product) return null;
  return {
    id: product.id,
    slug: product.slug,
    name: product.productName,
    description: product.description ?? '',
    status: product.status,
    kind: product.kind as Kind,
    returnable: product.returnable,
    categoryIds: categoryRows.map((c) => c.id),
    options: product.options,
    variants: variants.map((v) => ({ ...v, price: v.price ?? product.price })),
    images,
  };
}
