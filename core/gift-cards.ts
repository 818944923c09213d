// Gift cards (issue 35, decision 0081): the code a recipient gets by text, and how the shop keeps
// it: hashed, with only its last 4 characters readable. Pure but for Web Crypto's digest.

/** The amounts offered on the gift card page; the shopper may also type one in this range. */
export const GIFT_CARD_AMOUNTS = [50_000, 100_000, 200_000] as const;
export const GIFT_CARD_MIN = 10_000;
export const GIFT_CARD_MAX = 2_000_000;

/** A gift card order's delivery, as the desk, the receipt and the buyer's text name it. */
export const GIFT_CARD_DELIVERY = 'Sent by text';

/** Letters and digits a person can read back over the phone (no 0/O, 1/I/L). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 12 characters from 31: about 59 bits, far beyond guessing through the checkout's limit. */
const CODE_LENGTH = 12;

/** A new gift card code, "GIFT-XXXX-XXXX-XXXX". */
export function newGiftCardCode(random = crypto.getRandomValues.bind(crypto)): string {
  const bytes = random(new Uint8Array(CODE_LENGTH));
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte % ALPHABET.length];
  return `GIFT-${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

/** The code as compared: capitals, without spaces or dashes, without the GIFT prefix. */
export function giftCardKey(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/^GIFT/, '');
}

/** Whether a typed code looks like a gift card's (else it is a discount code). */
export const isGiftCardCode = (code: string) =>
  /^GIFT[\s-]*[A-Z0-9]/i.test(code.trim()) && giftCardKey(code).length === CODE_LENGTH;

/** What is stored: SHA-256 of the key, hex. */
export async function giftCardHash(code: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(giftCardKey(code)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The readable part kept beside the hash: the last 4 characters. */
export const giftCardLast4 = (code: string) => giftCardKey(code).slice(-4);

/** A text with a gift card's code as the outbox keeps it once sent: only the last 4 readable
 * (as the ledger keeps it), so the desk's list of an order's texts shows no spendable code. */
export const hideGiftCardCode = (text: string) =>
  text.replace(/GIFT-[A-Z0-9]{4}-[A-Z0-9]{4}-/g, 'GIFT-XXXX-XXXX-');
