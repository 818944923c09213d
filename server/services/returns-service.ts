// A shopper's returns and exchanges (issue 36, decision 0086): what she may bring back from an
// order, the request (ONE statement, as checkout's: the return, its lines, the pieces counted as
// returned and each exchange piece's stock held, or nothing), and her returns as she reads them.
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { KAMPALA_OFFSET_MS } from '#core/kampala-time.ts';
import {
  creditNoteNumber,
  type Handover,
  isReturnPhotoOf,
  kampalaDate,
  orderWindows,
  pickupFee,
  RETURN_TEXT,
  type ReturnRequestInput,
  returnedValue,
  returnPhotoUrl,
} from '#core/returns.ts';
import { DEFAULT_ADDRESS } from '#core/store-details.ts';
import { nameWithVariant } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresError } from '#db/errors.ts';
import {
  deliveryOptions,
  orderItems,
  orders,
  products,
  productVariants,
  refunds,
  returnLines,
  returns,
} from '#db/schema/index.ts';
import type { Answer, Refused } from '../shopper-error.ts';
import { pOnSale } from './catalogue-service.ts';
import { shownToShopper } from './orders-service.ts';
import {
  exchangeDaysSql,
  returnDaysSql,
  returnWindowsFrom,
  type SettingsFallback,
  settingsFrom,
  settingsQuery,
} from './shop-settings.ts';
import { WriteGate } from './write-gate.ts';

const DAY_S = 86_400;
const OFFSET_S = KAMPALA_OFFSET_MS / 1000;
/** A moment's Kampala day number in SQL, as core/returns.ts counts it. */
const kampalaDaySql = (at: SQL) => sql`floor((extract(epoch from ${at}) + ${OFFSET_S}) / ${DAY_S})`;

/** The zone's fee for a rider's pickup: the order's own delivery option's, else Kampala's. */
export const zoneFeeSql = sql<number>`coalesce(
  (select d.fee from delivery_options d
   where d.id = "orders"."delivery_option_id" and d.kind = 'delivery'),
  (select d.fee from delivery_options d where d.id = 'kampala'), 0)`;

const isoDay = (day: Date) => day.toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// What she may bring back (returns.options)

export type ExchangeChoice = { variantId: number; label: string; price: number; stock: number };
export type ReturnOptionLine = {
  orderItemId: string;
  productId: number | null;
  name: string;
  variantLabel: string;
  price: number;
  quantity: number;
  left: number;
  returnable: boolean;
  image: string | null;
  exchangeChoices: ExchangeChoice[];
};
export type ReturnOptions = {
  orderId: string;
  deliveredAt: string | null;
  returnLastDay: string | null;
  exchangeLastDay: string | null;
  canReturn: boolean;
  canExchange: boolean;
  problem: string | null;
  pickupFee: number;
  lines: ReturnOptionLine[];
};

/** The order's columns a return reads: hers only (as orders.byId: another's is not found). */
const orderRead = (db: Db, customerId: string, orderId: string) =>
  db
    .select({
      id: orders.id,
      status: orders.status,
      deliveredAt: orders.deliveredAt,
      subtotal: orders.subtotal,
      discount: orders.discount,
      zoneFee: zoneFeeSql,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), shownToShopper(customerId)));

/** The order's lines with what is left to return and whether the piece may be. */
const itemsRead = (db: Db, orderId: string) =>
  db
    .select({
      id: orderItems.id,
      productId: orderItems.productId,
      variantId: orderItems.variantId,
      name: orderItems.name,
      variantLabel: orderItems.variantLabel,
      price: orderItems.price,
      quantity: orderItems.quantity,
      returned: orderItems.returned,
      // A line without a product (a gift card, a piece deleted) is never returnable.
      returnable: sql<boolean>`coalesce(${products.returnable}, false)`,
      image: products.productImage,
    })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.name), asc(orderItems.id));

/** Every variant of the order's pieces, on sale, with its price now (the exchange choices). */
const siblingsRead = (db: Db, orderId: string) =>
  db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      label: productVariants.label,
      stock: productVariants.stock,
      price: sql<number>`coalesce(${productVariants.price}, ${products.price})`.mapWith(Number),
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        sql`${products.status} = 'published'`,
        inArray(
          productVariants.productId,
          db
            .select({ id: sql<number>`${orderItems.productId}` })
            .from(orderItems)
            .where(eq(orderItems.orderId, orderId)),
        ),
      ),
    )
    .orderBy(asc(productVariants.position), asc(productVariants.id));

