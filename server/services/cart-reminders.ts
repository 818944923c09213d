// The cart reminder (issue 35, decision 0085): one text, 24 hours after a signed-in shopper with
// Promotions on left pieces in the cart, when the desk has switched reminders on. Never twice for
// one cart (cart_reminders.sent_at: again only after the cart got a newer line), never when she
// ordered since the cart's newest line. Run by the Cron Trigger's sweep (server/scheduled.ts).
import { sql } from 'drizzle-orm';
import { CART_REMINDER_AFTER_HOURS } from '#core/campaign-rules.ts';
import { SMS_TEXT } from '#core/sms.ts';
import { SAMPLE_STOP_TOKEN, stopLink } from '#core/stop-link.ts';
import type { Context } from '../context.ts';
import { cartRemindersOnSql, newStopTokenSql } from './campaigns-service.ts';

/** Carts reminded per sweep at most (the next minute's sweep takes the rest). */
const BATCH = 200;

type Due = { user_id: string; newest: string; pieces: number | string };

/**
 * Finds the carts due a reminder, then ONE statement per sweep marks each reminded (only where
 * its mark is still older than the cart's newest line, so two sweeps racing remind once), gives
 * the shopper a stop token if she has none, and writes a pending text for exactly the carts it
 * marked, where she still has Promotions on and a phone. The SMS sweep sends them after the order
 * texts. Answers how many were written.
 */
export async function sweepCartReminders(ctx: Pick<Context, 'db' | 'payments'>): Promise<number> {
  const due = await ctx.db.execute<Due>(sql`
    with carts as (
      select ci.user_id, max(ci.added_at) as newest, sum(ci.quantity)::int as pieces
      from cart_items ci
      group by ci.user_id
      having max(ci.added_at) <= now() - make_interval(hours => ${CART_REMINDER_AFTER_HOURS})
    )
    select c.user_id, c.newest::text as newest, c.pieces
    from carts c
    join user_settings us on us.user_id = c.user_id and us.marketing_notifications
    join profiles p on p.id = c.user_id and p.phone is not null
    left join cart_reminders r on r.user_id = c.user_id
    where ${cartRemindersOnSql}
      and (r.sent_at is null or r.sent_at < c.newest)
      and not exists (select 1 from orders o
                      where o.customer_id = c.user_id and o.created_at >= c.newest)
    order by c.newest
    limit ${BATCH}`);
  if (due.rows.length === 0) return 0;
  const origin = ctx.payments.callbackOrigin.replace(/\/+$/, '');
  const wanted = due.rows.map((row) => {
    const text = SMS_TEXT.cartReminder({
      pieces: Number(row.pieces),
      cartLink: `${origin}/cart`,
      stopLink: stopLink(origin, SAMPLE_STOP_TOKEN),
    });
    // The stop link ends the text: the shopper's own token takes the sample's place.
    return {
      user_id: row.user_id,
      newest: row.newest,
      before: text.slice(0, text.length - SAMPLE_STOP_TOKEN.length),
    };
  });
  const written = await ctx.db.execute<{ id: string }>(sql`
    with wanted as (
      select * from json_to_recordset(${JSON.stringify(wanted)}::json)
        as w(user_id text, newest timestamptz, before text)
    ),
    consenting as (
      select w.user_id, p.phone from wanted w
      join user_settings us on us.user_id = w.user_id and us.marketing_notifications
      join profiles p on p.id = w.user_id and p.phone is not null
      where ${cartRemindersOnSql}
    ),
    marked as (
      insert into cart_reminders (user_id, sent_at)
      select user_id, now() from consenting
      on conflict (user_id) do update set sent_at = excluded.sent_at
      where cart_reminders.sent_at < (select w.newest from wanted w
                                      where w.user_id = cart_reminders.user_id)
      returning user_id
    ),
    tokens as (
      update user_settings us set stop_token = coalesce(us.stop_token, ${newStopTokenSql})
      from marked m where us.user_id = m.user_id
      returning us.user_id, us.stop_token
    )
    insert into sms_notifications (recipient_phone, recipient_type, kind, message_content, status)
    select c.phone, 'customer', 'cart-reminder', w.before || t.stop_token, 'pending'
    from tokens t join wanted w on w.user_id = t.user_id join consenting c on c.user_id = t.user_id
    returning id`);
  return written.rows.length;
}
