// The shop's own details as shoppers meet them (issue 34; decision 0077): the week's hours, the
// defaults (today's shop), and the ways the shop writes them — the footer's and the contact page's
// hours, the assistant's line, the map link, the pickup option's words, the home's structured
// data. No valibot here: the shopper's pages load this; the desk's input is
// core/desk-store-details.ts.
import type { SocialLink } from './social.ts';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];
export const DAY_LABELS: Record<Day, { short: string; long: string }> = {
  mon: { short: 'Mon', long: 'Monday' },
  tue: { short: 'Tue', long: 'Tuesday' },
  wed: { short: 'Wed', long: 'Wednesday' },
  thu: { short: 'Thu', long: 'Thursday' },
  fri: { short: 'Fri', long: 'Friday' },
  sat: { short: 'Sat', long: 'Saturday' },
  sun: { short: 'Sun', long: 'Sunday' },
};

/** A day's hours, 'HH:MM' 24-hour, closing after opening; null: closed that day. */
export type DayHours = { open: string; close: string } | null;
export type WeekHours = Record<Day, DayHours>;

/** A pin's decimals: 6 is about 10 cm, more than any map needs. */
export const PIN_DECIMALS = 6;

/** Today's shop, until the owner says otherwise: the footer's and the assistant's hours. */
export const DEFAULT_HOURS: WeekHours = {
  mon: { open: '08:00', close: '20:00' },
  tue: { open: '08:00', close: '20:00' },
  wed: { open: '08:00', close: '20:00' },
  thu: { open: '08:00', close: '20:00' },
  fri: { open: '08:00', close: '20:00' },
  sat: { open: '08:00', close: '20:00' },
  sun: { open: '10:00', close: '18:00' },
};
/** The spec's pickup hours (the pickup text's "9AM-6PM daily"). */
export const DEFAULT_PICKUP_HOURS = '9AM-6PM daily';
/** The address the contact page and the footer have always shown. */
export const DEFAULT_ADDRESS = 'Kampala, Uganda';

/** The details as the shop uses them. */
export type StoreDetails = {
  address: string;
  landmark: string | null;
  latitude: number | null;
  longitude: number | null;
  hours: WeekHours;
  pickupHours: string;
  socialLinks: SocialLink[];
  tin: string | null;
  /** The number shoppers write to on WhatsApp (+256…), or null: none (issue 37). */
  whatsappNumber: string | null;
};
export type StoreDetailName = keyof StoreDetails;
export const STORE_DETAIL_NAMES = [
  'address',
  'landmark',
  'latitude',
  'longitude',
  'hours',
  'pickupHours',
  'socialLinks',
  'tin',
  'whatsappNumber',
] as const satisfies readonly StoreDetailName[];

/** Today's shop: what every page shows before the owner sets anything. */
export const DEFAULT_STORE_DETAILS: StoreDetails = {
  address: DEFAULT_ADDRESS,
  landmark: null,
  latitude: null,
  longitude: null,
  hours: DEFAULT_HOURS,
  pickupHours: DEFAULT_PICKUP_HOURS,
  socialLinks: [],
  tin: null,
  whatsappNumber: null,
};

/** The words the shop's pages use for the details. */
export const STORE_TEXT = {
  closed: 'Closed',
  viewOnMap: 'View on map',
} as const;

