// Placing an order (DESIGN: one-write checkout; decisions 0001, 0003 and 0039). Prices and stock
// are read per variant from the database now; the order, its items, every stock decrement and the
// lines it bought taken out of the shopper's cart are ONE statement, keyed by the order id the
// client made, so a retried or double-clicked checkout makes one order.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { DEFAULT_DELIVERY_OPTION_ID, DELIVERY_TEXT, isDeliveryKind } from '#core/delivery-rules.ts';
import {
  type CheckoutPreview,
  firstRefusal,
  OFFER_TEXT,
  type OfferLine,
  problemsOf,
  refusalText,
} from '#core/offers.ts';
import type { OrderPaymentMethod, OrderSource, PaymentMethod } from '#core/order-rules.ts';
import { aboveCeiling, paymentRefusal } from '#core/payment-rules.ts';
import { buildReceipt, type Receipt, type ReceiptDelivery } from '#core/receipt.ts';
import { nameWithVariant } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresCode, postgresError } from '#db/errors.ts';
import { deliveryOptions, orders, products, productVariants, profiles } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import { onSale, pOnSale } from './catalogue-service.ts';
import {
  askedCodes,
  type OfferRows,
  type OffersToWrite,
  offerQueries,
  offersToWrite,
  type Priced,
  priceWithOffers,
  typedFor,
  usedUpOffer,
} from './checkout-offers.ts';
import { freeDeliveryOverSql } from './delivery-service.ts';
import { saveReceipt } from './orders-service.ts';
import { paymentAllowedSql, type RuleRefused, ruleRefused } from './payment-rules-service.ts';
import { WriteGate } from './write-gate.ts';

/** A line as sent: a variant, or a product sold in one variant (older clients). */
export type OrderLine = ({ variantId: number } | { productId: number }) & { quantity: number };
/** A line once its variant is known. */
export type VariantLine = { variantId: number; quantity: number };

/**
 * Why an order could not be placed (the shop's one refusal shape), with what the spec's text
 * names beside the problem: the piece, the stock left, the option, the way of paying.
 */
export type CheckoutRefused =
  | Refused<
      | 'empty-cart'
      | 'profile-incomplete'
      | 'choose-size'
      | 'order-id-taken'
      | 'order-id-other-kind'
      | 'delivery-unavailable'
    >
  | (Refused<'product-missing'> & { name: string })
  | (Refused<'insufficient-stock'> & { name: string; available: number })
  | RuleRefused
  /** No area for a rider, or no town for the bus (upcountry). */
  | (Refused<'area-needed'> & { courier: boolean })
  /** A code asked that cannot be had (issue 35): its text from OFFER_TEXT, naming the code. */
  | (Refused<'offer-refused' | 'offer-lost'> & { message: string })
  /** An offer saved anew, or a price or fee changed, between the read and the write. */
  | Refused<'offers-changed' | 'balance-changed'>;

export type CheckoutProblem = CheckoutRefused['problem'];

/**
 * How the order reaches the shopper, as sent: the option (absent: Kampala delivery, for older
 * clients) and the address a rider needs. Never a fee: the write reads it.
 */
export type DeliveryRequest = {
  optionId?: string;
  area?: string;
  landmark?: string;
  /** The phone the rider calls; absent or blank: the profile's. */
  phone?: string;
  notes?: string;
};

export type PlacedOrder = {
  orderId: string;
  /** False when this id had already been placed by this shopper (a retry): nothing changed. */
  created: boolean;
  total: number;
  /** The fee charged (a retry answers the fee the order was charged, as it answers its total). */
  deliveryFee: number;
  receipt: Receipt | null;
};

export type CheckoutPlaced = { ok: true; order: PlacedOrder };
export type CheckoutResult = CheckoutPlaced | CheckoutRefused;

/** What an order is: the checkout's, a gift card's (giftCards.buy) or one the desk took. */
export type PlacedKind = 'checkout' | 'gift-card' | 'desk';

/**
 * The order already placed under this id, if any, and its kind: a retry of the same kind answers
 * it; another kind's, or another shopper's, is refused.
 */
