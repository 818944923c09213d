// Security headers on every response the Worker makes (pages, API, auth). Static files are
// served before the Worker on Cloudflare: public/_headers gives them the same set.

/** A fresh, unguessable value per page: only inline scripts carrying it may run. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy of an HTML page. Scripts: our own files and the inline scripts TanStack Start and
 * React stamp with the page's nonce (hydration data, the appearance boot script); no eval.
 * Styles allow 'unsafe-inline': the server renders `style` attributes (hero carousel, side menu),
 * which cannot carry a nonce, and sonner injects a <style> element. Images: our own files
 * (product art, the avatar at /api/account/avatar) and data: URIs. Fonts: ours (the two Latin
 * files in /assets/; no font is small enough for Vite to inline).
 */
export function pagePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Everything that is not a page (JSON, XML, text, images): nothing may run or load from it. */
export const RESOURCE_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The service worker's own (public/_headers gives it to its script): it fetches from the shop,
 * for the pages it serves, and runs nothing else. */
export const SERVICE_WORKER_POLICY = "default-src 'none'; connect-src 'self'";

export const HSTS = 'max-age=31536000; includeSubDomains';

/** Headers every response carries, whatever it is. */
export const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

export type SecurityOptions = {
  /** The page's nonce (the same one the router stamped on its inline scripts). */
  nonce: string;
  /** HSTS only means something over https (browsers ignore it on http). */
  https: boolean;
  /** Vite's dev server injects unnonced scripts for HMR: no CSP under `npm start`. */
  dev: boolean;
};

/** The response with the security headers added; a CSP the route set itself is kept. */
export function withSecurityHeaders(response: Response, options: SecurityOptions): Response {
  // Responses from fetch() or Response.redirect() have immutable headers: copy first.
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  for (const [name, value] of Object.entries(COMMON_HEADERS)) headers.set(name, value);
  if (options.https) headers.set('strict-transport-security', HSTS);
  if (!options.dev && !headers.has('content-security-policy')) {
    const isPage = (headers.get('content-type') ?? '').startsWith('text/html');
    headers.set('content-security-policy', isPage ? pagePolicy(options.nonce) : RESOURCE_POLICY);
  }
  return secured;
}
