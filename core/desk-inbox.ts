// The staff's WhatsApp inbox (issue 37, /desk/inbox): the inputs of desk.inbox, desk.thread,
// desk.readThread, desk.reply, desk.sendPiece and desk.sendCartLink, the page's words, and the
// messages a piece's card and a cart link carry. The refusals shoppers' rules decide (the 24-hour
// window, STOP, not configured) are WHATSAPP_TEXT's (core/whatsapp.ts). Pure: no I/O.
import * as v from 'valibot';
import { idSchema, wholeSchema } from './bounds.ts';
import { CART_LINK_MAX_LINES } from './cart-link.ts';
import { MAX_LINE_QUANTITY } from './cart-rules.ts';
import { requestKey } from './desk-roles.ts';
import { KAMPALA_OFFSET_MS } from './kampala-time.ts';
import { formatUGX } from './money.ts';
import { normalisePhone } from './phone.ts';
import { isUploadedPhoto } from './pictures.ts';
import { typedLines } from './text.ts';
import { nameWithVariant } from './variants.ts';
import { WHATSAPP_TEXT, WHATSAPP_TEXT_MAX } from './whatsapp.ts';

/** The inbox lists the threads with the newest messages, this many at most. */
export const INBOX_THREADS = 100;
/** A thread shows its newest messages, this many at most (oldest of them first). */
export const THREAD_MESSAGES = 200;
/** A thread's unread count stops here ("99+"): past it, nobody counts. */
export const UNREAD_CAP = 99;
/** The recent orders shown beside a thread. */
export const THREAD_ORDERS = 5;

export const DESK_INBOX_TEXT = {
  title: 'Inbox',
  intro: 'WhatsApp messages from shoppers. Reply within 24 hours of their last message.',
  none: 'No WhatsApp messages yet. When a shopper writes to the shop’s number, it shows here.',
  pick: 'Choose a conversation to read it.',
  back: 'Inbox',
  badPhone: 'This WhatsApp number could not be read.',
  badInput: 'This message could not be read. Reload the page and try again.',
  badPiece: 'Choose a piece to send.',
  badItems: `Choose 1 to ${CART_LINK_MAX_LINES} pieces for the link, each with a quantity from 1 to ${MAX_LINE_QUANTITY.toLocaleString('en-US')}.`,
  twiceInLink: 'Each piece once in a cart link: change its quantity instead.',
  pieceUnavailable: 'This piece is not on sale: only published pieces can be sent.',
  you: 'You',
  shopper: 'Shopper',
  noMessages: 'No messages with this number yet.',
  windowOpen: (until: string) => `Replies are open until ${until}.`,
  reply: 'Reply',
  replyPlaceholder: 'Write a reply…',
  send: 'Send',
  sending: 'Sending…',
  sent: 'Sent',
  unread: (count: number) => (count > UNREAD_CAP ? `${UNREAD_CAP}+ unread` : `${count} unread`),
  status: {
    sending: 'Sending',
    sent: 'Sent',
    delivered: 'Delivered',
    read: 'Read',
    failed: 'Failed',
  },
  account: 'Account',
  noAccount: 'No account with this number.',
  cart: 'Cart',
  emptyCart: 'Nothing in the cart.',
  orders: 'Recent orders',
  noOrders: 'No orders yet.',
  allOrders: 'All their orders',
  tools: 'Send a piece or a cart link',
  search: 'Search the catalogue',
  noPieces: 'No piece matches.',
  sendPiece: 'Send card',
  addToLink: 'Add to link',
  link: 'Cart link',
  linkEmpty: 'Add pieces to make a link that fills her cart.',
  sendLink: 'Send cart link',
  pieceSent: (name: string) => `${name} sent.`,
  linkSent: 'Cart link sent.',
  photo: 'Photo',
  /** The shopper asked the assistant for a person and no one has answered yet. */
  asksForPerson: 'Asked for a person',
} as const;

const T = DESK_INBOX_TEXT;

/**
 * A thread's number, as the shop keeps it ('+' and 8 to 15 digits, as WhatsApp reports it): the
 * stored form, or a Ugandan number in any spelling ('0772 123456').
 */
