// Promotional texts on the desk (issue 35, decision 0085): a campaign picks an offer and an
// audience (every shopper who switched Promotions on and has a phone, optionally only those who
// bought from a category), shows the count and the cost, and is sent as ONE statement that writes
// the campaign, its record and one outbox row per number. The rows wait `pending` for the SMS
// sweep, which sends order texts before them at EgoSMS's pace (sms-service.ts `sweepSms`).
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type CampaignAudience, SMS_PART_COST_UGX } from '#core/campaign-rules.ts';
import { SMS_MAX_CHARS, SMS_TEXT, smsSegments } from '#core/sms.ts';
import {
  SAMPLE_STOP_TOKEN,
  STOP_TOKEN_ALPHABET,
  STOP_TOKEN_LENGTH,
  stopLink,
} from '#core/stop-link.ts';
import type { Db } from '#db/client.ts';
import { campaigns, categories, promotions } from '#db/schema/index.ts';
import type { Context } from '../context.ts';
import type { Answer } from '../shopper-error.ts';
import { type DeskActor, recordDeskWrite } from './desk-record.ts';
import { liveOffersQuery } from './offers-service.ts';
import { SETTING_KEYS, settingsQuery, settingsWrites, storedFrom } from './shop-settings.ts';

/** What a campaign takes: the database, and the shop's origin for the stop link. */
export type CampaignParts = Pick<Context, 'db' | 'payments'>;

export type CampaignProblem = 'offer-not-found' | 'category-not-found' | 'too-long' | 'nobody';
export type CampaignRefused =
  | { ok: false; problem: Exclude<CampaignProblem, 'too-long'> }
  | { ok: false; problem: 'too-long'; room: number };

/**
 * A new stop token for a row of user_settings (`us`) that has none: each character its own
 * random() call, so every row gets its own (a subquery would be evaluated once for all).
 */
export const newStopTokenSql = sql.raw(
  Array.from(
    { length: STOP_TOKEN_LENGTH },
    () =>
      `substr('${STOP_TOKEN_ALPHABET}', 1 + floor(random() * ${STOP_TOKEN_ALPHABET.length})::int, 1)`,
  ).join(' || '),
);

/**
 * The shoppers a campaign reaches: Promotions on (no settings row: never), a phone, one row per
 * number (two accounts sharing a phone get one text), optionally only those with an order of a
 * piece in the category that was not cancelled.
 */
function audienceSql(categoryId: number | null | undefined): SQL {
  const bought =
    categoryId == null
      ? sql``
      : sql`and exists (
          select 1 from orders o
          join order_items oi on oi.order_id = o.id
          join product_categories pc on pc.product_id = oi.product_id
          where o.customer_id = us.user_id and o.status <> 'cancelled'
            and pc.category_id = ${categoryId})`;
  return sql`select distinct on (p.phone) us.user_id, p.phone
    from user_settings us join profiles p on p.id = us.user_id
    where us.marketing_notifications and p.phone is not null ${bought}
    order by p.phone, us.user_id`;
}

/** An offer a campaign may announce: on, not ended, not used up (one not yet started may be:
 * "this weekend"). The same rule as liveOffersQuery, and the send's statement checks it again. */
const liveOffer = sql`${promotions.active}
  and (${promotions.endsAt} is null or ${promotions.endsAt} > now())
  and (${promotions.usageLimit} is null or ${promotions.used} < ${promotions.usageLimit})`;

/** The offer (live: on, not ended, not used up) and whether the category exists, in one batch. */
async function offerAndCategory(db: Db, promotionId: number, categoryId?: number | null) {
  const [offers, found] = await db.batch([
    db
      .select()
      .from(promotions)
      .where(and(eq(promotions.id, promotionId), liveOffer)),
    db
      .select({ id: categories.id })
      .from(categories)
      .where(categoryId == null ? sql`false` : eq(categories.id, categoryId)),
  ]);
  const offer = offers[0];
  return { offer, categoryFound: categoryId == null || found.length > 0 };
}

