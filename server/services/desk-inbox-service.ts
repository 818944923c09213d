// The staff's WhatsApp inbox (issue 37): the threads (one per number, newest first, with what is
// unread), a thread with the shopper's account, cart and recent orders beside it, and what staff
// send inside the 24-hour window: a reply, a piece's card, a cart link.
//
// Sending is claimed before it is sent: ONE batch writes the message ('sending', with who wrote it),
// hands the thread to staff (the assistant on WhatsApp stays out of it for 24 hours) and writes
// its desk record (keyed by the page's request key, so a double tap or a retry sends once),
// then the Cloud API is called, then the message gets Meta's id and 'sent', or 'failed' with
// Meta's reason. A number outside its window, or that sent STOP, is refused before anything is
// written or sent: the shop never even asks Meta (which would refuse with 131047).
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { cartLinkPath } from '#core/cart-link.ts';
import {
  cartLinkMessage,
  INBOX_THREADS,
  pieceCaption,
  THREAD_MESSAGES,
  THREAD_ORDERS,
  UNREAD_CAP,
  whatsAppPicture,
} from '#core/desk-inbox.ts';
import { HANDED_OVER_S, WHATSAPP_TEXT, WHATSAPP_WINDOW_S } from '#core/whatsapp.ts';
import type { Db } from '#db/client.ts';
import {
  orders,
  products,
  productVariants,
  profiles,
  user,
  whatsappContacts,
  whatsappMessages,
} from '#db/schema/index.ts';
import type { Context } from '../context.ts';
import type { Refused } from '../shopper-error.ts';
import { readCart, toCart } from './cart-service.ts';
import {
  type DeskActor,
  earlierAnswerQuery,
  isRepeatedKey,
  type KeyOwner,
  recordDeskWrite,
  replayOf,
} from './desk-record.ts';
import type { WhatsApp, WhatsAppMessage } from './whatsapp/cloud-api.ts';

