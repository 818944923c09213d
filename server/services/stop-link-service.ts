// The stop link every promotional text ends with (issue 35, decision 0085): `/duuka/stop/TOKEN`
// opens a page that asks, and its one button switches the shopper's Promotions off. No session:
// the token (user_settings.stop_token) is the key, so it tells nothing of its shopper but a
// first name, and the page never changes anything on a GET (a chat app's link preview fetches it).
import { sql } from 'drizzle-orm';
import { isStopToken } from '#core/stop-link.ts';
import type { Db } from '#db/client.ts';
import type { Answer } from '../shopper-error.ts';
import { PROMOTIONS_OFF } from './sms-service.ts';

export type StopProblem = 'unknown';

/** The first word of a name ("Nakato" of "Nakato Achieng"), or null. */
const firstNameOf = (name: string | null | undefined) => name?.trim().split(/\s+/)[0] || null;

/** Whose link this is, as much as the page may say: a first name, and whether they are off. */
export async function readStopLink(
  db: Db,
  token: string,
): Promise<Answer<{ firstName: string | null; stopped: boolean }, StopProblem>> {
  if (!isStopToken(token)) return { ok: false, problem: 'unknown' };
  const result = await db.execute<{ name: string | null; on: boolean | string }>(sql`
    select p.full_name as name, us.marketing_notifications as on
    from user_settings us left join profiles p on p.id = us.user_id
    where us.stop_token = ${token}`);
  const row = result.rows[0];
  if (!row) return { ok: false, problem: 'unknown' };
  const on = row.on === true || row.on === 't' || row.on === 'true';
  return { ok: true, firstName: firstNameOf(row.name), stopped: !on };
}

/**
 * Switches Promotions off for the token's shopper, in one statement that also withdraws the
 * promotional texts and cart reminders still waiting for their number (a campaign takes a while
 * to go out at EgoSMS's pace: a shopper who said stop must not get its tail). Answers whether
 * they were already off (a second tap, the link opened twice).
 */
export async function stopPromotions(
  db: Db,
  token: string,
): Promise<Answer<{ already: boolean }, StopProblem>> {
  if (!isStopToken(token)) return { ok: false, problem: 'unknown' };
  const result = await db.execute<{ found: number | string; stopped: number | string }>(sql`
    with hit as (
      select us.user_id, us.marketing_notifications as was, p.phone
      from user_settings us left join profiles p on p.id = us.user_id
      where us.stop_token = ${token}
      for update of us
    ),
    off as (
      update user_settings us set marketing_notifications = false, updated_at = now()
      from hit where us.user_id = hit.user_id and hit.was
      returning us.user_id
    ),
    withdrawn as (
      update sms_notifications s set status = 'failed',
        error_message = ${PROMOTIONS_OFF}
      from hit
      where hit.phone is not null and s.recipient_phone = hit.phone and s.status = 'pending'
        and s.kind in ('promotional', 'cart-reminder')
      returning s.id
    )
    select (select count(*)::int from hit) as found, (select count(*)::int from off) as stopped,
           (select count(*)::int from withdrawn) as withdrawn`);
  const row = result.rows[0];
  if (!row || Number(row.found) === 0) return { ok: false, problem: 'unknown' };
  return { ok: true, already: Number(row.stopped) === 0 };
}