export function placedQuery(db: Db, orderId: string) {
  return db
    .select({
      customerId: orders.customerId,
      total: orders.total,
      deliveryFee: orders.deliveryFee,
      kind: sql<PlacedKind>`case
        when exists (select 1 from value_accounts a
                     where a.order_id = orders.id and a.kind = 'gift_card') then 'gift-card'
        when orders.source = 'web' then 'checkout' else 'desk' end`,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
}

/** The same variant twice in one cart is one line with the quantities added. */
export function mergeLines(lines: readonly VariantLine[]): VariantLine[] {
  const merged = new Map<number, number>();
  for (const line of lines) {
    merged.set(line.variantId, (merged.get(line.variantId) ?? 0) + line.quantity);
  }
  return [...merged].map(([variantId, quantity]) => ({ variantId, quantity }));
}

export type Stock = {
  id: number;
  productId: number;
  name: string;
  label: string;
  stock: number;
  price?: number;
  categoryIds?: number[];
};

/**
 * The lines as variants: a `{ productId }` line names its product's only variant; a product
 * with several is refused ("Please choose a size."), one that is gone is missing.
 */
export function resolveLines(
  lines: readonly OrderLine[],
  found: Stock[],
): { ok: true; lines: VariantLine[] } | CheckoutRefused {
  const resolved: VariantLine[] = [];
  for (const line of lines) {
    if ('variantId' in line) {
      resolved.push(line);
      continue;
    }
    const variants = found.filter((v) => v.productId === line.productId);
    const [only] = variants;
    if (variants.length > 1) return { ok: false, problem: 'choose-size' };
    if (!only) return { ok: false, problem: 'product-missing', name: `#${line.productId}` };
    resolved.push({ variantId: only.id, quantity: line.quantity });
  }
  return { ok: true, lines: mergeLines(resolved) };
}

/** The first line that cannot be bought now: a missing variant or too little stock. */
export function firstProblem(
  lines: VariantLine[],
  found: Stock[],
  shownNames: ReadonlyMap<number, string>,
): CheckoutRefused | null {
  const byId = new Map(found.map((v) => [v.id, v]));
  for (const line of lines) {
    const variant = byId.get(line.variantId);
    if (!variant) {
      return {
        ok: false,
        problem: 'product-missing',
        name: shownNames.get(line.variantId) ?? `#${line.variantId}`,
      };
    }
    if (variant.stock < line.quantity) {
      return {
        ok: false,
        problem: 'insufficient-stock',
        name: nameWithVariant(variant.name, variant.label),
        available: variant.stock,
      };
    }
  }
  return null;
}

/** What the one write answers: the new order, or nothing when it placed nothing. */
export type Written = {
  order_id: string | null;
  created_at: string | null;
  /** int8 arrives as text from the driver. */
  total: string | number | null;
  delivery_fee: string | number | null;
  items: { id: string; name: string; price: number; quantity: number; variant: string }[] | null;
  delivery_option: string | null;
  delivery_kind: string | null;
  /** What the order would have come to, placed or not (int8 as text). */
  asked_total: string | number | null;
  status: string | null;
  /** False: an offer or a figure changed since the read (nothing placed); null: no option. */
  current: boolean | null;
};

/**
 * Places the order. Round trips: one batched read (the variants, this order id, the profile, the
 * delivery option), ONE write, then the receipt. The write reads the option's fee and the
 * free-delivery threshold itself, so the total stored is the items plus the fee the shop sets
 * at that moment, whatever the client believed. The write inserts the order only when every variant still exists
 * and is on sale (its product published: checked in the write itself) and the id is new, copies
 * names, variant labels and prices into the items, and takes each variant's stock in the same
 * statement, logging each as a 'sale' (stock_movements, from the update's RETURNING: the level
 * it left); the variants' CHECK (stock >= 0) refuses an oversell,
 * so a lost race rolls the whole statement back. The lines bought leave the shopper's cart in
 * that statement too (decision 0068: the page no longer asks for it to be cleared after). The
 * same order id again (a retry) changes nothing and answers the order.
 */
export async function placeOrder(
  db: Db,
  customer: { id: string; email: string; name: string },
  order: {
    orderId: string;
    lines: readonly OrderLine[];
    paymentMethod: PaymentMethod;
    delivery?: DeliveryRequest;
    /** Discount codes and gift cards typed (issue 35). */
    codes?: readonly string[];
    /** Spend the shopper's store credit too (after any gift card). */
    useCredit?: boolean;
  },
  options: {
    /** The change's gate (the session, the attempt's limit: decision 0057); else none. */
    gate?: WriteGate;
    /** Runs work after the answer (the Worker's waitUntil): the receipt is saved there. */
    later?: (work: Promise<unknown>) => void;
    /** Names the client showed, by variant id, only for the 'not found' text of a piece gone. */
    shownNames?: ReadonlyMap<number, string>;
  } = {},
): Promise<CheckoutResult> {
  if (order.lines.length === 0) return { ok: false, problem: 'empty-cart' };
  const { gate = new WriteGate(db, null), later, shownNames = new Map() } = options;

  const asked = order.delivery ?? {};
  const optionId = asked.optionId ?? DEFAULT_DELIVERY_OPTION_ID;
  const codes = order.codes ?? [];
  const askedOffers = await askedCodes(codes);
  const [found, [existing], [profile], [option], ...offerRows] = await gate.batch([
    stockOf(db, order.lines),
    placedQuery(db, order.orderId),
    db.select().from(profiles).where(eq(profiles.id, customer.id)),
    optionOf(db, optionId),
    ...offerQueries(db, askedOffers, customer.id),
  ]);
  if (existing) return replay(existing, customer.id, order.orderId);
  // No profile yet is a profile without a phone (one is made when the shopper opens theirs).
  if (!profile?.fullName.trim() || !profile.phone) {
    return { ok: false, problem: 'profile-incomplete' };
  }
  const refused = deliveryProblem(option, asked, order.paymentMethod);
  if (refused) return refused;
  const resolved = resolveLines(order.lines, found);
  if (!resolved.ok) return resolved;
  const { lines } = resolved;
  const problem = firstProblem(lines, found, shownNames);
  if (problem) return problem;

  // The offers, gift cards and credit on what was read (issue 35). A code asked that cannot be
  // had refuses the order with its reason: it is never placed at the full price behind her back.
  const priceable = offerLines(lines, found);
  const priced = priceWithOffers({
    lines: priceable,
    rows: offerRows as unknown as OfferRows,
    asked: askedOffers,
    codes,
    shopperId: customer.id,
    feeBefore: feeFor(
      priceable.reduce((sum, l) => sum + l.price * l.quantity, 0),
      option,
    ),
    useCredit: order.useCredit === true,
  });
  const refusal = firstRefusal(priced.refused);
  if (refusal) {
    return {
      ok: false,
      problem: 'offer-refused',
      message: refusalText(refusal.code, refusal.refusal),
    };
  }

  const delivery: Omit<ReceiptDelivery, 'option' | 'kind'> & { optionId: string } = {
    optionId,
    area: asked.area?.trim() ?? '',
    landmark: asked.landmark?.trim() ?? '',
    phone: asked.phone?.trim() || profile.phone,
    notes: asked.notes?.trim() ?? '',
  };
  let written: Written | undefined;
  try {
    written = await writeOrder(db, gate, {
      customer: {
        id: customer.id,
        name: profile.fullName,
        phone: profile.phone,
        email: customer.email,
      },
      source: 'web',
      orderId: order.orderId,
      lines,
      paymentMethod: order.paymentMethod,
      delivery,
      offers: offersToWrite(priced, customer.id),
    });
  } catch (error) {
    // 23514: someone bought the last pieces between the read and the write (the stock CHECK),
    // or took an offer's last use or a balance meanwhile (their CHECKs); 23505: her slot of a
    // per-shopper offer was taken by another order of hers; 23503: a variant was removed
    // meanwhile. Nothing was written either way.
    const lost = lostRace(error, priced, codes);
    if (lost) return lost;
    const code = postgresCode(error);
    if (code !== PG.check && code !== PG.foreignKey) throw error;
  }
  if (written?.current === false && !written.order_id) {
    return { ok: false, problem: 'offers-changed' };
  }
  if (!written?.order_id || !written.items || written.created_at === null) {
    // Above what this way of paying takes: the write computed the total and placed nothing.
    const asked = written?.asked_total;
    const overCeiling = asked == null ? null : aboveCeiling(order.paymentMethod, Number(asked));
    if (overCeiling) return ruleRefused(overCeiling);
    return explainRefusal(db, gate, customer.id, order, lines, shownNames);
  }
  const deliveryFee = Number(written.delivery_fee ?? 0);

  const receipt = buildReceipt(
    {
      id: written.order_id,
      createdAt: written.created_at,
      paymentMethod: order.paymentMethod,
      total: Number(written.total ?? 0),
      deliveryFee,
      discount: priced.discount,
      offers: priced.offers.given.map(({ code, name, amount }) => ({ code, name, amount })),
      credit: priced.credit,
      customerName: profile.fullName,
      items: written.items,
      delivery: {
        option: written.delivery_option ?? '',
        kind: isDeliveryKind(written.delivery_kind) ? written.delivery_kind : 'delivery',
        area: delivery.area,
        landmark: delivery.landmark,
        phone: delivery.phone,
        notes: delivery.notes,
      },
    },
    profile,
  );
  // Spec: a receipt failure never fails the order; it is rebuilt when first read. So it need not
  // hold up the answer: saved after it when the caller can run work later.
  const saving = saveReceipt(db, customer.id, receipt).then(
    () => true,
    (error: unknown) => {
      console.warn('Receipt could not be saved; it will be rebuilt from the order', error);
      return false;
    },
  );
  if (later) later(saving);
  const saved = later ? true : await saving;
  return {
    ok: true,
    order: {
      orderId: written.order_id,
      created: true,
      total: Number(written.total ?? 0),
      deliveryFee,
      receipt: saved ? receipt : null,
    },
  };
}

/** The option asked for, retired or not (to tell the shopper which). */
export const optionOf = (db: Db, id: string) =>
  db
    .select({
      kind: deliveryOptions.kind,
      name: deliveryOptions.name,
      cashOnDelivery: deliveryOptions.cashOnDelivery,
      active: deliveryOptions.active,
      fee: deliveryOptions.fee,
      /** The free-delivery threshold, read beside the option (int8 as text; null: off). */
      freeOver: sql<string | number | null>`${freeDeliveryOverSql}`,
    })
    .from(deliveryOptions)
    .where(eq(deliveryOptions.id, id));

/**
 * Why the delivery asked for cannot be had: an option retired or unknown, cash on delivery where
 * the owner does not take it, or a delivery without the area a rider needs (an order that names
 * no option is an older client's, and keeps working without one).
 */
export function deliveryProblem(
  option: { kind: string; name: string; cashOnDelivery: boolean; active: boolean } | undefined,
  asked: DeliveryRequest,
  paymentMethod: OrderPaymentMethod,
): CheckoutRefused | null {
  if (!option?.active) return { ok: false, problem: 'delivery-unavailable' };
  // The total is not known before the write: the write checks its ceiling.
  const refused = paymentRefusal(paymentMethod, option, null);
  if (refused) return ruleRefused(refused);
  if (asked.optionId && option.kind !== 'pickup' && !asked.area?.trim()) {
    return { ok: false, problem: 'area-needed', courier: option.kind === 'courier' };
  }
  return null;
}

/** The variants the lines name, directly or as a product's: with their product and stock. */
export const stockOf = (db: Db, lines: readonly OrderLine[]) => {
  const variantIds = lines.flatMap((l) => ('variantId' in l ? [l.variantId] : []));
  const productIds = lines.flatMap((l) => ('productId' in l ? [l.productId] : []));
  return db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      name: products.productName,
      label: productVariants.label,
      stock: productVariants.stock,
      // What the offers engine prices: the price now and the categories the piece is filed in.
      price: sql<number>`coalesce(${productVariants.price}, ${products.price})`.mapWith(Number),
      categoryIds: sql<number[]>`array(select pc.category_id from product_categories pc
        where pc.product_id = ${products.id} order by pc.category_id)`,
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

/**
 * The order, its items, the stock decrements and the cart's lines bought: one statement, all or
 * nothing. The fee is the
 * option's, read here (free at or above the owner's threshold); an option retired meanwhile, cash
 * on delivery it no longer takes, or a total above what the way of paying takes (core/payment-
 * rules.ts) places nothing. The total asked is answered either way, to say which.
 */
async function writeOrder(
  db: Db,
  gate: WriteGate,
  order: OrderToWrite,
): Promise<Written | undefined> {
  const result = await orderStatement(db, gate, order);
  return result.rows[0];
}

/** What the one write takes: the shopper's checkout and the desk's order (issue 34) alike. */
export type OrderToWrite = {
  /** Who it is for: an account (id) or, for an order the desk takes, a name and phone only. */
  customer: { id: string | null; name: string; phone: string | null; email: string | null };
  source: OrderSource;
  orderId: string;
  lines: VariantLine[];
  paymentMethod: OrderPaymentMethod;
  delivery: Omit<ReceiptDelivery, 'option' | 'kind'> & { optionId: string };
  /** The offers given and balances spent (issue 35); absent: none (the desk's orders). */
  offers?: OffersToWrite;
};

/** Nothing given, nothing spent: the write as before offers. */
const NO_OFFERS: OffersToWrite = {
  shopper: null,
  subtotal: 0,
  fee: 0,
  discount: 0,
  freeDelivery: false,
  credit: 0,
  given: [],
  spends: [],
};

/**
 * The one write as a statement, unsent: writeOrder sends it alone; the desk's order (issue 34,
 * server/services/desk-phone-orders-service.ts) sends it first in the batch that records it (and
 * takes the cash paid at the counter), so both take stock in this same statement.
 */
export function orderStatement(db: Db, gate: WriteGate, order: OrderToWrite) {
  const { customer, orderId, lines, paymentMethod, delivery } = order;
  const customerId = customer.id;
  const given = order.offers ?? NO_OFFERS;
  // Only an order given or spending something checks its figures against the read's.
  const guarded = given.given.length > 0 || given.spends.length > 0;
  // The cart is the shopper's own: an order the desk takes for an account leaves it alone.
  const cartOwner = order.source === 'web' ? customerId : null;
  return db.execute<Written>(sql`
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
    summed as (
      select sum(price::bigint * quantity) as subtotal from priced having count(*) = ${lines.length}
    ),
    charged as (
      select s.subtotal, o.id as option_id, o.name, o.kind, o.cash_on_delivery,
             case when s.subtotal >= ${freeDeliveryOverSql} then 0 else o.fee end as fee
      from summed s
      join delivery_options o on o.id = ${delivery.optionId} and o.active
    ),
    -- What is charged after the offers and the gift card or credit (issue 35): the engine's
    -- figures, made from what the read saw; the fee waived by a free-delivery offer.
    billed as (
      select charged.*, fee_due,
             charged.subtotal + fee_due - ${given.discount}::bigint - ${given.credit}::bigint
               as total
      from charged
      cross join lateral (
        select case when ${given.freeDelivery}::boolean then 0 else charged.fee end as fee_due
      ) f
    ),
    offered as (
      select * from json_to_recordset(${JSON.stringify(given.given)}::json)
        as g("promotionId" int, version int, code text, name text, amount bigint, "useNumber" int)
    ),
    -- Given only as read (decision 0081): each offer at its version, still on and running, and
    -- the subtotal and fee the engine priced. Else nothing is placed and the shopper is asked to
    -- check the new totals (a code edited mid-checkout, a price changed).
    current as (
      select not ${guarded}::boolean or (
        billed.subtotal = ${given.subtotal}::bigint and billed.fee = ${given.fee}::bigint
        and (select count(*) from offered g join promotions p on p.id = g."promotionId"
             where p.version = g.version and p.active
               and (p.starts_at is null or p.starts_at <= now())
               and (p.ends_at is null or p.ends_at > now())) = ${given.given.length}
      ) as ok
      from billed
    ),
    placed as (
      insert into orders (id, customer_id, customer_name, subtotal, delivery_fee, discount, credit,
                          total, payment_method, status, delivery_option_id, delivery_option,
                          delivery_kind, delivery_area, delivery_landmark, delivery_phone,
                          delivery_notes, source, customer_phone, customer_email)
      select ${orderId}::uuid, ${customerId}, ${customer.name}, subtotal, fee_due,
             ${given.discount}::bigint, ${given.credit}::bigint, total, ${paymentMethod},
             -- Paid in full by gift card or credit: nothing to collect, so it goes on at once.
             case when total = 0 then 'processing' else 'pending' end,
             option_id, name, kind, ${delivery.area},
             ${delivery.landmark}, ${delivery.phone}, ${delivery.notes}, ${order.source},
             ${customer.phone}, ${customer.email}
      from billed
      where ${paymentAllowedSql(paymentMethod, sql`billed.cash_on_delivery`, sql`billed.total`)}
        and ${gate.allows()}
        and (select ok from current)
      on conflict (id) do nothing
      returning id, created_at, total, delivery_fee, delivery_option, delivery_kind, status
    ),
    -- The uses counted in this same statement: the CHECK (used <= usage_limit) refuses the use
    -- past the limit and the whole order rolls back, as the stock's CHECK refuses an oversell;
    -- the shopper's slot is a unique index (order_offers_shopper_use_idx).
    given as (
      insert into order_offers (order_id, promotion_id, code, name, amount, shopper, use_number)
      select placed.id, g."promotionId", g.code, g.name, g.amount, ${given.shopper}, g."useNumber"
      from offered g cross join placed
    ),
    counted as (
      update promotions p set used = p.used + 1
      from offered g cross join placed
      where p.id = g."promotionId"
    ),
    -- Each balance spent: its CHECK (balance >= 0) refuses a spend past it, so two orders
    -- spending one gift card at once never take it below 0; the ledger's entry beside it.
    spending as (
      select * from json_to_recordset(${JSON.stringify(given.spends)}::json)
        as s("accountId" int, amount bigint)
    ),
    spent as (
      update value_accounts a set balance = a.balance - s.amount
      from spending s cross join placed
      where a.id = s."accountId"
      returning a.id, a.balance, s.amount
    ),
    ledger as (
      insert into value_entries (account_id, amount, balance_after, reason, order_id)
      select spent.id, -spent.amount, spent.balance, 'spent', placed.id
      from spent cross join placed
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
    ),
    -- The shopper's cart loses what the order bought (decision 0068), only when it was placed
    -- now (a retry places nothing, so it takes nothing: lines added since stay): a line the order
    -- covers goes, a line holding more keeps the rest.
    emptied as (
      delete from cart_items c using wanted w, placed
      where c.user_id = ${cartOwner} and c.variant_id = w.variant_id and c.quantity <= w.quantity
    ),
    lessened as (
      update cart_items c set quantity = c.quantity - w.quantity
      from wanted w cross join placed
      where c.user_id = ${cartOwner} and c.variant_id = w.variant_id and c.quantity > w.quantity
    )
    select placed.id as order_id, placed.created_at, placed.total, placed.delivery_fee,
           placed.delivery_option, placed.delivery_kind, placed.status,
           (select ok from current) as current,
           (select json_agg(json_build_object('id', id, 'name', name, 'price', price,
                                              'quantity', quantity, 'variant', variant_label))
            from items) as items,
           (select count(*) from taken) as taken,
           (select total from billed) as asked_total
    from (select 1) one left join placed on true
  `);
}

/**
 * A write that placed nothing: the id was taken meanwhile, the gate held it back (the shopper's
 * other attempts used up her limit meanwhile: 429), or the stock, the catalogue or the delivery
 * option changed.
 */
async function explainRefusal(
  db: Db,
  gate: WriteGate,
  customerId: string,
  order: { orderId: string; paymentMethod: PaymentMethod; delivery?: DeliveryRequest },
  lines: VariantLine[],
  shownNames: ReadonlyMap<number, string>,
): Promise<CheckoutResult> {
  const asked = order.delivery ?? {};
  const [found, [existing], [option]] = await db.batch([
    stockOf(db, lines),
    placedQuery(db, order.orderId),
    optionOf(db, asked.optionId ?? DEFAULT_DELIVERY_OPTION_ID),
  ]);
  if (existing) return replay(existing, customerId, order.orderId);
  await gate.refuseIfHeld();
  const refused = deliveryProblem(option, asked, order.paymentMethod);
  if (refused) return refused;
  const problem = firstProblem(lines, found, shownNames);
  if (problem) return problem;
  // The stock came back between the write and this read: still a refusal of this attempt.
  const first = found[0];
  return {
    ok: false,
    problem: 'insufficient-stock',
    name: first ? nameWithVariant(first.name, first.label) : '',
    available: first?.stock ?? 0,
  };
}

/**
 * A refusal of the write that lost a race for what the engine gave (issue 35): an offer's last
 * use (promotions_usage_check), the shopper's slot (order_offers_shopper_use_idx), or a balance
 * (value_accounts_balance_check). Null: another refusal (stock, a variant removed).
 */
function lostRace(
  error: unknown,
  priced: Priced,
  codes: readonly string[],
): CheckoutRefused | null {
  const { code, constraint } = postgresError(error);
  if (code === PG.check && constraint === 'promotions_usage_check') {
    const offer = usedUpOffer(priced);
    const named = offer ? typedFor(offer, codes) : '';
    return { ok: false, problem: 'offer-lost', message: OFFER_TEXT.usedUp(named) };
  }
  if (code === PG.unique && constraint === 'order_offers_shopper_use_idx') {
    const offer = priced.offers.given.find((g) => g.offer.perShopperLimit !== null);
    const named = offer ? typedFor(offer, codes) : '';
    return { ok: false, problem: 'offer-lost', message: OFFER_TEXT.justUsed(named) };
  }
  if (code === PG.check && constraint === 'value_accounts_balance_check') {
    return { ok: false, problem: 'balance-changed' };
  }
  return null;
}

/**
 * The same order id again: the shopper's own checkout order is answered as placed; anyone else's,
 * or another kind of hers (a gift card, the desk's), is not.
 */
function replay(
  existing: { customerId: string | null; total: number; deliveryFee: number; kind: PlacedKind },
  customerId: string,
  orderId: string,
): CheckoutResult {
  if (existing.customerId !== customerId) return { ok: false, problem: 'order-id-taken' };
  if (existing.kind !== 'checkout') return { ok: false, problem: 'order-id-other-kind' };
  return {
    ok: true,
    order: {
      orderId,
      created: false,
      total: existing.total,
      deliveryFee: existing.deliveryFee,
      receipt: null,
    },
  };
}

/** The fee the write will charge for this subtotal: the option's, or 0 at or above the
 * free-delivery threshold (the same rule as the write's `charged`). */
export function feeFor(
  subtotal: number,
  option: { fee: number; freeOver: string | number | null } | undefined,
): number {
  if (!option) return 0;
  const over = option.freeOver === null ? null : Number(option.freeOver);
  return over !== null && subtotal >= over ? 0 : option.fee;
}

/** The lines the engine prices: each resolved line with its variant's price and categories. */
export function offerLines(lines: readonly VariantLine[], found: readonly Stock[]): OfferLine[] {
  const byId = new Map(found.map((v) => [v.id, v]));
  return lines.flatMap((line) => {
    const variant = byId.get(line.variantId);
    if (!variant) return [];
    return [
      {
        variantId: line.variantId,
        productId: variant.productId,
        categoryIds: variant.categoryIds ?? [],
        price: variant.price ?? 0,
        quantity: line.quantity,
      },
    ];
  });
}

/**
 * checkout.preview (issue 35): the totals the shop would charge for these items, codes,
 * delivery and credit, as placeOrder's write would (the page never guesses). One batched read.
 * A visitor (signed out) has no credit, and per-shopper offers ask her to sign in. Lines that
 * cannot be bought now (gone, a product needing a size) are left out of the sums: placing the
 * order says why. A delivery option unknown or retired is a problem, as placing the order says.
 */
export async function previewCheckout(
  db: Db,
  shopperId: string | null,
  ask: {
    items: readonly OrderLine[];
    codes?: readonly string[];
    deliveryOptionId?: string;
    useCredit?: boolean;
  },
): Promise<CheckoutPreview> {
  const codes = ask.codes ?? [];
  const asked = await askedCodes(codes);
  const [found, [option], ...rows] = await db.batch([
    stockOf(db, ask.items),
    optionOf(db, ask.deliveryOptionId ?? DEFAULT_DELIVERY_OPTION_ID),
    ...offerQueries(db, asked, shopperId),
  ]);
  const resolved = resolveLines(
    ask.items.filter(
      (line) =>
        'variantId' in line || found.filter((v) => v.productId === line.productId).length === 1,
    ),
    found,
  );
  const lines = offerLines(resolved.ok ? resolved.lines : [], found);
  const subtotal = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const priced = priceWithOffers({
    lines,
    rows: rows as unknown as OfferRows,
    asked,
    codes,
    shopperId,
    feeBefore: option?.active ? feeFor(subtotal, option) : 0,
    useCredit: ask.useCredit === true,
  });
  return {
    subtotal: priced.subtotal,
    deliveryFee: priced.deliveryFee,
    discount: priced.discount,
    credit: priced.credit,
    total: priced.total,
    applied: priced.offers.given.map(({ code, name, amount, kind }) => ({
      code,
      name,
      amount,
      kind,
    })),
    // An option unknown or retired: the problem placeOrder would refuse it with (no code of hers).
    problems: [
      ...(option?.active ? [] : [{ code: '', message: DELIVERY_TEXT.optionUnavailable }]),
      ...problemsOf(priced.refused),
    ],
    lines: priced.offers.lines,
  };
}
