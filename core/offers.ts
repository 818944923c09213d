// Offers (issue 35, decision 0081): what a promotion is, when it runs and which pieces it
// covers. Pure: the checkout's engine, the desk, the listings and the assistant read these.
// Dates are instants; "Kampala time" is how the desk types and shows them (core/kampala-time.ts).
import { giftCardKey, isGiftCardCode } from './gift-cards.ts';
import { KAMPALA_OFFSET_MS, MONTHS } from './kampala-time.ts';
import { formatUGX } from './money.ts';

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
export type AppliedOffer = {
  code: string | null;
  name: string;
  amount: number;
  /** What it gives: the page names free delivery at the fee, the others under Discount. */
  kind: OfferKind;
};

/**
 * Why a code asked for cannot be had (the code as typed, the shopper's text). `note`: the code
 * adds nothing but the order is not refused for it (a better offer applies, delivery is already
 * free): the page shows the text and still lets her place the order. `code` '': a problem of
 * the order's own (checkout.preview: its delivery option unknown or retired).
 */
export type OfferProblem = { code: string; message: string; note?: true };

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

// ---------------------------------------------------------------------------------------------
// The engine (issue 35): what a cart is given. Pure: the preview, the checkout's write and the
// tests read the same answer, so the page shows what the shop charges.

/** The most codes one checkout takes (discount codes and gift cards together). */
export const MAX_CODES = 5;
/** A code as typed is at most this long (a gift card's "GIFT-XXXX-XXXX-XXXX" is 19). */
export const CODE_MAX = 40;

/** A line as the engine prices it. */
export type OfferLine = OfferPiece & { variantId: number; price: number; quantity: number };

/** What the shop knows of who is buying: per-shopper rules need a signed-in shopper. */
export type ShopperFacts = {
  /** The account's id; null: a visitor (signed out). */
  id: string | null;
  /** Their counted uses of each offer (order_offers still counted), by offer id. */
  uses: ReadonlyMap<number, number>;
  /** Whether they have an order that was not cancelled: first-order offers are not theirs. */
  ordered: boolean;
};

/** Why an offer is not given, in the engine's words (OFFER_TEXT says it to the shopper). */
export type OfferRefusal =
  | { why: 'unknown' }
  | { why: 'not-started'; startsAt: string }
  | { why: 'ended' }
  | { why: 'not-for-these' }
  | { why: 'minimum'; minimum: number }
  | { why: 'used-up' }
  | { why: 'already-used' }
  | { why: 'first-order-only' }
  | { why: 'sign-in' }
  | { why: 'twice' }
  | { why: 'gift-card-empty' }
  /** Not a refusal of the order: a better offer gives more than this code would (a note). */
  | { why: 'better-offer'; name: string }
  /** Not a refusal either: delivery is already free on this order (a note). */
  | { why: 'delivery-free' };

/** Notes tell the shopper why a code adds nothing, but the order is not refused for them: the
 * shopper pays less than the code would have made it (never the full price behind her back). */
export const isNote = (refusal: OfferRefusal) =>
  refusal.why === 'better-offer' || refusal.why === 'delivery-free';

const pad2 = (n: number) => String(n).padStart(2, '0');
/** "28 November 2026 at 18:00" in Kampala time (EAT, UTC+3 all year). */
export function kampalaMoment(iso: string): string {
  const k = new Date(Date.parse(iso) + KAMPALA_OFFSET_MS);
  return `${k.getUTCDate()} ${MONTHS[k.getUTCMonth()]} ${k.getUTCFullYear()} at ${pad2(k.getUTCHours())}:${pad2(k.getUTCMinutes())}`;
}

/** The input's two texts, apart: placeOrderInput (core/order-rules.ts, in every page's first
 * load) takes these two without the rest of OFFER_TEXT and what it imports. */
export const TOO_MANY_CODES_TEXT = `You can add up to ${MAX_CODES} codes.`;
export const BAD_CODE_TEXT = 'Please check the code.';

