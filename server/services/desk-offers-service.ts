// The desk's offers (issue 35, decision 0081): every offer with its state and its figures per
// code (orders and sales of the orders it was given, cancelled ones aside), read in one round
// trip; a save written in one batch with its record and the catalogue's version (cards and
// product pages show automatic offers, on cached pages). Only desk.offers and desk.saveOffer call
// this; the checkout and the listings read offers through offers-service.ts.
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { OfferState, SavedOffer } from '#core/offer-form.ts';
import { isRunning, type Offer } from '#core/offers.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresError } from '#db/errors.ts';
import { categories, orderOffers, orders, products, promotions } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import { categoryOrder } from './catalogue-service.ts';
import { bumpCatalogueVersion } from './catalogue-version.ts';
import { type DeskActor, recordDeskWrite } from './desk-record.ts';
import { toOffer } from './offers-service.ts';

/** An offer as the desk's list shows it: the offer, where it is in its life, what it brought. */
export type DeskOffer = Offer & {
  state: OfferState;
  /** Orders placed with it, cancelled ones aside. */
  orders: number;
  /** Those orders' totals, UGX. */
  sales: number;
};

/** How many pieces the form offers to pick from (newest first): a boutique's whole rail. */
const OFFER_PIECES_MAX = 2_000;

/** Where an offer is in its life at `now`. */
function offerState(offer: Offer, now: Date): OfferState {
  if (!offer.active) return 'off';
  if (offer.endsAt && now.getTime() >= Date.parse(offer.endsAt)) return 'ended';
  if (offer.usageLimit !== null && offer.used >= offer.usageLimit) return 'used-up';
  if (!isRunning(offer, now)) return 'scheduled';
  return 'running';
}

/** The figures per offer: orders and sales of the orders it was given, not cancelled. */
function figuresQuery(db: Db) {
  return db
    .select({
      promotionId: orderOffers.promotionId,
      orders: sql<number>`count(*)`.mapWith(Number),
      sales: sql<number>`coalesce(sum(${orders.total}), 0)`.mapWith(Number),
    })
    .from(orderOffers)
    .innerJoin(orders, eq(orders.id, orderOffers.orderId))
    .where(ne(orders.status, 'cancelled'))
    .groupBy(orderOffers.promotionId);
}

/** What the desk's offers page shows: the offers (newest first), and what the form picks from. */
export async function deskOffers(db: Db, now = new Date()) {
  const [rows, figures, categoryRows, pieceRows] = await db.batch([
    db.select().from(promotions).orderBy(desc(promotions.id)),
    figuresQuery(db),
    db
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .orderBy(...categoryOrder),
    db
      .select({ id: products.id, name: products.productName })
      .from(products)
      .where(ne(products.status, 'archived'))
      .orderBy(desc(products.createdAt), desc(products.id))
      .limit(OFFER_PIECES_MAX),
  ]);
  const byOffer = new Map(figures.map((f) => [f.promotionId, f]));
  const offers: DeskOffer[] = rows.map((row) => {
    const offer = toOffer(row);
    const figure = byOffer.get(offer.id);
    return {
      ...offer,
      state: offerState(offer, now),
      orders: figure?.orders ?? 0,
      sales: figure?.sales ?? 0,
    };
  });
  return {
    offers,
    categories: categoryRows,
    pieces: pieceRows.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
  };
}

export type SaveOfferProblem =
  | 'not-found'
  | 'code-taken'
  | 'category-gone'
  | 'product-gone'
  | 'limit-below-used';
export type SaveOfferRefused =
  | Refused<Exclude<SaveOfferProblem, 'code-taken' | 'limit-below-used'>>
  | (Refused<'code-taken'> & { code: string })
  | (Refused<'limit-below-used'> & { used: number });
/** What a save answers, and what its record keeps (a retry with the same key reads it back). */
export type SaveOfferAnswer = { id: number; name: string; code: string | null };

/**
 * Saves the offer: a new one, or the one named by `id` (its version bumped, so a checkout that
 * read it before gives it only as it was read). One batch with the record and the catalogue's
 * version. Refused: an id the desk does not have, a code another offer uses (any case), a
 * category or piece that is not there.
 */
