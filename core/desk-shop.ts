// The desk's shop part (issue 22): the shop's settings, its staff, the record and the dashboard —
// their inputs and texts, shared by the pages (before sending) and the procedures (on arrival).
import * as v from 'valibot';
import { cursorSchema, wholeSchema } from './bounds.ts';
import { ugandanNumber } from './delivery-rules.ts';
import { requestKey } from './desk-roles.ts';
import { KAMPALA_OFFSET_MS } from './kampala-time.ts';
import { displayNumber } from './mobile-money.ts';
import { FOREIGN_CURRENCIES, formatUGX } from './money.ts';
import { statusLabel } from './order-rules.ts';
import { PICKUP_FEE_RULES, RETURN_SETTINGS_TEXT, windowDaysInput } from './return-windows.ts';
import { invisibleCharacters, typedText } from './text.ts';

export const BANK_DETAILS_MAX = 500;
export const SUPPORT_EMAIL_MAX = 254;
export const LOW_STOCK_MAX = 1000;
/** UGX for one unit: far above any real rate, to catch a slip of the finger. */
export const RATE_MAX = 1_000_000;
export const RECORD_PAGE = 50;

export const SHOP_TEXT = {
  phoneInvalid: (field: string) => `${field} must be a Ugandan number, e.g. 0772 123 456.`,
  emailInvalid: 'Support email must be a valid email address.',
  emailTooLong: 'Support email must be 254 characters or fewer.',
  bankTooLong: 'Bank transfer details must be 500 characters or fewer.',
  notText: (field: string) => `${field} must be text.`,
  rateInvalid: (code: string) =>
    `${code} must be a whole number of shillings, from 1 to 1,000,000.`,
  ratesTogether: 'Set all three exchange rates, or clear all three.',
  thresholdInvalid: 'Low-stock threshold must be a whole number from 0 to 1,000.',
  settingsInvalid: 'Please check the settings and try again.',
  saved: 'Settings saved',
  staffEmailInvalid: 'Please enter the email the person signed up with.',
  staffRoleInvalid: 'Role must be staff or owner.',
  noAccount: (email: string) =>
    `No account has the email ${email}. Ask them to sign up on the shop first, then add them.`,
  notYourself: 'You cannot remove yourself from the desk. Ask another owner.',
  configuredOwner: (email: string) =>
    `${email} is an owner from the shop’s configuration (OPERATOR_EMAILS): remove it there.`,
  notStaff: (email: string) => `${email} does not work at the desk.`,
  badCursor: 'This page of the record could not be found. Reload the page.',
} as const;

/** Each setting as the desk names it (the settings' labels, the record's "Changed:"). */
export const SETTING_LABELS: Record<string, string> = {
  adminPhone: 'Admin phone',
  supportPhone: 'Support phone',
  supportEmail: 'Support email',
  bankDetails: 'Bank transfer details',
  exchangeRates: 'Exchange rates',
  lowStockThreshold: 'Low-stock threshold',
  storeAddress: 'Address',
  storeLandmark: 'Landmark',
  storePin: 'Map pin',
  storeHours: 'Opening hours',
  pickupHours: 'Pickup hours',
  socialLinks: 'Social links',
  storeTin: 'TIN',
  whatsappNumber: 'WhatsApp number',
  cartReminders: 'Cart reminders',
  returnDays: 'Return window (days)',
  exchangeDays: 'Exchange window (days)',
  returnPickupFee: 'Return pickup fee',
};

/** The settings only the owner may change: where money goes, what prices read as, who is alerted. */
export const OWNER_SETTINGS = [
  'adminPhone',
  'bankDetails',
  'exchangeRates',
  // The after-sale's promise and what a pickup costs the shopper (issue 36).
  'returnDays',
  'exchangeDays',
  'returnPickupFee',
] as const;

/** A Ugandan number as typed ('0772 123 456', '+256 772…'), stored as +256XXXXXXXXX. */
export function ugandanPhone(field: string) {
  return v.pipe(
    typedText({
      notText: SHOP_TEXT.notText(field),
      max: 32,
      tooLong: SHOP_TEXT.phoneInvalid(field),
      invisible: invisibleCharacters(field),
    }),
    ugandanNumber(SHOP_TEXT.phoneInvalid(field)),
  );
}

/** A field the owner may clear (null or blank: the configuration's value again). */
function clearable<T>(schema: v.GenericSchema<string, T>, notText: string) {
  return v.optional(
    v.nullable(
      v.pipe(
        v.string(notText),
        v.rawTransform(({ dataset, addIssue, NEVER }): T | null => {
          if (dataset.value.trim() === '') return null;
          const checked = v.safeParse(schema, dataset.value);
          if (checked.success) return checked.output;
          addIssue({ message: checked.issues[0].message });
          return NEVER;
        }),
      ),
    ),
  );
}

const rate = (code: string) => wholeSchema(1, RATE_MAX, SHOP_TEXT.rateInvalid(code));

/**
 * What the settings form sends: each field absent (unchanged), null or '' (cleared: back to the
 * configuration) or its new value.
 */
