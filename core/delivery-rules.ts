// Delivery the Kampala way (issue 23; decision 0049): the options a shopper chooses from, their
// fees and promises, the address a boda rider needs, and the steps an order goes through. Pure:
// the options are read from the database by server/services/delivery-service.ts.
import * as v from 'valibot';
import { formatUGX } from './money.ts';
import { normalisePhone } from './phone.ts';
import { invisibleCharacters, typedText } from './text.ts';

export const DELIVERY_KINDS = ['delivery', 'pickup', 'courier'] as const;
/** By boda within Kampala (or one of its zones); at the boutique; upcountry by bus courier. */
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** An option as the shop offers it. */
export type DeliveryOption = {
  id: string;
  kind: DeliveryKind;
  name: string;
  /** Whole UGX before any free-delivery threshold; 0 is free. */
  fee: number;
  minDays: number;
  maxDays: number;
  details: string;
  cashOnDelivery: boolean;
};

/** The option an order without one is (older clients): Kampala delivery at the spec's fee. */
export const DEFAULT_DELIVERY_OPTION_ID = 'kampala';
/** system_settings key of the free-delivery threshold (absent: off, the spec's default). */
export const FREE_DELIVERY_KEY = 'free_delivery_over';

/** What the checkout and the shop's pages read: the options offered, in order, and the threshold. */
export type DeliveryChoices = { options: DeliveryOption[]; freeDeliveryOver: number | null };

export const AREA_MAX = 80;
export const LANDMARK_MAX = 120;
export const NOTES_MAX = 300;
export const RIDER_NAME_MAX = 60;

export const DELIVERY_TEXT = {
  optionUnavailable: 'This delivery option is no longer offered. Please choose another.',
  cashNotOffered: (option: string) =>
    `Cash on delivery is not available for ${option}. Please choose another way to pay.`,
  areaRequired: 'Please enter your area (e.g. Ntinda) so the rider can find you.',
  /** Upcountry: the parcel goes by bus to a town, not to a door (issue 32). */
  townRequired: 'Please enter your town (e.g. Mbarara) so we can send it by bus.',
  areaTooLong: `Area must be ${AREA_MAX} characters or fewer.`,
  landmarkTooLong: `Landmark must be ${LANDMARK_MAX} characters or fewer.`,
  notesTooLong: `Delivery notes must be ${NOTES_MAX} characters or fewer.`,
  phoneInvalid: 'The phone for the rider must be a Ugandan number, e.g. 0772 123 456.',
  notText: (field: string) => `${field} must be text.`,
  riderNeeded: 'Enter the rider’s name and phone to send the order out for delivery.',
  riderNameTooLong: `The rider’s name must be ${RIDER_NAME_MAX} characters or fewer.`,
  riderPhoneInvalid: 'The rider’s phone must be a Ugandan number, e.g. 0772 123 456.',
  pickupOnly: 'Only an order picked up at the boutique can be ready for pickup or collected.',
  deliveryOnly: 'An order picked up at the boutique is not sent out: mark it ready for pickup.',
} as const;

/** The fee an order pays for `option`: free at or above the owner's threshold, when one is set. */
export function deliveryFee(
  option: Pick<DeliveryOption, 'fee'>,
  subtotal: number,
  freeDeliveryOver: number | null,
): number {
  if (freeDeliveryOver !== null && subtotal >= freeDeliveryOver) return 0;
  return option.fee;
}

/** "1–3 days", "3 days", "the same or the next day" (0–1), "the same day" (0–0). */
export function daysText(option: Pick<DeliveryOption, 'minDays' | 'maxDays'>): string {
  const { minDays: min, maxDays: max } = option;
  if (max === 0) return 'the same day';
  if (min === 0 && max === 1) return 'the same or the next day';
  if (min === max) return `${max} day${max === 1 ? '' : 's'}`;
  return `${min}–${max} days`;
}

/** "UGX 5,000" or "Free". */
export function feeText(fee: number): string {
  return fee === 0 ? 'Free' : formatUGX(fee);
}

