// The desk's delivery settings (issue 23): every option, retired ones too, and the free-delivery
// threshold, read in one batch; a save written in one batch with its record and the catalogue's
// version (the product page's promise is on cached pages). Options are never deleted: orders name
// them. Only desk.deliveryOptions and desk.saveDeliveryOptions call this.
import { asc, eq, sql } from 'drizzle-orm';
import { FREE_DELIVERY_KEY } from '#core/delivery-rules.ts';
import {
  DESK_DELIVERY_TEXT,
  type DeskDeliveryOption,
  optionId,
  type SaveDeliveryInput,
  sharedName,
} from '#core/desk-delivery.ts';
import type { Db } from '#db/client.ts';
import { postgresError } from '#db/errors.ts';
import { deliveryOptions, systemSettings } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import { bumpCatalogueVersion } from './catalogue-version.ts';
import {
  freeDeliveryQuery,
  optionColumns,
  thresholdFrom,
  withKnownKind,
} from './delivery-service.ts';
import { type DeskActor, recordDeskWrite } from './desk-record.ts';

/** An option as the desk shows it (`DeskDeliveryOption`): the shoppers' columns, and `active`. */
const deskOptionColumns = { ...optionColumns, active: deliveryOptions.active };

/** Every option, offered or retired, in the owner's order. */
export function allOptionsQuery(db: Db) {
  return db
    .select(deskOptionColumns)
    .from(deliveryOptions)
    .orderBy(asc(deliveryOptions.position), asc(deliveryOptions.id));
}

/** What the desk's delivery page shows. */
export async function deskDeliveryChoices(
  db: Db,
): Promise<{ options: DeskDeliveryOption[]; freeDeliveryOver: number | null }> {
  const [rows, free] = await db.batch([allOptionsQuery(db), freeDeliveryQuery(db)]);
  return { options: rows.flatMap(withKnownKind), freeDeliveryOver: thresholdFrom(free) };
}

/** Why a save was refused; a clash is a new option's id made by another save meanwhile. */
export type SaveDeliveryProblem = 'unknown-option' | 'none-offered' | 'names-shared' | 'clash';
type NamesShared = Refused<'names-shared'> & { name: string };
export type SaveDeliveryRefused =
  | Refused<Exclude<SaveDeliveryProblem, 'names-shared'>>
  | NamesShared;
/** What a save answers, and what its record keeps (a retry with the same key reads it back). */
export type SaveDeliveryAnswer = { changed: string[]; added: string[] };

/** What a save writes and tells apart as changed: every column the desk reads but the id. */
const { id: _id, ...savedColumns } = deskOptionColumns;
const FIELDS = Object.keys(savedColumns) as (keyof typeof savedColumns)[];

/**
 * Saves the options as sent (in that order) and the threshold, in ONE batch with the record and
 * the catalogue's version. An option the page did not send stays as it is. Refused: an id the
 * desk does not have, no option offered, two options with one name (against those kept too).
 */
export async function saveDeliveryOptions(
  db: Db,
  actor: DeskActor,
  input: SaveDeliveryInput,
): Promise<({ ok: true } & SaveDeliveryAnswer) | SaveDeliveryRefused> {
  const [rows, free] = await db.batch([allOptionsQuery(db), freeDeliveryQuery(db)]);
  const stored = new Map(rows.map((row) => [row.id, row]));
  if (input.options.some((o) => o.id !== undefined && !stored.has(o.id))) {
    return { ok: false, problem: 'unknown-option' };
  }
  const sentIds = new Set(input.options.flatMap((o) => (o.id ? [o.id] : [])));
  const kept = rows.filter((row) => !sentIds.has(row.id));
  const after = [...input.options, ...kept];
  if (!after.some((o) => o.active)) return { ok: false, problem: 'none-offered' };
  const shared = sharedName(after);
  if (shared) return { ok: false, problem: 'names-shared', name: shared };

  const taken = new Set(stored.keys());
  const changed: string[] = [];
  const added: string[] = [];
  const writes = [];
  let position = 0;
  for (const option of input.options) {
    position += 1;
    // The option as sent is the id and the saved columns (a strict input): all but the id, placed.
    const { id: _sent, ...fields } = option;
    const values = { ...fields, position };
    const before = option.id ? stored.get(option.id) : undefined;
    if (option.id && before) {
      if (FIELDS.some((field) => before[field] !== option[field])) changed.push(option.name);
      writes.push(
        db
          .update(deliveryOptions)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(deliveryOptions.id, option.id)),
      );
    } else {
      const id = optionId(option.name, taken);
      taken.add(id);
      added.push(id);
      changed.push(`${option.name} (new)`);
      // A plain insert: an id another save made meanwhile fails the batch (never overwritten).
      writes.push(db.insert(deliveryOptions).values({ id, ...values }));
    }
  }
  const threshold = thresholdFrom(free);
  if (threshold !== input.freeDeliveryOver) {
    changed.push(DESK_DELIVERY_TEXT.freeDeliveryLabel);
    writes.push(
      input.freeDeliveryOver === null
        ? db.delete(systemSettings).where(eq(systemSettings.settingKey, FREE_DELIVERY_KEY))
        : db
            .insert(systemSettings)
            .values({ settingKey: FREE_DELIVERY_KEY, settingValue: String(input.freeDeliveryOver) })
            .onConflictDoUpdate({
              target: systemSettings.settingKey,
              set: { settingValue: sql`excluded.setting_value`, updatedAt: new Date() },
            }),
    );
  }
  const answer: SaveDeliveryAnswer = { changed, added };
  try {
    await db.batch([
      recordDeskWrite(db, actor, {
        action: 'delivery.saved',
        subject: 'Delivery',
        details: answer,
        requestKey: input.requestKey,
      }),
      bumpCatalogueVersion(db),
      ...writes,
    ]);
  } catch (error) {
    // Another save made a new option's id meanwhile (delivery_options' key): nothing written.
    if (postgresError(error).constraint === 'delivery_options_pkey') {
      return { ok: false, problem: 'clash' };
    }
    throw error;
  }
  return { ok: true, ...answer };
}
