// The shop's settings the owner changes on the desk (issue 22): kept in system_settings, with the
// Worker's configuration (server/env.ts) as the fallback for what the owner has not set. Pages
// read them inside a batch they already make (`settingsQuery` + `settingsFrom`): no extra trip.
import { inArray, sql } from 'drizzle-orm';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { parseHours, parsePin, parseSocialLinks } from '#core/desk-store-details.ts';
import { EXCHANGE_RATES_KEY, type ExchangeRates, parseRates } from '#core/money.ts';
import { isValidPhone } from '#core/phone.ts';
import {
  DEFAULT_EXCHANGE_DAYS,
  DEFAULT_PICKUP_FEE_RULE,
  DEFAULT_RETURN_DAYS,
  DEFAULT_WINDOWS,
  PICKUP_FEE_RULES,
  type PickupFeeRule,
  type ReturnWindows,
  WINDOW_DAYS_MAX,
} from '#core/return-windows.ts';
import type { SocialLink } from '#core/social.ts';
import { DEFAULT_STORE_DETAILS, type StoreDetails, type WeekHours } from '#core/store-details.ts';
import { WHATSAPP_ASSISTANT_MODES, type WhatsAppAssistantMode } from '#core/whatsapp.ts';
import type { Db } from '#db/client.ts';
import { systemSettings } from '#db/schema/index.ts';
import type { Context } from '../context.ts';

/** system_settings keys of the desk's settings. */
export const SETTING_KEYS = {
  adminPhone: 'admin_phone',
  supportPhone: 'support_phone',
  supportEmail: 'support_email',
  bankDetails: 'bank_details',
  exchangeRates: EXCHANGE_RATES_KEY,
  lowStockThreshold: 'low_stock_threshold',
  // The shop's own details (issue 34, decision 0077): texts, or JSON where a value has parts.
  storeAddress: 'store_address',
  storeLandmark: 'store_landmark',
  storePin: 'store_pin',
  storeHours: 'store_hours',
  pickupHours: 'pickup_hours',
  socialLinks: 'social_links',
  storeTin: 'store_tin',
  // The number shoppers write to on WhatsApp (issue 37): +256…; no row: none.
  whatsappNumber: 'whatsapp_number',
  // The cart reminder (issue 35): 'on' when the desk switched it on; no row: off.
  cartReminders: 'cart_reminders',
  // The after-sale (issue 36, decision 0086): the windows in days and the pickup's fee rule.
  returnDays: 'return_days',
  exchangeDays: 'exchange_days',
  returnPickupFee: 'return_pickup_fee',
  // The assistant on WhatsApp (issue 37): 'always' or 'after_hours'; no row: off.
  whatsappAssistant: 'whatsapp_assistant',
} as const;
export type SettingName = keyof typeof SETTING_KEYS;
export const SETTING_NAMES = Object.keys(SETTING_KEYS) as SettingName[];

/** A variant at or below this many left is low stock, until the owner sets another number. */
export const DEFAULT_LOW_STOCK_THRESHOLD = 3;

/** The values the shop uses. */
export type ShopSettings = {
  adminPhone: string | null;
  supportPhone: string;
  supportEmail: string;
  bankDetails: string | null;
  exchangeRates: ExchangeRates | null;
  lowStockThreshold: number;
  storeAddress: string;
  storeLandmark: string | null;
  storePin: { latitude: number; longitude: number } | null;
  storeHours: WeekHours;
  pickupHours: string;
  socialLinks: SocialLink[];
  storeTin: string | null;
  whatsappNumber: string | null;
  cartReminders: boolean;
  returnDays: number;
  exchangeDays: number;
  returnPickupFee: PickupFeeRule;
  whatsappAssistant: WhatsAppAssistantMode;
};

/** The settings kept as JSON (compared as stored text when a save asks what changed). */
const JSON_SETTINGS: readonly SettingName[] = ['storePin', 'storeHours', 'socialLinks'];

/** Where each value comes from: set on the desk, or the configuration (or its default). */
export type SettingSource = 'desk' | 'configuration';

/** What the configuration says, for what the desk has not set. */
export type SettingsFallback = Pick<Context, 'bankDetails'> & {
  /** SOCIAL_LINKS: the social pages when the desk has set none. */
  social?: readonly SocialLink[];
  sms: Pick<Context['sms'], 'adminPhone'>;
  assistant: Pick<Context['assistant'], 'contact'>;
};

