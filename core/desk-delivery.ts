// The desk's delivery settings (issue 23): the options the owner offers (fees, days, cash on
// delivery, retired or offered) and the free-delivery threshold — their input and texts, shared by
// the page (before sending) and desk.saveDeliveryOptions (on arrival). Options are never deleted:
// orders name them, so an option the shop no longer offers is retired (active false).
import * as v from 'valibot';
import { wholeSchema } from './bounds.ts';
import { DELIVERY_KINDS, type DeliveryKind, type DeliveryOption } from './delivery-rules.ts';
import { requestKey } from './desk-roles.ts';
import { slugify } from './slug.ts';
import { invisibleCharacters, typedText } from './text.ts';

export const OPTION_NAME_MAX = 60;
export const OPTION_DETAILS_MAX = 200;
export const OPTION_FEE_MAX = 1_000_000;
export const OPTION_DAYS_MAX = 60;
/** More options than a shop could offer at one checkout: a slip, or a flood. */
export const OPTIONS_MAX = 30;
export const FREE_DELIVERY_MAX = 100_000_000;
/** An option's id: the defaults' ('kampala', 'pickup', 'upcountry') or a slug of a new one's name. */
export const OPTION_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** An option as the desk shows and saves it: the shop's, with whether it is offered. */
export type DeskDeliveryOption = DeliveryOption & { active: boolean };

export const DESK_DELIVERY_TEXT = {
  nameNeeded: 'Each option needs a name, e.g. Nakawa delivery.',
  nameTooLong: `A name must be ${OPTION_NAME_MAX} characters or fewer.`,
  detailsTooLong: `Details must be ${OPTION_DETAILS_MAX} characters or fewer.`,
  notText: (field: string) => `${field} must be text.`,
  feeInvalid: 'Fee must be a whole number of shillings, from 0 to 1,000,000.',
  daysInvalid: `Days must be whole numbers from 0 to ${OPTION_DAYS_MAX}.`,
  daysOrder: 'The days “to” must be the same as or more than the days “from”.',
  kindInvalid: 'Choose how the option reaches the shopper: delivery, pickup or courier.',
  checkboxInvalid: 'Cash on delivery and Offered are yes or no.',
  unknownOption: 'One of these options is not on the desk any more. Reload the page.',
  oneOffered: 'Offer at least one option, or shoppers cannot check out.',
  namesUnique: (name: string) => `Two options are named ${name}: give each its own name.`,
  tooMany: `The desk keeps at most ${OPTIONS_MAX} options.`,
  thresholdInvalid:
    'Free delivery over must be a whole number of shillings, from 1 to 100,000,000, or blank for none.',
  invalid: 'Please check the delivery options and try again.',
  saved: 'Delivery saved',
  /** A new option's id met one another save made at the same moment. */
  clash: 'Someone saved delivery at the same moment. Reload the page and try again.',
  freeDeliveryLabel: 'Free delivery over',
} as const;

const whole = wholeSchema;

const days = whole(0, OPTION_DAYS_MAX, DESK_DELIVERY_TEXT.daysInvalid);

