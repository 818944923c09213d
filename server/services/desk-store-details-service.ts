// The shop's own details on the desk (issue 34; decision 0077): read with where each comes from,
// and saved (only what the input names) in one batch with the desk's record and the catalogue's
// version — the footer, the contact page and the home's structured data are on pages the edge
// keeps (decision 0044). They live in system_settings beside the other settings (shop-settings.ts).

import { kampalaDay } from '#core/desk-shop.ts';
import type { SaveStoreDetailsInput } from '#core/desk-store-details.ts';
import {
  DAYS,
  STORE_DETAIL_NAMES,
  type StoreDetailName,
  type StoreDetails,
  type WeekHours,
} from '#core/store-details.ts';
import type { Db } from '#db/client.ts';
import type { Answer } from '../shopper-error.ts';
import { bumpCatalogueVersion } from './catalogue-version.ts';
import { type DeskActor, keyedAnswer, recordDeskWrite } from './desk-record.ts';
import {
  changedSettings,
  type SettingName,
  type SettingSource,
  type SettingsChange,
  type SettingsFallback,
  settingsFrom,
  settingsQuery,
  settingsWrites,
  storeDetailsOf,
} from './shop-settings.ts';

/** The setting each detail is kept under (the pin's two numbers are one setting). */
const SETTING_OF: Record<StoreDetailName, SettingName> = {
  address: 'storeAddress',
  landmark: 'storeLandmark',
  latitude: 'storePin',
  longitude: 'storePin',
  hours: 'storeHours',
  pickupHours: 'pickupHours',
  socialLinks: 'socialLinks',
  tin: 'storeTin',
  whatsappNumber: 'whatsappNumber',
};

export type StoreDetailsRead = {
  details: StoreDetails;
  /** 'desk': the owner set it; 'configuration': today's shop (or SOCIAL_LINKS). */
  sources: Record<StoreDetailName, SettingSource>;
};

/** The details from a batch's settings rows, and where each comes from. */
export function storeDetailsFrom(
  rows: Parameters<typeof settingsFrom>[0],
  fallback: SettingsFallback,
): StoreDetailsRead {
  const { values, sources } = settingsFrom(rows, fallback);
  return {
    details: storeDetailsOf(values),
    sources: Object.fromEntries(
      STORE_DETAIL_NAMES.map((name) => [name, sources[SETTING_OF[name]]]),
    ) as Record<StoreDetailName, SettingSource>,
  };
}

/** The details, read on their own (the desk's screen). */
export async function storeDetailsRead(db: Db, fallback: SettingsFallback) {
  return storeDetailsFrom(await settingsQuery(db), fallback);
}

/** A week as stored: the days in the week's order, whatever order they came in. */
function hoursJson(hours: WeekHours): string {
  return JSON.stringify(Object.fromEntries(DAYS.map((day) => [day, hours[day]])));
}

/** The input as settings: absent unchanged, null back to the default, else the text to keep. */
export function storeDetailsChange(input: SaveStoreDetailsInput): SettingsChange {
  const change: SettingsChange = {};
  if (input.address !== undefined) change.storeAddress = input.address;
  if (input.landmark !== undefined) change.storeLandmark = input.landmark;
  if (input.latitude !== undefined && input.longitude !== undefined) {
    change.storePin =
      input.latitude === null || input.longitude === null
        ? null
        : JSON.stringify({ latitude: input.latitude, longitude: input.longitude });
  }
  if (input.hours !== undefined) change.storeHours = input.hours && hoursJson(input.hours);
  if (input.pickupHours !== undefined) change.pickupHours = input.pickupHours;
  if (input.socialLinks !== undefined) {
    change.socialLinks = input.socialLinks && JSON.stringify(input.socialLinks);
  }
  if (input.tin !== undefined) change.storeTin = input.tin;
  if (input.whatsappNumber !== undefined) change.whatsappNumber = input.whatsappNumber;
  return change;
}

/**
 * Saves the details the input names (the others stay as they are): what really changed, its
 * record (the names, never the values) and, when shoppers see it, the catalogue's version, in
 * one batch. The same request key again answers the first save.
 */
export function saveStoreDetails(
  db: Db,
  actor: DeskActor,
  input: SaveStoreDetailsInput,
): Promise<Answer<{ changed: SettingName[] }, never>> {
  const { requestKey, ...rest } = input;
  return keyedAnswer(db, requestKey, { actor, action: 'details.saved' }, async () => {
    const change = storeDetailsChange(rest);
    const changed = await changedSettings(db, change);
    if (changed.length === 0) return { ok: true as const, changed };
    const seenByShoppers = changed.some((name) => name !== 'storeTin');
    await db.batch([
      recordDeskWrite(db, actor, {
        action: 'details.saved',
        subject: 'Shop details',
        details: { changed },
        requestKey,
      }),
      ...(seenByShoppers ? [bumpCatalogueVersion(db)] : []),
      ...settingsWrites(db, changed, change, kampalaDay(new Date())),
    ]);
    return { ok: true as const, changed };
  });
}
