// The catalogue as a spreadsheet (issue 22, decision 0047): the export's products with their
// variants, and the import, checked whole (core/desk-spreadsheet.ts) and then written in ONE
// db.batch by the catalogue's saveProducts, recorded there with its request key.
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { saveProductInput } from '#core/desk-catalogue.ts';
import type { ProductStatus } from '#core/desk-roles.ts';
import {
  type CatalogueNow,
  catalogueCsv,
  catalogueFileName,
  type ExportProduct,
  type ImportSummary,
  planImport,
  saveProblem,
  type VariantNow,
} from '#core/desk-spreadsheet.ts';
import type { Db } from '#db/client.ts';
import type { Refused } from '../shopper-error.ts';
import { saveProducts } from './desk-catalogue-service.ts';
import {
  type DeskActor,
  earlierAnswer,
  earlierAnswerQuery,
  isRepeatedKey,
  type KeyOwner,
  replayOf,
} from './desk-record.ts';

/** A product's variants as one JSON array (`p` is the product): what the export writes and what an
 * import compares its rows with. */
const variantsOfProduct = sql`coalesce((select json_agg(json_build_object(
    'id', v.id, 'sku', v.sku, 'options', v.options,
    'price', coalesce(v.price, p.price), 'compareAtPrice', v.compare_at_price,
    'stock', v.stock) order by v.position, v.id)
  from product_variants v where v.product_id = p.id), '[]') as variants`;

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
      ${variantsOfProduct}
    from products p
    order by p.id`);
  return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The file to download: its name (dated in Kampala) and its text. */
export async function catalogueFile(db: Db, now = new Date()) {
  return { fileName: catalogueFileName(now), text: catalogueCsv(await catalogueForExport(db)) };
}

/**
 * What the import checks and compares rows against (each product as it is: its name,
 * description, status, kind, categories and variants; the categories), and the answer of an
 * import under `requestKey` if one is recorded, in one batch. The record is read last: a double
 * submit's second, if its catalogue read sees the first import's rows, sees that import's record
 * too (one commit writes both), and answers as the first did.
 */
async function catalogueNow(
  db: Db,
  requestKey: string,
  keyOwner: KeyOwner,
): Promise<{ catalogue: CatalogueNow; earlier: ImportSummary | null }> {
  const [products, categories, earlier] = await db.batch([
    db.execute<{
      id: number;
      name: string;
      description: string | null;
      status: ProductStatus;
      kind: string;
      category_ids: number[];
      variants: VariantNow[];
    }>(sql`
      select p.id, p.product_name as name, p.description, p.status, p.kind,
        coalesce((select json_agg(pc.category_id) from product_categories pc
                  where pc.product_id = p.id), '[]') as category_ids,
        ${variantsOfProduct}
      from products p`),
    db.execute<{ id: number; name: string }>(sql`select id, name from categories order by name`),
    earlierAnswerQuery(db, requestKey),
  ]);
  return {
    catalogue: {
      products: new Map(
        products.rows.map((row) => [
          Number(row.id),
          {
            name: row.name,
            description: row.description ?? '',
            status: row.status,
            kind: row.kind,
            categoryIds: row.category_ids.map(Number),
            variants: row.variants.map((variant) => ({
              ...variant,
              id: Number(variant.id),
              price: Number(variant.price),
              compareAtPrice:
                variant.compareAtPrice === null ? null : Number(variant.compareAtPrice),
              stock: Number(variant.stock),
            })),
          },
        ]),
      ),
      categories: categories.rows.map((c) => ({ id: Number(c.id), name: c.name })),
    },
    // Someone else's key, or another kind of save's, is refused (409, decision 0059); this
    // person's import answers what it did then.
    earlier:
      (replayOf(earlier[0], keyOwner) as { imported?: ImportSummary } | null)?.imported ?? null,
  };
}

/** A refused file: its problems, one a row (the page lists them). */
export type ImportRefusal = Refused<'bad-file'> & { problems: string[] };
export type ImportAnswer = ({ ok: true; restocked: number[] } & ImportSummary) | ImportRefusal;

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
  const { catalogue, earlier } = await catalogueNow(db, requestKey, keyOwner);
  // Imported already (a retry after a dropped connection): what it did then.
  if (earlier) return { ok: true, ...earlier, restocked: [] };
  const plan = planImport(csv, catalogue, (input) => v.safeParse(saveProductInput, input));
  if (!plan.ok) return { ok: false, problem: 'bad-file', problems: plan.problems };
  const answer = { ok: true as const, ...plan.summary, restocked: [] as number[] };
  // Nothing changes: nothing is written (a retry plans the same again).
  if (plan.saves.length === 0) return answer;
  try {
    const saved = await saveProducts(
      db,
      actor,
      plan.saves.map((planned) => planned.save),
      { reason: 'imported', requestKey, recorded: { imported: plan.summary } },
    );
    if (!saved.ok) {
      // The same import sent twice at once: the other one wrote it (its record holds the key).
      if (await earlierAnswer(db, requestKey, keyOwner)) return answer;
      const planned = plan.saves[saved.index] ?? { rows: [], skus: [] };
      return { ok: false, problem: 'bad-file', problems: [saveProblem(planned, saved.text)] };
    }
    return { ...answer, restocked: saved.restocked };
  } catch (error) {
    // The same import sent twice at once: the other one wrote it (its record holds the key; a
    // unique SKU or slug may be what stopped this one first).
    if (isRepeatedKey(error) || (await earlierAnswer(db, requestKey, keyOwner))) return answer;
    throw error;
  }
}
