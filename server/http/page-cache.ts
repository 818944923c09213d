// Anonymous catalogue pages from the edge cache (Cloudflare's Cache API, `caches.default`; workerd
// runs the same locally). A visitor without a session gets the same HTML and the same public
// catalogue data as every other visitor, so those answers are kept for PAGE_CACHE_SECONDS and
// served without rendering (one small read: the catalogue version). Never cached: anything for a
// signed-in shopper (a session cookie), anything but GET, answers that set a cookie or are not 200,
// and every path not listed below. A page's CSP nonce is never reused: the stored page remembers
// the nonce it was rendered with, and each answer from the cache carries a fresh one. Pages are
// kept per build: after a deploy, no page names script files of the build before. And per catalogue
// version (decision 0044): a desk change raises it, so every page kept before is out of reach at
// once, in every data centre. And per light or full page (decision 0091): a page made for Save-Data
// or "Use less data" (core/less-data.ts) is kept apart from the full one.

import { lessDataAsked } from '#core/less-data.ts';

/** The pages and the public tRPC queries whose answer is the same for every visitor. */
const PAGES = /^\/(shop|search|about|contact|terms|privacy|cookies|products(\/[^/]+)?)?$/;
const PUBLIC_QUERIES = /^(catalogue\.[a-zA-Z]+|contact\.channels)$/;

/** better-auth's cookies (server/auth.ts `cookiePrefix: 'duuka'`): their presence means a session. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?duuka\./;

const NONCE_HEADER = 'x-duuka-page-nonce';

export type PageCache = Pick<Cache, 'match' | 'put'>;

export type PageCacheOptions = {
  cache: PageCache;
  seconds: number;
  /** The running build's id: an answer stored by another build is not used. */
  build: string;
  /** Runs the store after the answer is sent. */
  keep: (work: Promise<unknown>) => void;
  /** The catalogue's version now (server/services/catalogue-version.ts): one small read. */
  version: () => Promise<string>;
};

export function isCacheable(request: Request): boolean {
  if (request.method !== 'GET') return false;
  if (SESSION_COOKIE.test(request.headers.get('cookie') ?? '')) return false;
  const { pathname } = new URL(request.url);
  if (PAGES.test(pathname)) return true;
  const procedures = pathname.match(/^\/api\/trpc\/([^/]+)$/)?.[1];
  return !!procedures && procedures.split(',').every((name) => PUBLIC_QUERIES.test(name));
}

/** The answer from the cache (with `nonce` in place of the one it was rendered with), or the
 * app's answer, stored when it may be. */
export async function cachedPage(
  request: Request,
  nonce: string,
  render: () => Promise<Response>,
  options: PageCacheOptions,
): Promise<Response> {
  if (options.seconds <= 0 || !isCacheable(request)) return render();
  // Unread, a version could be stale: the page is rendered as it is now and not kept.
  const version = await options.version().catch(() => null);
  if (version === null) return render();
  // The browser's tRPC link asks for a stream (application/jsonl); other clients for JSON.
  const key = new URL(request.url);
  key.searchParams.set('duuka-accept', request.headers.get('trpc-accept') ?? 'json');
  key.searchParams.set('duuka-build', options.build);
  key.searchParams.set('duuka-catalogue', version);
  const lessData = PAGES.test(key.pathname) ? lessDataAsked(request.headers) : null;
  if (lessData) key.searchParams.set('duuka-less-data', lessData);
  const hit = await options.cache.match(key).catch(() => undefined);
  if (hit) {
    const renderedWith = hit.headers.get(NONCE_HEADER) ?? '';
    const headers = new Headers(hit.headers);
    headers.delete(NONCE_HEADER);
    headers.set('cache-control', 'no-cache');
    headers.set('x-duuka-cache', 'hit');
    const body = renderedWith ? (await hit.text()).replaceAll(renderedWith, nonce) : hit.body;
    return new Response(body, { status: hit.status, headers });
  }
  const response = await render();
  if (response.status !== 200 || response.headers.has('set-cookie')) return response;
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/html') && !type.startsWith('application/json')) return response;
  const text = await response.text();
  const stored = new Headers(response.headers);
  stored.set('cache-control', `public, max-age=${options.seconds}`);
  if (type.startsWith('text/html')) stored.set(NONCE_HEADER, nonce);
  options.keep(
    options.cache.put(key, new Response(text, { status: 200, headers: stored })).catch(() => {}),
  );
  const headers = new Headers(response.headers);
  headers.set('x-duuka-cache', 'miss');
  return new Response(text, { status: 200, headers });
}
