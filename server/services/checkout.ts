// Placing an order (DESIGN: one-write checkout; decisions 0001 and 0003). Prices and stock are read
// from the database now; the order, its items and every stock decrement are ONE statement, keyed
// by the order id the client made, so a retried or double-clicked checkout makes one order.
import { eq, inArray, sql } from 'drizzle-orm';
import { DELIVERY_FEE, type PaymentMethod } from '#core/orders.ts';
import { buildReceipt, type Receipt } from '#core/receipt.ts';
import type { Db } from '#db/client.ts';
import { orders, products, profiles } from '#db/schema/index.ts';
import { ensureProfile } from './account.ts';
import { saveReceipt } from './orders.ts';

export type OrderLine = { productId: number; quantity: number };

/** Why an order could not be placed, in terms the checkout turns into the spec's texts. */
export type CheckoutProblem =
  | { kind: 'empty-cart' }
  | { kind: 'profile-incomplete' }
  | { kind: 'product-missing'; name: string }
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

/** The same product twice in one cart is one line with the quantities added. */
export function mergeLines(lines: readonly OrderLine[]): OrderLine[] {
  const merged = new Map<number, number>();
  for (const line of lines) {
    merged.set(line.productId, (merged.get(line.productId) ?? 0) + line.quantity);
  }
  return [...merged].map(([productId, quantity]) => ({ productId, quantity }));
}

type Stock = { id: number; name: string; quantity: number };

/** The first line that cannot be bought now: a missing product or too little stock. */
function firstProblem(
  lines: OrderLine[],
  found: Stock[],
  shownNames: ReadonlyMap<number, string>,
): CheckoutProblem | null {
  const byId = new Map(found.map((p) => [p.id, p]));
  for (const line of lines) {
    const product = byId.get(line.productId);
    if (!product) {
      return {
        kind: 'product-missing',
        name: shownNames.get(line.productId) ?? `#${line.productId}`,
      };
    }
    if (product.quantity < line.quantity) {
      return { kind: 'insufficient-stock', name: product.name, available: product.quantity };
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
  items: { id: string; name: string; price: number; quantity: number }[] | null;
};

/**
 * Places the order. Round trips: one batched read (products, this order id, the profile), ONE
 * write, then the receipt. The write inserts the order only when every product still exists and
 * the id is new, copies names and prices into the items, and takes the stock in the same
 * statement; the products' CHECK (quantity >= 0) refuses an oversell, so a lost race rolls the
 * whole statement back. The same order id again (a retry) changes nothing and answers the order.
 */
export async function placeOrder(
  db: Db,
  customer: { id: string; email: string; name: string },
  order: { orderId: string; lines: readonly OrderLine[]; paymentMethod: PaymentMethod },
  /** Names the client showed, only for the 'not found' text of a product that is gone. */
  shownNames: ReadonlyMap<number, string> = new Map(),
): Promise<CheckoutResult> {
  const lines = mergeLines(order.lines);
  if (lines.length === 0) return { ok: false, problem: { kind: 'empty-cart' } };

  const [found, [existing], [savedProfile]] = await db.batch([
    stockOf(db, lines),
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
    // 23503: a product was removed meanwhile. Nothing was written either way.
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

const stockOf = (db: Db, lines: OrderLine[]) =>
  db
    .select({ id: products.id, name: products.productName, quantity: products.quantity })
    .from(products)
    .where(
      inArray(
        products.id,
        lines.map((l) => l.productId),
      ),
    );

/** The order, its items and the stock decrements: one statement, all or nothing. */
async function writeOrder(
  db: Db,
  customerId: string,
  customerName: string,
  orderId: string,
  lines: OrderLine[],
  paymentMethod: PaymentMethod,
): Promise<Written | undefined> {
  const result = await db.execute<Written>(sql`
    with wanted as (
      select * from unnest(${sql.param(lines.map((l) => l.productId))}::int[],
                           ${sql.param(lines.map((l) => l.quantity))}::int[]) as w(product_id, quantity)
    ),
    priced as (
      select w.product_id, w.quantity, p.product_name, p.price
      from wanted w join products p on p.id = w.product_id
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
      insert into order_items (order_id, product_id, name, price, quantity)
      select placed.id, priced.product_id, priced.product_name, priced.price, priced.quantity
      from priced cross join placed
      returning id, name, price, quantity
    ),
    taken as (
      update products p set quantity = p.quantity - w.quantity
      from wanted w cross join placed
      where p.id = w.product_id
      returning p.id
    )
    select placed.id as order_id, placed.created_at, placed.total,
           (select json_agg(json_build_object('id', id, 'name', name, 'price', price,
                                              'quantity', quantity)) from items) as items,
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
  lines: OrderLine[],
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
      name: first?.name ?? '',
      available: first?.quantity ?? 0,
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