/** The shopper's texts for the offers and gift cards at checkout. */
export const OFFER_TEXT = {
  unknown: (code: string) => `We don't know the code ${code}. Please check it and try again.`,
  notStarted: (code: string, startsAt: string) =>
    `${code} starts on ${kampalaMoment(startsAt)} (Kampala time).`,
  ended: (code: string) => `${code} has ended.`,
  notForThese: (code: string) => `${code} does not apply to the pieces in your cart.`,
  minimum: (code: string, minimum: number) =>
    `${code} needs at least ${formatUGX(minimum)} of the pieces it covers in your cart.`,
  usedUp: (code: string) => `${code} has been used up.`,
  alreadyUsed: (code: string) => `You have already used ${code}.`,
  /** Her slot of a per-shopper offer was taken by another of her orders placed at that moment. */
  justUsed: (code: string) => `${code} was just used by another of your orders. Please try again.`,
  firstOrderOnly: (code: string) => `${code} is for a first order only.`,
  signIn: (code: string) => `Sign in to use ${code}.`,
  twice: (code: string) => `${code} is already added.`,
  giftCardEmpty: (code: string) => `The gift card ${code} has nothing left on it.`,
  betterOffer: (code: string, name: string) =>
    `${code} is not added: a better offer already applies (${name}).`,
  deliveryFree: (code: string) => `${code} is not needed: delivery is already free.`,
  /** The checkout's write found an offer saved anew, or a price or fee changed, since its read. */
  changed: 'An offer or a price changed while you were checking out. Please check the new totals.',
  /** A gift card or credit was spent elsewhere meanwhile (its balance CHECK refused). */
  balanceChanged:
    'Your gift card or credit balance changed while you were checking out. Please check the new totals.',
  tooManyCodes: TOO_MANY_CODES_TEXT,
  badCode: BAD_CODE_TEXT,
} as const;

/** A refusal as the shopper reads it, about the code as she typed it. */
export function refusalText(code: string, refusal: OfferRefusal): string {
  switch (refusal.why) {
    case 'unknown':
      return OFFER_TEXT.unknown(code);
    case 'not-started':
      return OFFER_TEXT.notStarted(code, refusal.startsAt);
    case 'ended':
      return OFFER_TEXT.ended(code);
    case 'not-for-these':
      return OFFER_TEXT.notForThese(code);
    case 'minimum':
      return OFFER_TEXT.minimum(code, refusal.minimum);
    case 'used-up':
      return OFFER_TEXT.usedUp(code);
    case 'already-used':
      return OFFER_TEXT.alreadyUsed(code);
    case 'first-order-only':
      return OFFER_TEXT.firstOrderOnly(code);
    case 'sign-in':
      return OFFER_TEXT.signIn(code);
    case 'twice':
      return OFFER_TEXT.twice(code);
    case 'gift-card-empty':
      return OFFER_TEXT.giftCardEmpty(code);
    case 'better-offer':
      return OFFER_TEXT.betterOffer(code, refusal.name);
    case 'delivery-free':
      return OFFER_TEXT.deliveryFree(code);
  }
}

/** A code asked for and why it gives nothing. */
export type CodeRefused = { code: string; refusal: OfferRefusal };

/** The codes typed, sorted: discount codes (normalised) and gift cards (as typed); a code given
 * twice (same code in any case or spacing) is refused the second time. */
export function splitCodes(codes: readonly string[]): {
  discountCodes: { typed: string; code: string }[];
  giftCards: { typed: string; key: string }[];
  refused: CodeRefused[];
} {
  const seen = new Set<string>();
  const discountCodes: { typed: string; code: string }[] = [];
  const giftCards: { typed: string; key: string }[] = [];
  const refused: CodeRefused[] = [];
  for (const raw of codes) {
    const typed = raw.trim();
    if (!typed) continue;
    const gift = isGiftCardCode(typed);
    const key = gift ? `gift:${giftCardKey(typed)}` : `code:${normalCode(typed)}`;
    if (seen.has(key)) {
      refused.push({ code: typed, refusal: { why: 'twice' } });
      continue;
    }
    seen.add(key);
    if (gift) giftCards.push({ typed, key: giftCardKey(typed) });
    else discountCodes.push({ typed, code: normalCode(typed) });
  }
  return { discountCodes, giftCards, refused };
}

/** An offer given to this cart: what it takes off and from which lines. */
export type GivenOffer = AppliedOffer & {
  offer: Offer;
  /** UGX off each line, by variant id (items offers; empty for free delivery). */
  lines: ReadonlyMap<number, number>;
};