/**
 * What the product page and the footer promise, from the shop's own options: "Delivery in
 * Kampala from UGX 5,000, 1–3 days · free pickup", with "· free delivery over UGX 100,000" when
 * the owner set a threshold. '' when nothing is offered.
 */
export function deliveryPromise(choices: DeliveryChoices): string {
  const kampala = choices.options.filter((o) => o.kind === 'delivery');
  const pickup = choices.options.filter((o) => o.kind === 'pickup');
  const parts: string[] = [];
  if (kampala.length > 0) {
    const cheapest = Math.min(...kampala.map((o) => o.fee));
    const days = daysText({
      minDays: Math.min(...kampala.map((o) => o.minDays)),
      maxDays: Math.max(...kampala.map((o) => o.maxDays)),
    });
    parts.push(
      cheapest === 0
        ? `Free delivery in Kampala, ${days}`
        : `Delivery in Kampala from ${formatUGX(cheapest)}, ${days}`,
    );
  }
  if (pickup.length > 0) {
    const cheapest = Math.min(...pickup.map((o) => o.fee));
    parts.push(cheapest === 0 ? 'free pickup' : `pickup ${formatUGX(cheapest)}`);
  }
  if (choices.freeDeliveryOver !== null && parts.length > 0) {
    parts.push(`free delivery over ${formatUGX(choices.freeDeliveryOver)}`);
  }
  const promise = parts.join(' · ');
  return promise.charAt(0).toUpperCase() + promise.slice(1);
}

/** The free-delivery threshold, or its absence, in one sentence (the prompt and the canned answer). */
function thresholdFact(choices: DeliveryChoices): string {
  return choices.freeDeliveryOver === null
    ? 'There is no free delivery: every order pays its option’s fee.'
    : `Delivery is free on orders of ${formatUGX(choices.freeDeliveryOver)} or more.`;
}

/**
 * The shop's delivery as the assistant may state it (its prompt and its canned answer): every
 * option with its fee, time and whether cash on delivery is taken, and the threshold or its
 * absence, so it can no longer promise what the shop does not give.
 */
export function deliveryFacts(choices: DeliveryChoices): string[] {
  const facts = choices.options.map(
    (o) =>
      `${o.name}: ${o.fee === 0 ? 'free' : formatUGX(o.fee)}, ${daysText(o)}${
        o.kind === 'pickup' ? ' to be ready' : ''
      }; cash on delivery ${o.cashOnDelivery ? 'accepted' : 'not accepted'}.${
        o.details ? ` ${o.details}` : ''
      }`,
  );
  facts.push(thresholdFact(choices));
  return facts;
}

/** The fees in one line: "Kampala delivery UGX 5,000, Pick up at the boutique free, …". */
export function feesSummary(choices: DeliveryChoices): string {
  const fees = choices.options.map((o) => `${o.name} ${o.fee === 0 ? 'free' : formatUGX(o.fee)}`);
  if (choices.freeDeliveryOver !== null) {
    fees.push(`free on orders of ${formatUGX(choices.freeDeliveryOver)} or more`);
  }
  return fees.join(', ');
}

/** What to say when the shop's delivery could not be read: point to the checkout, promise nothing. */
export const DELIVERY_UNKNOWN =
  'The delivery options and their fees are shown at checkout, before you place your order.';

/**
 * The assistant's canned answer about delivery (no model at hand), from the shop's settings: each
 * option with its fee and time, cash on delivery where it is not taken, the threshold or its
 * absence. Without the settings (or with nothing offered) it states no fee or time at all.
 */
