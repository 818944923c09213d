// The desk's record (issue 22): every desk write says who made it, what and when, in the same
// atomic write as the change itself, so a change without its record (or the reverse) can't be.
// A keyed save (core/desk-roles.ts requestKey) keeps its answer here: the same key again, from the same
// person for the same kind of save, reads it back instead of writing twice (decision 0059).
import { desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { RECORD_PAGE } from '#core/desk-shop.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresError } from '#db/errors.ts';
import { deskRecords } from '#db/schema/index.ts';
import { type Refused, shopperError } from '../shopper-error.ts';

export type DeskActor = { email: string };

export type DeskWrite = {
  /** 'product.saved', 'stock.adjusted', 'photos.set', 'staff.added', 'settings.saved', … */
  action: string;
  /** What it was done to, as the desk shows it. */
  subject: string;
  details?: Record<string, unknown>;
  /** The client's key for this save, when it sends one. */
  requestKey?: string;
  /** The order it is about (issue 34): the order's page reads its record by it. */
  orderId?: string;
};

/**
 * The record's insert, to put in the change's db.batch (or as a CTE's source: `recordValues`).
 * With a request key already used, the insert fails on its unique index and takes the whole
 * batch with it: the caller then answers from `earlierAnswer`.
 */
export function recordDeskWrite(db: Db, actor: DeskActor, write: DeskWrite) {
  return db.insert(deskRecords).values({
    actorEmail: actor.email,
    action: write.action,
    subject: write.subject,
    details: write.details ?? {},
    requestKey: write.requestKey ?? null,
    orderId: write.orderId ?? null,
  });
}

/**
 * The record's insert for a batch whose first statement may write nothing (an order placed
 * only when every piece is still there): the record is written only when `made` holds, read in
 * the same transaction after that statement.
 */
export function recordDeskWriteWhen(db: Db, actor: DeskActor, write: DeskWrite, made: SQL) {
  return db.execute(sql`insert into desk_records (actor_email, action, subject, details, request_key, order_id)
    select ${actor.email}, ${write.action}, ${write.subject},
           ${JSON.stringify(write.details ?? {})}::jsonb, ${write.requestKey ?? null}::uuid,
           ${write.orderId ?? null}::uuid
    where ${made}`);
}

/** The record's insert as SQL, for a single-statement write's CTE (`details` may be SQL). */
export function recordDeskWriteSql(
  actor: DeskActor,
  write: DeskWrite,
  details?: ReturnType<typeof sql>,
) {
  return sql`insert into desk_records (actor_email, action, subject, details, request_key, order_id)
    values (${actor.email}, ${write.action}, ${write.subject},
            ${details ?? sql`${JSON.stringify(write.details ?? {})}::jsonb`},
            ${write.requestKey ?? null}::uuid, ${write.orderId ?? null}::uuid)`;
}

/**
 * The record's insert as a single statement's CTE, one record for each row `source` gives (a
 * CTE's name, filtered as needed): a change that changed nothing (refused, or found done
 * already) records nothing. `details` and `orderId` are SQL read from the source's row.
 */
export function recordDeskWritesFromSql(
  actor: DeskActor,
  write: { action: string; subject: SQL; details: SQL; orderId: SQL },
  source: SQL,
) {
  return sql`insert into desk_records (actor_email, action, subject, details, order_id)
    select ${actor.email}, ${write.action}, ${write.subject}, ${write.details}, ${write.orderId}
    from ${source}`;
}

/** The record of an earlier save under this key (none without a key): put it in the batch of a
 * save's checks, so the checks and the key are read at the same moment. */
export function earlierAnswerQuery(db: Db, requestKey: string | undefined) {
  return (
    db
      .select({
        actorEmail: deskRecords.actorEmail,
        action: deskRecords.action,
        details: deskRecords.details,
      })
      .from(deskRecords)
      // No key: a condition nothing meets, so the batch keeps its shape.
      .where(requestKey ? eq(deskRecords.requestKey, requestKey) : sql`false`)
  );
}

export type EarlierSave = { actorEmail: string; action: string; details: unknown };

/** What a request key belongs to: who saved, which kind of save, and (when the save names one)
 * what it was saved on, judged from the first save's recorded details. */
export type KeyOwner = {
  actor: DeskActor;
  action: string;
  about?: (details: Record<string, unknown>) => boolean;
};

/** Whether the earlier save under a key is this person's save of this kind (on this thing). */
export function isSameSave(earlier: EarlierSave, owner: KeyOwner): boolean {
  const details = (earlier.details ?? {}) as Record<string, unknown>;
  return (
    earlier.actorEmail.toLowerCase() === owner.actor.email.toLowerCase() &&
    earlier.action === owner.action &&
    (owner.about?.(details) ?? true)
  );
}

/**
 * The answer a key already used gives: its first save's details when that save was the same
 * person's save of the same kind (a retry, a double tap); anyone else's key, or a key of another
 * kind of save, is refused (409) — replaying it would hand over another save's answer and skip
 * this save's own checks (the owner-only settings, for one). Null: the key is new.
 */
export function replayOf(
  earlier: EarlierSave | undefined,
  owner: KeyOwner,
): Record<string, unknown> | null {
  if (!earlier) return null;
  if (!isSameSave(earlier, owner)) return shopperError('CONFLICT', DESK_TEXT.badRequestKey);
  return (earlier.details ?? {}) as Record<string, unknown>;
}

/** The details recorded with an earlier save under this key (bound to `owner` as `replayOf`
 * says), or null when the key is new. */
export async function earlierAnswer(
  db: Db,
  requestKey: string | undefined,
  owner: KeyOwner,
): Promise<Record<string, unknown> | null> {
  if (!requestKey) return null;
  const [row] = await earlierAnswerQuery(db, requestKey);
  return replayOf(row, owner);
}

/** Postgres's unique-violation on the request key: a retried save met its first self. */
export function isRepeatedKey(error: unknown): boolean {
  const { code, constraint } = postgresError(error);
  return code === PG.unique && constraint === 'desk_records_request_key_unique';
}

/** A page of the record for the desk (`before`: the last id of the page before), and the next
 * page's cursor (null: the last page). */
export async function deskRecordPage(db: Db, before?: number) {
  const rows = await deskRecordsNewest(db, RECORD_PAGE + 1, before);
  const page = rows.slice(0, RECORD_PAGE).map((row) => ({
    ...row,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
  return { records: page, next: rows.length > RECORD_PAGE ? (page.at(-1)?.id ?? null) : null };
}

/**
 * The newest records first, for the owner: a page of `limit`, from the record just older than
 * `before` (a record's id) when given. Ids grow with time, so the id is the page's cursor.
 */
export function deskRecordsNewest(db: Db, limit = 200, before?: number) {
  return db
    .select({
      id: deskRecords.id,
      actorEmail: deskRecords.actorEmail,
      action: deskRecords.action,
      subject: deskRecords.subject,
      details: deskRecords.details,
      createdAt: deskRecords.createdAt,
    })
    .from(deskRecords)
    .where(before === undefined ? undefined : lt(deskRecords.id, before))
    .orderBy(desc(deskRecords.id))
    .limit(limit);
}

/**
 * A keyed save: a key already used answers what its first save recorded (when it was this
 * person's save of this kind; else 409, `replayOf`). A retry racing its first self fails on the
 * record's unique key, or is refused by what the first one changed (the staff member removed
 * already): either way, once the key is recorded, it answers the same.
 */
export function keyedSave<T>(
  db: Db,
  key: string | undefined,
  owner: KeyOwner,
  save: () => Promise<T>,
): Promise<T> {
  return keyed(db, key, owner, save, (details) => details as T);
}

/**
 * keyedSave for a service's answer (`{ ok: true, … } | { ok: false, problem }`): the first save's
 * record is its answer, done. A refusal is looked behind like an error: it may come from what the
 * first save under the key changed (the member removed already), whose answer it then is.
 */
export function keyedAnswer<Answer extends { ok: true } | Refused<string>>(
  db: Db,
  key: string | undefined,
  owner: KeyOwner,
  save: () => Promise<Answer>,
): Promise<Answer> {
  const replayed = (details: Record<string, unknown>) => ({ ok: true, ...details }) as Answer;
  return keyed(
    db,
    key,
    owner,
    async () => {
      const answer = await save();
      if (answer.ok || !key) return answer;
      const [again] = await earlierAnswerQuery(db, key).catch(() => []);
      return again ? replayed(replayOf(again, owner) as Record<string, unknown>) : answer;
    },
    replayed,
  );
}

async function keyed<T>(
  db: Db,
  key: string | undefined,
  owner: KeyOwner,
  save: () => Promise<T>,
  replayed: (details: Record<string, unknown>) => T,
): Promise<T> {
  const earlier = await earlierAnswer(db, key, owner);
  if (earlier) return replayed(earlier);
  try {
    return await save();
  } catch (error) {
    if (!key) throw error;
    // (A failed look leaves the save's own error to answer.)
    const [again] = await earlierAnswerQuery(db, key).catch(() => []);
    if (again) return replayed(replayOf(again, owner) as Record<string, unknown>);
    throw error;
  }
}
