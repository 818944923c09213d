// core/payment-rules.ts's rule as SQL, for the writes that choose how an order is paid: the
// checkout's insert and payments.changeMethod's update hold it in the statement itself, so a
// delivery option that stops taking cash meanwhile, or a total the read did not see, changes
// nothing.
import { type SQL, sql } from 'drizzle-orm';
import type { OrderPaymentMethod } from '#core/order-rules.ts';
import { PAYMENT_CEILINGS, type PaymentRefusal } from '#core/payment-rules.ts';
import type { Refused } from '../shopper-error.ts';

/** The rule's refusal as a service answers it: its kind the problem, with what the text names. */
export type RuleRefused =
  | (Refused<'cash-not-offered'> & { option: string })
  | (Refused<'over-ceiling'> & { method: OrderPaymentMethod });

export function ruleRefused(refusal: PaymentRefusal): RuleRefused {
  return refusal.kind === 'cash-not-offered'
    ? { ok: false, problem: refusal.kind, option: refusal.option }
    : { ok: false, problem: refusal.kind, method: refusal.method };
}

/** True where `method` may pay `total` on an option whose cash-on-delivery flag is `takesCash`. */
export function paymentAllowedSql(method: OrderPaymentMethod, takesCash: SQL, total: SQL): SQL {
  const cash = method === 'cash_on_delivery' ? takesCash : sql`true`;
  return sql`(${cash} and ${total} <= ${PAYMENT_CEILINGS[method]}::bigint)`;
}
