// An automatic offer as the shop's cards and product pages show it (issue 35): the words of its
// badge ("20% off this weekend") and the price it makes. Worked out on the server with the
// catalogue's read; the browser gets the words and the number, never the rules.
import { KAMPALA_OFFSET_MS } from './kampala-time.ts';
import { formatUGX } from './money.ts';
import { coversPiece, isForEveryone, isRunning, type Offer, type OfferPiece } from './offers.ts';

/** What a card or a product page shows of the offer on a piece. */
export type PieceOffer = {
  /** "20% off this weekend", "UGX 5,000 off until Sun 30 Nov", "Free delivery". */
  label: string;
  /** The piece's lowest price with the offer (percent off only); null: none shown. */
  price: number | null;
};

const DAY_MS = 86_400_000;

/** What the offer gives, in a few words. */
export function offerWords(offer: Pick<Offer, 'kind' | 'value' | 'buyQuantity' | 'getQuantity'>) {
  switch (offer.kind) {
    case 'percent':
      return `${offer.value}% off`;
    case 'fixed':
      return `${formatUGX(offer.value)} off`;
    case 'free_delivery':
      return 'Free delivery';
    case 'buy_x_get_y': {
      const off =
        offer.value >= 100 ? 'free' : offer.value === 50 ? 'half price' : `${offer.value}% off`;
      return `Buy ${offer.buyQuantity ?? 1}, get ${offer.getQuantity ?? 1} ${off}`;
    }
  }
}

/** When the offer ends, as a shopper reads it: "this weekend" (a weekend sale, during it),
 * "until Sun 30 Nov" (the last day it runs, Kampala time), or nothing when it never ends. */
export function offerEnd(endsAt: string | null, now: Date): string {
  if (!endsAt) return '';
  const end = Date.parse(endsAt);
  const local = new Date(end + KAMPALA_OFFSET_MS);
  const endsMondayMidnight = local.getUTCDay() === 1 && local.getTime() % DAY_MS === 0;
  if (endsMondayMidnight && now.getTime() >= end - 2 * DAY_MS) return 'this weekend';
  // The last instant it runs (it ends before endsAt), on Kampala's calendar.
  const last = new Date(end - 1 + KAMPALA_OFFSET_MS);
  const day = last.toLocaleDateString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  return `until ${day.replace(',', '')}`;
}

/**
 * The price with the offer, for a percent off only (whole shillings, as the checkout rounds each
 * line). A fixed amount is taken off once per order, shared by the pieces it covers (core/offers.ts
 * itemSavings): no one piece's price says it, so its badge shows the words alone.
 */
export function offerPrice(offer: Pick<Offer, 'kind' | 'value'>, price: number): number | null {
  if (offer.kind === 'percent') return price - Math.floor((price * offer.value) / 100);
  return null;
}

/** Automatic offers running now that a card may show (no code to type, no minimum). */
export function shownOffers(offers: readonly Offer[], now: Date): Offer[] {
  return offers.filter((o) => o.code === null && isRunning(o, now));
}

/**
 * The offer a piece shows: of the automatic offers running that cover it, the one that takes
 * most off its price (free delivery or buy X get Y only when no price offer covers it). An offer
 * with a minimum order or a first-order rule shows its words but no price: the card cannot know.
 */
export function pieceOfferOf(
  offers: readonly Offer[],
  piece: OfferPiece & { price: number },
  now: Date,
): (PieceOffer & { offer: Offer }) | null {
  let best: (PieceOffer & { offer: Offer; saving: number }) | null = null;
  for (const offer of offers) {
    if (!coversPiece(offer.appliesTo, piece)) continue;
    const conditional = !!offer.minSubtotal || offer.firstOrderOnly;
    const price = conditional ? null : offerPrice(offer, piece.price);
    const saving = price === null ? 0 : piece.price - price;
    if (best && saving <= best.saving) continue;
    const end = offerEnd(offer.endsAt, now);
    best = { label: end ? `${offerWords(offer)} ${end}` : offerWords(offer), price, offer, saving };
  }
  if (!best) return null;
  return { label: best.label, price: best.price, offer: best.offer };
}

/** Whether a product page's JSON-LD may carry the offer's price: it is for everyone. */
export const jsonLdMayCarry = (offer: Offer) =>
  isForEveryone(offer) && offer.kind !== 'free_delivery';
