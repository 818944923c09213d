// The shop's settings as the desk saves them (issue 22): what changed, written in one batch with
// its record (the names changed, never the values) and the catalogue's version (the contact and
// the prices' approximations show on cached pages). The values and their fallback are in
// shop-settings.ts.
import type { DeskRole } from '#core/desk-roles.ts';
import { kampalaDay, OWNER_SETTINGS } from '#core/desk-shop.ts';
import type { Db } from '#db/client.ts';
import type { Refused } from '../shopper-error.ts';
import { bumpCatalogueVersion } from './catalogue-version.ts';
import { type DeskActor, keyedAnswer, recordDeskWrite } from './desk-record.ts';
import {
  changedSettings,
  type SettingName,
  type SettingsChange,
  type SettingsFallback,
  settingsFrom,
  settingsQuery,
  settingsWrites,
} from './shop-settings.ts';

/** The settings this screen keeps (the shop's own details have theirs: desk-store-details-service.ts). */
const SETTINGS_PAGE = [
  'adminPhone',
  'supportPhone',
  'supportEmail',
  'bankDetails',
  'exchangeRates',
  'lowStockThreshold',
  'returnDays',
  'exchangeDays',
  'returnPickupFee',
] as const satisfies readonly SettingName[];
type SettingsPageName = (typeof SETTINGS_PAGE)[number];

/** Each setting's value, and whether the desk or the configuration gives it. */
export async function deskSettings(db: Db, fallback: SettingsFallback) {
  const { values, sources } = settingsFrom(await settingsQuery(db), fallback);
  const pick = <T>(all: Record<SettingName, T>) =>
    Object.fromEntries(SETTINGS_PAGE.map((name) => [name, all[name]])) as Record<
      SettingsPageName,
      T
    >;
  return {
    values: Object.fromEntries(SETTINGS_PAGE.map((name) => [name, values[name]])) as Pick<
      typeof values,
      SettingsPageName
    >,
    sources: pick(sources),
  };
}

const isOwnerSetting = (name: SettingName) => (OWNER_SETTINGS as readonly string[]).includes(name);

/**
 * Saves what changed. Staff may change the support contact and the low-stock threshold; the
 * owner, everything. The same request key again answers the first save.
 */
export function saveDeskSettings(
  db: Db,
  actor: DeskActor,
  role: DeskRole,
  input: SettingsChange & { requestKey?: string },
): Promise<{ ok: true; changed: SettingName[] } | Refused<'owner-only'>> {
  const { requestKey, ...change } = input;
  return keyedAnswer(db, requestKey, { actor, action: 'settings.saved' }, async () => {
    const changed = await changedSettings(db, change);
    if (role !== 'owner' && changed.some(isOwnerSetting)) {
      return { ok: false, problem: 'owner-only' };
    }
    await db.batch([
      recordDeskWrite(db, actor, {
        action: 'settings.saved',
        subject: 'Shop settings',
        details: { changed },
        requestKey,
      }),
      bumpCatalogueVersion(db),
      ...settingsWrites(db, changed, change, kampalaDay(new Date())),
    ]);
    return { ok: true, changed };
  });
}
