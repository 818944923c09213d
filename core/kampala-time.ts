// Kampala's clock (Africa/Kampala is UTC+3 all year, no daylight saving), apart from the order
// rules so that the root layout's year (decision 0080) brings no schema into every page's script.

export const KAMPALA_OFFSET_HOURS = 3;
export const KAMPALA_OFFSET_MS = KAMPALA_OFFSET_HOURS * 3_600_000;

/** The year in Kampala now (the footer's ©). */
export function kampalaYear(now = Date.now()): number {
  return new Date(now + KAMPALA_OFFSET_MS).getUTCFullYear();
}

/** The months as the shop writes a date ("14 November 2026"): the order rules and the offers. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