/** ISO time of a timestamp a raw statement read (PGlite and PostgreSQL alike). */
const isoSql = (column: ReturnType<typeof sql>) =>
  sql<string>`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type ThreadRow = {
  phone: string;
  name: string | null;
  last_at: string;
  body: string;
  direction: 'in' | 'out';
  type: string;
  status: string;
  unread: number | string;
  account_id: string | null;
  account_name: string | null;
  account_email: string | null;
  waiting: boolean;
};

/**
 * The shopper asked for a person (the assistant handed the thread over, within 24 hours) and no
 * staff member has written since: `c` is the contact. A staff message hands the thread over too,
 * in the same transaction, so it is never earlier than handed_over_at.
 */
const waitingSql = sql<boolean>`coalesce(c.handed_over_at > now() - make_interval(secs => ${HANDED_OVER_S})
  and not exists (select 1 from whatsapp_messages s where s.phone = c.phone
                  and s.sent_by is not null and s.created_at >= c.handed_over_at), false)`;

/**
 * The inbox: one thread per number that has a message, the newest message first, at most
 * INBOX_THREADS, in ONE statement. `unread`: the shopper's messages after the contact's read_at
 * (counted up to UNREAD_CAP + 1); `customer`: the account whose profile has the number (the
 * oldest, as the desk's phone orders find it), or null.
 */
export async function inboxThreads(db: Db) {
  const result = await db.execute<ThreadRow>(sql`
    with latest as (
      select m.phone, max(m.created_at) as last_at
      from whatsapp_messages m
      group by m.phone
      order by last_at desc, m.phone
      limit ${INBOX_THREADS}
    ),
    accounts as (
      select distinct on (p.phone) p.phone, u.id, coalesce(p.full_name, u.name) as name, u.email
      from profiles p join "user" u on u.id = p.id
      where p.phone in (select phone from latest)
      order by p.phone, u.created_at, u.id
    )
    select l.phone, c.name, ${isoSql(sql`l.last_at`)} as last_at, ${waitingSql} as waiting,
           m.body, m.direction, m.type, m.status,
           (select count(*) from (
              select 1 from whatsapp_messages i
              where i.phone = l.phone and i.direction = 'in'
                and i.created_at > coalesce(c.read_at, '-infinity'::timestamptz)
              limit ${UNREAD_CAP + 1}) unread)::int as unread,
           a.id as account_id, a.name as account_name, a.email as account_email
    from latest l
    left join whatsapp_contacts c on c.phone = l.phone
    cross join lateral (
      select body, direction, type, status from whatsapp_messages n
      where n.phone = l.phone
      order by n.created_at desc, n.id desc
      limit 1
    ) m
    left join accounts a on a.phone = l.phone
    order by l.last_at desc, l.phone`);
  return {
    threads: result.rows.map((row) => ({
      phone: row.phone,
      name: row.name,
      lastMessage: {
        direction: row.direction,
        type: row.type,
        body: row.body,
        status: row.status,
      },
      lastAt: row.last_at,
      unread: Number(row.unread),
      asksForPerson: Boolean(row.waiting),
      customer: row.account_id
        ? { id: row.account_id, name: row.account_name ?? '', email: row.account_email ?? '' }
        : null,
    })),
  };
}

/** The account whose profile has this number (the oldest if several), as SQL for a statement. */
const accountIdSql = (phone: string) => sql`(
  select p.id from profiles p join "user" u on u.id = p.id
  where p.phone = ${phone} order by u.created_at, u.id limit 1)`;

/**
 * A thread: the contact (its name, STOP, and the 24-hour window: open while the shopper's last
 * message is younger than 24 hours, until last_inbound_at + 24 h), its newest THREAD_MESSAGES
 * messages oldest first (each kept once by its wamid), and when the number is an account's, the
 * account, its cart and its recent orders. One batch. A number with no message reads as an empty
 * thread (nothing to read, nothing to reply to).
 */
export async function threadOf(db: Db, phone: string) {
  const account = accountIdSql(phone);
  const [contacts, newest, accounts, cartLines, recent] = await db.batch([
    db
      .select({
        name: whatsappContacts.name,
        stoppedAt: whatsappContacts.stoppedAt,
        readAt: whatsappContacts.readAt,
        windowUntil: sql<string | null>`${isoSql(
          sql`${whatsappContacts.lastInboundAt} + make_interval(secs => ${WHATSAPP_WINDOW_S})`,
        )}`,
        windowOpen: sql<boolean>`coalesce(${whatsappContacts.lastInboundAt} > now() - make_interval(secs => ${WHATSAPP_WINDOW_S}), false)`,
        asksForPerson: sql<boolean>`(select ${waitingSql} from whatsapp_contacts c
          where c.phone = ${phone})`,
      })
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, phone)),
    db
      .select({
        id: whatsappMessages.id,
        byAssistant: whatsappMessages.byAssistant,
        direction: whatsappMessages.direction,
        type: whatsappMessages.type,
        body: whatsappMessages.body,
        status: whatsappMessages.status,
        error: whatsappMessages.error,
        createdAt: whatsappMessages.createdAt,
        // Spelled out: inside a sub-select drizzle would leave the outer column unqualified.
        sentBy: sql<string | null>`(select s.name from "user" s
          where s.id = "whatsapp_messages"."sent_by")`,
      })
      .from(whatsappMessages)
      .where(eq(whatsappMessages.phone, phone))
      .orderBy(desc(whatsappMessages.createdAt), desc(whatsappMessages.id))
      .limit(THREAD_MESSAGES),
    db
      .select({
        id: user.id,
        name: sql<string>`coalesce(${profiles.fullName}, ${user.name})`,
        email: user.email,
      })
      .from(user)
      .innerJoin(profiles, eq(profiles.id, user.id))
      .where(eq(user.id, account)),
    readCart(db, account),
    db
      .select({
        id: orders.id,
        createdAt: orders.createdAt,
        status: orders.status,
        total: orders.total,
        paymentMethod: orders.paymentMethod,
        /** A payment confirmed (the provider's, or marked by staff): what a chat often waits on. */
        paid: sql<boolean>`exists (select 1 from payments p
          where p.order_id = "orders"."id" and p.status = 'successful')`,
        pieces: sql<number>`(select coalesce(sum(oi.quantity), 0)::int from order_items oi
          where oi.order_id = "orders"."id")`.mapWith(Number),
      })
      .from(orders)
      .where(eq(orders.customerId, account))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(THREAD_ORDERS),
  ]);
  const [contact] = contacts;
  const [customer] = accounts;
  return {
    phone,
    contact: {
      name: contact?.name ?? null,
      stopped: Boolean(contact?.stoppedAt),
      windowOpen: Boolean(contact?.windowOpen),
      windowUntil: contact?.windowUntil ?? null,
      readAt: contact?.readAt ? contact.readAt.toISOString() : null,
      asksForPerson: Boolean(contact?.asksForPerson),
    },
    messages: newest.reverse().map((message) => ({
      id: message.id,
      direction: message.direction as 'in' | 'out',
      type: message.type,
      body: message.body,
      status: message.status,
      error: message.error,
      createdAt: message.createdAt.toISOString(),
      // Outbound: the staff member who wrote it, else the assistant, else the shop's own (an
      // order update, an acknowledgement of STOP); inbound: the shopper.
      sentBy:
        message.direction === 'out'
          ? (message.sentBy ??
            (message.byAssistant ? WHATSAPP_TEXT.sentByAssistant : WHATSAPP_TEXT.sentByShop))
          : null,
    })),
    customer: customer
      ? {
          ...customer,
          cart: toCart(cartLines),
          orders: recent.map((order) => ({
            ...order,
            createdAt: order.createdAt.toISOString(),
          })),
        }
      : null,
  };
}

/** Staff have read the thread (read_at = now): its unread count is 0 until she writes again. */
export async function readThread(db: Db, phone: string): Promise<{ read: boolean }> {
  const marked = await db
    .update(whatsappContacts)
    .set({ readAt: sql`now()` })
    .where(eq(whatsappContacts.phone, phone))
    .returning({ phone: whatsappContacts.phone });
  return { read: marked.length > 0 };
}

export type SendProblem = 'not-configured' | 'stopped' | 'outside-window' | 'piece-unavailable';
export type SendRefused = Refused<SendProblem> | (Refused<'refused'> & { reason: string });
export type Sent = { ok: true; messageId: string; status: string };

type SendParts = Pick<Context, 'db' | 'payments'> & { sms: { whatsapp?: WhatsApp | null } };
type Staff = { id: string; email: string };

/** What is sent: the Cloud API's message, and the thread's copy of it. */
type Outgoing = {
  message: WhatsAppMessage;
  type: 'text' | 'image';
  body: string;
  /** The desk record's action: 'whatsapp.replied', 'whatsapp.piece-sent', … */
  action: string;
  details?: Record<string, unknown>;
};

/** The contact's state for a send, and an earlier send under the same key, in one batch. */
function sendChecks(db: Db, phone: string, key: string | undefined) {
  return [
    db
      .select({
        stopped: sql<boolean>`${whatsappContacts.stoppedAt} is not null`,
        windowOpen: sql<boolean>`coalesce(${whatsappContacts.lastInboundAt} > now() - make_interval(secs => ${WHATSAPP_WINDOW_S}), false)`,
      })
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, phone)),
    earlierAnswerQuery(db, key),
  ] as const;
}

/** Why nothing may be sent to this number now, or null. */
function windowProblem(
  contact: { stopped: boolean; windowOpen: boolean } | undefined,
): Refused<SendProblem> | null {
  if (contact?.stopped) return { ok: false, problem: 'stopped' };
  if (!contact?.windowOpen) return { ok: false, problem: 'outside-window' };
  return null;
}

/** An earlier send under this key (a retry, a double tap): its message as it is now. */
async function replayed(db: Db, details: Record<string, unknown>): Promise<Sent> {
  const messageId = String(details.messageId ?? '');
  const [row] = await db
    .select({ status: whatsappMessages.status })
    .from(whatsappMessages)
    .where(eq(whatsappMessages.id, messageId));
  return { ok: true, messageId, status: row?.status ?? 'sent' };
}

/**
 * Sends one message from the desk to `phone`, inside its window, recorded as `staff`'s. The
 * checks and the key are read in one batch; the claim (the message 'sending' and its desk record)
 * is one batch; then the Cloud API; then the outcome. Meta's refusal is kept on the message
 * (failed, with the reason) and answered as `refused`.
 */
async function sendFromDesk(
  ctx: SendParts,
  staff: Staff,
  input: { phone: string; requestKey?: string },
  checked: { contact: { stopped: boolean; windowOpen: boolean } | undefined; earlier: unknown },
  outgoing: Outgoing,
): Promise<Sent | SendRefused> {
  const whatsapp = ctx.sms.whatsapp;
  if (!whatsapp) return { ok: false, problem: 'not-configured' };
  const owner: KeyOwner = {
    actor: staff,
    action: outgoing.action,
    about: (details) => details.phone === input.phone,
  };
  const earlier = replayOf(checked.earlier as Parameters<typeof replayOf>[0], owner);
  if (earlier) return replayed(ctx.db, earlier);
  const refused = windowProblem(checked.contact);
  if (refused) return refused;
  const messageId = crypto.randomUUID();
  const actor: DeskActor = { email: staff.email };
  try {
    await ctx.db.batch([
      ctx.db.insert(whatsappMessages).values({
        id: messageId,
        phone: input.phone,
        direction: 'out',
        type: outgoing.type,
        body: outgoing.body,
        status: 'sending',
        sentBy: staff.id,
      }),
      // Staff are answering: the assistant leaves the thread to them for 24 hours.
      ctx.db
        .update(whatsappContacts)
        .set({ handedOverAt: sql`now()` })
        .where(eq(whatsappContacts.phone, input.phone)),
      recordDeskWrite(ctx.db, actor, {
        action: outgoing.action,
        subject: `WhatsApp ${input.phone}`,
        requestKey: input.requestKey,
        details: {
          phone: input.phone,
          messageId,
          type: outgoing.type,
          text: outgoing.body.slice(0, 300),
          ...outgoing.details,
        },
      }),
    ]);
  } catch (error) {
    if (!input.requestKey || !isRepeatedKey(error)) throw error;
    // The same key's first send won the race: its answer.
    const [first] = await earlierAnswerQuery(ctx.db, input.requestKey);
    return replayed(ctx.db, replayOf(first, owner) ?? {});
  }
  const result = await whatsapp.api.send(outgoing.message);
  await ctx.db
    .update(whatsappMessages)
    .set(
      result.ok
        ? {
            wamid: result.messageId,
            // A status webhook may have come first (it finds the row by its id only once set).
            status: sql`case when ${whatsappMessages.status} = 'sending' then 'sent'
              else ${whatsappMessages.status} end`,
          }
        : { status: 'failed', error: result.error },
    )
    .where(eq(whatsappMessages.id, messageId));
  if (!result.ok) return { ok: false, problem: 'refused', reason: result.error };
  return { ok: true, messageId, status: 'sent' };
}

/** A staff member's free-text reply inside the window. */
export async function replyToShopper(
  ctx: SendParts,
  staff: Staff,
  input: { phone: string; text: string; requestKey?: string },
): Promise<Sent | SendRefused> {
  if (!ctx.sms.whatsapp) return { ok: false, problem: 'not-configured' };
  const [[contact], [earlier]] = await ctx.db.batch(
    sendChecks(ctx.db, input.phone, input.requestKey),
  );
  return sendFromDesk(
    ctx,
    staff,
    input,
    { contact, earlier },
    {
      message: { to: input.phone, text: input.text },
      type: 'text',
      body: input.text,
      action: 'whatsapp.replied',
    },
  );
}

/** The shop's origin for links in a message (BETTER_AUTH_URL, as the texts' links). */
const originOf = (ctx: Pick<Context, 'payments'>) =>
  ctx.payments.callbackOrigin.replace(/\/+$/, '');

/**
 * A piece's card: its picture with its name, price in UGX and page as the caption (as text when
 * it has no picture WhatsApp shows). Only a published piece; `variantId` must be the product's.
 */
export async function sendPiece(
  ctx: SendParts,
  staff: Staff,
  input: { phone: string; productId: number; variantId?: number; requestKey?: string },
): Promise<Sent | SendRefused> {
  if (!ctx.sms.whatsapp) return { ok: false, problem: 'not-configured' };
  const [[contact], [earlier], pieces] = await ctx.db.batch([
    ...sendChecks(ctx.db, input.phone, input.requestKey),
    ctx.db
      .select({
        name: products.productName,
        slug: products.slug,
        variantId: productVariants.id,
        label: productVariants.label,
        price: sql<number>`coalesce(${productVariants.price}, ${products.price})`.mapWith(Number),
        // The first of its pictures, else the product's own (the older column).
        picture: sql<string | null>`coalesce((select pi.url from product_images pi
          where pi.product_id = "products"."id" order by pi.position, pi.id limit 1),
          "products"."product_image")`,
      })
      .from(products)
      .innerJoin(productVariants, eq(productVariants.productId, products.id))
      .where(
        and(
          eq(products.id, input.productId),
          eq(products.status, 'published'),
          input.variantId === undefined ? undefined : eq(productVariants.id, input.variantId),
        ),
      )
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
  ]);
  // A piece in several sizes without one chosen: its card names no size, at the piece's price.
  const [piece] = pieces;
  if (!piece) return { ok: false, problem: 'piece-unavailable' };
  const origin = originOf(ctx);
  const several = input.variantId === undefined && pieces.length > 1;
  const link = several
    ? `${origin}/products/${encodeURIComponent(piece.slug)}`
    : `${origin}/products/${encodeURIComponent(piece.slug)}?variant=${piece.variantId}`;
  const caption = pieceCaption({
    name: piece.name,
    label: several ? '' : piece.label,
    price: several ? Math.min(...pieces.map((p) => p.price)) : piece.price,
    link,
  });
  const picture = whatsAppPicture(piece.picture);
  return sendFromDesk(
    ctx,
    staff,
    input,
    { contact, earlier },
    {
      message: picture
        ? { to: input.phone, image: { link: new URL(picture, `${origin}/`).href, caption } }
        : { to: input.phone, text: caption },
      type: picture ? 'image' : 'text',
      body: caption,
      action: 'whatsapp.piece-sent',
      details: { productId: input.productId, variantId: several ? null : piece.variantId },
    },
  );
}

/**
 * A cart link: the pieces named, then the shop's absolute /cart?add=… link that puts them in her
 * cart. Every piece must be on sale now.
 */
export async function sendCartLink(
  ctx: SendParts,
  staff: Staff,
  input: {
    phone: string;
    items: { variantId: number; quantity: number }[];
    requestKey?: string;
  },
): Promise<Sent | SendRefused> {
  if (!ctx.sms.whatsapp) return { ok: false, problem: 'not-configured' };
  const ids = input.items.map((item) => item.variantId);
  const [[contact], [earlier], found] = await ctx.db.batch([
    ...sendChecks(ctx.db, input.phone, input.requestKey),
    ctx.db
      .select({
        variantId: productVariants.id,
        name: products.productName,
        label: productVariants.label,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(
        and(
          sql`${productVariants.id} = any(${sql.param(ids)}::int[])`,
          eq(products.status, 'published'),
        ),
      ),
  ]);
  const lines = input.items.map((item) => {
    const piece = found.find((row) => row.variantId === item.variantId);
    return piece ? { ...piece, quantity: item.quantity } : null;
  });
  if (lines.some((line) => line === null)) return { ok: false, problem: 'piece-unavailable' };
  const named = lines.filter((line) => line !== null);
  const link = `${originOf(ctx)}${cartLinkPath(input.items)}`;
  const text = cartLinkMessage(named, link);
  return sendFromDesk(
    ctx,
    staff,
    input,
    { contact, earlier },
    {
      message: { to: input.phone, text },
      type: 'text',
      body: text,
      action: 'whatsapp.cart-link-sent',
      details: { items: input.items },
    },
  );
}
