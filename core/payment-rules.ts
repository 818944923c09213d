// Which way to pay an order may take (decision 0060): cash on delivery only where the delivery
// option takes cash, and no payment above what its provider takes in one transaction. One rule for
// the checkout (checkout.placeOrder) and for a change of mind after a failed mobile-money payment
// (payments.changeMethod), so an order can never end up paid in a way the checkout refuses; the
// writes check the same rule in SQL (server/services/payment-rules-service.ts).
import { formatUGX } from './money.ts';
import type { OrderPaymentMethod } from './order-rules.ts';

/**
 * The most one order may come to, whatever pays it: UGX 10 billion. A boutique's largest trade
 * order (issue 20 placed and stored orders of UGX 3 and 4 billion by bank transfer and cash) fits;
 * the UGX 10^13 of issue 32 does not, and no total, times any count of orders a desk adds up,
 * comes near 2^53 (where JavaScript's numbers stop being exact).
 */
export const ORDER_CEILING = 10_000_000_000;

/**
 * The most one payment may be, by way of paying (docs/payments.md, "Ceilings", for the sources):
 * - mobile money: MTN MoMo Uganda and Airtel Money Uganda both take at most UGX 5,000,000 in a
 *   single transaction (Bank of Uganda's limits from 1 March 2022; MTN's Key Facts Document);
 * - card: Pesapal sets each merchant's per-transaction limit (raised on request); the shop asks for
 *   UGX 5,000,000 and takes no more;
 * - bank transfer and cash on delivery: the order's ceiling (the desk confirms either).
 */
export const PAYMENT_CEILINGS: Record<OrderPaymentMethod, number> = {
  mobile_money: 5_000_000,
  card: 5_000_000,
  bank_transfer: ORDER_CEILING,
  cash_on_delivery: ORDER_CEILING,
  /** Cash at the counter (the desk's, issue 34): the order's ceiling. */
  cash: ORDER_CEILING,
};

/** The refusal of a payment above its ceiling (cash where it is not taken: DELIVERY_TEXT's). */
export const PAYMENT_RULE_TEXT = {
  overCeiling: (method: OrderPaymentMethod): string => {
    const most = formatUGX(PAYMENT_CEILINGS[method]);
    switch (method) {
      case 'mobile_money':
        return `Mobile money takes at most ${most} a payment. Pay by bank transfer, or split your order.`;
      case 'card':
        return `Card payments take at most ${most} a payment. Pay by bank transfer, or split your order.`;
      default:
        return `An order can come to at most ${most}. Please split your order.`;
    }
  },
} as const;

/** Why an order cannot be paid this way; null: it can. */
export type PaymentRefusal =
  | { kind: 'cash-not-offered'; option: string }
  | { kind: 'over-ceiling'; method: OrderPaymentMethod };

/**
 * The rule: cash on delivery only where the option takes cash; the order's total within the way
 * of paying's ceiling. `total` null: not known yet (the checkout's write computes it, and checks
 * the same ceiling there).
 */
export function paymentRefusal(
  method: OrderPaymentMethod,
  option: { name: string; cashOnDelivery: boolean },
  total: number | null,
): PaymentRefusal | null {
  if (method === 'cash_on_delivery' && !option.cashOnDelivery) {
    return { kind: 'cash-not-offered', option: option.name };
  }
  return total === null ? null : aboveCeiling(method, total);
}

/** The ceiling's half of the rule, for a total the checkout's write computed. */
export function aboveCeiling(method: OrderPaymentMethod, total: number): PaymentRefusal | null {
  return total > PAYMENT_CEILINGS[method] ? { kind: 'over-ceiling', method } : null;
}