/** The text as its shopper gets it, but for the token: the text ends with it. */
function textBefore(origin: string, message: string, code: string | null) {
  const sample = SMS_TEXT.promotional({
    message,
    code,
    stopLink: stopLink(origin, SAMPLE_STOP_TOKEN),
  });
  return sample.slice(0, sample.length - SAMPLE_STOP_TOKEN.length);
}

/** The characters a message may take beside this code and link. */
function roomFor(origin: string, code: string | null): number {
  const empty = SMS_TEXT.promotional({
    message: '',
    code,
    stopLink: stopLink(origin, SAMPLE_STOP_TOKEN),
  });
  return SMS_MAX_CHARS - empty.length;
}

const costOf = (count: number, text: string) =>
  count * smsSegments(text).segments * SMS_PART_COST_UGX;

/** What the desk sees before sending: the count, the cost, the first text and the room left. */
export async function campaignAudience(
  ctx: CampaignParts,
  input: { promotionId: number; categoryId?: number | null; message?: string },
): Promise<Answer<CampaignAudience, Exclude<CampaignProblem, 'too-long' | 'nobody'>>> {
  const { offer, categoryFound } = await offerAndCategory(
    ctx.db,
    input.promotionId,
    input.categoryId,
  );
  if (!offer) return { ok: false, problem: 'offer-not-found' };
  if (!categoryFound) return { ok: false, problem: 'category-not-found' };
  const result = await ctx.db.execute<{ count: number | string }>(
    sql`select count(*)::int as count from (${audienceSql(input.categoryId)}) a`,
  );
  const count = Number(result.rows[0]?.count ?? 0);
  const origin = ctx.payments.callbackOrigin;
  const preview = SMS_TEXT.promotional({
    message: input.message?.trim() || offer.name,
    code: offer.code,
    stopLink: stopLink(origin, SAMPLE_STOP_TOKEN),
  });
  return {
    ok: true,
    count,
    cost: costOf(count, preview),
    preview,
    room: roomFor(origin, offer.code),
    code: offer.code,
    link: stopLink(origin, SAMPLE_STOP_TOKEN),
  };
}

/**
 * Sends a campaign: ONE statement gives each shopper in the audience a stop token if they have
 * none, writes the campaign and its record, and one pending outbox row per number (the unique
 * index sms_once_per_campaign_idx: never two for one number in one campaign). A second send under
 * the same request key fails on the record's key and answers the first (keyedAnswer). Nothing is
 * delivered here: the SMS sweep sends them after the order texts, 1 s apart.
 */
