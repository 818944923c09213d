// Delivery as the shopper meets it (issue 23): the checkout's texts, the line a receipt names,
// and the steps /orders shows. Pure, for the client and the server alike; the options and their
// rules are in core/delivery.ts, the checkout's form in core/delivery-form.ts.
import { type DeliveryKind, type DeliveryOption, daysText } from './delivery.ts';
import { displayNumber } from './mobile-money.ts';
import { statusLabel } from './orders.ts';

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
 * a pickup is its option's name alone.
 */
export function deliveryLine(delivery: {
  option: string;
  kind: DeliveryKind;
  area: string;
  landmark: string;
}): string {
  if (delivery.kind === 'pickup') return delivery.option;
  const where = [delivery.area.trim(), delivery.landmark.trim() && near(delivery.landmark.trim())]
    .filter(Boolean)
    .join(', ');
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
