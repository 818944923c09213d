// The shop's return settings (issue 36, decision 0086): the windows' defaults and the pickup's
// rule, and how the desk's settings form takes them. Apart from core/returns.ts because the
// desk's settings schema (core/desk-shop.ts) is in every page's first script.
import * as v from 'valibot';
import { wholeSchema } from './bounds.ts';

/** The shop's windows until the owner sets others (days counted from delivery or collection). */
export const DEFAULT_RETURN_DAYS = 14;
export const DEFAULT_EXCHANGE_DAYS = 7;
export const WINDOW_DAYS_MAX = 90;

/** The shop's windows, in days counted from delivery or collection (the desk's settings). */
export type ReturnWindows = { returnDays: number; exchangeDays: number };
export const DEFAULT_WINDOWS: ReturnWindows = {
  returnDays: DEFAULT_RETURN_DAYS,
  exchangeDays: DEFAULT_EXCHANGE_DAYS,
};

/** How the shop charges a return's pickup: the zone's delivery fee, or always free. */
export const PICKUP_FEE_RULES = ['zone', 'free'] as const;
export type PickupFeeRule = (typeof PICKUP_FEE_RULES)[number];
export const DEFAULT_PICKUP_FEE_RULE: PickupFeeRule = 'zone';

export const RETURN_SETTINGS_TEXT = {
  badDays: (field: string) => `${field} must be whole days from 1 to ${WINDOW_DAYS_MAX}.`,
  badPickupRule: 'Choose whether a return pickup costs the zone fee or is free.',
} as const;

/** A window's days as the settings form sends it (absent: unchanged; null: back to the default). */
export const windowDaysInput = (field: string) =>
  v.optional(v.nullable(wholeSchema(1, WINDOW_DAYS_MAX, RETURN_SETTINGS_TEXT.badDays(field))));
