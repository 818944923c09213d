// Placing an order (DESIGN: one-write checkout; decisions 0001, 0003 and 0039). Prices and stock
// are read per variant from the database now; the order, its items and every stock decrement are
// ONE statement, keyed
// by the order id the client made, so a retried or double-clicked checkout makes one order.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { DELIVERY_FEE, type PaymentMethod } from '#core/orders.ts';
import { buildReceipt, type Receipt } from '#core/receipt.ts';
import { nameWithVariant } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import { orders, products, productVariants, profiles } from '#db/schema/index.ts';
import { ensureProfile } from './account.ts';
import { onSale, pOnSale } from './catalogue.ts';
import { saveReceipt } from './orders.ts';

/** A line as sent: a variant, or a product sold in one variant (older clients). */
export type OrderLine = ({ variantId: number } | { productId: number }) & { quantity: number };
/** A line once its variant is known. */
type VariantLine = { variantId: number; quantity: number };

/** Why an order could not be placed, in terms the checkout turns into the spec's texts. */
export type CheckoutProblem =
  | { kind: 'empty-cart' }
  | { kind: 'profile-incomplete' }
  | { kind: 'product-missing'; name: string }
  | { kind: 'choose-size' }
  | { kind: 'insufficient-stock'; name: string; available: number }
  | { kind: 'order-id-taken' };

export type PlacedOrder = {
  orderId: string;
  /** False when this id had already been placed by this shopper (a retry): nothing changed. */
  created: boolean;
  total: number;
  receipt: Receipt | null;
};

export type CheckoutResult =
  | { ok: true; order: PlacedOrder }
  | { ok: false; problem: CheckoutProblem };

/** The same variant twice in one cart is one line with the quantities added. */
export function mergeLines(lines: readonly VariantLine[]): VariantLine[] {
  const merged = new Map<number, number>();
  for (const line of lines) {
    merged.set(line.variantId, (merged.get(line.variantId) ?? 0) + line.quantity);
  }
  return [...merged].map(([variantId, quantity]) => ({ variantId, quantity }));
}

type Stock = { id: number; productId: number; name: string; label: string; stock: number };

/**
 * The lines as variants: a `{ productId }` line names its product's only variant; a product
 * with several is refused ("Please choose a size."), one that is gone is missing.
 */
function resolveLines(
  lines: readonly OrderLine[],
  found: Stock[],
): { ok: true; lines: VariantLine[] } | { ok: false; problem: CheckoutProblem } {
  const resolved: VariantLine[] = [];
  for (const line of lines) {
    if ('variantId' in line) {
      resolved.push(line);
      continue;
    }
    const variants = found.filter((v) => v.productId === line.productId);
    const [only] = variants;
    if (variants.length > 1) return { ok: false, problem: { kind: 'choose-size' } };
    if (!only)
      return { ok: false, problem: { kind: 'product-missing', name: `#${line.productId}` } };
    resolved.push({ variantId: only.id, quantity: line.quantity });
  }
  return { ok: true, lines: mergeLines(resolved) };
}

/** The first line that cannot be bought now: a missing variant or too little stock. */
function firstProblem(
  lines: VariantLine[],
  found: Stock[],
  shownNames: ReadonlyMap<number, string>,
): CheckoutProblem | null {
  const byId = new Map(found.map((v) => [v.id, v]));
  for (const line of lines) {
    const variant = byId.get(line.variantId);
    if (!variant) {
      return {
        kind: 'product-missing',
        name: shownNames.get(line.variantId) ?? `#${line.variantId}`,
      };
    }
    if (variant.stock < line.quantity) {
      return {
        kind: 'insufficient-stock',
        name: nameWithVariant(variant.name, variant.label),
        available: variant.stock,
      };
    }
  }
  return null;
}

const postgresCode = (error: unknown): string | undefined =>
  (error as { cause?: { code?: string } })?.cause?.code;