export type OffersAnswer = {
  subtotal: number;
  /** Items offers first (the best non-combinable, then the combinable), free delivery last. */
  given: GivenOffer[];
  /** Taken off the items: never above the subtotal. */
  discount: number;
  /** The fee after free delivery. */
  deliveryFee: number;
  /** Each line's saving, in the lines' order. */
  lines: { variantId: number; discount: number }[];
  /** Codes asked that give nothing, and why (notes among them: see isNote). */
  refused: CodeRefused[];
};

export type OffersAsk = {
  lines: readonly OfferLine[];
  /** The offers read: the live ones and those the codes name, in any state. */
  offers: readonly Offer[];
  /** The codes as typed (gift cards among them are left to spendValue). */
  codes: readonly string[];
  /** The delivery fee the shop charges for this cart before offers. */
  deliveryFee: number;
  now: Date;
  shopper: ShopperFacts;
};

type Candidate = {
  offer: Offer;
  typed: string | null;
  perLine: Map<number, number>;
  amount: number;
};

/** Whether this shopper may have this offer now, and on these lines; else why not. */
function refusalOf(
  offer: Offer,
  lines: readonly OfferLine[],
  now: Date,
  shopper: ShopperFacts,
): OfferRefusal | null {
  if (!offer.active) return { why: 'ended' };
  if (offer.startsAt && now.getTime() < Date.parse(offer.startsAt)) {
    return { why: 'not-started', startsAt: offer.startsAt };
  }
  if (!isRunning(offer, now)) return { why: 'ended' };
  if (offer.usageLimit !== null && offer.used >= offer.usageLimit) return { why: 'used-up' };
  if (offer.firstOrderOnly || offer.perShopperLimit !== null) {
    if (shopper.id === null) return { why: 'sign-in' };
    if (offer.firstOrderOnly && shopper.ordered) return { why: 'first-order-only' };
    if (
      offer.perShopperLimit !== null &&
      (shopper.uses.get(offer.id) ?? 0) >= offer.perShopperLimit
    ) {
      return { why: 'already-used' };
    }
  }
  const covered = lines.filter((line) => coversPiece(offer.appliesTo, line));
  if (covered.length === 0) return { why: 'not-for-these' };
  const coveredTotal = covered.reduce((sum, l) => sum + l.price * l.quantity, 0);
  if (offer.minSubtotal && coveredTotal < offer.minSubtotal) {
    return { why: 'minimum', minimum: offer.minSubtotal };
  }
  return null;
}

/** Shares `amount` among the lines in proportion to their totals; whole UGX, summing exactly. */
function share(amount: number, covered: readonly OfferLine[]): Map<number, number> {
  const total = covered.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const out = new Map<number, number>();
  if (total <= 0 || amount <= 0) return out;
  let left = amount;
  covered.forEach((line, index) => {
    const part =
      index === covered.length - 1
        ? left
        : Math.floor((amount * line.price * line.quantity) / total);
    out.set(line.variantId, part);
    left -= part;
  });
  return out;
}

/**
 * What an items offer takes off each covered line, before combining.
 * - percent: `value`% of each covered line, rounded down to the shilling.
 * - fixed: `value` shillings (never more than the covered pieces cost), shared by line totals.
 * - buy_x_get_y: read as "buy X, get Y at `value`% off": the covered pieces, dearest first, are
 *   taken in groups of X + Y and the Y cheapest of each full group get `value`% off ("2 tops,
 *   the cheaper half price" is X = 1, Y = 1, value 50; "3 for 2" is X = 2, Y = 1, value 100).
 */
function itemSavings(offer: Offer, lines: readonly OfferLine[]): Map<number, number> {
  const covered = lines.filter((line) => coversPiece(offer.appliesTo, line));
  const out = new Map<number, number>();
  if (offer.kind === 'percent') {
    for (const line of covered) {
      out.set(line.variantId, Math.floor((line.price * line.quantity * offer.value) / 100));
    }
  } else if (offer.kind === 'fixed') {
    const coveredTotal = covered.reduce((sum, l) => sum + l.price * l.quantity, 0);
    return share(Math.min(offer.value, coveredTotal), covered);
  } else if (offer.kind === 'buy_x_get_y') {
    const x = offer.buyQuantity ?? 0;
    const y = offer.getQuantity ?? 0;
    if (x < 0 || y <= 0) return out;
    const units = covered
      .flatMap((line) => Array.from({ length: line.quantity }, () => line))
      .sort((a, b) => b.price - a.price || a.variantId - b.variantId);
    const group = x + y;
    for (let start = 0; start + group <= units.length; start += group) {
      for (let i = start + x; i < start + group; i++) {
        const unit = units[i] as OfferLine;
        const off = Math.floor((unit.price * offer.value) / 100);
        out.set(unit.variantId, (out.get(unit.variantId) ?? 0) + off);
      }
    }
  }
  return out;
}

