// The shop's delivery options as shoppers see them (issue 23; decision 0049): read inside a batch
// a page or a procedure already makes (`deliveryQueries` + `choicesFrom`), so promising delivery
// costs no extra trip. The checkout's write reads the chosen option itself (services/checkout-service.ts).
import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  type DeliveryChoices,
  type DeliveryKind,
  type DeliveryOption,
  FREE_DELIVERY_KEY,
  isDeliveryKind,
} from '#core/delivery-rules.ts';
import { DEFAULT_ADDRESS, DEFAULT_PICKUP_HOURS, pickupWords } from '#core/store-details.ts';
import type { Db } from '#db/client.ts';
import { deliveryOptions, systemSettings } from '#db/schema/index.ts';
import { SETTING_KEYS, storedFrom } from './shop-settings.ts';

/** An option as shoppers see it (`DeliveryOption`); the desk's read adds to these. */
export const optionColumns = {
  id: deliveryOptions.id,
  kind: deliveryOptions.kind,
  name: deliveryOptions.name,
  fee: deliveryOptions.fee,
  minDays: deliveryOptions.minDays,
  maxDays: deliveryOptions.maxDays,
  details: deliveryOptions.details,
  cashOnDelivery: deliveryOptions.cashOnDelivery,
};

/** The options offered now, in the owner's order. */
export function offeredOptionsQuery(db: Db) {
  return db
    .select(optionColumns)
    .from(deliveryOptions)
    .where(eq(deliveryOptions.active, true))
    .orderBy(asc(deliveryOptions.position), asc(deliveryOptions.id));
}

/** The settings the options' words depend on: the boutique's address and pickup hours (issue 34). */
const PICKUP_KEYS = [SETTING_KEYS.storeAddress, SETTING_KEYS.pickupHours];

/**
 * The free-delivery threshold's row (none: off), with the owner's address and pickup hours that
 * the pickup option's words name (issue 34): one query, in the batch the caller already makes.
 */
export function freeDeliveryQuery(db: Db) {
  return db
    .select({ key: systemSettings.settingKey, value: systemSettings.settingValue })
    .from(systemSettings)
    .where(inArray(systemSettings.settingKey, [FREE_DELIVERY_KEY, ...PICKUP_KEYS]));
}

/** Both queries, for the caller's db.batch: `const [options, free] = await db.batch([...])`. */
export function deliveryQueries(db: Db) {
  return [offeredOptionsQuery(db), freeDeliveryQuery(db)] as const;
}

/**
 * A stored threshold as a number (a whole positive amount, spaces around it allowed), else null:
 * off. The same rule as `freeDeliveryOverSql`, so what the shop promises is what it charges.
 */
export function thresholdFrom(rows: readonly { key?: string; value: string }[]): number | null {
  const row = rows.find((r) => r.key === undefined || r.key === FREE_DELIVERY_KEY);
  const amount = /^\s*([1-9]\d{0,11})\s*$/.exec(row?.value ?? '')?.[1];
  return amount ? Number(amount) : null;
}

/** An option's row with its kind narrowed (for flatMap): none for a kind the shop does not know. */
export function withKnownKind<Row extends { kind: string }>(
  row: Row,
): (Row & { kind: DeliveryKind })[] {
  return isDeliveryKind(row.kind) ? [{ ...row, kind: row.kind }] : [];
}

/** The rows as the shop's choices. */
export function choicesFrom(
  options: readonly (Omit<DeliveryOption, 'kind'> & { kind: string })[],
  free: readonly { key: string; value: string }[],
): DeliveryChoices {
  const stored = storedFrom(free);
  const store = {
    address: stored.storeAddress ?? DEFAULT_ADDRESS,
    pickupHours: stored.pickupHours ?? DEFAULT_PICKUP_HOURS,
  };
  return {
    // A pickup's words name the owner's address and pickup hours once she has set them.
    options: options
      .flatMap(withKnownKind)
      .map((option) =>
        option.kind === 'pickup'
          ? { ...option, details: pickupWords(option.details, store) }
          : option,
      ),
    freeDeliveryOver: thresholdFrom(free),
  };
}

/** The choices, read on their own (where no batch is at hand). */
export async function deliveryChoices(db: Db): Promise<DeliveryChoices> {
  const [options, free] = await db.batch(deliveryQueries(db));
  return choicesFrom(options, free);
}

/** The threshold as SQL, for the checkout's one write: null when off (as `thresholdFrom`). */
export const freeDeliveryOverSql = sql<number | null>`(
  select substring(setting_value from '^[[:space:]]*([1-9][0-9]{0,11})[[:space:]]*$')::bigint
  from system_settings where setting_key = ${FREE_DELIVERY_KEY}
)`;
