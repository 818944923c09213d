// The catalogue's version (issue 22): a number in system_settings that every desk change to what
// shoppers see (a product saved, photos, stock, an import) raises in the same atomic write. The
// edge cache keys anonymous pages by it, so an edit shows at once.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { systemSettings } from '#db/schema/index.ts';

export const CATALOGUE_VERSION_KEY = 'catalogue_version';

/** Raises the version: put it in the change's db.batch. */
export function bumpCatalogueVersion(db: Db) {
  return db
    .insert(systemSettings)
    .values({ settingKey: CATALOGUE_VERSION_KEY, settingValue: '1' })
    .onConflictDoUpdate({
      target: systemSettings.settingKey,
      set: {
        settingValue: sql`(${systemSettings.settingValue}::bigint + 1)::text`,
        updatedAt: new Date(),
      },
    });
}

/** The same, as a statement for a single-statement write's CTE. */
export const bumpCatalogueVersionSql = sql`insert into system_settings (setting_key, setting_value)
  values (${CATALOGUE_VERSION_KEY}, '1')
  on conflict (setting_key) do update
  set setting_value = (system_settings.setting_value::bigint + 1)::text, updated_at = now()`;

/** The version now ('0' before the first change). */
export async function catalogueVersion(db: Db): Promise<string> {
  const [row] = await db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, CATALOGUE_VERSION_KEY));
  return row?.value ?? '0';
}
