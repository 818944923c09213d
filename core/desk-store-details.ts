// The shop's own details (issue 34; decision 0077): the boutique's address and landmark, its map
// pin, its opening hours per day, the pickup hours, its social pages and its TIN. The owner sets
// them on the desk (desk.saveStoreDetails); what she has not set is today's shop (the defaults
// below) or, for the social pages, the configuration (SOCIAL_LINKS). Their inputs, texts and the
// ways the shop writes them (the footer's hours, the pickup text, the home's structured data).
import * as v from 'valibot';
import { requestKey } from './desk-roles.ts';
import { type SocialLink, socialLinkOf } from './social.ts';
import { invisibleCharacters, typedText } from './text.ts';

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

export const ADDRESS_MAX = 200;
export const LANDMARK_MAX = 200;
export const PICKUP_HOURS_MAX = 60;
export const SOCIAL_LINKS_MAX = 8;
export const SOCIAL_LINK_MAX = 300;
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
] as const satisfies readonly StoreDetailName[];

/** What the shoppers' pages show (the TIN is for receipts only). */
export type PublicStoreDetails = Omit<StoreDetails, 'tin' | 'socialLinks'>;

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
};

export const DESK_STORE_DETAILS_TEXT = {
  title: 'Shop details',
  saved: 'Shop details saved',
  nothingChanged: 'Nothing to save: the details are as they were.',
  invalid: 'Please check the shop details and try again.',
  notText: (field: string) => `${field} must be text.`,
  addressTooLong: `Address must be ${ADDRESS_MAX} characters or fewer.`,
  landmarkTooLong: `Landmark must be ${LANDMARK_MAX} characters or fewer.`,
  latitudeInvalid: 'Latitude must be a number from -90 to 90, with at most 6 decimals.',
  longitudeInvalid: 'Longitude must be a number from -180 to 180, with at most 6 decimals.',
  pinTogether: 'Set both latitude and longitude for the map pin, or clear both.',
  hoursInvalid: 'Opening hours must give each day, Monday to Sunday, its hours or Closed.',
  timeInvalid: (day: string) => `${day}: times must be 24-hour, e.g. 08:00 or 18:30.`,
  closeAfterOpen: (day: string) => `${day}: closing time must be after opening time.`,
  pickupTooLong: `Pickup hours must be ${PICKUP_HOURS_MAX} characters or fewer.`,
  pickupRequired: 'Pickup hours cannot be empty: leave them as they are, or clear for the default.',
  socialInvalid:
    'Social links must be https links to Instagram, Facebook, X or TikTok pages, e.g. https://www.instagram.com/duuka.ug.',
  socialTooMany: `Give at most ${SOCIAL_LINKS_MAX} social links.`,
  tinInvalid: 'TIN must be the 10 digits of a Uganda Revenue Authority TIN, e.g. 1000123456.',
  closed: 'Closed',
  viewOnMap: 'View on map',
} as const;
const T = DESK_STORE_DETAILS_TEXT;

/** A text field the owner may clear (null or blank: the default again). */
function clearableText(field: string, max: number, tooLong: string) {
  return v.optional(
    v.nullable(
      v.pipe(
        typedText({
          notText: T.notText(field),
          max,
          tooLong,
          invisible: invisibleCharacters(field),
        }),
        v.transform((text): string | null => text || null),
      ),
    ),
  );
}

const decimalsOk = (value: number) =>
  Number.isFinite(value) &&
  Math.abs(Math.round(value * 10 ** PIN_DECIMALS) - value * 10 ** PIN_DECIMALS) < 1e-6;

