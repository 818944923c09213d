// /api/whatsapp/webhook (issue 37): Meta's GET verification (echo hub.challenge when
// hub.verify_token is the shop's) and its POSTed events. Every POST's X-Hub-Signature-256
// (`sha256=` + hex HMAC-SHA256 of the raw body with the app secret) is checked with Web Crypto's
// verify, which compares in constant time, before a byte is parsed: a wrong or missing signature
// is 401 and nothing is stored. Without WhatsApp configured the route is a 404.
import type { Context } from '../context.ts';
import type { WhatsApp } from '../services/whatsapp/cloud-api.ts';
import { answerOnWhatsApp } from '../services/whatsapp-assistant.ts';
import { receiveWhatsApp } from '../services/whatsapp-service.ts';

const answer = (status: number, body: string, type = 'application/json') =>
  new Response(body, { status, headers: { 'content-type': type, 'cache-control': 'no-store' } });
const message = (status: number, text: string) => answer(status, JSON.stringify({ message: text }));

/** The signature's bytes, or null for anything that is not `sha256=` and 64 hex digits. */
function signatureBytes(header: string | null): Uint8Array<ArrayBuffer> | null {
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')?.[1];
  if (!hex) return null;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** Whether `body` was signed with the app secret (constant-time, by crypto.subtle.verify). */
export async function signedByMeta(
  secret: string,
  body: ArrayBuffer,
  header: string | null,
): Promise<boolean> {
  const signature = signatureBytes(header);
  if (!signature) return false;
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  return crypto.subtle.verify('HMAC', key, signature, body);
}

export async function handleWhatsAppWebhook(ctx: Context, request: Request): Promise<Response> {
  const whatsapp: WhatsApp | null = ctx.sms.whatsapp ?? null;
  if (!whatsapp) return message(404, 'WhatsApp is not set up for this shop.');
  if (request.method === 'GET' || request.method === 'HEAD') {
    const query = new URL(request.url).searchParams;
    const verified =
      query.get('hub.mode') === 'subscribe' &&
      query.get('hub.verify_token') === whatsapp.verifyToken;
    const challenge = query.get('hub.challenge') ?? '';
    if (!verified || !/^[\w-]{1,200}$/.test(challenge)) {
      return message(403, 'The verify token does not match.');
    }
    return answer(200, challenge, 'text/plain; charset=utf-8');
  }
  const body = await request.arrayBuffer();
  if (!(await signedByMeta(whatsapp.appSecret, body, request.headers.get('x-hub-signature-256')))) {
    return message(401, 'The signature does not match.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return message(400, 'The body is not JSON.');
  }
  try {
    const fresh = await receiveWhatsApp({ ...ctx, whatsapp }, payload);
    // The assistant answers after the 200 (Meta waits for none of it).
    for (const message of fresh) ctx.background(answerOnWhatsApp({ ...ctx, whatsapp }, message));
  } catch (error) {
    // Nothing half-kept matters: every event is stored once, so Meta's retry is safe.
    console.error('WhatsApp webhook could not be handled', error);
    return message(503, 'Try again later.');
  }
  return answer(200, JSON.stringify({ received: true }));
}
