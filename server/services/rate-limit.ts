// One small limiter for every form (contact, newsletter, account deletion; cart, checkout and chat
// to come): fixed-window counters in better-auth's `rate_limit` table, each attempt counted by one
// atomic upsert — neon-http has no interactive transactions, and one statement needs none.
import { getIP } from 'better-auth/api';
import { sql } from 'drizzle-orm';
import type { Limit } from '#core/limits.ts';
import type { Db } from '#db/client.ts';

/** The client's address: Cloudflare sets cf-connecting-ip on every request; clients cannot. */
export const CLIENT_IP_HEADERS = { ipAddressHeaders: ['cf-connecting-ip'] };

/** The counter a shopper's password guesses share: the delete-account dialog and change password. */
export const PASSWORD_CHECKS = 'password-check';

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The database's clock in milliseconds, as better-auth stores times in this table. */
const nowMs = sql`(extract(epoch from now()) * 1000)::bigint`;

/**
 * Counts one attempt under `key`. The first attempt opens a window of `limit.windowSeconds`;
 * attempts past `limit.max` in it are refused with the seconds until it ends. Concurrent attempts
 * queue on the row's lock, so exactly `max` get through.
 *
 * For these rows `last_request` holds the moment the window ends (better-auth's own rows keep the
 * last request there): better-auth prunes rows whose `last_request` is older than its longest
 * window, so it only ever removes windows that are over, whatever their length.
 */
export async function countAttempt(db: Db, key: string, limit: Limit): Promise<Verdict> {
  return verdictOf(await attemptCounter(db, key, limit), limit);
}

/** The statement that counts one attempt (countAttempt; a write gate's first batch). */
export function attemptCounter(db: Db, key: string, limit: Limit) {
  const windowMs = limit.windowSeconds * 1000;
  return db.execute<{ count: number; retry_after: number }>(sql`
    insert into rate_limit (id, key, count, last_request)
    values (gen_random_uuid()::text, ${key}, 1, ${nowMs} + ${windowMs}::bigint)
    on conflict (key) do update set
      count = case when rate_limit.last_request <= ${nowMs} then 1 else rate_limit.count + 1 end,
      last_request = case when rate_limit.last_request <= ${nowMs}
        then excluded.last_request else rate_limit.last_request end
    returning count::int as count,
      greatest(1, ceil((last_request - ${nowMs}) / 1000.0))::int as retry_after`);
}

/** The statement that reads the count under `key` now, as attemptCounter answers it (none: 0). */
export function attemptCount(db: Db, key: string) {
  return db.execute<{ count: number; retry_after: number }>(sql`
    select coalesce(r.count, 0)::int as count,
      greatest(1, ceil((coalesce(r.last_request, ${nowMs}) - ${nowMs}) / 1000.0))::int as retry_after
    from (select 1) one left join rate_limit r on r.key = ${key}`);
}

/** Allowed while the count is within the limit; past it, the seconds until the window ends. */
export function verdictOf(
  counted: { rows: { count: number; retry_after: number }[] },
  limit: Limit,
): Verdict {
  const [row] = counted.rows;
  if (!row) throw new Error('rate_limit upsert returned no row');
  return Number(row.count) <= limit.max
    ? { allowed: true }
    : { allowed: false, retryAfterSeconds: Number(row.retry_after) };
}

export type Attempt = { db: Db; headers: Headers; user?: { id: string } };

/** Whom an attempt counts against: the signed-in shopper when the procedure knows them, else the IP. */
export function attemptSubject({ headers, user }: Attempt): string {
  if (user) return `user:${user.id}`;
  // No address outside Cloudflare (in-process calls): all such callers share one counter.
  const ip = getIP(headers, { advanced: { ipAddress: CLIENT_IP_HEADERS } }) ?? 'unknown';
  return `ip:${ip}`;
}

/** Counts one use of the form `key` by this request's shopper or IP. */
export function rateLimit(ctx: Attempt, { key, ...limit }: Limit & { key: string }) {
  return countAttempt(ctx.db, `${key}:${attemptSubject(ctx)}`, limit);
}