/** What the one write answers: the new order, or nothing when it placed nothing. */
type Written = {
  order_id: string | null;
  created_at: string | null;
  /** int8 arrives as text from the driver. */
  total: string | number | null;
  items: { id: string; name: string; price: number; quantity: number; variant: string }[] | null;
};

/**
 * Places the order. Round trips: one batched read (the variants, this order id, the profile),
 * ONE write, then the receipt. The write inserts the order only when every variant still exists
 * and is on sale (its product published: checked in the write itself) and the id is new, copies
 * names, variant labels and prices into the items, and takes each variant's stock in the same
 * statement, logging each as a 'sale' (stock_movements, from the update's RETURNING: the level
 * it left); the variants' CHECK (stock >= 0) refuses an oversell,
 * so a lost race rolls the whole statement back. The same order id again (a retry) changes
 * nothing and answers the order.
 */
export async function placeOrder(
  db: Db,
  customer: { id: string; email: string; name: string },
  order: { orderId: string; lines: readonly OrderLine[]; paymentMethod: PaymentMethod },
  /** Names the client showed, by variant id, only for the 'not found' text of a piece gone. */
  shownNames: ReadonlyMap<number, string> = new Map(),
): Promise<CheckoutResult> {
  if (order.lines.length === 0) return { ok: false, problem: { kind: 'empty-cart' } };

  const [found, [existing], [savedProfile]] = await db.batch([
    stockOf(db, order.lines),
    db
      .select({ customerId: orders.customerId, total: orders.total })
      .from(orders)
      .where(eq(orders.id, order.orderId)),
    db.select().from(profiles).where(eq(profiles.id, customer.id)),
  ]);
  if (existing) return replay(existing, customer.id, order.orderId);
  const profile = savedProfile ?? (await ensureProfile(db, customer));
  if (!profile.fullName.trim() || !profile.phone) {
    return { ok: false, problem: { kind: 'profile-incomplete' } };
  }
  const resolved = resolveLines(order.lines, found);
  if (!resolved.ok) return resolved;
  const { lines } = resolved;
  const problem = firstProblem(lines, found, shownNames);
  if (problem) return { ok: false, problem };

  let written: Written | undefined;
  try {
    written = await writeOrder(
      db,
      customer.id,
      profile.fullName,
      order.orderId,
      lines,
      order.paymentMethod,
    );
  } catch (error) {
    // 23514: someone bought the last pieces between the read and the write (the stock CHECK);
    // 23503: a variant was removed meanwhile. Nothing was written either way.
    const code = postgresCode(error);
    if (code !== '23514' && code !== '23503') throw error;
  }
  if (!written?.order_id || !written.items || written.created_at === null) {
    return explainRefusal(db, customer.id, order.orderId, lines, shownNames);
  }

  const receipt = buildReceipt(
    {
      id: written.order_id,
      createdAt: written.created_at,
      paymentMethod: order.paymentMethod,
      total: Number(written.total ?? 0),
      deliveryFee: DELIVERY_FEE,
      discount: 0,
      customerName: profile.fullName,
      items: written.items,
    },
    profile,
  );
  const saved = await saveReceipt(db, customer.id, receipt).then(
    () => true,
    (error: unknown) => {
      // Spec: a receipt failure never fails the order; it is rebuilt when first read.
      console.warn('Receipt could not be saved; it will be rebuilt from the order', error);
      return false;
    },
  );
  return {
    ok: true,
    order: {
      orderId: written.order_id,
      created: true,
      total: Number(written.total ?? 0),
      receipt: saved ? receipt : null,
    },
  };
}

/** The variants the lines name, directly or as a product's: with their product and stock. */
const stockOf = (db: Db, lines: readonly OrderLine[]) => {
  const variantIds = lines.flatMap((l) => ('variantId' in l ? [l.variantId] : []));
  const productIds = lines.flatMap((l) => ('productId' in l ? [l.productId] : []));
  return db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      name: products.productName,
      label: productVariants.label,
      stock: productVariants.stock,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        onSale,
        or(
          variantIds.length > 0 ? inArray(productVariants.id, variantIds) : undefined,
          productIds.length > 0 ? inArray(productVariants.productId, productIds) : undefined,
        ),
      ),
    );
};