/** One option as the form sends it; no id: a new one (its id is made from its name). */
export const deliveryOptionInput = v.pipe(
  v.strictObject(
    {
      id: v.optional(
        v.pipe(
          v.string(DESK_DELIVERY_TEXT.unknownOption),
          v.regex(OPTION_ID, DESK_DELIVERY_TEXT.unknownOption),
        ),
      ),
      kind: v.picklist(DELIVERY_KINDS, DESK_DELIVERY_TEXT.kindInvalid),
      name: v.pipe(
        typedText({
          notText: DESK_DELIVERY_TEXT.notText('Name'),
          max: OPTION_NAME_MAX,
          tooLong: DESK_DELIVERY_TEXT.nameTooLong,
          invisible: invisibleCharacters('Name'),
        }),
        v.minLength(1, DESK_DELIVERY_TEXT.nameNeeded),
      ),
      fee: whole(0, OPTION_FEE_MAX, DESK_DELIVERY_TEXT.feeInvalid),
      minDays: days,
      maxDays: days,
      details: typedText({
        notText: DESK_DELIVERY_TEXT.notText('Details'),
        max: OPTION_DETAILS_MAX,
        tooLong: DESK_DELIVERY_TEXT.detailsTooLong,
        invisible: invisibleCharacters('Details'),
      }),
      cashOnDelivery: v.boolean(DESK_DELIVERY_TEXT.checkboxInvalid),
      active: v.boolean(DESK_DELIVERY_TEXT.checkboxInvalid),
    },
    DESK_DELIVERY_TEXT.invalid,
  ),
  v.check((o) => o.maxDays >= o.minDays, DESK_DELIVERY_TEXT.daysOrder),
);
export type DeliveryOptionInput = v.InferOutput<typeof deliveryOptionInput>;

/** The first name two options share (case and spaces aside), or null. */
export function sharedName(options: readonly { name: string }[]): string | null {
  const seen = new Set<string>();
  for (const { name } of options) {
    const plain = name.trim().replace(/\s+/g, ' ');
    if (seen.has(plain.toLowerCase())) return plain;
    seen.add(plain.toLowerCase());
  }
  return null;
}

/** What the delivery page sends: every option in the order shoppers see them, and the threshold. */
export const saveDeliveryInput = v.strictObject(
  {
    requestKey,
    options: v.pipe(
      v.array(deliveryOptionInput, DESK_DELIVERY_TEXT.invalid),
      v.minLength(1, DESK_DELIVERY_TEXT.oneOffered),
      v.maxLength(OPTIONS_MAX, DESK_DELIVERY_TEXT.tooMany),
      v.check((options) => options.some((o) => o.active), DESK_DELIVERY_TEXT.oneOffered),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const shared = sharedName(dataset.value);
        if (shared) addIssue({ message: DESK_DELIVERY_TEXT.namesUnique(shared) });
      }),
      v.check((options) => {
        const ids = options.flatMap((o) => (o.id ? [o.id] : []));
        return new Set(ids).size === ids.length;
      }, DESK_DELIVERY_TEXT.unknownOption),
    ),
    /** null: no free delivery (the spec's default). */
    freeDeliveryOver: v.nullable(whole(1, FREE_DELIVERY_MAX, DESK_DELIVERY_TEXT.thresholdInvalid)),
  },
  DESK_DELIVERY_TEXT.invalid,
);
export type SaveDeliveryInput = v.InferOutput<typeof saveDeliveryInput>;

/**
 * A new option's id: its name as a slug ('Nakawa delivery' → 'nakawa-delivery'), made unique
 * against `taken` with -2, -3…; 'option' for a name with no letters or digits.
 */
export function optionId(name: string, taken: ReadonlySet<string>): string {
  const base = slugify(name).slice(0, 34).replace(/-+$/, '') || 'option';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/** A new zone's starting values on the page (the owner types its name and fee). */
export function newOption(kind: DeliveryKind): Omit<DeskDeliveryOption, 'id'> {
  if (kind === 'pickup') {
    return {
      kind,
      name: '',
      fee: 0,
      minDays: 0,
      maxDays: 1,
      details: '',
      cashOnDelivery: true,
      active: true,
    };
  }
  if (kind === 'courier') {
    return {
      kind,
      name: '',
      fee: 15_000,
      minDays: 3,
      maxDays: 5,
      details: '',
      cashOnDelivery: false,
      active: true,
    };
  }
  return {
    kind,
    name: '',
    fee: 7_000,
    minDays: 1,
    maxDays: 2,
    details: '',
    cashOnDelivery: true,
    active: true,
  };
}

export const KIND_LABELS: Record<DeliveryKind, string> = {
  delivery: 'Delivery by boda',
  pickup: 'Pickup at the boutique',
  courier: 'Courier upcountry',
};
