// The providers' callbacks, /api/payments/mtn/{paymentId}/{secret} (MTN, PUT or POST, the URL we
// gave with the request) and /api/payments/airtel (Airtel, POST, the URL set in Airtel's portal).
// Each is only a hint to read the payment's status from the provider (for a pending payment, or
// an expired one within its day: late money); Airtel's counts only with the right `hash` when
// AIRTEL_CALLBACK_SECRET is set. The answer never says whether a payment exists.
import type { Network } from '#core/mobile-money.ts';
import type { Context } from '../context.ts';
import { paymentCallback } from '../services/payments/service.ts';

const CALLBACK_BODY_LIMIT = 64 * 1024;

export async function handlePaymentCallback(
  ctx: Context,
  request: Request,
  network: Network,
  params: { paymentId?: string; secret?: string } = {},
): Promise<Response> {
  let body: unknown = null;
  try {
    const text = await request.text();
    body = text.length > 0 && text.length <= CALLBACK_BODY_LIMIT ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  try {
    await paymentCallback(ctx, { network, ...params, body });
  } catch (error) {
    // The sweep and the shopper's own status reads will settle it: the provider need not retry.
    console.error(`Payment callback (${network}) could not be handled`, error);
  }
  return new Response(JSON.stringify({ received: true }), {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}