/** The stored rows of the desk's settings: put it in a page's own db.batch. */
export function settingsQuery(db: Db) {
  return db
    .select({ key: systemSettings.settingKey, value: systemSettings.settingValue })
    .from(systemSettings)
    .where(inArray(systemSettings.settingKey, Object.values(SETTING_KEYS)));
}

type Row = { key: string; value: string };

/** The stored values, by name (absent: not set on the desk, or unusable). */
export function storedFrom(rows: readonly Row[]): Partial<ShopSettings> {
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  const read = (name: SettingName) => byKey.get(SETTING_KEYS[name])?.trim() || undefined;
  const stored: Partial<ShopSettings> = {};
  for (const name of ['adminPhone', 'supportPhone', 'supportEmail', 'bankDetails'] as const) {
    const value = read(name);
    if (value) stored[name] = value;
  }
  const rates = parseRates(read('exchangeRates'));
  if (rates) stored.exchangeRates = rates;
  const threshold = Number(read('lowStockThreshold'));
  if (read('lowStockThreshold') && Number.isInteger(threshold) && threshold >= 0) {
    stored.lowStockThreshold = threshold;
  }
  for (const name of ['storeAddress', 'storeLandmark', 'pickupHours', 'storeTin'] as const) {
    const value = read(name);
    if (value) stored[name] = value;
  }
  const whatsapp = read('whatsappNumber');
  if (whatsapp && isValidPhone(whatsapp)) stored.whatsappNumber = whatsapp;
  const pin = parsePin(read('storePin'));
  if (pin) stored.storePin = pin;
  const hours = parseHours(read('storeHours'));
  if (hours) stored.storeHours = hours;
  const social = parseSocialLinks(read('socialLinks'));
  if (social) stored.socialLinks = social;
  if (read('cartReminders') === 'on') stored.cartReminders = true;
  for (const name of ['returnDays', 'exchangeDays'] as const) {
    const days = windowDays(read(name));
    if (days !== null) stored[name] = days;
  }
  const rule = read('returnPickupFee');
  if ((PICKUP_FEE_RULES as readonly string[]).includes(rule ?? '')) {
    stored.returnPickupFee = rule as PickupFeeRule;
  }
  const assistant = WHATSAPP_ASSISTANT_MODES.find((mode) => mode === read('whatsappAssistant'));
  if (assistant) stored.whatsappAssistant = assistant;
  return stored;
}

/** The return and exchange windows out of the settings' rows: the desk's days, else the
 * defaults. Read in a batch a page or a step already makes (settingsQuery). */
export function returnWindowsFrom(rows: readonly Row[]): ReturnWindows {
  const stored = storedFrom(rows);
  return {
    returnDays: stored.returnDays ?? DEFAULT_WINDOWS.returnDays,
    exchangeDays: stored.exchangeDays ?? DEFAULT_WINDOWS.exchangeDays,
  };
}

/** The settings the shop uses, and where each comes from. */
export function settingsFrom(
  rows: readonly Row[],
  fallback: SettingsFallback,
): { values: ShopSettings; sources: Record<SettingName, SettingSource> } {
  const stored = storedFrom(rows);
  const configured: ShopSettings = {
    adminPhone: fallback.sms.adminPhone?.trim() || null,
    supportPhone: fallback.assistant.contact.phone || DEFAULT_SUPPORT.phone,
    supportEmail: fallback.assistant.contact.email || DEFAULT_SUPPORT.email,
    bankDetails: fallback.bankDetails?.trim() || null,
    exchangeRates: null,
    lowStockThreshold: DEFAULT_LOW_STOCK_THRESHOLD,
    storeAddress: DEFAULT_STORE_DETAILS.address,
    storeLandmark: null,
    storePin: null,
    storeHours: DEFAULT_STORE_DETAILS.hours,
    pickupHours: DEFAULT_STORE_DETAILS.pickupHours,
    socialLinks: [...(fallback.social ?? [])],
    storeTin: null,
    whatsappNumber: null,
    cartReminders: false,
    returnDays: DEFAULT_RETURN_DAYS,
    exchangeDays: DEFAULT_EXCHANGE_DAYS,
    returnPickupFee: DEFAULT_PICKUP_FEE_RULE,
    whatsappAssistant: 'off',
  };
  const values = { ...configured, ...stored };
  const sources = Object.fromEntries(
    SETTING_NAMES.map((name) => [name, name in stored ? 'desk' : 'configuration']),
  ) as Record<SettingName, SettingSource>;
  return { values, sources };
}