/** '08:00' → '8AM', '18:30' → '6:30PM', '12:00' → '12PM', '00:00' → '12AM'. */
export function clockText(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}${m ? `:${String(m).padStart(2, '0')}` : ''}${h < 12 ? 'AM' : 'PM'}`;
}

/** The week in runs of days that keep the same hours: Mon–Sat 8AM–8PM, Sun 10AM–6PM. */
export function hoursLines(
  hours: WeekHours,
  dash = '–',
): { days: string; time: string; closed: boolean }[] {
  const lines: { from: Day; to: Day; hours: DayHours }[] = [];
  for (const day of DAYS) {
    const last = lines.at(-1);
    const same =
      last &&
      (last.hours === null
        ? hours[day] === null
        : hours[day] !== null &&
          hours[day].open === last.hours.open &&
          hours[day].close === last.hours.close);
    if (last && same) last.to = day;
    else lines.push({ from: day, to: day, hours: hours[day] });
  }
  return lines.map((line) => ({
    days:
      line.from === line.to
        ? DAY_LABELS[line.from].short
        : line.from === 'mon' && line.to === 'sun'
          ? 'Daily'
          : `${DAY_LABELS[line.from].short}${dash}${DAY_LABELS[line.to].short}`,
    time: line.hours
      ? `${clockText(line.hours.open)}${dash}${clockText(line.hours.close)}`
      : STORE_TEXT.closed,
    closed: line.hours === null,
  }));
}

/** The week on one line: "Mon-Sat 8AM-8PM, Sun 10AM-6PM" (the assistant's, plain hyphens). */
export function hoursText(hours: WeekHours, { dash = '-', between = ', ' } = {}): string {
  return hoursLines(hours, dash)
    .map((line) => `${line.days} ${line.time}`)
    .join(between);
}

/** A pin's map link (no map SDK): Google Maps' search for the point. */
export function mapLink(latitude: number, longitude: number): string {
  return `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`;
}

/** The address and landmark on one line: "Plot 12 Kampala Road, Kampala · opposite the post office". */
export function placeText(details: Pick<StoreDetails, 'address' | 'landmark'>): string {
  return details.landmark ? `${details.address} · ${details.landmark}` : details.address;
}

/**
 * The pickup option's words as the owner's details make them: the spec's option reads "At the
 * duuka boutique in Kampala, 9AM-6PM daily. …"; her pickup hours take the place of "9AM-6PM
 * daily" and her address that of "in Kampala". Words that name neither are kept as written.
 */
export function pickupWords(
  words: string,
  details: Pick<StoreDetails, 'address' | 'pickupHours'>,
): string {
  let out = words;
  if (details.pickupHours !== DEFAULT_PICKUP_HOURS) {
    out = out.replace(DEFAULT_PICKUP_HOURS, details.pickupHours);
  }
  if (details.address !== DEFAULT_ADDRESS) {
    out = out.replace(/\bin Kampala\b/, `at ${details.address}`);
  }
  return out;
}

/** schema.org's opening hours: one entry per run of days with the same hours (closed days none). */
export function openingHoursSpecification(hours: WeekHours) {
  const runs = new Map<string, string[]>();
  for (const day of DAYS) {
    const today = hours[day];
    if (!today) continue;
    const key = `${today.open}-${today.close}`;
    runs.set(key, [...(runs.get(key) ?? []), DAY_LABELS[day].long]);
  }
  return [...runs.entries()].map(([key, days]) => {
    const [opens = '', closes = ''] = key.split('-');
    return { '@type': 'OpeningHoursSpecification', dayOfWeek: days, opens, closes };
  });
}

/**
 * The details as the shoppers' pages show them, written once on the server (contact.channels):
 * the pages' code carries no hours logic (the client JS budgets leave no room for it).
 */
export type ShownStoreDetails = {
  address: string;
  landmark: string | null;
  /** The address and landmark on one line (checkout's pickup). */
  place: string;
  latitude: number | null;
  longitude: number | null;
  /** The pin's map link, or null without a pin. */
  mapUrl: string | null;
  /** Each day, Monday first: "8AM–8PM" or "Closed" (the contact page). */
  days: { day: Day; label: string; time: string }[];
  /** Runs of days with the same hours (the footer): Mon–Sat 8AM–8PM, Sun 10AM–6PM. */
  lines: { days: string; time: string }[];
  /** The week on one line (the side menu, the assistant's menu): "Mon-Sat 8AM-8PM · Sun 10AM-6PM". */
  summary: string;
  /** schema.org's opening hours (the home's LocalBusiness). */
  openingHours: ReturnType<typeof openingHoursSpecification>;
};

/** The details as shown (never the TIN: it is for receipts; the WhatsApp number goes out only
 * where the shop has WhatsApp: contact.channels' `whatsapp`). */
export function shownStoreDetails(details: StoreDetails): ShownStoreDetails {
  const { latitude, longitude, hours } = details;
  return {
    address: details.address,
    landmark: details.landmark,
    place: placeText(details),
    latitude,
    longitude,
    mapUrl: latitude !== null && longitude !== null ? mapLink(latitude, longitude) : null,
    days: DAYS.map((day) => {
      const today = hours[day];
      return {
        day,
        label: DAY_LABELS[day].short,
        time: today ? `${clockText(today.open)}–${clockText(today.close)}` : STORE_TEXT.closed,
      };
    }),
    lines: hoursLines(hours).map(({ days, time }) => ({ days, time })),
    summary: hoursText(hours, { between: ' · ' }),
    openingHours: openingHoursSpecification(hours),
  };
}
