// Delivery as the shopper meets it (issue 23): the checkout's texts, the line a receipt names,
// and the steps /orders shows. Pure, for the client and the server alike; the options and their
// rules are in core/delivery-rules.ts, the checkout's form in core/delivery-form.ts.
import {
  AREA_MAX,
  DELIVERY_TEXT,
  type DeliveryKind,
  type DeliveryOption,
  daysText,
  LANDMARK_MAX,
} from './delivery-rules.ts';
import { displayNumber } from './mobile-money.ts';
import { statusLabel } from './order-rules.ts';

export const DELIVERY_CHOICE_TEXT = {
  /** Beside the Cash on Delivery choice when the chosen option does not take cash. */
  cashNotHere: (option: string) => `Not available for ${option}`,
  /** The cart's delivery row: the fee depends on the option, chosen at checkout. */
  cartDelivery: 'Chosen at checkout',
  cartTotalNote: 'before delivery',
  noOptions: 'Delivery is not available right now. Please try again later.',
  optionsFailed: 'Could not load the delivery options. Please refresh the page.',
  placed: 'Placed',
} as const;

/**
 * What the checkout's delivery form asks, by how the order travels (issue 32). A boda rider needs
 * an area, a landmark and a phone to call at the gate; an upcountry parcel goes by bus courier to
 * a town, where the shopper collects it at the bus company's stage after a call that it arrived,
 * so it asks for the town, the bus company or stage (kept in the order's landmark) and that phone.
 */
export type DeliveryWording = {
  area: string;
  areaHint: string;
  landmark: string;
  landmarkHint: string;
  phone: string;
  phoneNote: string;
  notesHint: string;
  /** What happens to the parcel, in a sentence ('' where the option's own details say it). */
  promise: string;
  /** The phone's label on the order's pages: "Rider calls", "We call when it arrives". */
  calls: string;
  /** The same on the desk, where staff make the call: "Rider calls", "Call when it arrives". */
  deskCalls: string;
  /** The form's own texts where placeOrder's name another field ("Area"). */
  areaRequired: string;
  areaTooLong: string;
  landmarkTooLong: string;
  phoneInvalid: string;
};

const KAMPALA_WORDING: DeliveryWording = {
  area: 'Area',
  areaHint: 'e.g. Ntinda',
  landmark: 'Landmark',
  landmarkHint: 'e.g. near Capital Shoppers',
  phone: 'Phone for the rider',
  phoneNote: 'The rider calls this number.',
  notesHint: 'e.g. the green gate, call on arrival',
  promise: '',
  calls: 'Rider calls',
  deskCalls: 'Rider calls',
  areaRequired: DELIVERY_TEXT.areaRequired,
  areaTooLong: DELIVERY_TEXT.areaTooLong,
  landmarkTooLong: DELIVERY_TEXT.landmarkTooLong,
  phoneInvalid: DELIVERY_TEXT.phoneInvalid,
};

export const DELIVERY_WORDING: Record<DeliveryKind, DeliveryWording> = {
  delivery: KAMPALA_WORDING,
  pickup: {
    ...KAMPALA_WORDING,
    phoneNote: 'We call this number when it is ready.',
    notesHint: 'Anything we should know',
    calls: 'We call',
    deskCalls: 'Call when it is ready',
  },
  courier: {
    area: 'Town',
    areaHint: 'e.g. Mbarara',
    landmark: 'Bus company or stage',
    landmarkHint: 'e.g. Link Bus, Mbarara stage',
    phone: 'Phone to call when it arrives',
    phoneNote: 'We call this number when your parcel reaches the stage.',
    notesHint: 'e.g. another bus company if that one does not go to your town',
    promise: 'Sent by bus courier: you collect it at the stage, and we call you when it arrives.',
    calls: 'We call when it arrives',
    deskCalls: 'Call when it arrives',
    areaRequired: DELIVERY_TEXT.townRequired,
    areaTooLong: `Town must be ${AREA_MAX} characters or fewer.`,
    landmarkTooLong: `Bus company or stage must be ${LANDMARK_MAX} characters or fewer.`,
    phoneInvalid: 'The phone to call must be a Ugandan number, e.g. 0772 123 456.',
  },
};

/** The time an option promises, as a sentence part: "Arrives in 1–3 days", "Ready the same day". */
export function deliveryTime(option: Pick<DeliveryOption, 'kind' | 'minDays' | 'maxDays'>): string {
  const days = daysText(option);
  const numeric = /^\d/.test(days);
  if (option.kind === 'pickup') return `Ready ${numeric ? `in ${days}` : days}`;
  return `Arrives ${numeric ? `in ${days}` : days}`;
}

/** How an order reaches the shopper, as /orders and the receipt show it. */
export type OrderDelivery = {
  option: string;
  kind: DeliveryKind;
  area: string;
  landmark: string;
  /** The phone the rider calls (+256…), or null on an order from before delivery options. */
  phone: string | null;
  notes: string;
  riderName: string | null;
  riderPhone: string | null;
};

/** "near Capital Shoppers" (a landmark typed with its own "near" keeps it). */
function near(landmark: string): string {
  return /^(near|opposite|behind|next to|beside|at)\b/i.test(landmark)
    ? landmark
    : `near ${landmark}`;
}

/**
 * The option and where it goes, on one line: "Kampala delivery · Ntinda, near Capital Shoppers";
 * "Upcountry by bus courier · Mbarara, collect at Link Bus"; a pickup is its option's name alone.
 */
export function deliveryLine(delivery: {
  option: string;
  kind: DeliveryKind;
  area: string;
  landmark: string;
}): string {
  if (delivery.kind === 'pickup') return delivery.option;
  const landmark = delivery.landmark.trim();
  const at = delivery.kind === 'courier' ? `collect at ${landmark}` : near(landmark);
  const where = [delivery.area.trim(), landmark && at].filter(Boolean).join(', ');
  return where ? `${delivery.option} · ${where}` : delivery.option;
}

/** A stored number as a shopper reads it ("0772 123 456"); '' for none. */
export function phoneText(phone: string | null | undefined): string {
  return phone ? displayNumber(phone) : '';
}

/** tel: link of a stored number. */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** A step's name on /orders: the order's status, with 'pending' read as "Placed". */
export function stepLabel(status: string): string {
  return status === 'pending' ? DELIVERY_CHOICE_TEXT.placed : statusLabel(status);
}
