// The Worker's front layer, around TanStack Start: 405 for methods an API does not answer,
// body limits (413), writes only from the shop's own pages (403/415), the unread rest of a body
// settled, security headers on every response.

import { declaredTooLarge, limitBody } from './body-limits.ts';
import {
  classifiedPath,
  endpointError,
  endpointFor,
  methodNotAllowed,
  payloadTooLarge,
} from './endpoints.ts';
import { foreignWrite } from './own-origin.ts';
import { cachedPage, type PageCacheOptions } from './page-cache.ts';
import { newNonce, withSecurityHeaders } from './security-headers.ts';

/** The app behind the layer: gets the (body-limited) request and the page's CSP nonce. */
export type ShopApp = (request: Request, cspNonce: string) => Promise<Response> | Response;

export async function serveShop(
  request: Request,
  app: ShopApp,
  options: {
    dev: boolean;
    /** The shop's own origins (BETTER_AUTH_URL, TRUSTED_ORIGINS): where writes may come from. */
    ownOrigins: readonly string[];
    /** Anonymous catalogue pages from the edge cache (page-cache.ts); absent: never cached. */
    pages?: PageCacheOptions;
  },
): Promise<Response> {
  const url = new URL(request.url);
  // Classified by the path as the router will match it, whatever its spelling (0038).
  const path = classifiedPath(url.pathname);
  const endpoint = endpointFor(path);
  const security = { nonce: newNonce(), https: url.protocol === 'https:', dev: options.dev };
  const limited = limitBody(request, endpoint.bodyLimit);

  let response: Response;
  const refusal = foreignWrite(request, endpoint, options.ownOrigins);
  const moved = deskAddress(url, path);
  if (moved) {
    response = new Response(null, { status: 308, headers: { location: moved } });
  } else if (endpoint.methods && !endpoint.methods.includes(request.method)) {
    response = methodNotAllowed(endpoint);
  } else if (declaredTooLarge(request, endpoint.bodyLimit)) {
    response = payloadTooLarge(endpoint);
  } else if (refusal) {
    response = endpointError(endpoint, refusal.status, refusal.message);
  } else {
    try {
      const render = async () => app(limited.request, security.nonce);
      response = options.pages
        ? await cachedPage(request, security.nonce, render, options.pages)
        : await render();
    } catch (error) {
      if (!limited.exceeded()) throw error;
      response = payloadTooLarge(endpoint);
    }
    // The route's read failed past the limit: whatever it made of that (often a 500) becomes 413.
    if (limited.exceeded() && response.status !== 413) {
      await response.body?.cancel();
      response = payloadTooLarge(endpoint);
    }
  }
  // Every early answer (401, 404, 405, 413, 429 …) leaves the body unread: settle it.
  await limited.settle();
  const secured = withSecurityHeaders(response, security);
  // Every page is made light or full by the browser's Save-Data (core/less-data.ts).
  if (secured.headers.get('content-type')?.startsWith('text/html')) {
    secured.headers.append('vary', 'Save-Data');
  }
  return secured;
}

/**
 * The desk's first address: `/operator/…` (issue 33 named it the desk everywhere). Bookmarks and
 * old links answer a permanent redirect to the same page under `/desk/…`, query kept; 308 keeps
 * the method, though only pages lived there. Null for every other path.
 */
function deskAddress(url: URL, path: string): string | null {
  if (!/^\/operator(\/|$)/.test(path)) return null;
  // The rest of the path as it was written: only its first segment ("operator") is replaced.
  const rest = url.pathname.replace(/^\/*[^/]+/, '');
  return `/desk${rest}${url.search}`;
}
