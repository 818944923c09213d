// The support chat (spec: account "Support chat", "Support assistant", constants): its limits,
// texts and the facts the assistant may state (the canned answers used when the model cannot
// answer are core/chat-answers.ts). Pure: the model call is server/services/chat/, the widget
// app/components/chat/.
import * as v from 'valibot';
import type { Limit } from './limits.ts';

/** Spec: model settings. */
export const MODEL_SETTINGS = {
  temperature: 0.7,
  topK: 40,
  topP: 0.95,
  maxOutputTokens: 1024,
} as const;
/** A message is at most this long. */
export const CHAT_MAX_LENGTH = 2000;
/** Messages per shopper a minute: a conversation, never a script draining the model's quota. */
export const CHAT_LIMIT: Limit = { max: 20, windowSeconds: 60 };
/** Spec: prompt context sizes. */
export const RECENT_ORDERS_IN_PROMPT = 3;
export const RECENT_MESSAGES_IN_PROMPT = 4;
export const MESSAGE_CUT_IN_PROMPT = 100;
/** Spec: a customer with 3 or fewer recent messages is new. */
export const NEW_CUSTOMER_MAX_MESSAGES = 3;
/** Spec: search keywords shorter than this are ignored. */
export const MIN_KEYWORD_LENGTH = 3;
/** How much history the widget loads. */
export const CHAT_HISTORY_LIMIT = 100;

export type SupportContact = {
  email: string;
  phone: string;
  /** The shop's opening hours on one line (issue 34: the owner's, core/desk-store-details.ts);
   * absent: the spec's "Mon-Sat 8AM-8PM, Sun 10AM-6PM". */
  hours?: string;
  /** The boutique's address and landmark, when the owner set them. */
  place?: string;
};
/** The spec's opening hours, as the assistant says them. */
export const DEFAULT_HOURS_TEXT = 'Mon-Sat 8AM-8PM, Sun 10AM-6PM';
/** The shop's contact (as in the footer) when SUPPORT_EMAIL / SUPPORT_PHONE are not set. */
export const DEFAULT_SUPPORT: SupportContact = {
  email: 'hello@duuka.ug',
  phone: '+256 759 301 488',
};

export const CHAT_TEXT = {
  /** Under the panel's name: a program answers, not the team (issue 32); their hours are the menu's. */
  panelNote: 'AI shopping assistant · replies in seconds',
  keyProblem: (c: SupportContact) =>
    `I'm having some technical difficulties with my AI system. Please contact our support team at ${c.email} or call ${c.phone} for immediate assistance.`,
  rateLimited: (c: SupportContact) =>
    `I'm experiencing high traffic right now. Please try again in a moment, or contact our support team at ${c.email} for immediate help.`,
  sendFailed: (c: SupportContact) =>
    `I apologize, but I'm having trouble right now. Please try again or contact our support team at ${c.email} or ${c.phone}.`,
  tooLong: `A message is at most ${CHAT_MAX_LENGTH.toLocaleString('en-US')} characters.`,
  empty: 'Please type a message.',
  notText: 'Please type a message.',
  sessionNotFound: 'Chat session not found',
  tooMany: (seconds: number) =>
    `You're sending messages quickly. Please wait ${seconds} seconds and try again.`,
  loginToChat: 'Log in to chat with our shopping assistant.',
} as const;

/** Spec: the menu's categories and the opening message each sends. */
export const CHAT_CATEGORIES = [
  { label: 'Describe your issue', opener: "Hi, I'd like some help with an issue." },
  { label: 'Order Related', opener: 'I have a question about my order.' },
  { label: 'Product Inquiries', opener: "I'd like to know more about your products." },
  { label: 'Account & Login', opener: 'I need help with my account or logging in.' },
  { label: 'Payment & Shipping', opener: 'I have a question about payment and shipping.' },
  { label: 'Other Inquiries', opener: 'I have another question.' },
] as const;

/** Spec: the quick-fill chips under the input. */
export const CHAT_CHIPS = [
  { label: 'New Arrivals', text: 'Show me new arrivals' },
  { label: 'Track Order', text: 'Track my order' },
  { label: 'Returns', text: 'What is your return policy?' },
  { label: 'Dresses', text: 'Show me dresses' },
  { label: 'Payment', text: 'How can I pay?' },
  { label: 'Support', text: 'How do I contact support?' },
] as const;

/**
 * The shop's facts the assistant may state (spec: business claims). Delivery and returns are not
 * among them: delivery's options, fees, times and any free-delivery threshold, and the return and
 * exchange windows, come from the shop's settings (core/delivery-rules.ts deliveryFacts, issue 23;
 * core/chat-returns.ts returnFacts, issue 36), so the assistant never promises what the shop does
 * not give.
 */
export const SHOP_FACTS = [
  `Opening hours: ${DEFAULT_HOURS_TEXT}.`,
  'Payment by card and mobile money (MTN, Airtel); bank transfer for larger orders.',
] as const;

/** The facts with the shop's own hours and place (the owner's details), the spec's otherwise. */
export function shopFacts(contact: Pick<SupportContact, 'hours' | 'place'>): string[] {
  const facts: string[] = SHOP_FACTS.map((fact) =>
    fact.startsWith('Opening hours:')
      ? `Opening hours: ${contact.hours ?? DEFAULT_HOURS_TEXT}.`
      : fact,
  );
  if (contact.place) facts.push(`The boutique: ${contact.place}.`);
  return facts;
}

