// What happens after an order is written: the seam where the SMS notifications and the mobile-money
// request join. Nothing here may fail or delay the order: each step catches its own errors.
import type { Context } from '../trpc.ts';
import type { PlacedOrder } from './checkout.ts';

export async function afterOrderPlaced(_ctx: Context, _order: PlacedOrder): Promise<void> {
  // SMS (order confirmation, admin alert, sellers) and payment requests are added by their areas.
}

/** A mobile-money payment succeeded (once per order): the payment-received SMS joins here. */
export async function afterPaymentReceived(
  _ctx: Context,
  _payment: { orderId: string; amount: number; transactionId: string },
): Promise<void> {
  // The SMS area sends the 'payment received' text from here.
}
