// What the assistant may say about offers and credit (issue 35): each offer running now in one
// plain line, and the exact list of codes that exist, so it never invents one. Pure.

import { formatUGX } from './money.ts';
import { offerEnd, offerWords } from './offer-badge.ts';
import { isRunning, type Offer } from './offers.ts';

/** One offer as the assistant states it: what, how to get it, on what, until when. */
export function offerLine(offer: Offer, now: Date): string {
  const parts = [
    offer.code ? `code ${offer.code}` : 'automatic, no code needed',
    `${offer.name}: ${offerWords(offer)}`,
  ];
  if (offer.appliesTo) parts.push('on selected pieces only');
  if (offer.minSubtotal) parts.push(`on orders from ${formatUGX(offer.minSubtotal)}`);
  if (offer.firstOrderOnly) parts.push('first order only');
  if (offer.perShopperLimit) parts.push(`${offer.perShopperLimit} use(s) per shopper`);
  const ends = offerEnd(offer.endsAt, now);
  if (ends) parts.push(ends);
  return parts.join(', ');
}

/** The offers running at `now`, each in one line, codes first. */
export function runningOfferLines(offers: readonly Offer[], now: Date): string[] {
  return offers
    .filter((offer) => isRunning(offer, now))
    .sort((a, b) => Number(b.code !== null) - Number(a.code !== null))
    .map((offer) => offerLine(offer, now));
}

/** The codes that exist and run now, as the desk typed them: the only ones the assistant names. */
export function runningCodes(offers: readonly Offer[], now: Date): string[] {
  return offers.flatMap((offer) => (offer.code && isRunning(offer, now) ? [offer.code] : []));
}

/** The assistant's instructions about offers and the shopper's credit. */
export function offerInstructions(
  offers: readonly Offer[] | null,
  credit: number | null,
  now: Date,
): string {
  const lines: string[] = [];
  if (!offers) {
    lines.push(
      'Offers: you do not know which offers run right now. Never name a discount code or promise a discount.',
    );
  } else {
    const codes = runningCodes(offers, now);
    const running = runningOfferLines(offers, now);
    lines.push(
      running.length > 0
        ? `Offers running now (state only these, exactly): ${running.join('; ')}.`
        : 'No offers or discounts run right now.',
      codes.length > 0
        ? `The only discount codes that exist are: ${codes.join(', ')}. Never give, guess or make up any other code; a code not in this list does not exist or has ended.`
        : 'No discount code exists right now: never give, guess or make up a code.',
    );
  }
  lines.push(
    'Gift cards are sold at /gift-cards (texted to the recipient once paid). You never know a gift card’s code or balance: the holder types the code at checkout.',
  );
  if (credit !== null) {
    lines.push(
      `The signed-in shopper's own store credit: ${formatUGX(credit)} (spent at checkout). Never state anyone else's credit.`,
    );
  }
  return lines.join('\n');
}