/** 'dresses' → 'dress', 'shoes' → 'shoe', 'bags' → 'bag': plurals find their singular. */
function singular(word: string): string {
  if (word.length > 5 && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Words that say nothing about what is wanted. */
const FILLER = new Set([
  'show',
  'the',
  'and',
  'for',
  'with',
  'have',
  'any',
  'some',
  'you',
  'your',
  'please',
  'looking',
  'want',
  'new',
  'arrival',
  'can',
]);

/** A message's words of 3 or more characters, for the product search (spec). */
export function keywords(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).map(singular);
  return [...new Set(words.filter((word) => word.length >= 3 && !FILLER.has(word)))].slice(0, 8);
}

const messageText = v.pipe(
  v.string(CHAT_TEXT.notText),
  v.maxLength(CHAT_MAX_LENGTH, CHAT_TEXT.tooLong),
  // Control characters (NUL and the like) go; tabs and line breaks stay.
  v.transform((text) => text.replace(/[^\P{Cc}\t\n\r]/gu, '').trim()),
  v.minLength(1, CHAT_TEXT.empty),
);
const sessionId = v.pipe(
  v.string(CHAT_TEXT.sessionNotFound),
  v.maxLength(120, CHAT_TEXT.sessionNotFound),
  v.regex(/^[A-Za-z0-9_-]+-\d{10,16}$/, CHAT_TEXT.sessionNotFound),
);

export const chatSendInput = v.strictObject({ sessionId, text: messageText }, CHAT_TEXT.notText);
export const chatHistoryInput = v.optional(
  v.strictObject({ sessionId: v.optional(sessionId) }, CHAT_TEXT.sessionNotFound),
);

/** Spec: the session id is the user id and the current time. */
export function newSessionId(userId: string, now = Date.now()): string {
  return `${userId}-${now}`;
}

/** Whether a session id is this shopper's own. */
export function ownsSession(userId: string, session: string): boolean {
  return session.startsWith(`${userId}-`) && /^\d{10,16}$/.test(session.slice(userId.length + 1));
}

// ---------------------------------------------------------------- product cards under a reply

/** How many product cards one reply shows at most. */
export const CHAT_CARDS_MAX = 4;

/** A product a reply names, as the widget shows it: a card with its picture, price and link. */
export type ChatProductCard = {
  /** The product's id and slug: the card links to /products/{slug}. */
  id: number;
  slug: string;
  name: string;
  /** The lowest price of its variants (of the one asked about, when `variantId` is set). */
  price: number;
  /** The highest price: "from" `price` when higher. */
  priceTo: number;
  /** The price before a sale, struck through; null when not on sale. */
  compareAtPrice: number | null;
  /** Its first picture (the asked colour's, when one was asked): the JPEG fallback, its stored
   * WebP widths and alt text; null when it has none. */
  image: { url: string; alt: string; widths: number[] } | null;
  /** The one variant asked about ("M · Indigo"), linked with ?variant=; null otherwise. */
  variantId: number | null;
  variantLabel: string | null;
  /** 'In stock', 'Only 2 left', 'Sold out': of the variant asked about, else of the piece. */
  availability: string;
};

/**
 * The stream part that carries a reply's cards, after its text (the AI SDK's UI message stream
 * names such parts `data-{name}`). `chat.send` yields text pieces (strings) and at most one of these.
 */
export type ChatCardsPart = { type: 'data-products'; data: ChatProductCard[] };
export type ChatStreamPart = string | ChatCardsPart;

export function isCardsPart(part: unknown): part is ChatCardsPart {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as ChatCardsPart).type === 'data-products' &&
    Array.isArray((part as ChatCardsPart).data)
  );
}

/** The card's link: the product page, opened on the variant asked about. */
export function cardHref(card: Pick<ChatProductCard, 'slug' | 'variantId'>): string {
  const page = `/products/${encodeURIComponent(card.slug)}`;
  return card.variantId ? `${page}?variant=${card.variantId}` : page;
}

const normalised = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim();

/**
 * The cards a reply shows: the products the tools found that the reply names, in the order it
 * names them, and the product whose availability was asked about even when the reply shortens its
 * name. Only products read from the catalogue can become cards; a name the model made up cannot.
 */
export function cardsForReply(
  text: string,
  found: readonly ChatProductCard[],
  asked: readonly number[] = [],
): ChatProductCard[] {
  const said = ` ${normalised(text)} `;
  const named = found
    .map((card) => ({ card, at: said.indexOf(` ${normalised(card.name)} `) }))
    .filter(({ card, at }) => at >= 0 || asked.includes(card.id))
    .sort((a, b) => (a.at < 0 ? -1 : a.at) - (b.at < 0 ? -1 : b.at));
  const seen = new Set<number>();
  const cards: ChatProductCard[] = [];
  for (const { card } of named) {
    if (seen.has(card.id)) continue;
    seen.add(card.id);
    cards.push(card);
  }
  return cards.slice(0, CHAT_CARDS_MAX);
}

/** Cards read back from a stored message's metadata: only well-formed ones survive. */
export function storedCards(metadata: unknown): ChatProductCard[] | undefined {
  const list = (metadata as { products?: unknown } | null)?.products;
  if (!Array.isArray(list)) return undefined;
  const cards = list.filter(
    (card): card is ChatProductCard =>
      typeof card === 'object' &&
      card !== null &&
      typeof card.id === 'number' &&
      typeof card.slug === 'string' &&
      typeof card.name === 'string' &&
      typeof card.price === 'number' &&
      typeof card.availability === 'string',
  );
  return cards.length > 0 ? cards.slice(0, CHAT_CARDS_MAX) : undefined;
}
