// Kampala's clock (Africa/Kampala is UTC+3 all year, no daylight saving), apart from the order
// rules so that the root layout's year (decision 0080) brings no schema into every page's script.

export const KAMPALA_OFFSET_HOURS = 3;
export const KAMPALA_OFFSET_MS = KAMPALA_OFFSET_HOURS * 3_600_000;

const DAY_MS = 86_400_000;

/** The Kampala calendar day a moment falls on, as a day number (days since 1970-01-01). */
export const kampalaDay = (at: Date | number) =>
  Math.floor((new Date(at).getTime() + KAMPALA_OFFSET_MS) / DAY_MS);

/**
 * Whether a window whose last day is `lastDay` (an ISO date: the day at midnight UTC, as
 * core/returns.ts' windowLastDay makes it) is still open on `now`, in Kampala days. Here, not
 * with the returns' rules, so the order page offers a return without their schemas.
 */
export function lastDayOpen(lastDay: string, now: Date | number): boolean {
  return kampalaDay(now) <= Math.floor(Date.parse(lastDay) / DAY_MS);
}

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