/** The shop's own details out of its settings (issue 34). */
export function storeDetailsOf(values: ShopSettings): StoreDetails {
  return {
    address: values.storeAddress,
    landmark: values.storeLandmark,
    latitude: values.storePin?.latitude ?? null,
    longitude: values.storePin?.longitude ?? null,
    hours: values.storeHours,
    pickupHours: values.pickupHours,
    socialLinks: values.socialLinks,
    tin: values.storeTin,
    whatsappNumber: values.whatsappNumber,
  };
}

/** The settings, read on their own (where no batch is at hand). */
export async function shopSettings(db: Db, fallback: SettingsFallback): Promise<ShopSettings> {
  return settingsFrom(await settingsQuery(db), fallback).values;
}

/** The low-stock threshold as SQL (the owner's number, else the default), so low stock is read
 * in the same statement as the threshold. */
export const lowStockThresholdSql = sql<number>`coalesce((
  select setting_value::int from system_settings
  where setting_key = ${SETTING_KEYS.lowStockThreshold} and setting_value ~ '^[0-9]{1,4}$'
), ${DEFAULT_LOW_STOCK_THRESHOLD})`;

/** A window's stored days, when usable (whole, 1 to WINDOW_DAYS_MAX). */
function windowDays(text: string | undefined): number | null {
  const days = Number(text);
  return text && Number.isInteger(days) && days >= 1 && days <= WINDOW_DAYS_MAX ? days : null;
}

/** A window's days as SQL (the owner's, else the default), read inside the statement it guards. */
const windowDaysSql = (key: string, fallback: number) => sql<number>`coalesce((
  select setting_value::int from system_settings
  where setting_key = ${key} and setting_value ~ '^[0-9]{1,2}$'
    and setting_value::int between 1 and ${WINDOW_DAYS_MAX}
), ${fallback})`;
export const returnDaysSql = windowDaysSql(SETTING_KEYS.returnDays, DEFAULT_RETURN_DAYS);
export const exchangeDaysSql = windowDaysSql(SETTING_KEYS.exchangeDays, DEFAULT_EXCHANGE_DAYS);

/** A save's new values: absent unchanged, null cleared (the configuration's value again). */
export type SettingsChange = {
  [K in SettingName]?: K extends 'exchangeRates'
    ? { USD: number; EUR: number; GBP: number } | null
    : K extends 'lowStockThreshold' | 'returnDays' | 'exchangeDays'
      ? number | null
      : string | null; // the details with parts: their JSON text
};

/** What the desk stores for each changed setting (null: the row goes). */
function storedText(name: SettingName, change: SettingsChange, day: string): string | null {
  const value = change[name];
  if (value === null || value === undefined) return null;
  if (name === 'exchangeRates') return JSON.stringify({ ...(value as object), setOn: day });
  return String(value);
}

/**
 * The names a save really changes, against what is stored now (a form sends every field; a
 * staff member's unchanged bank details are not a change to money settings).
 */
export async function changedSettings(db: Db, change: SettingsChange): Promise<SettingName[]> {
  const rows = await settingsQuery(db);
  const stored = storedFrom(rows);
  const texts = new Map(rows.map((row) => [row.key, row.value]));
  return SETTING_NAMES.filter((name) => {
    if (change[name] === undefined) return false;
    if (JSON_SETTINGS.includes(name)) {
      return (texts.get(SETTING_KEYS[name]) ?? null) !== (change[name] ?? null);
    }
    const now = stored[name] ?? null;
    const next = change[name] ?? null;
    if (name === 'exchangeRates' && now && next) {
      const rates = next as { USD: number; EUR: number; GBP: number };
      const old = now as ExchangeRates;
      return rates.USD !== old.USD || rates.EUR !== old.EUR || rates.GBP !== old.GBP;
    }
    return now !== next;
  });
}

/** The writes of a save, for the caller's db.batch beside its record. */
export function settingsWrites(db: Db, names: SettingName[], change: SettingsChange, day: string) {
  const keep = names.filter((name) => storedText(name, change, day) !== null);
  const clear = names.filter((name) => storedText(name, change, day) === null);
  const writes = [];
  if (keep.length > 0) {
    writes.push(
      db
        .insert(systemSettings)
        .values(
          keep.map((name) => ({
            settingKey: SETTING_KEYS[name],
            settingValue: storedText(name, change, day) as string,
          })),
        )
        .onConflictDoUpdate({
          target: systemSettings.settingKey,
          set: { settingValue: sql`excluded.setting_value`, updatedAt: new Date() },
        }),
    );
  }
  if (clear.length > 0) {
    writes.push(
      db.delete(systemSettings).where(
        inArray(
          systemSettings.settingKey,
          clear.map((name) => SETTING_KEYS[name]),
        ),
      ),
    );
  }
  return writes;
}
