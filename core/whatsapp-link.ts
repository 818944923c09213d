// "Ask on WhatsApp" (issue 37): a wa.me link to the shop's number with the shopper's question
// written for her, from the product page (the piece, the size and colour she has chosen, its
// link) and from her order (its receipt reference). A module of its own, apart from
// core/whatsapp.ts (the Cloud API's templates and texts), so the pages that show the link load
// these few lines and nothing else.
import { SHOP_NAME } from './shop-name.ts';

/** WhatsApp's click-to-chat link: the number's digits (no '+'), the text pre-filled. */
export function askOnWhatsAppLink(number: string, text: string): string {
  return `https://wa.me/${number.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}

/**
 * "Hello duuka, I'd like to ask about Kitenge Wrap (size M, colour Indigo): https://…": the size
 * and colour she has chosen (either alone, or neither: the part is left out).
 */
export function productQuestion(piece: {
  name: string;
  size?: string | null;
  colour?: string | null;
  link: string;
}): string {
  const parts = [
    piece.size ? `size ${piece.size}` : '',
    piece.colour ? `colour ${piece.colour}` : '',
  ].filter(Boolean);
  const chosen = parts.length > 0 ? ` (${parts.join(', ')})` : '';
  return `Hello ${SHOP_NAME}, I'd like to ask about ${piece.name}${chosen}: ${piece.link}`;
}

/** "Hello duuka, about my order RCP-1a2b3c4d: " (the receipt's reference; she writes the rest). */
export function orderQuestion(reference: string): string {
  return `Hello ${SHOP_NAME}, about my order ${reference}: `;
}
