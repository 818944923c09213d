// What Meta's webhook tells the shop (issue 37, decision 0088): shoppers' messages, kept once by
// their wamid however often Meta retries, with STOP and START; and the statuses of what the shop
// sent (sent → delivered → read, or failed), recorded on the message and on the order update's
// outbox row. A failed order update is texted instead, once: the row moves to SMS in the same
// UPDATE that finds it still on WhatsApp, so a retried `failed` finds nothing more to do.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  isStart,
  isStop,
  shopNumber,
  WHATSAPP_STATUSES,
  WHATSAPP_TEXT,
  WHATSAPP_TEXT_MAX,
  type WhatsAppAssistantMode,
  type WhatsAppStatus,
} from '#core/whatsapp.ts';
import type { Db } from '#db/client.ts';
import { smsNotifications, whatsappContacts, whatsappMessages } from '#db/schema/index.ts';
import type { Context } from '../context.ts';
import { type DeskActor, recordDeskWrite } from './desk-record.ts';
import { settingsWrites } from './shop-settings.ts';
import { deliverLater, fallBackToSms, type Texting, type TextingLater } from './sms-service.ts';
import type { WhatsApp } from './whatsapp/cloud-api.ts';

export type Inbound = {
  wamid: string;
  phone: string;
  name: string | null;
  type: string;
  body: string;
};
type StatusEvent = {
  wamid: string;
  status: WhatsAppStatus;
  error: string | null;
  billable: boolean | null;
  category: string | null;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const words = (value: unknown, max: number) =>
  typeof value === 'string' ? value.replaceAll('\0', '').slice(0, max) : null;

/** What a message says, whatever its type (a button's or a list's title; others by their type). */
function bodyOf(message: Record<string, unknown>): string {
  const type = String(message.type ?? 'unknown');
  const part = isObject(message[type]) ? message[type] : {};
  const reply = isObject(part.button_reply) ? part.button_reply : part.list_reply;
  const said =
    words(part.body, WHATSAPP_TEXT_MAX) ??
    words(part.text, WHATSAPP_TEXT_MAX) ??
    (isObject(reply) ? words(reply.title, WHATSAPP_TEXT_MAX) : null) ??
    words(part.caption, WHATSAPP_TEXT_MAX);
  return said?.trim() || `[${type.slice(0, 20)}]`;
}

/** The messages and statuses in one webhook's body (anything unexpected is skipped). */
export function webhookEvents(payload: unknown): { inbound: Inbound[]; statuses: StatusEvent[] } {
  const inbound: Inbound[] = [];
  const statuses: StatusEvent[] = [];
  const changes = list(isObject(payload) ? payload.entry : null).flatMap((entry) =>
    list(isObject(entry) ? entry.changes : null),
  );
  for (const change of changes) {
    const value = isObject(change) && isObject(change.value) ? change.value : {};
    const names = new Map<string, string>();
    for (const contact of list(value.contacts)) {
      if (!isObject(contact) || typeof contact.wa_id !== 'string') continue;
      const profile = isObject(contact.profile) ? contact.profile : {};
      const name = words(profile.name, 80);
      if (name) names.set(contact.wa_id, name);
    }
    for (const message of list(value.messages)) {
      if (!isObject(message) || typeof message.id !== 'string') continue;
      if (typeof message.from !== 'string' || !/^\d{8,15}$/.test(message.from)) continue;
      inbound.push({
        wamid: message.id.slice(0, 200),
        phone: shopNumber(message.from),
        name: names.get(message.from) ?? null,
        type: String(message.type ?? 'unknown').slice(0, 20),
        body: bodyOf(message),
      });
    }
    for (const status of list(value.statuses)) {
      if (!isObject(status) || typeof status.id !== 'string') continue;
      const state = WHATSAPP_STATUSES.find((known) => known === status.status);
      if (!state) continue;
      const pricing = isObject(status.pricing) ? status.pricing : {};
      const [error] = list(status.errors);
      statuses.push({
        wamid: status.id.slice(0, 200),
        status: state,
        error: isObject(error)
          ? [error.code, error.title ?? error.message].filter(Boolean).join(' ').slice(0, 200)
          : null,
        billable: typeof pricing.billable === 'boolean' ? pricing.billable : null,
        category: words(pricing.category, 40),
      });
    }
  }
  return { inbound, statuses };
}

/** The statuses' order: one only replaces an earlier one (a late `delivered` never undoes `read`). */
const RANK = sql.raw(`array['sent', 'failed', 'delivered', 'read']`);
const laterThan = (column: unknown, status: WhatsAppStatus) =>
  sql`coalesce(array_position(${RANK}, ${column}), 0) < array_position(${RANK}, ${status}::text)`;

/**
 * What Meta's webhook brought: messages stored once, statuses recorded, fallbacks queued.
 * Answers the messages new to the shop that someone should answer (the assistant, or staff).
 */
export async function receiveWhatsApp(
  ctx: Context & { whatsapp: WhatsApp },
  payload: unknown,
): Promise<Inbound[]> {
  const { inbound, statuses } = webhookEvents(payload);
  const fresh: Inbound[] = [];
  for (const message of inbound) if (await receiveMessage(ctx, message)) fresh.push(message);
  for (const event of statuses) await recordStatus(ctx, event);
  return fresh;
}

/** Keeps one message; answers whether it is new and for the assistant (not STOP, not START). */
async function receiveMessage(
  ctx: Context & { whatsapp: WhatsApp },
  message: Inbound,
): Promise<boolean> {
  const [stored] = await ctx.db
    .insert(whatsappMessages)
    .values({
      wamid: message.wamid,
      phone: message.phone,
      direction: 'in',
      type: message.type,
      body: message.body,
      status: 'received',
    })
    .onConflictDoNothing()
    .returning({ id: whatsappMessages.id });
  if (!stored) return false; // Meta's retry of a message already kept
  await ctx.db
    .insert(whatsappContacts)
    .values({ phone: message.phone, name: message.name, lastInboundAt: sql`now()` })
    .onConflictDoUpdate({
      target: whatsappContacts.phone,
      set: {
        name: sql`coalesce(excluded.name, ${whatsappContacts.name})`,
        lastInboundAt: sql`now()`,
      },
    });
  // STOP and START: acknowledged once each, when they change something.
  const [changed] = isStop(message.body)
    ? await ctx.db
        .update(whatsappContacts)
        .set({ stoppedAt: sql`now()` })
        .where(and(eq(whatsappContacts.phone, message.phone), isNull(whatsappContacts.stoppedAt)))
        .returning({ phone: whatsappContacts.phone })
    : isStart(message.body)
      ? await ctx.db
          .update(whatsappContacts)
          .set({ stoppedAt: null })
          .where(
            and(eq(whatsappContacts.phone, message.phone), isNotNull(whatsappContacts.stoppedAt)),
          )
          .returning({ phone: whatsappContacts.phone })
      : [];
  if (changed) {
    const stopped = isStop(message.body);
    await sendText(
      ctx,
      message.phone,
      stopped ? WHATSAPP_TEXT.stopped : WHATSAPP_TEXT.started,
      null,
    );
    return false;
  }
  return !isStop(message.body) && !isStart(message.body);
}

async function recordStatus(ctx: TextingLater, event: StatusEvent): Promise<void> {
  await ctx.db.batch([
    ctx.db
      .update(whatsappMessages)
      .set({
        status: sql`case when ${laterThan(whatsappMessages.status, event.status)}
          then ${event.status} else ${whatsappMessages.status} end`,
        error: event.error ?? sql`${whatsappMessages.error}`,
        billable: event.billable ?? sql`${whatsappMessages.billable}`,
        pricingCategory: event.category ?? sql`${whatsappMessages.pricingCategory}`,
      })
      .where(eq(whatsappMessages.wamid, event.wamid)),
    ctx.db
      .update(smsNotifications)
      .set({ whatsappStatus: event.status })
      .where(
        and(
          eq(smsNotifications.whatsappMessageId, event.wamid),
          laterThan(smsNotifications.whatsappStatus, event.status),
        ),
      ),
  ]);
  if (event.status !== 'failed') return;
  const fellBack = await ctx.db
    .update(smsNotifications)
    .set(fallBackToSms(WHATSAPP_TEXT.fallbackFailed(event.error ?? 'no reason given')))
    .where(
      and(
        eq(smsNotifications.whatsappMessageId, event.wamid),
        eq(smsNotifications.channel, 'whatsapp'),
        eq(smsNotifications.whatsappStatus, 'failed'),
      ),
    )
    .returning({ id: smsNotifications.id });
  deliverLater(
    ctx,
    fellBack.map((row) => row.id),
  );
}

/**
 * Free text to a number inside its 24-hour window, kept in its thread with who wrote it (null:
 * the shop itself). Answers Meta's refusal, if any.
 */
export async function sendText(
  ctx: Texting & { whatsapp: WhatsApp },
  phone: string,
  text: string,
  sentBy: string | null,
  byAssistant = false,
): Promise<{ ok: true } | { ok: false; error: string; code: number | null }> {
  const result = await ctx.whatsapp.api.send({ to: phone, text });
  await ctx.db.insert(whatsappMessages).values({
    wamid: result.ok ? result.messageId : null,
    phone,
    direction: 'out',
    type: 'text',
    body: text,
    status: result.ok ? 'sent' : 'failed',
    error: result.ok ? null : result.error,
    sentBy,
    byAssistant,
  });
  return result.ok ? { ok: true } : result;
}

/** What the shop sent on WhatsApp per Kampala month and Meta's pricing category, newest first:
 * how many Meta bills (its per-message pricing, from the status webhooks) and how many were free.
 * A query, to put in the desk's batch. */
export function whatsAppUsageQuery(db: Db, months = 6) {
  const month = sql<string>`to_char(${whatsappMessages.createdAt} at time zone 'Africa/Kampala', 'YYYY-MM')`;
  return db
    .select({
      month,
      category: sql<string>`coalesce(${whatsappMessages.pricingCategory}, 'unpriced')`,
      billable: sql<number>`(count(*) filter (where ${whatsappMessages.billable}))::int`.mapWith(
        Number,
      ),
      free: sql<number>`(count(*) filter (where not coalesce(${whatsappMessages.billable}, false)))::int`.mapWith(
        Number,
      ),
    })
    .from(whatsappMessages)
    .where(
      and(
        eq(whatsappMessages.direction, 'out'),
        sql`${whatsappMessages.createdAt} >= date_trunc('month', now() at time zone 'Africa/Kampala') at time zone 'Africa/Kampala' - make_interval(months => ${months - 1})`,
      ),
    )
    .groupBy(month, sql`2`)
    .orderBy(sql`1 desc`, sql`2`);
}

/** The desk sets when the assistant answers WhatsApp; recorded in the same batch. */
export async function setWhatsAppAssistant(db: Db, actor: DeskActor, mode: WhatsAppAssistantMode) {
  await db.batch([
    recordDeskWrite(db, actor, {
      action: 'settings.saved',
      subject: 'WhatsApp assistant',
      details: { changed: ['whatsappAssistant'], mode },
    }),
    ...settingsWrites(
      db,
      ['whatsappAssistant'],
      { whatsappAssistant: mode === 'off' ? null : mode },
      '',
    ),
  ]);
  return { mode };
}
