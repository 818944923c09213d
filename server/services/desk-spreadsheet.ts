// The catalogue as a spreadsheet (issue 22, decision 0047): the export's products with their
// variants, and the import, checked whole (core/desk-spreadsheet.ts) and then written in ONE
// db.batch by the catalogue's saveProducts, recorded there with its request key.
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { ProductStatus } from '#core/desk.ts';
import { saveProductInput } from '#core/desk-catalogue.ts';
import {
  type CatalogueNow,
  catalogueCsv,
  catalogueFileName,
  type ExportProduct,
  fileCounts,
  planImport,
  saveProblem,
} from '#core/desk-spreadsheet.ts';
import type { Db } from '#db/client.ts';
import { saveProducts } from './desk-catalogue.ts';
import {
  type DeskActor,
  earlierAnswer,
  earlierAnswerQuery,
  isRepeatedKey,
  type KeyOwner,
  replayOf,
} from './desk-record.ts';

/** Every product, drafts and archived ones included, with its categories and variants. */
export async function catalogueForExport(db: Db): Promise<ExportProduct[]> {
  const result = await db.execute<{
    id: number;
    name: string;
    slug: string;
    status: ProductStatus;
    kind: string;
    description: string | null;
    categories: string[];
    variants: ExportProduct['variants'];
  }>(sql`
    select p.id, p.product_name as name, p.slug, p.status, p.kind, p.description,
      coalesce((select json_agg(c.name order by c.name)
                from product_categories pc join categories c on c.id = pc.category_id
                where pc.product_id = p.id), '[]') as categories,
      coalesce((select json_agg(json_build_object(
                  'id', v.id, 'sku', v.sku, 'options', v.options,
                  'price', coalesce(v.price, p.price), 'compareAtPrice', v.compare_at_price,
                  'stock', v.stock) order by v.position, v.id)
                from product_variants v where v.product_id = p.id), '[]') as variants
    from products p
    order by p.id`);
  return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The file to download: its name (dated in Kampala) and its text. */
export async function catalogueFile(db: Db, now = new Date()) {
  return { fileName: catalogueFileName(now), text: catalogueCsv(await catalogueForExport(db)) };
}

/**
 * What the import checks rows against (the products' ids, variants and SKUs, the categories),
 * and whether an import under `requestKey` is recorded already, in one batch. The record is
 * read last: a double submit's second, if its catalogue read sees the first import's rows, sees
 * that import's record too (one commit writes both), and answers as the first did.
 */
async function catalogueNow(
  db: Db,
  requestKey: string,
  keyOwner: KeyOwner,
): Promise<{ catalogue: CatalogueNow; imported: boolean }> {
  const [variants, categories, earlier] = await db.batch([
    db.execute<{
      product_id: number;
      status: ProductStatus;
      kind: string;
      id: number | null;
      sku: string | null;
    }>(sql`
      select p.id as product_id, p.status, p.kind, v.id, v.sku
      from products p left join product_variants v on v.product_id = p.id`),
    db.execute<{ id: number; name: string }>(sql`select id, name from categories order by name`),
    earlierAnswerQuery(db, requestKey),
  ]);
  const products = new Map<
    number,
    { status: ProductStatus; kind: string; variants: { id: number; sku: string }[] }
  >();
  for (const row of variants.rows) {
    const id = Number(row.product_id);
    const product = products.get(id) ?? { status: row.status, kind: row.kind, variants: [] };
    if (row.id !== null && row.sku !== null)
      product.variants.push({ id: Number(row.id), sku: row.sku });
    products.set(id, product);
  }
  return {
    catalogue: {
      products,
      categories: categories.rows.map((c) => ({ id: Number(c.id), name: c.name })),
    },
    // Someone else's key, or another kind of save's, is refused (409).
    imported: replayOf(earlier[0], keyOwner) !== null,
  };
}

export type ImportAnswer =
  | { ok: true; created: number; updated: number; variants: number; restocked: number[] }
  | { ok: false; problems: string[] };

/**
 * Imports the file whole or not at all: every problem is named by its row before anything is
 * written, then every product is saved in one batch. The same request key again answers what
 * the first import did without writing twice.
 */
export async function importProducts(
  db: Db,
  actor: DeskActor,
  csv: string,
  requestKey: string,
): Promise<ImportAnswer> {
  // The key belongs to this person's import (decision 0059).
  const keyOwner: KeyOwner = { actor, action: 'products.imported' };
  const { catalogue, imported } = await catalogueNow(db, requestKey, keyOwner);
  // Imported already (a retry after a dropped connection): its rows are the catalogue's now.
  if (imported) return { ok: true, ...fileCounts(csv), restocked: [] };
  const plan = planImport(csv, catalogue, (input) => v.safeParse(saveProductInput, input));
  if (!plan.ok) return plan;
  const answer = { ok: true as const, ...plan.counts, restocked: [] as number[] };
  try {
    const saved = await saveProducts(
      db,
      actor,
      plan.saves.map((planned) => planned.save),
      { reason: 'imported', requestKey },
    );
    if (!saved.ok) {
      // The same import sent twice at once: the other one wrote it (its record holds the key).
      if (await earlierAnswer(db, requestKey, keyOwner)) return answer;
      const planned = plan.saves[saved.index] ?? { rows: [], skus: [] };
      return { ok: false, problems: [saveProblem(planned, saved.problem)] };
    }
    return { ...answer, restocked: saved.restocked };
  } catch (error) {
    // The same import sent twice at once: the other one wrote it (its record holds the key; a
    // unique SKU or slug may be what stopped this one first).
    if (isRepeatedKey(error) || (await earlierAnswer(db, requestKey, keyOwner))) return answer;
    throw error;
  }
}
