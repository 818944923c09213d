// What a signed-in shopper's change is written under, checked by the database in the very
// statement that writes (decision 0057), so that neither costs the change a trip of its own:
// - the session, when the change runs beside the session's read (the isolate has seen this
//   cookie before): each write also requires that session row, live and the shopper's own;
// - the limit (rate-limit.ts): the attempt is counted in the change's first batch, and each
//   write also requires the count within the limit.
import { type SQL, sql } from 'drizzle-orm';
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import { TEXT } from '#core/account.ts';
import type { Limit } from '#core/limits.ts';
import type { Db } from '#db/client.ts';
import { shopperError } from '../shopper-error.ts';
import { attemptCount, attemptCounter, type Verdict, verdictOf } from './rate-limit.ts';

export class WriteGate {
  private readonly db: Db;
  private readonly session: { token: string; userId: string } | null;
  private attempt: { key: string; limit: Limit; verdict: Verdict | null } | null = null;

  /** `session`: the change runs before the session is read; its writes must find it live. */
  constructor(db: Db, session: { token: string; userId: string } | null) {
    this.db = db;
    this.session = session;
  }

  /** Counts the attempt with the change's first batch (the routers' `limited`). */
  countWith(key: string, limit: Limit): void {
    this.attempt = { key, limit, verdict: null };
  }

  /** The attempt still to count: the change has sent nothing to the database. */
  uncounted(): { key: string; limit: Limit } | null {
    return this.attempt && !this.attempt.verdict ? this.attempt : null;
  }

  /** The condition every write of the change carries: true when it may be written. */
  allows(): SQL {
    const terms: SQL[] = [];
    if (this.session) {
      terms.push(sql`exists (select 1 from "session" s where s.token = ${this.session.token}
        and s.user_id = ${this.session.userId} and s.expires_at > now())`);
    }
    if (this.attempt) {
      terms.push(sql`coalesce((select r.count from rate_limit r where r.key = ${this.attempt.key}), 0)
        <= ${this.attempt.limit.max}`);
    }
    return terms.length ? sql`(${sql.join(terms, sql` and `)})` : sql`true`;
  }

  /**
   * After a write that placed nothing: refused (429) when the gate held it back, the attempt's
   * count now past its limit (the shopper's other attempts, counted after this one's first batch,
   * used up the window). Else the refusal is the change's own, and it answers it.
   */
  async refuseIfHeld(): Promise<void> {
    const attempt = this.attempt;
    if (!attempt?.verdict) return;
    this.refuse(verdictOf(await attemptCount(this.db, attempt.key), attempt.limit));
  }

  private refuse(verdict: Verdict): void {
    if (!verdict.allowed) {
      shopperError('TOO_MANY_REQUESTS', TEXT.tooManyAttempts(verdict.retryAfterSeconds));
    }
  }

  /**
   * The change's statements in one batch (one trip, one transaction), its attempt counted before
   * them the first time. Past the limit its writes wrote nothing, and it is refused (429).
   */
  async batch<U extends BatchItem<'pg'>, T extends Readonly<[U, ...U[]]>>(
    statements: T,
  ): Promise<BatchResponse<T>> {
    const attempt = this.attempt;
    if (!attempt || attempt.verdict) return this.db.batch(statements);
    const [counted, ...results] = await this.db.batch([
      attemptCounter(this.db, attempt.key, attempt.limit),
      ...statements,
    ]);
    attempt.verdict = verdictOf(counted, attempt.limit);
    this.refuse(attempt.verdict);
    return results as BatchResponse<T>;
  }
}
