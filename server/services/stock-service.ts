// Stock at the desk (issue 22): adjustments, the log of every change, and what is running low.
// An adjustment is ONE statement: the stock, its movement, the desk's record and the catalogue's
// version change together or not at all; the variants' CHECK (stock >= 0) refuses going below zero.
import { and, asc, eq, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { StockReason } from '#core/desk-roles.ts';
import { type DeltaReason, pieceName, STOCK_LOG_PAGE } from '#core/desk-stock.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresCode } from '#db/errors.ts';
import { products, productVariants } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import { likePattern } from './catalogue-service.ts';
import { bumpCatalogueVersionSql } from './catalogue-version.ts';
import {
  type DeskActor,
  type EarlierSave,
  earlierAnswerQuery,
  isRepeatedKey,
  isSameSave,
  recordDeskWriteSql,
} from './desk-record.ts';
import {
  DEFAULT_LOW_STOCK_THRESHOLD,
  lowStockThresholdSql,
  settingsQuery,
  storedFrom,
} from './shop-settings.ts';

/** A variant as the stock page shows it: its piece, label, SKU, stock and the piece's status. */
const pieceColumns = {
  variantId: productVariants.id,
  productId: products.id,
  name: products.productName,
  label: productVariants.label,
  sku: productVariants.sku,
  stock: productVariants.stock,
  status: products.status,
};

export type LowStockRow = {
  variantId: number;
  productId: number;
  name: string;
  label: string;
  sku: string;
  stock: number;
};

/**
 * Variants of pieces not archived with `threshold` or fewer left, the emptiest first. The
 * threshold may be SQL (the dashboard reads the owner's number in the same statement).
 */
export function lowStockVariants(db: Db, threshold: number | SQL<number>, limit = 50) {
  return db
    .select(pieceColumns)
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(lte(productVariants.stock, threshold), ne(products.status, 'archived')))
    .orderBy(asc(productVariants.stock), asc(products.productName), asc(productVariants.position))
    .limit(limit);
}

/** Low stock and the threshold it is measured against: one round trip. */
export async function lowStock(db: Db) {
  const [rows, stored] = await db.batch([
    lowStockVariants(db, lowStockThresholdSql),
    settingsQuery(db),
  ]);
  return { threshold: storedFrom(stored).lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD, rows };
}

/** Pieces added or taken with a reason, or a count of what is on the shelf (decision 0079). */
export type Adjustment = { variantId: number; requestKey?: string } & (
  | { reason: DeltaReason; delta: number }
  | { reason: 'counted'; count: number }
);

/** A refusal: below zero says how many pieces are left. */
export type AdjustRefusal =
  | Refused<'missing' | 'key-reused'>
  | (Refused<'below-zero'> & { left: number });
export type AdjustResult = { ok: true; stock: number; cameBack: boolean } | AdjustRefusal;

/**
 * Adds `delta` pieces (negative: takes them away), or sets the stock to a `count` of the shelf.
 * One read (the piece, and a request key's earlier save), then ONE statement. A key already used
 * answers its first save's level, when that save was this person's adjustment of this variant;
 * anyone else's key is refused.
 *
 * A count sets the stock to what is on the shelf and logs the difference from the level it
 * replaced as the movement's change (0 when it matched: the count itself is worth a row). The
 * level it replaces is read in the same statement under the row's lock (`for update`): a sale
 * committed first is in it, a sale after it waits and takes from the count, so the log's changes
 * still add up to the stock.
 */
export async function adjustStock(
  db: Db,
  actor: DeskActor,
  adjustment: Adjustment,
): Promise<AdjustResult> {
  const { variantId, reason, requestKey } = adjustment;
  const [[piece], [earlier]] = await db.batch([
    db
      .select({ name: products.productName, label: productVariants.label })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(productVariants.id, variantId)),
    earlierAnswerQuery(db, requestKey),
  ]);
  if (earlier) return replay(earlier, actor, variantId);
  if (!piece) return { ok: false, problem: 'missing' };

  const counted = adjustment.reason === 'counted' ? adjustment.count : null;
  // `changed`: the variant's id, SKU, the level after and the change that made it.
  const change =
    adjustment.reason === 'counted'
      ? sql`
        update product_variants v set stock = ${adjustment.count}::int
        from (select id, stock from product_variants where id = ${variantId} for update) shelf
        where v.id = shelf.id
        returning v.id, v.sku, v.stock, v.stock - shelf.stock as change`
      : sql`
        update product_variants set stock = stock + ${adjustment.delta}::int
        where id = ${variantId}
        returning id, sku, stock, ${adjustment.delta}::int as change`;
  const details = sql`(select jsonb_build_object('variantId', id, 'sku', sku, 'delta', change,
    'reason', ${reason}::text, 'stock', stock${counted === null ? sql`` : sql`, 'count', ${counted}::int`})
    from changed)`;
  const record = recordDeskWriteSql(
    actor,
    { action: 'stock.adjusted', subject: pieceName(piece.name, piece.label), requestKey },
    details,
  );
  try {
    // No guard on the update: going below zero breaks the CHECK and rolls the whole statement
    // back, record and version included. A variant removed meanwhile leaves `changed` empty and
    // the record's details null (NOT NULL): rolled back too.
    const result = await db.execute<{ stock: number | string; change: number | string }>(sql`
      with changed as (${change}),
      moved as (
        insert into stock_movements (variant_id, sku, change, stock_after, reason, actor_email)
        select id, sku, change, stock, ${reason}, ${actor.email} from changed
      ),
      recorded as (${record}),
      bumped as (${bumpCatalogueVersionSql})
      select stock, change from changed`);
    const stock = Number(result.rows[0]?.stock);
    const moved = Number(result.rows[0]?.change);
    return { ok: true, stock, cameBack: stock > 0 && stock - moved <= 0 };
  } catch (error) {
    if (requestKey && isRepeatedKey(error)) {
      const [first] = await earlierAnswerQuery(db, requestKey);
      if (first) return replay(first, actor, variantId);
    }
    const code = postgresCode(error);
    if (code === PG.check) {
      const [now] = await db
        .select({ stock: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.id, variantId));
      return now
        ? { ok: false, problem: 'below-zero', left: now.stock }
        : { ok: false, problem: 'missing' };
    }
    if (code === PG.notNull) return { ok: false, problem: 'missing' };
    throw error;
  }
}