export const threadPhone = v.pipe(
  v.string(T.badPhone),
  v.trim(),
  v.maxLength(32, T.badPhone),
  v.regex(/^\+?[\d\s().-]+$/, T.badPhone),
  v.transform((text) =>
    text.startsWith('+') ? `+${text.replace(/\D/g, '')}` : normalisePhone(text),
  ),
  v.regex(/^\+[1-9]\d{7,14}$/, T.badPhone),
);

/** The typed reply: trimmed, 1 to Meta's 4,096 characters, line breaks allowed, nothing invisible. */
export const replyText = v.pipe(
  v.string(WHATSAPP_TEXT.replyNotText),
  v.trim(),
  v.maxLength(WHATSAPP_TEXT_MAX, WHATSAPP_TEXT.replyTooLong),
  typedLines(WHATSAPP_TEXT.replyInvisible),
  v.minLength(1, WHATSAPP_TEXT.replyEmpty),
);

export const threadInput = v.strictObject({ phone: threadPhone }, T.badPhone);

/** A message staff send: with the page's key, the same message sent again is one message. */
const sending = { phone: threadPhone, requestKey: v.optional(requestKey) };

export const replyInput = v.strictObject({ ...sending, text: replyText }, T.badInput);

export const sendPieceInput = v.strictObject(
  { ...sending, productId: idSchema(T.badPiece), variantId: v.optional(idSchema(T.badPiece)) },
  T.badPiece,
);

export const sendCartLinkInput = v.strictObject(
  {
    ...sending,
    items: v.pipe(
      v.array(
        v.strictObject(
          {
            variantId: idSchema(T.badItems),
            quantity: wholeSchema(1, MAX_LINE_QUANTITY, T.badItems),
          },
          T.badItems,
        ),
        T.badItems,
      ),
      v.minLength(1, T.badItems),
      v.maxLength(CART_LINK_MAX_LINES, T.badItems),
      v.check(
        (items) => new Set(items.map((item) => item.variantId)).size === items.length,
        T.twiceInLink,
      ),
    ),
  },
  T.badItems,
);

export type ReplyInput = v.InferOutput<typeof replyInput>;
export type SendPieceInput = v.InferOutput<typeof sendPieceInput>;
export type SendCartLinkInput = v.InferOutput<typeof sendCartLinkInput>;

/** A piece's card: its name (and size), its price and its page, under its picture. */
export function pieceCaption(piece: {
  name: string;
  label: string;
  price: number;
  link: string;
}): string {
  return `${nameWithVariant(piece.name, piece.label)}\n${formatUGX(piece.price)}\n${piece.link}`;
}

/** A cart link's message: the pieces named, then the link that puts them in her cart. */
export function cartLinkMessage(
  lines: readonly { name: string; label: string; quantity: number }[],
  link: string,
): string {
  const named = lines.map((line) => `${line.quantity} × ${nameWithVariant(line.name, line.label)}`);
  return `Your duuka cart, ready to open:\n${named.join('\n')}\n\n${link}`;
}

/**
 * The picture WhatsApp can show for a piece (Meta takes JPEG and PNG by link): a JPEG or PNG as
 * stored, an uploaded photo at 800 px (served as JPEG to a fetcher that asks for no other
 * format); null for anything else (an SVG), and the card goes as text.
 */
export function whatsAppPicture(url: string | null | undefined): string | null {
  if (!url) return null;
  if (isUploadedPhoto(url)) return `${url.split('?')[0]}?w=800`;
  return /\.(jpe?g|png)$/i.test(url.split(/[?#]/)[0] ?? '') ? url : null;
}

/** '14:05, 12 Dec' in Kampala: when a message came, or until when replies are open. */
export function inboxTime(at: string | Date, now: Date | number = Date.now()): string {
  const kampala = (d: Date | number) => new Date(new Date(d).getTime() + KAMPALA_OFFSET_MS);
  const when = kampala(new Date(at));
  const today = kampala(now);
  const hh = String(when.getUTCHours()).padStart(2, '0');
  const mm = String(when.getUTCMinutes()).padStart(2, '0');
  const sameDay =
    when.getUTCFullYear() === today.getUTCFullYear() &&
    when.getUTCMonth() === today.getUTCMonth() &&
    when.getUTCDate() === today.getUTCDate();
  if (sameDay) return `${hh}:${mm}`;
  const month = MONTHS_SHORT[when.getUTCMonth()];
  return `${hh}:${mm}, ${when.getUTCDate()} ${month}`;
}

const MONTHS_SHORT = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];