export const saveSettingsInput = v.strictObject(
  {
    requestKey,
    adminPhone: clearable(ugandanPhone('Admin phone'), SHOP_TEXT.phoneInvalid('Admin phone')),
    supportPhone: clearable(ugandanPhone('Support phone'), SHOP_TEXT.phoneInvalid('Support phone')),
    supportEmail: clearable(
      v.pipe(
        typedText({
          notText: SHOP_TEXT.emailInvalid,
          max: SUPPORT_EMAIL_MAX,
          tooLong: SHOP_TEXT.emailTooLong,
          invisible: SHOP_TEXT.emailInvalid,
        }),
        v.email(SHOP_TEXT.emailInvalid),
      ),
      SHOP_TEXT.emailInvalid,
    ),
    bankDetails: clearable(
      typedText({
        notText: SHOP_TEXT.notText('Bank transfer details'),
        max: BANK_DETAILS_MAX,
        tooLong: SHOP_TEXT.bankTooLong,
        invisible: invisibleCharacters('Bank transfer details'),
        lines: true,
      }),
      SHOP_TEXT.notText('Bank transfer details'),
    ),
    exchangeRates: v.optional(
      v.nullable(
        v.strictObject(
          Object.fromEntries(FOREIGN_CURRENCIES.map((code) => [code, rate(code)])) as Record<
            (typeof FOREIGN_CURRENCIES)[number],
            ReturnType<typeof rate>
          >,
          SHOP_TEXT.ratesTogether,
        ),
      ),
    ),
    lowStockThreshold: v.optional(
      v.nullable(wholeSchema(0, LOW_STOCK_MAX, SHOP_TEXT.thresholdInvalid)),
    ),
    returnDays: windowDaysInput('Return window'),
    exchangeDays: windowDaysInput('Exchange window'),
    returnPickupFee: v.optional(
      v.nullable(v.picklist(PICKUP_FEE_RULES, RETURN_SETTINGS_TEXT.badPickupRule)),
    ),
  },
  SHOP_TEXT.settingsInvalid,
);
export type SaveSettingsInput = v.InferOutput<typeof saveSettingsInput>;

const staffEmail = v.pipe(
  v.string(SHOP_TEXT.staffEmailInvalid),
  v.trim(),
  v.maxLength(SUPPORT_EMAIL_MAX, SHOP_TEXT.staffEmailInvalid),
  v.email(SHOP_TEXT.staffEmailInvalid),
  v.toLowerCase(),
);

export const addStaffInput = v.strictObject(
  {
    email: staffEmail,
    role: v.optional(v.picklist(['staff', 'owner'], SHOP_TEXT.staffRoleInvalid), 'staff'),
    requestKey: v.optional(requestKey),
  },
  SHOP_TEXT.staffEmailInvalid,
);

export const removeStaffInput = v.strictObject(
  { email: staffEmail, requestKey: v.optional(requestKey) },
  SHOP_TEXT.staffEmailInvalid,
);

export const recordInput = v.optional(
  v.strictObject(
    {
      before: v.optional(cursorSchema(SHOP_TEXT.badCursor)),
    },
    SHOP_TEXT.badCursor,
  ),
);

/** The starts (as instants) of today, this week (from Monday) and this month, in Kampala. */
export function kampalaPeriods(now: Date): { today: Date; week: Date; month: Date } {
  const offset = KAMPALA_OFFSET_MS;
  const local = new Date(now.getTime() + offset);
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const sinceMonday = (local.getUTCDay() + 6) % 7;
  return {
    today: new Date(day - offset),
    week: new Date(day - sinceMonday * 86_400_000 - offset),
    month: new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - offset),
  };
}

/** A calendar day written 'YYYY-MM-DD' that exists (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** The first instant of a Kampala day ('YYYY-MM-DD'), `plusDays` later, as an ISO instant. */
export function kampalaMidnight(day: string, plusDays = 0): string {
  return new Date(
    Date.parse(`${day}T00:00:00Z`) + plusDays * 86_400_000 - KAMPALA_OFFSET_MS,
  ).toISOString();
}

/** The day in Kampala, 'YYYY-MM-DD' (the exchange rates' setOn). */
export function kampalaDay(now: Date): string {
  return new Date(now.getTime() + KAMPALA_OFFSET_MS).toISOString().slice(0, 10);
}

// The record's lines about an order (issue 34, decision 0075): read by the Record page and the
// order's own page (app/routes/desk/orders/$orderId.tsx).
/** The desk record's actions about an order, and how the record names them. */
export const ORDER_RECORD_ACTIONS = {
  'order.status': 'Status changed',
  'order.paid': 'Marked paid',
  'order.refunded': 'Refund recorded',
  'order.noted': 'Note added',
} as const;
export type OrderRecordAction = keyof typeof ORDER_RECORD_ACTIONS;

/**
 * A record line's detail in words: "From Processing to Out for delivery · rider Okello (0772
 * 123 456)", "Ref FT26329XK81 · UGX 1,250,000", the note's text. Null for anything else.
 */
export function orderRecordDetail(action: string, details: unknown): string | null {
  const d = (details ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof d[key] === 'string' ? (d[key] as string) : null);
  switch (action) {
    case 'order.status': {
      const from = text('from');
      const to = text('to');
      if (!to) return null;
      const rider = d.rider as { name?: unknown; phone?: unknown } | null | undefined;
      // In words: the shop's font has no arrow.
      const parts = [
        from ? `From ${statusLabel(from)} to ${statusLabel(to)}` : `To ${statusLabel(to)}`,
      ];
      if (rider && typeof rider.name === 'string') {
        parts.push(
          `rider ${rider.name}${typeof rider.phone === 'string' ? ` (${displayNumber(rider.phone)})` : ''}`,
        );
      }
      if (text('tracking')) parts.push(`tracking ${text('tracking')}`);
      if (text('reason')) parts.push(`reason: ${text('reason')}`);
      return parts.join(' · ');
    }
    case 'order.paid':
    case 'order.refunded': {
      const parts = [];
      if (text('reference')) parts.push(`Ref ${text('reference')}`);
      if (typeof d.amount === 'number') parts.push(formatUGX(d.amount));
      return parts.length > 0 ? parts.join(' · ') : null;
    }
    case 'order.noted':
      return text('text');
    default:
      return null;
  }
}
