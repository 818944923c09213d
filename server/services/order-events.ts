// What happens after an order is written or paid: the SMS texts join here (the mobile-money
// request is started by the shopper from the checkout). Nothing here may fail or delay the order:
// each step catches its own errors.
import type { PlacedOrder } from './checkout-service.ts';
import type { SettingsFallback } from './shop-settings.ts';
import {
  queueOrderTexts,
  queuePaymentText,
  type Texting,
  type TextingLater,
} from './sms-service.ts';
import { issueGiftCards } from './value-service.ts';

/** The customer's confirmation, the admin's alert and the sellers' texts: queued, then sent. */
export async function afterOrderPlaced(
  ctx: TextingLater & SettingsFallback,
  order: PlacedOrder,
): Promise<void> {
  await queueOrderTexts(ctx, order.orderId);
}

/**
 * An order's payment was confirmed (mobile money, card, the desk's Mark paid, the counter's
 * cash: every way passes here, once per order): the 'payment received' text, and the gift cards
 * it bought issued and texted to their recipients (issue 35; a later call issues nothing twice).
 */
export async function afterPaymentReceived(
  ctx: Texting,
  payment: { orderId: string; amount: number; transactionId: string },
): Promise<void> {
  await queuePaymentText(ctx, payment);
  try {
    await issueGiftCards(ctx, payment.orderId);
  } catch (error) {
    console.error(`Gift cards of order ${payment.orderId} could not be issued`, error);
  }
}