function coordinate(limit: number, message: string) {
  return v.optional(
    v.nullable(
      v.pipe(
        v.number(message),
        v.finite(message),
        v.minValue(-limit, message),
        v.maxValue(limit, message),
        v.check(decimalsOk, message),
      ),
    ),
  );
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function dayHours(day: Day) {
  const name = DAY_LABELS[day].long;
  return v.pipe(
    v.nullable(
      v.strictObject(
        {
          open: v.pipe(v.string(T.timeInvalid(name)), v.regex(TIME, T.timeInvalid(name))),
          close: v.pipe(v.string(T.timeInvalid(name)), v.regex(TIME, T.timeInvalid(name))),
        },
        T.timeInvalid(name),
      ),
    ),
    v.check((hours) => hours === null || hours.close > hours.open, T.closeAfterOpen(name)),
  );
}

const weekHours = v.strictObject(
  Object.fromEntries(DAYS.map((day) => [day, dayHours(day)])) as Record<
    Day,
    ReturnType<typeof dayHours>
  >,
  T.hoursInvalid,
);

const socialLinks = v.pipe(
  v.array(
    v.pipe(
      v.string(T.socialInvalid),
      v.trim(),
      v.maxLength(SOCIAL_LINK_MAX, T.socialInvalid),
      v.rawTransform(({ dataset, addIssue, NEVER }): string => {
        const link = socialLinkOf(dataset.value);
        if (link) return link.url;
        addIssue({ message: T.socialInvalid });
        return NEVER;
      }),
    ),
    T.socialInvalid,
  ),
  v.maxLength(SOCIAL_LINKS_MAX, T.socialTooMany),
);

const tin = v.optional(
  v.nullable(
    v.pipe(
      v.string(T.tinInvalid),
      v.maxLength(32, T.tinInvalid),
      v.transform((text) => text.replace(/[\s-]/g, '')),
      v.check((text) => text === '' || /^\d{10}$/.test(text), T.tinInvalid),
      v.transform((text): string | null => text || null),
    ),
  ),
);

/**
 * What desk.saveStoreDetails takes: any of the details. Absent: unchanged; null (or a blank
 * text): back to the default (the configuration's, for the social links). The pin's two numbers
 * come together or not at all.
 */
export const saveStoreDetailsInput = v.pipe(
  v.strictObject(
    {
      requestKey: v.optional(requestKey),
      address: clearableText('Address', ADDRESS_MAX, T.addressTooLong),
      landmark: clearableText('Landmark', LANDMARK_MAX, T.landmarkTooLong),
      latitude: coordinate(90, T.latitudeInvalid),
      longitude: coordinate(180, T.longitudeInvalid),
      hours: v.optional(v.nullable(weekHours)),
      pickupHours: clearableText('Pickup hours', PICKUP_HOURS_MAX, T.pickupTooLong),
      socialLinks: v.optional(v.nullable(socialLinks)),
      tin,
    },
    T.invalid,
  ),
  v.check(
    (input) =>
      (input.latitude === undefined) === (input.longitude === undefined) &&
      (input.latitude === null) === (input.longitude === null),
    T.pinTogether,
  ),
);
export type SaveStoreDetailsInput = v.InferOutput<typeof saveStoreDetailsInput>;

// ---- Reading what is stored (system_settings' texts) --------------------------------------------

/** A stored week of hours, or null when it is not one (then the default stands). */
export function parseHours(text: string | undefined): WeekHours | null {
  if (!text) return null;
  try {
    const checked = v.safeParse(weekHours, JSON.parse(text));
    return checked.success ? checked.output : null;
  } catch {
    return null;
  }
}

/** A stored pin ({"latitude":…,"longitude":…}), or null. */
export function parsePin(text: string | undefined): { latitude: number; longitude: number } | null {
  if (!text) return null;
  try {
    const pin = JSON.parse(text) as { latitude?: unknown; longitude?: unknown };
    const { latitude, longitude } = pin ?? {};
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
    return { latitude, longitude };
  } catch {
    return null;
  }
}

/** Stored social links (a JSON array of https addresses), or null. */
export function parseSocialLinks(text: string | undefined): SocialLink[] | null {
  if (!text) return null;
  try {
    const list = JSON.parse(text) as unknown;
    if (!Array.isArray(list)) return null;
    return list.flatMap((url) => {
      const link = typeof url === 'string' ? socialLinkOf(url) : null;
      return link ? [link] : [];
    });
  } catch {
    return null;
  }
}

// ---- Writing them --------------------------------------------------------------------------------

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
      : T.closed,
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