export async function saveOffer(
  db: Db,
  actor: DeskActor,
  input: SavedOffer,
): Promise<({ ok: true } & SaveOfferAnswer) | SaveOfferRefused> {
  const categoryIds = input.appliesTo?.categoryIds ?? [];
  const productIds = input.appliesTo?.productIds ?? [];
  const [existing, next, foundCategories, foundProducts, clash] = await db.batch([
    db
      .select({ id: promotions.id, used: promotions.used })
      .from(promotions)
      .where(eq(promotions.id, input.id ?? 0)),
    // A new offer's id, taken first so the record written with it names it.
    db.execute<{ id: number | string }>(
      sql`select ${input.id ? sql`${input.id}` : sql`nextval(pg_get_serial_sequence('promotions', 'id'))`} as id`,
    ),
    db
      .select({ id: categories.id })
      .from(categories)
      .where(inArray(categories.id, categoryIds.length > 0 ? categoryIds : [0])),
    db
      .select({ id: products.id })
      .from(products)
      .where(inArray(products.id, productIds.length > 0 ? productIds : [0])),
    db
      .select({ id: promotions.id, code: promotions.code })
      .from(promotions)
      .where(
        and(
          sql`lower(${promotions.code}) = lower(${input.code ?? ''})`,
          input.id ? ne(promotions.id, input.id) : undefined,
        ),
      )
      .orderBy(asc(promotions.id))
      .limit(1),
  ]);
  const [before] = existing;
  if (input.id && !before) return { ok: false, problem: 'not-found' };
  if (before && input.usageLimit !== null && input.usageLimit < before.used) {
    return { ok: false, problem: 'limit-below-used', used: before.used };
  }
  if (foundCategories.length !== categoryIds.length) return { ok: false, problem: 'category-gone' };
  if (foundProducts.length !== productIds.length) return { ok: false, problem: 'product-gone' };
  if (input.code && clash.length > 0) return { ok: false, problem: 'code-taken', code: input.code };

  const id = Number(next.rows[0]?.id);
  const values = {
    name: input.name,
    code: input.code,
    kind: input.kind,
    value: input.value,
    categoryIds: categoryIds.length > 0 ? categoryIds : null,
    productIds: productIds.length > 0 ? productIds : null,
    minSubtotal: input.minSubtotal,
    startsAt: input.startsAt ? new Date(input.startsAt) : null,
    endsAt: input.endsAt ? new Date(input.endsAt) : null,
    usageLimit: input.usageLimit,
    perShopperLimit: input.perShopperLimit,
    firstOrderOnly: input.firstOrderOnly,
    combinable: input.combinable,
    buyQuantity: input.buyQuantity,
    getQuantity: input.getQuantity,
    tag: input.tag,
    active: input.active,
  };
  const answer: SaveOfferAnswer = { id, name: input.name, code: input.code };
  const write = input.id
    ? db
        .update(promotions)
        .set({ ...values, version: sql`${promotions.version} + 1`, updatedAt: sql`now()` })
        .where(eq(promotions.id, id))
    : db.insert(promotions).values({ id, ...values });
  try {
    await db.batch([
      recordDeskWrite(db, actor, {
        action: 'offer.saved',
        subject: input.code ? `${input.name} (${input.code})` : input.name,
        details: answer,
        requestKey: input.requestKey,
      }),
      bumpCatalogueVersion(db),
      write,
    ]);
  } catch (error) {
    // Another save took the code meanwhile (promotions_code_idx, lower(code)): nothing written.
    const { code, constraint } = postgresError(error);
    if (code === PG.unique && constraint === 'promotions_code_idx' && input.code) {
      return { ok: false, problem: 'code-taken', code: input.code };
    }
    // A checkout took a use between the read and this save, past the limit lowered to it.
    if (code === PG.check && constraint === 'promotions_usage_check') {
      return { ok: false, problem: 'limit-below-used', used: input.usageLimit ?? 0 };
    }
    throw error;
  }
  return { ok: true, ...answer };
}