const sumOf = (perLine: ReadonlyMap<number, number>) =>
  [...perLine.values()].reduce((sum, n) => sum + n, 0);

/**
 * What this cart is given, and why each code asked gives nothing when it does. The rules:
 * - automatic offers (no code) apply without being asked; a coded one only when its code is;
 * - the best single non-combinable items offer wins; combinable ones add on top of it (each
 *   line's savings together never above the line); free delivery combines with any of them;
 * - a code that loses to a better offer is a note, not a refusal (the shopper pays less than
 *   with her code); a code that cannot be had (unknown, ended, not started, not for these
 *   pieces, below its minimum, used up, used by her already, first order only, needs signing
 *   in, typed twice) is a refusal: the checkout places no order with it.
 * - an automatic offer the shopper cannot have is simply not given: nobody asked for it.
 */
export function offersFor(ask: OffersAsk): OffersAnswer {
  const { lines, offers, now, shopper } = ask;
  const subtotal = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const { discountCodes, refused: twice } = splitCodes(ask.codes);
  const refused: CodeRefused[] = [...twice];
  const candidates: Candidate[] = [];
  const byCode = new Map<string, Offer>();
  for (const offer of offers) if (offer.code) byCode.set(normalCode(offer.code), offer);

  const consider = (offer: Offer, typed: string | null) => {
    const refusal = refusalOf(offer, lines, now, shopper);
    if (refusal) {
      if (typed !== null) refused.push({ code: typed, refusal });
      return;
    }
    const perLine = offer.kind === 'free_delivery' ? new Map() : itemSavings(offer, lines);
    const amount = offer.kind === 'free_delivery' ? ask.deliveryFee : sumOf(perLine);
    if (amount <= 0 && offer.kind !== 'free_delivery') {
      // A buy X get Y without enough pieces, or a percent too small to make a shilling.
      if (typed !== null) refused.push({ code: typed, refusal: { why: 'not-for-these' } });
      return;
    }
    candidates.push({ offer, typed, perLine, amount });
  };
  const seenOffers = new Set<number>();
  for (const { typed, code } of discountCodes) {
    const offer = byCode.get(code);
    if (!offer) {
      refused.push({ code: typed, refusal: { why: 'unknown' } });
      continue;
    }
    if (seenOffers.has(offer.id)) continue;
    seenOffers.add(offer.id);
    consider(offer, typed);
  }
  for (const offer of offers) {
    if (offer.code === null && !seenOffers.has(offer.id)) {
      seenOffers.add(offer.id);
      consider(offer, null);
    }
  }

  const given: GivenOffer[] = [];
  const left = new Map(lines.map((l) => [l.variantId, l.price * l.quantity]));
  const give = (candidate: Candidate): boolean => {
    const taken = new Map<number, number>();
    for (const [variantId, off] of candidate.perLine) {
      const room = left.get(variantId) ?? 0;
      const part = Math.min(off, room);
      if (part > 0) {
        taken.set(variantId, part);
        left.set(variantId, room - part);
      }
    }
    const amount = sumOf(taken);
    if (amount <= 0) return false;
    given.push({
      code: candidate.offer.code,
      name: candidate.offer.name,
      amount,
      kind: candidate.offer.kind,
      offer: candidate.offer,
      lines: taken,
    });
    return true;
  };
  const better = (a: Candidate, b: Candidate) =>
    b.amount - a.amount ||
    Number(b.typed !== null) - Number(a.typed !== null) ||
    a.offer.id - b.offer.id;
  const items = candidates.filter((c) => c.offer.kind !== 'free_delivery');
  const single = items.filter((c) => !c.offer.combinable).sort(better);
  const [best, ...losers] = single;
  if (best) give(best);
  for (const loser of losers) {
    if (loser.typed !== null) {
      refused.push({
        code: loser.typed,
        refusal: { why: 'better-offer', name: best?.offer.name ?? '' },
      });
    }
  }
  for (const extra of items.filter((c) => c.offer.combinable).sort(better)) {
    if (!give(extra) && extra.typed !== null) {
      refused.push({
        code: extra.typed,
        refusal: { why: 'better-offer', name: given[0]?.name ?? '' },
      });
    }
  }
  // Free delivery: one is enough (an automatic one first, so a code's use is not spent on it).
  const free = candidates
    .filter((c) => c.offer.kind === 'free_delivery')
    .sort((a, b) => Number(a.typed !== null) - Number(b.typed !== null) || a.offer.id - b.offer.id);
  const [freeWinner, ...freeLosers] = free;
  if (freeWinner && ask.deliveryFee > 0) {
    given.push({
      code: freeWinner.offer.code,
      name: freeWinner.offer.name,
      amount: ask.deliveryFee,
      kind: 'free_delivery',
      offer: freeWinner.offer,
      lines: new Map(),
    });
  }
  for (const loser of ask.deliveryFee > 0 ? freeLosers : free) {
    if (loser.typed !== null)
      refused.push({ code: loser.typed, refusal: { why: 'delivery-free' } });
  }

  const discount = given
    .filter((g) => g.offer.kind !== 'free_delivery')
    .reduce((sum, g) => sum + g.amount, 0);
  const freeDelivery = given.some((g) => g.offer.kind === 'free_delivery');
  return {
    subtotal,
    given,
    discount: Math.min(discount, subtotal),
    deliveryFee: freeDelivery ? 0 : ask.deliveryFee,
    lines: lines.map((line) => ({
      variantId: line.variantId,
      discount: line.price * line.quantity - (left.get(line.variantId) ?? 0),
    })),
    refused: orderRefused(refused, ask.codes),
  };
}

