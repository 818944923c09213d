// The shop's own details on the desk (issue 34; decision 0077): what desk.saveStoreDetails takes
// (the owner's address and landmark, her map pin, the week's hours, the pickup hours, the social
// pages and the TIN), its texts, and the reading back of what is stored. The details as shoppers
// meet them (defaults, hours, words) are core/store-details.ts.
import * as v from 'valibot';
import { requestKey } from './desk-roles.ts';
import { isValidPhone, normalisePhone } from './phone.ts';
import { type SocialLink, socialLinkOf } from './social.ts';
import {
  DAY_LABELS,
  DAYS,
  type Day,
  PIN_DECIMALS,
  STORE_TEXT,
  type WeekHours,
} from './store-details.ts';
import { invisibleCharacters, typedText } from './text.ts';

export const ADDRESS_MAX = 200;
export const LANDMARK_MAX = 200;
export const PICKUP_HOURS_MAX = 60;
export const SOCIAL_LINKS_MAX = 8;
export const SOCIAL_LINK_MAX = 300;

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
  whatsappInvalid:
    'WhatsApp number must be a phone number: +256 and 9 digits, or 10 to 15 digits, e.g. 0772 123 456.',
  whatsappHint:
    'The number shoppers write to on WhatsApp; the one your WhatsApp Business app or Cloud API uses.',
  closed: STORE_TEXT.closed,
  viewOnMap: STORE_TEXT.viewOnMap,
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

/** The shop's WhatsApp number as typed ('0772 123 456', '+256 772…'), kept as +256…; blank: none. */
const whatsappNumber = v.optional(
  v.nullable(
    v.pipe(
      v.string(T.whatsappInvalid),
      v.trim(),
      v.maxLength(32, T.whatsappInvalid),
      v.check((text) => /^[+\d\s().-]*$/.test(text), T.whatsappInvalid),
      v.transform((text): string | null => (text === '' ? null : normalisePhone(text))),
      v.check((phone) => phone === null || isValidPhone(phone), T.whatsappInvalid),
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
      whatsappNumber,
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