export function deliveryAnswer(choices: DeliveryChoices | null): string {
  if (!choices || choices.options.length === 0) {
    return `${DELIVERY_UNKNOWN} You can follow each order under My Orders.`;
  }
  // One line each (the chat keeps line breaks).
  const options = choices.options.map(
    (o) =>
      `${o.name}: ${o.fee === 0 ? 'free' : formatUGX(o.fee)}, ${o.kind === 'pickup' ? 'ready ' : ''}${daysText(o)}${
        o.cashOnDelivery ? '' : ' (no cash on delivery)'
      }.`,
  );
  const free = thresholdFact(choices);
  return [
    ...options,
    free,
    'You choose at checkout and can follow each order under My Orders.',
  ].join('\n');
}

// What checkout.placeOrder accepts about delivery (fields added to its input; core/order-rules.ts).
const line = (field: string, max: number, tooLong: string) =>
  v.optional(
    typedText({
      notText: DELIVERY_TEXT.notText(field),
      max,
      tooLong,
      invisible: invisibleCharacters(field),
    }),
  );

/** A Ugandan mobile or landline as typed, stored as +256XXXXXXXXX. */
export function ugandanNumber(message: string) {
  return v.pipe(
    v.string(message),
    v.trim(),
    v.maxLength(32, message),
    v.check((text) => /^[+\d\s()-]+$/.test(text), message),
    v.transform(normalisePhone),
    v.check((phone) => /^\+256[1-9]\d{8}$/.test(phone), message),
  );
}

export const deliveryOrderFields = {
  /** Absent: Kampala delivery at the spec's fee (older clients). */
  deliveryOptionId: v.optional(
    v.pipe(
      v.string(DELIVERY_TEXT.optionUnavailable),
      v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, DELIVERY_TEXT.optionUnavailable),
    ),
  ),
  deliveryArea: line('Area', AREA_MAX, DELIVERY_TEXT.areaTooLong),
  deliveryLandmark: line('Landmark', LANDMARK_MAX, DELIVERY_TEXT.landmarkTooLong),
  /** Absent or blank: the profile's phone. */
  deliveryPhone: v.optional(
    v.union([v.literal(''), ugandanNumber(DELIVERY_TEXT.phoneInvalid)], DELIVERY_TEXT.phoneInvalid),
  ),
  deliveryNotes: v.optional(
    typedText({
      notText: DELIVERY_TEXT.notText('Delivery notes'),
      max: NOTES_MAX,
      tooLong: DELIVERY_TEXT.notesTooLong,
      invisible: invisibleCharacters('Delivery notes'),
      lines: true,
    }),
  ),
};

/** The steps an order goes through, by how it reaches the shopper (what /orders shows). */
export const ORDER_STEPS: Record<DeliveryKind, readonly string[]> = {
  delivery: ['pending', 'processing', 'out_for_delivery', 'delivered'],
  pickup: ['pending', 'processing', 'ready_for_pickup', 'collected'],
  courier: ['pending', 'processing', 'shipped', 'delivered'],
};

/**
 * Each step of the order's way with whether it is done: a completed order has done them all; a
 * cancelled one shows none as done. A status outside the kind's steps (an old order marked
 * 'shipped' in Kampala) counts as the step it stands for.
 */
export function orderSteps(
  kind: DeliveryKind,
  status: string,
): { status: string; state: 'done' | 'current' | 'next' }[] {
  const steps = ORDER_STEPS[kind];
  const stand: Record<string, string> = {
    shipped: kind === 'pickup' ? 'ready_for_pickup' : (steps[2] ?? 'shipped'),
    out_for_delivery: steps[2] ?? 'out_for_delivery',
    delivered: steps[3] ?? 'delivered',
    collected: steps[3] ?? 'collected',
  };
  const at = status === 'completed' ? steps.length - 1 : steps.indexOf(stand[status] ?? status);
  const last = steps.length - 1;
  return steps.map((step, index) => ({
    status: step,
    state:
      status === 'cancelled' || at < 0 || index > at
        ? 'next'
        : index < at || at === last
          ? 'done'
          : 'current',
  }));
}

export function isDeliveryKind(value: unknown): value is DeliveryKind {
  return typeof value === 'string' && (DELIVERY_KINDS as readonly string[]).includes(value);
}