/** The order, its items and the stock decrements: one statement, all or nothing. */
async function writeOrder(
  db: Db,
  customerId: string,
  customerName: string,
  orderId: string,
  lines: VariantLine[],
  paymentMethod: PaymentMethod,
): Promise<Written | undefined> {
  const result = await db.execute<Written>(sql`
    with wanted as (
      select * from unnest(${sql.param(lines.map((l) => l.variantId))}::int[],
                           ${sql.param(lines.map((l) => l.quantity))}::int[]) as w(variant_id, quantity)
    ),
    priced as (
      select w.variant_id, w.quantity, v.product_id, v.label, p.product_name,
             coalesce(v.price, p.price) as price
      from wanted w
      join product_variants v on v.id = w.variant_id
      join products p on p.id = v.product_id and ${pOnSale}
    ),
    placed as (
      insert into orders (id, customer_id, customer_name, subtotal, delivery_fee, discount, total,
                          payment_method, status)
      select ${orderId}::uuid, ${customerId}, ${customerName}, sum(price::bigint * quantity),
             ${DELIVERY_FEE}, 0, sum(price::bigint * quantity) + ${DELIVERY_FEE}, ${paymentMethod}, 'pending'
      from priced
      having count(*) = ${lines.length}
      on conflict (id) do nothing
      returning id, created_at, total
    ),
    items as (
      insert into order_items (order_id, product_id, variant_id, name, variant_label, price, quantity)
      select placed.id, priced.product_id, priced.variant_id, priced.product_name, priced.label,
             priced.price, priced.quantity
      from priced cross join placed
      returning id, name, variant_label, price, quantity
    ),
    taken as (
      update product_variants v set stock = v.stock - w.quantity
      from wanted w cross join placed
      where v.id = w.variant_id
      returning v.id, v.sku, v.stock, w.quantity
    ),
    sold as (
      insert into stock_movements (variant_id, sku, change, stock_after, reason, order_id)
      select taken.id, taken.sku, -taken.quantity, taken.stock, 'sale', placed.id
      from taken cross join placed
    )
    select placed.id as order_id, placed.created_at, placed.total,
           (select json_agg(json_build_object('id', id, 'name', name, 'price', price,
                                              'quantity', quantity, 'variant', variant_label))
            from items) as items,
           (select count(*) from taken) as taken
    from (select 1) one left join placed on true
  `);
  return result.rows[0];
}

/** A write that placed nothing: the id was taken meanwhile, or the stock or catalogue changed. */
async function explainRefusal(
  db: Db,
  customerId: string,
  orderId: string,
  lines: VariantLine[],
  shownNames: ReadonlyMap<number, string>,
): Promise<CheckoutResult> {
  const [found, [existing]] = await db.batch([
    stockOf(db, lines),
    db
      .select({ customerId: orders.customerId, total: orders.total })
      .from(orders)
      .where(eq(orders.id, orderId)),
  ]);
  if (existing) return replay(existing, customerId, orderId);
  const problem = firstProblem(lines, found, shownNames);
  if (problem) return { ok: false, problem };
  // The stock came back between the write and this read: still a refusal of this attempt.
  const first = found[0];
  return {
    ok: false,
    problem: {
      kind: 'insufficient-stock',
      name: first ? nameWithVariant(first.name, first.label) : '',
      available: first?.stock ?? 0,
    },
  };
}

/** The same order id again: the shopper's own order is answered as placed; anyone else's is not. */
function replay(
  existing: { customerId: string | null; total: number },
  customerId: string,
  orderId: string,
): CheckoutResult {
  if (existing.customerId !== customerId) return { ok: false, problem: { kind: 'order-id-taken' } };
  return { ok: true, order: { orderId, created: false, total: existing.total, receipt: null } };
}