type OrderRow = {
  id: string;
  status: string;
  deliveredAt: Date | null;
  subtotal: number;
  discount: number;
  zoneFee: number;
};

export async function returnOptions(
  db: Db,
  customerId: string,
  orderId: string,
  fallback: SettingsFallback,
  now = new Date(),
): Promise<Answer<{ options: ReturnOptions }, 'order-not-found'>> {
  const [[order], items, siblings, settingRows] = await db.batch([
    orderRead(db, customerId, orderId),
    itemsRead(db, orderId),
    siblingsRead(db, orderId),
    settingsQuery(db),
  ]);
  if (!order) return { ok: false, problem: 'order-not-found' };
  const settings = settingsFrom(settingRows, fallback).values;
  const windows = orderWindows(order, settings, now);
  const lines = items.map((item) => ({
    orderItemId: item.id,
    productId: item.productId,
    name: item.name,
    variantLabel: item.variantLabel,
    price: item.price,
    quantity: item.quantity,
    left: item.quantity - item.returned,
    returnable: item.returnable,
    image: item.image,
    exchangeChoices: siblings
      .filter(
        (v) => v.productId === item.productId && v.id !== item.variantId && v.price <= item.price,
      )
      .map((v) => ({ variantId: v.id, label: v.label, price: v.price, stock: v.stock })),
  }));
  const anyLeft = lines.some((line) => line.returnable && line.left > 0);
  const canReturn = windows.returnOpen && anyLeft;
  const canExchange = windows.exchangeOpen && anyLeft;
  let problem: string | null = null;
  if (!windows.at) problem = RETURN_TEXT.notDelivered;
  else if (!windows.returnOpen && windows.returnLast) {
    problem = RETURN_TEXT.windowClosed(kampalaDate(windows.returnLast));
  } else if (!anyLeft) {
    const first = lines.find((line) => line.left === 0) ?? lines[0];
    problem = first && !first.returnable ? RETURN_TEXT.notReturnable(first.name) : null;
    problem ??= first ? RETURN_TEXT.tooMany(first.name, 0) : null;
  } else if (!windows.exchangeOpen && windows.exchangeLast) {
    problem = RETURN_TEXT.exchangeWindowClosed(kampalaDate(windows.exchangeLast));
  }
  return {
    ok: true,
    options: {
      orderId,
      deliveredAt: windows.at?.toISOString() ?? null,
      returnLastDay: windows.returnLast ? isoDay(windows.returnLast) : null,
      exchangeLastDay: windows.exchangeLast ? isoDay(windows.exchangeLast) : null,
      canReturn,
      canExchange,
      problem,
      pickupFee: pickupFee(settings.returnPickupFee, [], order.zoneFee),
      lines,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The request (returns.request)

export type RequestRefused =
  | Refused<
      | 'order-not-found'
      | 'return-id-taken'
      | 'not-delivered'
      | 'line-not-found'
      | 'exchange-not-found'
      | 'bad-photo'
    >
  | (Refused<'window-closed' | 'exchange-window-closed'> & { last: string })
  | (Refused<'not-returnable' | 'exchange-too-dear'> & { name: string })
  | (Refused<'too-many'> & { name: string; left: number })
  | (Refused<'sold-out'> & { label: string; left: string[] });
export type RequestProblem = RequestRefused['problem'];
export type Requested = { returnId: string; status: string; created: boolean };
export type RequestAnswer = ({ ok: true } & Requested) | RequestRefused;

/** The return already under this id: hers for this order is answered; anything else refused. */
const existingRead = (db: Db, returnId: string) =>
  db
    .select({ customerId: returns.customerId, orderId: returns.orderId, status: returns.status })
    .from(returns)
    .where(eq(returns.id, returnId));

/** The exchange pieces asked for, and every variant of their pieces (the sizes left). */
const exchangeRead = (db: Db, variantIds: number[]) =>
  db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      name: products.productName,
      label: productVariants.label,
      stock: productVariants.stock,
      price: sql<number>`coalesce(${productVariants.price}, ${products.price})`.mapWith(Number),
      onSale: sql<boolean>`${products.status} = 'published'`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      inArray(
        productVariants.productId,
        db
          .select({ id: productVariants.productId })
          .from(productVariants)
          .where(inArray(productVariants.id, variantIds.length ? variantIds : [0])),
      ),
    )
    .orderBy(asc(productVariants.position), asc(productVariants.id));

type RequestRead = {
  existing: { customerId: string | null; orderId: string; status: string } | undefined;
  order: OrderRow | undefined;
  items: Awaited<ReturnType<typeof itemsRead>>;
  variants: Awaited<ReturnType<typeof exchangeRead>>;
  days: { returnDays: number; exchangeDays: number };
};

async function readRequest(
  db: Db,
  gate: WriteGate,
  customerId: string,
  input: ReturnRequestInput,
): Promise<RequestRead> {
  const asked = input.lines.flatMap((l) => (l.exchangeVariantId ? [l.exchangeVariantId] : []));
  // The return's own id is read last: each statement of a batch sees what was committed when it
  // began, so a double submit whose twin committed between them finds the twin here (its pieces
  // already counted by itemsRead) instead of being told they are already in a return.
  const [[order], items, variants, settingRows, [existing]] = await gate.batch([
    orderRead(db, customerId, input.orderId),
    itemsRead(db, input.orderId),
    exchangeRead(db, asked),
    settingsQuery(db),
    existingRead(db, input.returnId),
  ]);
  return { existing, order, items, variants, days: returnWindowsFrom(settingRows) };
}

/** The same id again: her own return of this order answers as made; anything else is refused. */
function replay(
  existing: NonNullable<RequestRead['existing']>,
  customerId: string,
  input: ReturnRequestInput,
): RequestAnswer {
  if (existing.customerId !== customerId || existing.orderId !== input.orderId) {
    return { ok: false, problem: 'return-id-taken' };
  }
  return { ok: true, returnId: input.returnId, status: existing.status, created: false };
}

/** The first guard the request fails on what was read (null: it may be written). */
export function firstRequestProblem(
  read: Omit<RequestRead, 'existing'>,
  customerId: string,
  input: ReturnRequestInput,
  now: Date,
): RequestRefused | null {
  const { order } = read;
  if (!order) return { ok: false, problem: 'order-not-found' };
  const windows = orderWindows(order, read.days, now);
  if (!windows.at) return { ok: false, problem: 'not-delivered' };
  if (!windows.returnOpen && windows.returnLast) {
    return { ok: false, problem: 'window-closed', last: kampalaDate(windows.returnLast) };
  }
  if (input.resolution === 'exchange' && !windows.exchangeOpen && windows.exchangeLast) {
    return {
      ok: false,
      problem: 'exchange-window-closed',
      last: kampalaDate(windows.exchangeLast),
    };
  }
  const held = new Map<number, number>();
  for (const line of input.lines) {
    const item = read.items.find((i) => i.id === line.orderItemId);
    if (!item) return { ok: false, problem: 'line-not-found' };
    const name = nameWithVariant(item.name, item.variantLabel);
    if (!item.returnable) return { ok: false, problem: 'not-returnable', name };
    const left = item.quantity - item.returned;
    if (line.quantity > left) return { ok: false, problem: 'too-many', name, left };
    if (!line.exchangeVariantId) continue;
    const piece = read.variants.find((v) => v.id === line.exchangeVariantId);
    if (!piece?.onSale) return { ok: false, problem: 'exchange-not-found' };
    if (piece.productId !== item.productId && piece.price > item.price) {
      return {
        ok: false,
        problem: 'exchange-too-dear',
        name: nameWithVariant(piece.name, piece.label),
      };
    }
    const wanted = (held.get(piece.id) ?? 0) + line.quantity;
    held.set(piece.id, wanted);
    if (piece.stock < wanted) {
      const sizesLeft = read.variants
        .filter((v) => v.productId === piece.productId && v.id !== piece.id && v.stock > 0)
        .map((v) => v.label)
        .filter(Boolean);
      const label =
        piece.productId === item.productId
          ? piece.label || piece.name
          : nameWithVariant(piece.name, piece.label);
      return { ok: false, problem: 'sold-out', label, left: sizesLeft };
    }
  }
  if ((input.photos ?? []).some((key) => !isReturnPhotoOf(key, customerId))) {
    return { ok: false, problem: 'bad-photo' };
  }
  return null;
}

/**
 * Asks for a return or an exchange. Round trips: one batched read (this id, the order, its lines,
 * the exchange pieces, the windows' days), then ONE statement that writes the return and its
 * lines only where every guard still holds in it (the order hers, delivered or collected, the
 * window open in Kampala days, each piece returnable with enough left, each exchange piece on sale,
 * of the same product or at most the line's price, in stock): it raises order_items.returned
 * beside its CHECK (two tabs never return a piece twice) and takes each exchange piece's stock
 * beside CHECK (stock >= 0) with an 'exchange-held' movement, as checkout takes stock. A write
 * that wrote nothing is explained from a fresh read with the first guard that fails.
 */
export async function requestReturn(
  db: Db,
  customerId: string,
  input: ReturnRequestInput,
  options: { gate?: WriteGate; now?: Date } = {},
): Promise<RequestAnswer> {
  const { gate = new WriteGate(db, null), now = new Date() } = options;
  const read = await readRequest(db, gate, customerId, input);
  if (read.existing) return replay(read.existing, customerId, input);
  const problem = firstRequestProblem(read, customerId, input, now);
  if (problem) return problem;
  const order = read.order as OrderRow;
  const priced = input.lines.map((line) => {
    const item = read.items.find((i) => i.id === line.orderItemId);
    return { price: item?.price ?? 0, quantity: line.quantity };
  });
  const amount = returnedValue(order, priced);
  let written: { id: string | null; status: string | null } | undefined;
  try {
    const result = await returnStatement(db, gate, customerId, input, amount);
    written = result.rows[0];
  } catch (error) {
    // 23514: the last piece of an exchange size was taken meanwhile (the stock's CHECK), or the
    // pieces were returned from another tab (order_items_returned_check); 23503: a piece removed.
    const { code } = postgresError(error);
    if (code !== PG.check && code !== PG.foreignKey) throw error;
  }
  if (written?.id) {
    return { ok: true, returnId: written.id, status: written.status ?? 'requested', created: true };
  }
  return explainRequest(db, customerId, input, now);
}

/** A write that wrote nothing: the id taken meanwhile (a double submit), or a guard now fails. */
async function explainRequest(
  db: Db,
  customerId: string,
  input: ReturnRequestInput,
  now: Date,
): Promise<RequestAnswer> {
  const read = await readRequest(db, new WriteGate(db, null), customerId, input);
  if (read.existing) return replay(read.existing, customerId, input);
  const problem = firstRequestProblem(read, customerId, input, now);
  if (problem) return problem;
  // The stock came back between the write and this read: still a refusal of this attempt.
  const [first] = input.lines;
  const piece = read.variants.find((v) => v.id === first?.exchangeVariantId);
  if (piece) return { ok: false, problem: 'sold-out', label: piece.label || piece.name, left: [] };
  const item = read.items.find((i) => i.id === first?.orderItemId);
  return {
    ok: false,
    problem: 'too-many',
    name: item?.name ?? '',
    left: item ? item.quantity - item.returned : 0,
  };
}

/** The request's one statement (requestReturn says what it guards). */
function returnStatement(
  db: Db,
  gate: WriteGate,
  customerId: string,
  input: ReturnRequestInput,
  amount: number,
) {
  const lines = input.lines.map((l) => ({
    orderItemId: l.orderItemId,
    quantity: l.quantity,
    reason: l.reason,
    exchangeVariantId: l.exchangeVariantId ?? null,
  }));
  const days = input.resolution === 'exchange' ? exchangeDaysSql : returnDaysSql;
  const refundTo = input.resolution === 'refund' ? (input.refundTo ?? 'original') : null;
  return db.execute<{ id: string | null; status: string | null }>(sql`
    with wanted as (
      select * from json_to_recordset(${JSON.stringify(lines)}::json)
        as w("orderItemId" uuid, quantity int, reason text, "exchangeVariantId" int)
    ),
    the_order as (
      select o.id from orders o
      where o.id = ${input.orderId}::uuid and o.customer_id = ${customerId}
        and o.hidden_by_shopper_at is null
        and o.status in ('delivered', 'collected', 'completed') and o.delivered_at is not null
        and ${kampalaDaySql(sql`now()`)} <= ${kampalaDaySql(sql`o.delivered_at`)} + ${days}
    ),
    fit as (
      select w.*, i.variant_id,
             case when x.product_id = i.product_id then x.label
                  when x.label <> '' then x.product_name || ' (' || x.label || ')'
                  else x.product_name end as exchange_label
      from wanted w
      join order_items i on i.id = w."orderItemId" and i.order_id = (select id from the_order)
      join products ip on ip.id = i.product_id and ip.returnable
      left join lateral (
        select v.id, v.product_id, v.label, v.stock, p.product_name,
               coalesce(v.price, p.price) as price
        from product_variants v join products p on p.id = v.product_id and ${pOnSale}
        where v.id = w."exchangeVariantId"
      ) x on true
      where i.quantity - i.returned >= w.quantity
        and (w."exchangeVariantId" is null
             or (x.id is not null and (x.product_id = i.product_id or x.price <= i.price)
                 and x.stock >= w.quantity))
    ),
    created as (
      insert into returns (id, order_id, customer_id, resolution, refund_to, note, photos, amount)
      select ${input.returnId}::uuid, id, ${customerId}, ${input.resolution}, ${refundTo},
             ${input.note ?? ''}, ${JSON.stringify(input.photos ?? [])}::jsonb, ${amount}::bigint
      from the_order
      where (select count(*) from fit) = ${lines.length} and ${gate.allows()}
      on conflict (id) do nothing
      returning id, status, order_id
    ),
    lined as (
      insert into return_lines (return_id, order_item_id, quantity, reason, exchange_variant_id,
                                exchange_label)
      select created.id, fit."orderItemId", fit.quantity, fit.reason, fit."exchangeVariantId",
             fit.exchange_label
      from fit cross join created
    ),
    counted as (
      update order_items i set returned = i.returned + fit.quantity
      from fit cross join created
      where i.id = fit."orderItemId"
    ),
    wanted_pieces as (
      select "exchangeVariantId" as variant_id, sum(quantity)::int as quantity
      from fit where "exchangeVariantId" is not null group by 1
    ),
    held as (
      update product_variants v set stock = v.stock - x.quantity
      from wanted_pieces x cross join created
      where v.id = x.variant_id
      returning v.id, v.sku, v.stock, x.quantity
    ),
    logged as (
      insert into stock_movements (variant_id, sku, change, stock_after, reason, order_id)
      select held.id, held.sku, -held.quantity, held.stock, 'exchange-held', created.order_id
      from held cross join created
    )
    select created.id, created.status from (select 1) one left join created on true
  `);
}

// ---------------------------------------------------------------------------------------------
// Her returns (returns.list, returns.byId) and the order's (orders.byId)

export type ReturnSummary = {
  id: string;
  orderId: string;
  status: string;
  resolution: string;
  amount: number;
  createdAt: string;
  pieces: number;
};

const piecesSql = sql<number>`(select coalesce(sum(l.quantity), 0)::int from return_lines l
  where l.return_id = "returns"."id")`.mapWith(Number);

export async function listReturns(db: Db, customerId: string): Promise<ReturnSummary[]> {
  const rows = await db
    .select({
      id: returns.id,
      orderId: returns.orderId,
      status: returns.status,
      resolution: returns.resolution,
      amount: returns.amount,
      createdAt: returns.createdAt,
      pieces: piecesSql,
    })
    .from(returns)
    .where(eq(returns.customerId, customerId))
    .orderBy(desc(returns.createdAt), desc(returns.id))
    .limit(100);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

export type RefundView = {
  id: string;
  status: string;
  amount: number;
  method: string;
  reference: string | null;
  creditNote: string | null;
};

export type ReturnView = {
  id: string;
  orderId: string;
  status: string;
  resolution: string;
  refundTo: string | null;
  note: string;
  photos: string[];
  handover: string | null;
  pickupFee: number;
  staffReason: string | null;
  exchangeStatus: string | null;
  amount: number;
  createdAt: string;
  decidedAt: string | null;
  receivedAt: string | null;
  closedAt: string | null;
  instructions: string | null;
  lines: {
    orderItemId: string;
    name: string;
    variantLabel: string;
    quantity: number;
    reason: string;
    exchangeLabel: string | null;
    condition: string | null;
  }[];
  refund: RefundView | null;
  refunds: RefundView[];
};

/** A return, its lines and refunds, and the shop's settings: one batch (`where`: whose). */
export function returnReads(db: Db, where: SQL | undefined) {
  return [
    db
      .select({
        row: returns,
        customerName: orders.customerName,
        phone: orders.customerPhone,
        deliveryArea: orders.deliveryArea,
        deliveryOption: deliveryOptions.name,
      })
      .from(returns)
      .innerJoin(orders, eq(orders.id, returns.orderId))
      .leftJoin(deliveryOptions, eq(deliveryOptions.id, orders.deliveryOptionId))
      .where(where),
    db
      .select({
        orderItemId: returnLines.orderItemId,
        name: orderItems.name,
        variantLabel: orderItems.variantLabel,
        price: orderItems.price,
        quantity: returnLines.quantity,
        reason: returnLines.reason,
        exchangeVariantId: returnLines.exchangeVariantId,
        exchangeLabel: returnLines.exchangeLabel,
        condition: returnLines.condition,
      })
      .from(returnLines)
      .innerJoin(orderItems, eq(orderItems.id, returnLines.orderItemId))
      .innerJoin(returns, eq(returns.id, returnLines.returnId))
      .where(where)
      .orderBy(asc(orderItems.name), asc(orderItems.id)),
    db
      .select()
      .from(refunds)
      .innerJoin(returns, eq(returns.id, refunds.returnId))
      .where(where)
      .orderBy(asc(refunds.createdAt)),
    settingsQuery(db),
  ] as const;
}

type Reads = ReturnType<typeof returnReads>;
export type ReadRows = { [K in keyof Reads]: Awaited<Reads[K]> };

const refundView = (r: typeof refunds.$inferSelect): RefundView => ({
  id: r.id,
  status: r.status,
  amount: r.amount,
  method: r.method,
  reference: r.reference,
  creditNote: r.status === 'succeeded' ? creditNoteNumber(r.id) : null,
});

/** What an approved return asks of her: the rider comes, or where to bring it. */
function instructionsFor(
  row: { status: string; handover: string | null; pickupFee: number },
  address: string,
): string | null {
  if (row.status !== 'approved' || !row.handover) return null;
  return (row.handover as Handover) === 'pickup'
    ? RETURN_TEXT.instructionsPickup(row.pickupFee)
    : RETURN_TEXT.instructionsDropOff(address);
}

/** The main refund: to the original payment if any (a live one first), else the credit one. */
function mainRefund(list: (typeof refunds.$inferSelect)[]) {
  const live = (r: typeof refunds.$inferSelect) => r.status !== 'failed';
  const original = list.filter((r) => r.method !== 'store_credit');
  return (
    original.filter(live).at(-1) ??
    original.at(-1) ??
    list.filter(live).at(-1) ??
    list.at(-1) ??
    null
  );
}

/** The read as the return's view, with the order's details the desk adds (null: none). */
export function returnViewOf(rows: ReadRows, fallback: SettingsFallback) {
  const [[found], lines, refundRows, settingRows] = rows;
  if (!found) return null;
  const { row } = found;
  const address = settingsFrom(settingRows, fallback).values.storeAddress || DEFAULT_ADDRESS;
  const list = refundRows.map((r) => r.refunds);
  const main = mainRefund(list);
  const view: ReturnView = {
    id: row.id,
    orderId: row.orderId,
    status: row.status,
    resolution: row.resolution,
    refundTo: row.refundTo,
    note: row.note,
    photos: row.photos.map(returnPhotoUrl),
    handover: row.handover,
    pickupFee: row.pickupFee,
    staffReason: row.staffReason,
    exchangeStatus: row.exchangeStatus,
    amount: row.amount,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    receivedAt: row.receivedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    instructions: instructionsFor(row, address),
    lines: lines.map((l) => ({
      orderItemId: l.orderItemId,
      name: l.name,
      variantLabel: l.variantLabel,
      quantity: l.quantity,
      reason: l.reason,
      exchangeLabel: l.exchangeLabel,
      condition: l.condition,
    })),
    refund: main ? refundView(main) : null,
    refunds: list.map(refundView),
  };
  return { view, found, lines, list };
}

/** Her return (another's, or an unknown id: null, as not found). */
export async function findReturn(
  db: Db,
  customerId: string,
  returnId: string,
  fallback: SettingsFallback,
): Promise<ReturnView | null> {
  const where = and(eq(returns.id, returnId), eq(returns.customerId, customerId));
  const rows = (await db.batch(returnReads(db, where))) as unknown as ReadRows;
  return returnViewOf(rows, fallback)?.view ?? null;
}