/** The refusals in the order the codes were typed. */
function orderRefused(refused: CodeRefused[], codes: readonly string[]): CodeRefused[] {
  const at = (code: string) => codes.findIndex((c) => c.trim() === code);
  return [...refused].sort((a, b) => at(a.code) - at(b.code));
}

/** A gift card or the shopper's store credit, as read (balance now). */
export type ValueAccount = { id: number; balance: number };

export type ValueSpend = {
  /** Spent from each account, in the order spent (gift cards first, then credit). */
  spends: { accountId: number; amount: number }[];
  credit: number;
  refused: CodeRefused[];
};

/**
 * Spends gift cards (in the order typed), then store credit, against what is due after the
 * discounts; never more than is due, never more than a balance. A gift card code nobody holds is
 * unknown (the same text as a wrong discount code: nothing tells a guesser which it was); one
 * with nothing left is refused. A card not needed (nothing left to pay) is simply not spent.
 */
export function spendValue(
  due: number,
  giftCards: readonly { typed: string; account: ValueAccount | null }[],
  credit: ValueAccount | null,
): ValueSpend {
  const spends: { accountId: number; amount: number }[] = [];
  const refused: CodeRefused[] = [];
  let left = Math.max(0, due);
  for (const card of giftCards) {
    if (!card.account) {
      refused.push({ code: card.typed, refusal: { why: 'unknown' } });
      continue;
    }
    if (card.account.balance <= 0) {
      refused.push({ code: card.typed, refusal: { why: 'gift-card-empty' } });
      continue;
    }
    const amount = Math.min(left, card.account.balance);
    if (amount > 0) spends.push({ accountId: card.account.id, amount });
    left -= amount;
  }
  if (credit && credit.balance > 0 && left > 0) {
    const amount = Math.min(left, credit.balance);
    spends.push({ accountId: credit.id, amount });
    left -= amount;
  }
  return { spends, credit: Math.max(0, due) - left, refused };
}

/** The preview's problems: every code that gives nothing, with its text. */
export const problemsOf = (refused: readonly CodeRefused[]): OfferProblem[] =>
  refused.map(({ code, refusal }) => ({
    code,
    message: refusalText(code, refusal),
    ...(isNote(refusal) ? { note: true as const } : {}),
  }));

/** The first refusal that stops an order (notes never do). */
export const firstRefusal = (refused: readonly CodeRefused[]) =>
  refused.find(({ refusal }) => !isNote(refusal)) ?? null;
