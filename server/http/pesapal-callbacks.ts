// Pesapal's two ways back to the shop, both only hints to read the status from Pesapal:
// - /api/payments/pesapal/return: the shopper's browser, sent back from Pesapal's page to the
//   callback_url we gave (?OrderTrackingId&OrderMerchantReference&OrderNotificationType=CALLBACKURL);
//   it lands on /orders with that payment's order open. Only for the payment's own shopper (their
//   session; Lax cookies come with this top-level GET): anyone else, signed in or not, lands on
//   /orders with no order named and makes the shop read nothing from Pesapal — a tracking id
//   says nothing of whose order it is (decision 0059).
// - /api/payments/pesapal/ipn: Pesapal's IPN (GET with the same query, or POST with them as JSON);
//   the answer is the acknowledgement Pesapal requires, the same whatever happened, so it reveals
//   nothing about which payments exist.
import { and, eq } from 'drizzle-orm';
import { payments } from '#db/schema/index.ts';
import type { Context } from '../context.ts';
import { cardNotification } from '../services/payments/card.ts';

const NOTIFICATION_BODY_LIMIT = 64 * 1024;

/** What Pesapal sent: the ids, and the notification type its acknowledgement must echo. */
type Notification = { trackingId: string; merchantReference: string; type: string };

/** A parameter as Pesapal sends it, bounded (an echoed value never grows past this). */
function param(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

async function notificationOf(request: Request): Promise<Notification> {
  const query = new URL(request.url).searchParams;
  let fields: Record<string, unknown> = Object.fromEntries(query);
  if (request.method === 'POST') {
    try {
      const text = await request.text();
      const body = text.length <= NOTIFICATION_BODY_LIMIT ? JSON.parse(text) : null;
      if (typeof body === 'object' && body !== null) fields = { ...fields, ...body };
    } catch {
      // Not JSON: the query alone counts.
    }
  }
  return {
    trackingId: param(fields.OrderTrackingId),
    merchantReference: param(fields.OrderMerchantReference),
    type: param(fields.OrderNotificationType),
  };
}

/** Reads the payment's status; a failure is logged (the sweep and the page's reads settle it). */
async function readStatus(ctx: Context, trackingId: string): Promise<string | null> {
  try {
    return (await cardNotification(ctx, trackingId))?.orderId ?? null;
  } catch (error) {
    console.error('Pesapal notification could not be handled', error);
    return null;
  }
}

/** Whether the card payment with this tracking id is this shopper's. */
async function isShoppersPayment(ctx: Context, trackingId: string, shopperId: string) {
  const [mine] = await ctx.db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.network, 'pesapal'),
        eq(payments.providerReference, trackingId),
        eq(payments.customerId, shopperId),
      ),
    )
    .limit(1);
  return mine !== undefined;
}

export async function handlePesapalReturn(ctx: Context, request: Request): Promise<Response> {
  const { trackingId } = await notificationOf(request);
  const shopper = trackingId ? await ctx.session.read() : null;
  const owns = shopper !== null && (await isShoppersPayment(ctx, trackingId, shopper.id));
  const orderId = owns ? await readStatus(ctx, trackingId) : null;
  const location = orderId ? `/orders?order=${encodeURIComponent(orderId)}` : '/orders';
  return new Response(null, {
    status: 303,
    headers: { location, 'cache-control': 'no-store' },
  });
}

export async function handlePesapalIpn(ctx: Context, request: Request): Promise<Response> {
  const { trackingId, merchantReference, type } = await notificationOf(request);
  if (trackingId) await readStatus(ctx, trackingId);
  return new Response(
    JSON.stringify({
      // Echoed as sent (IPNCHANGE; RECURRING for a recurring payment), as Pesapal requires.
      orderNotificationType: type || 'IPNCHANGE',
      orderTrackingId: trackingId,
      orderMerchantReference: merchantReference,
      status: 200,
    }),
    { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } },
  );
}
