// Offers (issue 35, decision 0081): what a promotion is, when it runs and which pieces it
// covers. Pure: the checkout's engine, the desk, the listings and the assistant read these.
// Dates are instants; "Kampala time" is how the desk types and shows them (core/kampala-time.ts).

export const OFFER_KINDS = ['percent', 'fixed', 'free_delivery', 'buy_x_get_y'] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];

/** What an offer covers: the whole order (null), or some categories and/or chosen pieces. */
export type OfferTarget = { categoryIds?: number[]; productIds?: number[] } | null;

/** A promotion as the shop reads it (db: promotions). */
export type Offer = {
  id: number;
  name: string;
  /** Null: automatic (no code to type). */
  code: string | null;
  kind: OfferKind;
  /** percent: 1–100; fixed: UGX; buy_x_get_y: the percent off the Y cheaper pieces; else 0. */
  value: number;
  appliesTo: OfferTarget;
  minSubtotal: number | null;
  /** ISO instants; null: open. Runs from startsAt (inclusive) until endsAt (exclusive). */
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  used: number;
  perShopperLimit: number | null;
  firstOrderOnly: boolean;
  combinable: boolean;
  buyQuantity: number | null;
  getQuantity: number | null;
  tag: string | null;
  active: boolean;
  /** Bumped by every save: the checkout's write gives an offer only as it was read. */
  version: number;
};

/** A piece as an offer sees it: what it is, where it is filed, what it costs. */
export type OfferPiece = { productId: number; categoryIds: readonly number[] };

/** A code as typed, as the shop compares it: trimmed, any case (NAKATO10 = nakato10). */
export const normalCode = (code: string) => code.trim().toUpperCase();

/** Whether the offer runs at this instant: switched on, started, not yet ended. */
export function isRunning(offer: Pick<Offer, 'active' | 'startsAt' | 'endsAt'>, now: Date) {
  const at = now.getTime();
  if (!offer.active) return false;
  if (offer.startsAt && at < Date.parse(offer.startsAt)) return false;
  if (offer.endsAt && at >= Date.parse(offer.endsAt)) return false;
  return true;
}

/** Whether the offer covers this piece: any piece for a whole-order offer. */
export function coversPiece(target: OfferTarget, piece: OfferPiece): boolean {
  if (!target) return true;
  const { categoryIds = [], productIds = [] } = target;
  if (categoryIds.length === 0 && productIds.length === 0) return true;
  if (productIds.includes(piece.productId)) return true;
  return piece.categoryIds.some((id) => categoryIds.includes(id));
}

/** Whether the offer is for everyone (JSON-LD may carry its price): automatic, no minimum, no
 * first-order or per-shopper rule, no use limit. */
export function isForEveryone(offer: Offer): boolean {
  return (
    offer.code === null &&
    !offer.minSubtotal &&
    !offer.firstOrderOnly &&
    offer.perShopperLimit === null &&
    offer.usageLimit === null
  );
}

/** An offer given to a checkout: its code (null: automatic), its name, what it takes off. */
export type AppliedOffer = { code: string | null; name: string; amount: number };

/** Why a code asked for cannot be had (the code as typed, the shopper's text). */
export type OfferProblem = { code: string; message: string };

/**
 * `checkout.preview`'s answer (issue 35): the totals the shop will charge for these lines,
 * codes and delivery, so the page never guesses. `lines` adds each line's saving.
 */
export type CheckoutPreview = {
  subtotal: number;
  deliveryFee: number;
  discount: number;
  credit: number;
  total: number;
  applied: AppliedOffer[];
  problems: OfferProblem[];
  lines: { variantId: number; discount: number }[];
};