export async function sendCampaign(
  ctx: CampaignParts,
  actor: DeskActor,
  input: { promotionId: number; categoryId?: number | null; message: string; requestKey?: string },
): Promise<{ ok: true; id: number; queued: number } | CampaignRefused> {
  const { offer, categoryFound } = await offerAndCategory(
    ctx.db,
    input.promotionId,
    input.categoryId,
  );
  if (!offer) return { ok: false, problem: 'offer-not-found' };
  if (!categoryFound) return { ok: false, problem: 'category-not-found' };
  const origin = ctx.payments.callbackOrigin;
  const room = roomFor(origin, offer.code);
  if (input.message.length > room) return { ok: false, problem: 'too-long', room };
  const before = textBefore(origin, input.message, offer.code);
  const cost = costOf(1, `${before}${SAMPLE_STOP_TOKEN}`);
  const audience = { categoryId: input.categoryId ?? null };
  const result = await ctx.db.execute<{ id: number | string | null; queued: number | string }>(sql`
    with offer as (
      select id from promotions
      where id = ${offer.id} and code is not distinct from ${offer.code} and active
        and (ends_at is null or ends_at > now()) and (usage_limit is null or used < usage_limit)
    ),
    audience as (${audienceSql(input.categoryId)}),
    tokens as (
      update user_settings us set stop_token = coalesce(us.stop_token, ${newStopTokenSql})
      from audience a where us.user_id = a.user_id and exists (select 1 from offer)
      returning us.user_id, us.stop_token
    ),
    campaign as (
      insert into campaigns (promotion_id, message, audience, recipients, cost, actor)
      select offer.id, ${input.message}, ${JSON.stringify(audience)}::jsonb, n.count,
             n.count * ${cost}, ${actor.email}
      from offer, (select count(*)::int as count from tokens) n
      where n.count > 0
      returning id, recipients
    ),
    recorded as (
      insert into desk_records (actor_email, action, subject, details, request_key)
      select ${actor.email}, 'campaign.sent', ${`Campaign: ${offer.name}`},
             jsonb_build_object('id', c.id, 'queued', c.recipients, 'promotionId', ${offer.id}::int,
                                'categoryId', ${input.categoryId ?? null}::int),
             ${input.requestKey ?? null}::uuid
      from campaign c
    ),
    texts as (
      insert into sms_notifications (recipient_phone, recipient_type, kind, message_content,
                                     status, campaign_id)
      select a.phone, 'customer', 'promotional', ${before} || t.stop_token, 'pending', c.id
      from audience a join tokens t on t.user_id = a.user_id cross join campaign c
      on conflict do nothing
      returning id
    )
    select (select id from campaign) as id, (select count(*)::int from texts) as queued`);
  const row = result.rows[0];
  if (!row || row.id === null) {
    return { ok: false, problem: 'nobody' };
  }
  return { ok: true, id: Number(row.id), queued: Number(row.queued) };
}

/** The desk's page: the campaigns sent (newest first), the live offers, the categories, the switch. */
export async function deskCampaigns(db: Db) {
  const [sent, offers, shopCategories, settingRows] = await db.batch([
    db
      .select({
        id: campaigns.id,
        message: campaigns.message,
        recipients: campaigns.recipients,
        cost: campaigns.cost,
        actor: campaigns.actor,
        createdAt: campaigns.createdAt,
        offer: promotions.name,
        code: promotions.code,
        categoryId: sql<number | null>`(${campaigns.audience} ->> 'categoryId')::int`,
        delivered: sql<number>`(select count(*)::int from sms_notifications s
          where s.campaign_id = ${campaigns.id} and s.status = 'sent')`,
      })
      .from(campaigns)
      .leftJoin(promotions, eq(promotions.id, campaigns.promotionId))
      .orderBy(sql`${campaigns.id} desc`)
      .limit(50),
    liveOffersQuery(db),
    db
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .orderBy(categories.position, categories.name),
    settingsQuery(db),
  ]);
  return {
    campaigns: sent.map((row) => ({
      ...row,
      delivered: Number(row.delivered),
      createdAt: new Date(row.createdAt).toISOString(),
    })),
    offers: offers.map((row) => ({ id: row.id, name: row.name, code: row.code })),
    categories: shopCategories,
    cartReminders: storedFrom(settingRows).cartReminders === true,
    costPerText: SMS_PART_COST_UGX,
  };
}

/** The desk switches the cart reminder on or off; recorded in the same batch. */
export async function setCartReminders(db: Db, actor: DeskActor, on: boolean) {
  await db.batch([
    recordDeskWrite(db, actor, {
      action: 'settings.saved',
      subject: 'Cart reminders',
      details: { changed: ['cartReminders'], on },
    }),
    ...settingsWrites(db, ['cartReminders'], { cartReminders: on ? 'on' : null }, ''),
  ]);
  return { on };
}

/** Whether the cart reminder is on (system_settings), as SQL for the sweep's statement. */
export const cartRemindersOnSql = sql`exists (select 1 from system_settings
  where setting_key = ${SETTING_KEYS.cartReminders} and setting_value = 'on')`;