function replay(earlier: EarlierSave, actor: DeskActor, variantId: number): AdjustResult {
  const same = isSameSave(earlier, {
    actor,
    action: 'stock.adjusted',
    about: (details) => details.variantId === variantId && typeof details.stock === 'number',
  });
  const stock = (earlier.details as { stock?: unknown }).stock;
  return same
    ? { ok: true, stock: stock as number, cameBack: false }
    : { ok: false, problem: 'key-reused' };
}

export type StockLogRow = {
  id: number;
  variantId: number | null;
  /** Null once the variant is removed (its SKU stays). */
  name: string | null;
  label: string | null;
  sku: string;
  change: number;
  stockAfter: number;
  reason: StockReason;
  /** The sale's or deleted order's id, while the order exists. */
  orderId: string | null;
  /** The staff member's email for a desk change. */
  actorEmail: string | null;
  createdAt: string;
};

export type StockLogPage = {
  rows: StockLogRow[];
  /** The cursor for the next page (`before`), null on the last. */
  next: number | null;
  /** With `variantId`: the variant as it is now (null when it doesn't exist). */
  variant: (LowStockRow & { status: string }) | null;
};

type LogRow = {
  id: string | number;
  variant_id: number | null;
  name: string | null;
  label: string | null;
  sku: string;
  change: number;
  stock_after: number;
  reason: StockReason;
  order_id: string | null;
  actor_email: string | null;
  created_at: string;
};

/** Every change, newest first, a page at a time: all variants', or one's. */
export async function stockLog(
  db: Db,
  filter: { variantId?: number; before?: number } = {},
): Promise<StockLogPage> {
  const where = [
    filter.variantId !== undefined ? sql`m.variant_id = ${filter.variantId}` : sql`true`,
    filter.before !== undefined ? sql`m.id < ${filter.before}` : sql`true`,
  ];
  const [log, variant] = await db.batch([
    db.execute<LogRow>(sql`
      select m.id, m.variant_id, p.product_name as name, v.label, m.sku, m.change, m.stock_after,
             m.reason, m.order_id, m.actor_email, to_json(m.created_at) #>> '{}' as created_at
      from stock_movements m
      left join product_variants v on v.id = m.variant_id
      left join products p on p.id = v.product_id
      where ${sql.join(where, sql` and `)}
      order by m.id desc
      limit ${STOCK_LOG_PAGE + 1}`),
    db
      .select(pieceColumns)
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(
        filter.variantId !== undefined ? eq(productVariants.id, filter.variantId) : sql`false`,
      ),
  ]);
  const rows = log.rows.slice(0, STOCK_LOG_PAGE).map(
    (row): StockLogRow => ({
      id: Number(row.id),
      variantId: row.variant_id === null ? null : Number(row.variant_id),
      name: row.name,
      label: row.label,
      sku: row.sku,
      change: Number(row.change),
      stockAfter: Number(row.stock_after),
      reason: row.reason,
      orderId: row.order_id,
      actorEmail: row.actor_email,
      createdAt: new Date(row.created_at).toISOString(),
    }),
  );
  const last = rows.at(-1);
  return {
    rows,
    next: log.rows.length > STOCK_LOG_PAGE && last ? last.id : null,
    variant: variant[0] ?? null,
  };
}

/** Variants whose piece's name or SKU holds `q`, for the stock page's search. */
export function searchStock(db: Db, q: string, limit = 30) {
  const pattern = sql`lower(${likePattern(q.trim())})`;
  return db
    .select({
      ...pieceColumns,
      // What the piece sells for (the variant's own price, else the product's): the desk's new
      // order shows a running total (issue 34); the order's write prices it again.
      price: sql<number>`coalesce(${productVariants.price}, ${products.price})`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      sql`(lower(${products.productName}) like ${pattern} escape '\\' or lower(${productVariants.sku}) like ${pattern} escape '\\')`,
    )
    .orderBy(asc(products.productName), asc(productVariants.position), asc(productVariants.id))
    .limit(limit);
}
