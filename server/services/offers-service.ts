// Reading offers (issue 35, decision 0081): the rows of `promotions` as core/offers.ts's Offer.
// The checkout, the desk, the listings and the assistant read them through here.
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Offer, OfferKind } from '#core/offers.ts';
import type { Db } from '#db/client.ts';
import { promotions } from '#db/schema/index.ts';

type PromotionRow = typeof promotions.$inferSelect;

/** A promotions row as an Offer. */
export function toOffer(row: PromotionRow): Offer {
  const categoryIds = row.categoryIds ?? [];
  const productIds = row.productIds ?? [];
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    kind: row.kind as OfferKind,
    value: row.value,
    appliesTo:
      categoryIds.length === 0 && productIds.length === 0 ? null : { categoryIds, productIds },
    minSubtotal: row.minSubtotal,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    usageLimit: row.usageLimit,
    used: row.used,
    perShopperLimit: row.perShopperLimit,
    firstOrderOnly: row.firstOrderOnly,
    combinable: row.combinable,
    buyQuantity: row.buyQuantity,
    getQuantity: row.getQuantity,
    tag: row.tag,
    active: row.active,
    version: row.version,
  };
}

/**
 * The offers switched on and not yet ended (a query, unsent: batch it). Those not yet started are
 * included for the caller to tell "starts on …"; `isRunning` says which run now.
 */
export const liveOffersQuery = (db: Db) =>
  db
    .select()
    .from(promotions)
    .where(
      and(
        eq(promotions.active, true),
        or(isNull(promotions.endsAt), gt(promotions.endsAt, sql`now()`)),
        or(isNull(promotions.usageLimit), sql`${promotions.used} < ${promotions.usageLimit}`),
      ),
    )
    .orderBy(desc(promotions.id));
