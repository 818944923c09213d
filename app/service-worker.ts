// The shop's service worker (decision 0090), registered by the root once a page has loaded. It
// keeps, per build, what never changes under its address: the build's files in /assets/
// (scripts, the stylesheet, the fonts: named by their content) and the last pictures seen.
// Pages and every /api/ call (prices, stock, the cart) always come from the network: when a page
// cannot, the shopper reads the offline page below, never a page kept from before.
import displayFont from '@fontsource-variable/cormorant-garamond/files/cormorant-garamond-latin-wght-normal.woff2?url';
import textFont from '@fontsource-variable/manrope/files/manrope-latin-wght-normal.woff2?url';
import { OFFLINE_TEXT } from '#core/offline.ts';

/** The little of a service worker's global scope used here (the project's types are the DOM's). */
type ExtendableEvent = Event & { waitUntil(work: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  request: Request;
  preloadResponse: Promise<Response | undefined>;
  respondWith(response: Promise<Response>): void;
};
const worker = self as unknown as {
  location: Location;
  registration: { navigationPreload?: { enable(): Promise<void> } };
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
};

/** This build's caches: a deploy's worker drops the last build's on activating. */
const FILES = `duuka-files-${import.meta.env.DUUKA_BUILD}`;
const PICTURES = `duuka-pictures-${import.meta.env.DUUKA_BUILD}`;
/** The pictures kept: the newest this many (a product page shows up to a dozen). */
const PICTURES_KEPT = 60;

worker.addEventListener('install', () => void worker.skipWaiting());

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name !== FILES && name !== PICTURES).map((n) => caches.delete(n)),
      );
      // The page's request leaves while the worker starts, not after.
      await worker.registration.navigationPreload?.enable();
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      (async () => (await event.preloadResponse) ?? (await fetch(request)))().catch(offlinePage),
    );
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(kept(event, FILES));
  } else if (/^\/(images|photos)\//.test(url.pathname)) {
    event.respondWith(kept(event, PICTURES, PICTURES_KEPT));
  }
  // Anything else, /api/ above all, goes to the network as if there were no worker.
});

/** The kept copy, else the network's answer, kept (the newest `most` only, when given). */
async function kept(event: FetchEvent, name: string, most?: number): Promise<Response> {
  const cache = await caches.open(name);
  const copy = await cache.match(event.request);
  if (copy) return copy;
  const response = await fetch(event.request);
  if (response.ok) {
    const keep = async () => {
      await cache.put(event.request, response.clone());
      const requests = await cache.keys();
      const extra = most ? requests.slice(0, Math.max(0, requests.length - most)) : [];
      await Promise.all(extra.map((old) => cache.delete(old)));
    };
    event.waitUntil(keep());
  }
  return response;
}

/** The shop's shell with what the shopper needs to know: no price, no stock, nothing kept. */
function offlinePage(): Response {
  return new Response(OFFLINE_PAGE, {
    status: 503,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        "font-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    },
  });
}

// The shop's header, colours and faces (app/styles.css; the fonts come from the cache, else the
// device's); `href=""` asks for the same page again.
const OFFLINE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${OFFLINE_TEXT.title} · duuka</title>
<style>
@font-face {
  font-family: "Cormorant Garamond Variable"; font-weight: 300 700; font-display: swap;
  src: url(${displayFont}) format("woff2-variations");
}
@font-face {
  font-family: "Manrope Variable"; font-weight: 200 800; font-display: swap;
  src: url(${textFont}) format("woff2-variations");
}
:root {
  color-scheme: light dark;
  --paper: light-dark(#faf7f2, #15130f);
  --ink: light-dark(#1d1a16, #f3ede3);
  --ink-soft: light-dark(#5b534a, #b9af9f);
  --line: light-dark(#e3dacb, #3a342c);
}
body {
  margin: 0; background: var(--paper); color: var(--ink);
  font-family: "Manrope Variable", system-ui, sans-serif; -webkit-font-smoothing: antialiased;
}
header {
  display: flex; justify-content: center; align-items: center; height: 4rem;
  border-bottom: 1px solid var(--line);
}
header a, h1 {
  font-family: "Cormorant Garamond Variable", Georgia, serif; color: inherit;
  text-decoration: none;
}
header a { font-size: 1.875rem; font-weight: 600; letter-spacing: 0.025em; }
main { max-width: 36rem; margin: 0 auto; padding: 6rem 1.5rem; text-align: center; }
h1 { margin: 0; font-size: 2.25rem; font-weight: 500; line-height: 1.1; }
p { margin: 1rem 0 0; color: var(--ink-soft); line-height: 1.6; }
.retry {
  display: inline-flex; align-items: center; min-height: 2.75rem; margin-top: 2rem;
  padding: 0 1.4rem; background: var(--ink); color: var(--paper); font-size: 0.8rem;
  font-weight: 600; letter-spacing: 0.14em; text-transform: uppercase; text-decoration: none;
}
</style>
</head>
<body>
<header><a href="/" aria-label="duuka home">duuka</a></header>
<main>
<h1>${OFFLINE_TEXT.title}</h1>
<p>${OFFLINE_TEXT.prices}</p>
<p>${OFFLINE_TEXT.cart}</p>
<a class="retry" href="">${OFFLINE_TEXT.retry}</a>
</main>
</body>
</html>`;
