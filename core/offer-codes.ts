// The codes a shopper typed at the cart or the checkout (issue 35): discount codes and gift card
// codes, kept beside the cart in the tab (session storage), so /cart → /checkout keeps them and
// they are sent with the order. Pure: the list's rules and the field's texts.

import { formatUGX } from './money.ts';
import { type AppliedOffer, CODE_MAX, MAX_CODES, normalCode } from './offers.ts';

/** Session storage, not local: a gift card's code is money and should not outlive the tab. */
export const OFFER_CODES_KEY = 'checkoutCodes';

/** The checkout's own bounds (core/offers.ts): what the field keeps is what placeOrder takes. */
export const MAX_OFFER_CODES = MAX_CODES;
export const MAX_OFFER_CODE_LENGTH = CODE_MAX;

export const OFFER_CODE_TEXT = {
  label: 'Discount or gift card code',
  apply: 'Apply',
  applying: 'Applying...',
  remove: (code: string) => `Remove code ${code}`,
  empty: 'Please type a code.',
  tooLong: 'Please check the code.',
  already: 'That code is already applied.',
  tooMany: `You can add up to ${MAX_CODES} codes.`,
  discount: 'Discount',
  /** Gift card and store credit spent (the receipt's line too). */
  credit: 'Gift card / credit',
  free: 'Free',
  creditChoice: (amount: number) => `Use my store credit (${formatUGX(amount)})`,
  nothingToPay: 'Nothing to pay',
  nothingToPayNote: 'Your gift card or store credit covers this order.',
  saving: (amount: number) => `−${formatUGX(amount)}`,
  saved: (amount: number) => `You saved ${formatUGX(amount)}`,
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A code as typed, kept the way the shop compares it; null when it cannot be one. */
function cleanCode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = normalCode(value);
  if (code === '' || code.length > MAX_OFFER_CODE_LENGTH || CONTROL.test(code)) return null;
  return code;
}

/** The codes kept in the tab: anything that is not a short list of codes is dropped. */
export function readSavedCodes(saved: string | null): string[] {
  if (!saved) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(saved);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const codes: string[] = [];
  for (const item of parsed) {
    const code = cleanCode(item);
    if (code && !codes.includes(code)) codes.push(code);
    if (codes.length === MAX_OFFER_CODES) break;
  }
  return codes;
}

/** Adds a typed code, or says why it cannot be added (before asking the server). */
export function withCode(
  codes: readonly string[],
  typed: string,
): { ok: true; codes: string[]; code: string } | { ok: false; message: string } {
  const trimmed = typed.trim();
  if (trimmed === '') return { ok: false, message: OFFER_CODE_TEXT.empty };
  if (trimmed.length > MAX_OFFER_CODE_LENGTH || CONTROL.test(trimmed)) {
    return { ok: false, message: OFFER_CODE_TEXT.tooLong };
  }
  const code = normalCode(trimmed);
  if (codes.includes(code)) return { ok: false, message: OFFER_CODE_TEXT.already };
  if (codes.length >= MAX_OFFER_CODES) return { ok: false, message: OFFER_CODE_TEXT.tooMany };
  // Whether it exists is the server's to say (the preview's problem, in the shop's words).
  return { ok: true, codes: [...codes, code], code };
}

export const withoutCode = (codes: readonly string[], code: string) =>
  codes.filter((c) => c !== normalCode(code));

/** The offer a typed code gave, if the preview gave it. */
export const appliedFor = (applied: readonly AppliedOffer[], code: string) =>
  applied.find((offer) => offer.code !== null && normalCode(offer.code) === normalCode(code));

/** Which offers gave a discount: "Weekend sale, Nakato's 10% (NAKATO10)" (code shown when typed). */
export function offersNote(offers: readonly Pick<AppliedOffer, 'name' | 'code'>[]): string {
  const named = offers.map((offer) => (offer.code ? `${offer.name} (${offer.code})` : offer.name));
  return [...new Set(named)].join(', ');
}
