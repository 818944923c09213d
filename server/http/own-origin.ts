// Writes only from the shop's own pages (decision 0038). A page on another site, even one on the
// same site (another port or subdomain, which the SameSite=Lax session cookie lets through), can
// make a browser POST a form with the shopper's cookie. Such a request carries an `Origin` that
// is not ours, or, where a browser leaves Origin out, `Sec-Fetch-Site` other than same-origin;
// and a form can only send urlencoded, multipart or text/plain bodies. So:
// - tRPC POSTs (every mutation, the payment procedures among them), the avatar upload and the
//   desk's photo upload:
//   Origin present → it must be the shop's (BETTER_AUTH_URL or one of TRUSTED_ORIGINS);
//   Origin absent → Sec-Fetch-Site absent (a server-to-server client, which has no shopper's
//   cookie) or `same-origin`. Otherwise 403.
// - tRPC POSTs must be `application/json` (what tRPC's links send); anything else is 415. The
//   upload keeps its own check: an image type, refused by the route with the spec's text.
// GET and HEAD are left alone (tRPC queries change nothing). Payment providers' callbacks and
// better-auth (its own origin check) are not writes of the shopper's browser: untouched.
import { REQUEST_TEXT } from '#core/requests.ts';
import type { Endpoint } from './endpoints.ts';

export type Refusal = { status: 403 | 415; message: string };

/** An origin as the browser sends it: scheme://host[:port], lower case, no trailing slash. */
const originOf = (value: string) => value.trim().replace(/\/+$/, '').toLowerCase();

/** Why this request may not run, or null when it may. The front layer asks it of every request;
 * the tRPC endpoint and the upload routes ask it again themselves, so that one mistake in the
 * front layer (a path spelt in a way it did not classify) is not enough. */
export function foreignWrite(
  request: Request,
  endpoint: Pick<Endpoint, 'kind'>,
  ownOrigins: readonly string[],
): Refusal | null {
  if (endpoint.kind !== 'trpc' && endpoint.kind !== 'avatar' && endpoint.kind !== 'photo') {
    return null;
  }
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const origin = request.headers.get('origin');
  const fetchSite = request.headers.get('sec-fetch-site');
  const ours =
    origin !== null
      ? ownOrigins.some((own) => originOf(own) === originOf(origin))
      : fetchSite === null || fetchSite === 'same-origin';
  if (!ours) return { status: 403, message: REQUEST_TEXT.otherSite };
  if (endpoint.kind === 'trpc' && mediaType(request) !== 'application/json') {
    return { status: 415, message: REQUEST_TEXT.notJson };
  }
  return null;
}

/** The content type without its parameters: 'application/json; charset=utf-8' → 'application/json'. */
function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
