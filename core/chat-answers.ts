// The assistant's canned answers, used when the model cannot answer (spec: support assistant
// fallbacks). Apart from core/chat.ts so the chat widget's bundle never carries the delivery
// rules these read (issue 23: delivery and totals are told from the shop's own settings). Pure.
import { DEFAULT_HOURS_TEXT, type SupportContact } from './chat.ts';
import {
  DELIVERY_UNKNOWN,
  type DeliveryChoices,
  deliveryAnswer,
  feesSummary,
} from './delivery-rules.ts';
import type { ReturnWindows } from './return-windows.ts';

/**
 * When the model cannot answer (other failures, or no key configured): a canned answer chosen by
 * keywords in the shopper's message (spec), else the help menu. Delivery and totals are told from
 * the shop's delivery settings; `delivery` null (they could not be read) states no fee or time.
 * Returns name the shop's windows (issue 36); `windows` null states no number of days.
 */
export function cannedAnswer(
  message: string,
  contact: SupportContact,
  delivery: DeliveryChoices | null,
  windows: ReturnWindows | null = null,
): string {
  const text = message.toLowerCase();
  if (/\b(return|returns|refund|refunds|exchange(?! rate))\b/.test(text)) {
    const within = windows
      ? `returned within ${windows.returnDays} days and exchanged within ${windows.exchangeDays} days`
      : 'returned or exchanged within the shop’s windows';
    return `Unworn pieces with their tags can be ${within} of delivery or collection. Ask on the order’s page under My Orders: it shows each step of your return and of your refund.`;
  }
  if (/deliver|shipping|ship\b|how long|pick ?up|upcountry|courier/.test(text)) {
    return deliveryAnswer(delivery);
  }
  if (/total|how much|cost|price of (my|the) order/.test(text)) {
    const fee =
      delivery && delivery.options.length > 0
        ? `the delivery fee of the option you chose (${feesSummary(delivery)})`
        : 'the delivery fee of the option you chose';
    const known = delivery && delivery.options.length > 0 ? '' : ` ${DELIVERY_UNKNOWN}`;
    return `Your order total is shown on My Orders and on its receipt: the items, ${fee} and the total you pay in UGX.${known}`;
  }
  if (/what.*(in|inside) my order|items in|products in/.test(text)) {
    return 'Open My Orders and choose the order: it lists every piece, its quantity and price.';
  }
  if (/order|receipt|track|rcp-/.test(text)) {
    return 'You can see every order, its status and its receipt under My Orders, and download the receipt as a PDF. Give me the RCP-… reference and I will look it up when I can.';
  }
  if (/buy|get (a|the|your) product|how (do|can) i (buy|order|get)|shop/.test(text)) {
    return 'Browse the Shop, add pieces to your cart and check out: pay by mobile money (MTN, Airtel), card, bank transfer or cash on delivery.';
  }
  const returns = windows ? `${windows.returnDays} days, unworn with tags` : 'unworn with tags';
  return `I can help with our products, your orders and receipts, delivery, returns (${returns}) and payment (mobile money, card, bank transfer). Ask me anything, or reach our team at ${contact.email} or ${contact.phone}, ${contact.hours ?? DEFAULT_HOURS_TEXT}.`;
}
