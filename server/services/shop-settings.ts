// The shop's settings the owner changes on the desk (issue 22): kept in system_settings, with the
// Worker's configuration (server/env.ts) as the fallback for what the owner has not set.
import { inArray } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { systemSettings } from '#db/schema/index.ts';

/** system_settings keys of the desk's settings. */
export const SETTING_KEYS = {
  adminPhone: 'admin_phone',
  supportPhone: 'support_phone',
  supportEmail: 'support_email',
  bankDetails: 'bank_details',
  exchangeRates: 'exchange_rates',
  lowStockThreshold: 'low_stock_threshold',
} as const;

/** A variant at or below this many left is low stock, until the owner sets another number. */
export const DEFAULT_LOW_STOCK_THRESHOLD = 3;

/** The stored values, by key (absent: not set on the desk). */
export async function storedSettings(
  db: Db,
): Promise<Partial<Record<keyof typeof SETTING_KEYS, string>>> {
  const rows = await db
    .select({ key: systemSettings.settingKey, value: systemSettings.settingValue })
    .from(systemSettings)
    .where(inArray(systemSettings.settingKey, Object.values(SETTING_KEYS)));
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  const stored: Partial<Record<keyof typeof SETTING_KEYS, string>> = {};
  for (const [name, key] of Object.entries(SETTING_KEYS) as [keyof typeof SETTING_KEYS, string][]) {
    const value = byKey.get(key);
    if (value !== undefined) stored[name] = value;
  }
  return stored;
}

/** The low-stock threshold: the owner's number, else the default. */
export async function lowStockThreshold(db: Db): Promise<number> {
  const stored = await storedSettings(db);
  const n = Number(stored.lowStockThreshold);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_LOW_STOCK_THRESHOLD;
}
