// What the Worker's front layer knows of each endpoint: the methods it answers, the largest
// body it takes, and the JSON shape its callers read errors in.
import { AVATAR_MAX_BYTES, TEXT } from '#core/account.ts';
import { PHOTO_MAX_BYTES, PHOTO_TEXT } from '#core/desk-photos.ts';

const MiB = 1024 * 1024;

export type Endpoint = {
  kind: 'avatar' | 'photo' | 'trpc' | 'auth' | 'payments' | 'webhook' | 'page';
  /** Methods the endpoint answers (HEAD as GET); null: any (pages answer with their 404). */
  methods: readonly string[] | null;
  /** Largest request body, in bytes. */
  bodyLimit: number;
};

const API_METHODS = ['GET', 'HEAD', 'POST'] as const;

/**
 * The one spelling of a request's path that every rule of the front layer reads (decision 0038).
 * TanStack's router matches a path case-insensitively, after decoding its escapes (all but %2F,
 * %25 and %5C: a segment stays one segment), ignoring a trailing slash; tRPC then runs whatever
 * the router handed it. So `/API/TRPC/x`, `/api/%74rpc/x`, `/api/desk/products/2/photos/` or
 * `/api/des%E2%84%AA/…` (a Kelvin sign, which lower-cases to "k") reach the same handlers as
 * their plain spelling, and must be classified as they are. Here each segment is decoded (never
 * into a new "/"), lower-cased as the router does it, and empty segments (`//`, a trailing slash)
 * are dropped. Decoding more than the router (";", "?" …) only makes a spelling look like an API
 * that the router would not run: refused or limited for nothing, never let through.
 */
export function classifiedPath(pathname: string): string {
  const segments = pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodedSegment(segment).toLowerCase());
  return `/${segments.join('/')}`;
}

/** A segment's escapes decoded, except those that would make a "/" or need decoding again. */
function decodedSegment(segment: string): string {
  const kept = segment.replace(/%(2f|25|5c)/gi, '%25$1');
  try {
    return decodeURIComponent(kept);
  } catch {
    // A malformed escape (a lone "%", half a UTF-8 character): decode the escapes that decode.
    return kept.replace(/%[0-9a-f]{2}/gi, (sequence) => {
      try {
        return decodeURIComponent(sequence);
      } catch {
        return sequence;
      }
    });
  }
}

/** The endpoint a request's path reaches, whatever its spelling (`classifiedPath`). */
export function endpointOf(url: URL): Endpoint {
  return endpointFor(classifiedPath(url.pathname));
}

/** Profile pictures: under the spec's 2 MB. The spreadsheet import: 5 MiB. tRPC, auth and anything
 * else: 1 MiB. `pathname`: as `classifiedPath` spells it (lower case). */
export function endpointFor(pathname: string): Endpoint {
  if (pathname === '/api/account/avatar') {
    // The spec: an image *under* 2 MB, so exactly 2 MiB is already too large.
    return { kind: 'avatar', methods: API_METHODS, bodyLimit: AVATAR_MAX_BYTES - 1 };
  }
  // A product photo from the desk (decision 0045): up to 10 MB.
  // A return's photo from the shopper (issue 36): the same rules.
  if (
    /^\/api\/desk\/products\/[^/]+\/photos$/.test(pathname) ||
    pathname === '/api/returns/photos'
  ) {
    return { kind: 'photo', methods: ['POST'], bodyLimit: PHOTO_MAX_BYTES };
  }
  if (pathname === '/api/trpc' || pathname.startsWith('/api/trpc/')) {
    // The desk's spreadsheet import carries a file of up to 2 MB, escaped as JSON.
    const procedures = pathname.slice('/api/trpc/'.length).split(',');
    if (procedures.includes('desk.importproducts')) {
      return { kind: 'trpc', methods: API_METHODS, bodyLimit: 5 * MiB };
    }
    return { kind: 'trpc', methods: API_METHODS, bodyLimit: MiB };
  }
  // better-auth's endpoints are all GET or POST.
  if (pathname === '/api/auth' || pathname.startsWith('/api/auth/')) {
    return { kind: 'auth', methods: API_METHODS, bodyLimit: MiB };
  }
  // Pesapal: the shopper's return (GET) and the IPN (GET, or POST with a small JSON body).
  if (pathname.startsWith('/api/payments/pesapal/')) {
    return { kind: 'payments', methods: API_METHODS, bodyLimit: 64 * 1024 };
  }
  // Payment providers' callbacks: small JSON bodies, POST (Airtel) or PUT (MTN).
  if (pathname.startsWith('/api/payments/')) {
    return { kind: 'payments', methods: ['POST', 'PUT'], bodyLimit: 64 * 1024 };
  }
  // Meta's WhatsApp webhook (issue 37): its GET check and signed JSON events, a few KiB each.
  if (pathname === '/api/whatsapp/webhook') {
    return { kind: 'webhook', methods: API_METHODS, bodyLimit: 256 * 1024 };
  }
  return { kind: 'page', methods: null, bodyLimit: MiB };
}

const TRPC_CODES = {
  403: ['FORBIDDEN', -32003],
  405: ['METHOD_NOT_SUPPORTED', -32005],
  413: ['PAYLOAD_TOO_LARGE', -32013],
  415: ['UNSUPPORTED_MEDIA_TYPE', -32015],
} as const;
const AUTH_CODES = {
  403: 'FORBIDDEN',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
} as const;

/** An error in the shape the endpoint's callers read: tRPC's, better-auth's or `{message}`. */
export function endpointError(
  endpoint: Pick<Endpoint, 'kind'>,
  status: 403 | 405 | 413 | 415,
  message: string,
  headers: Record<string, string> = {},
): Response {
  let body: unknown = { message };
  if (endpoint.kind === 'trpc') {
    const [code, number] = TRPC_CODES[status];
    body = { error: { message, code: number, data: { code, httpStatus: status } } };
  } else if (endpoint.kind === 'auth') {
    body = { code: AUTH_CODES[status], message };
  }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

export function methodNotAllowed(endpoint: Endpoint): Response {
  const allow = (endpoint.methods ?? []).join(', ');
  return endpointError(endpoint, 405, `Method not allowed here; use ${allow}.`, { allow });
}

export function payloadTooLarge(endpoint: Endpoint): Response {
  // The profile screen shows this message as it is: the spec's text.
  if (endpoint.kind === 'avatar') return endpointError(endpoint, 413, TEXT.avatarSize);
  if (endpoint.kind === 'photo') return endpointError(endpoint, 413, PHOTO_TEXT.tooLarge);
  const limit = `${endpoint.bodyLimit / MiB} MiB`;
  return endpointError(
    endpoint,
    413,
    `The request body is larger than the ${limit} accepted here.`,
  );
}
