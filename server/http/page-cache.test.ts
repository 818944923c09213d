import { describe, expect, it } from 'vitest';
import { cachedPage, isCacheable, type PageCache } from './page-cache.ts';

/** An in-memory stand-in for caches.default (keys by URL, as the Cache API does for GETs). */
function memoryCache(): PageCache & { size: () => number } {
  const kept = new Map<string, Response>();
  return {
    size: () => kept.size,
    async match(key) {
      const url = key instanceof Request ? key.url : String(key);
      return kept.get(url)?.clone();
    },
    async put(key, response) {
      kept.set(key instanceof Request ? key.url : String(key), response.clone());
    },
  };
}

const page = (nonce: string, headers: Record<string, string> = {}) =>
  new Response(`<html><script nonce="${nonce}">hydrate()</script><p>17 items</p></html>`, {
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  });

/** The app as a page that counts how often it was rendered. */
function countedPage() {
  let renders = 0;
  return {
    app: (nonce: string) => {
      renders += 1;
      return page(nonce);
    },
    renders: () => renders,
  };
}

async function serve(
  cache: PageCache,
  request: Request,
  app: (nonce: string) => Response,
  {
    seconds = 60,
    build = 'build-1',
    version = async () => '1',
  }: { seconds?: number; build?: string; version?: () => Promise<string> } = {},
) {
  const nonce = crypto.randomUUID();
  const kept: Promise<unknown>[] = [];
  const response = await cachedPage(request, nonce, async () => app(nonce), {
    cache,
    seconds,
    build,
    keep: (work) => kept.push(work),
    version,
  });
  await Promise.all(kept);
  return { nonce, response, body: await response.text() };
}

describe('the page cache', () => {
  it('serves an anonymous page once rendered, with a fresh nonce each time', async () => {
    const cache = memoryCache();
    const { app, renders } = countedPage();
    const first = await serve(cache, new Request('https://duuka.ug/shop'), app);
    const second = await serve(cache, new Request('https://duuka.ug/shop'), app);
    expect(renders()).toBe(1);
    expect(first.response.headers.get('x-duuka-cache')).toBe('miss');
    expect(second.response.headers.get('x-duuka-cache')).toBe('hit');
    expect(second.body).toContain(`nonce="${second.nonce}"`);
    expect(second.body).not.toContain(first.nonce);
    expect(second.response.headers.get('x-duuka-page-nonce')).toBeNull();
  });

  it('after a deploy, renders again: a page kept by the last build names its script files', async () => {
    const cache = memoryCache();
    const { app, renders } = countedPage();
    const shop = () => new Request('https://duuka.ug/shop');
    await serve(cache, shop(), app, { build: 'build-1' });
    const deployed = await serve(cache, shop(), app, { build: 'build-2' });
    expect(deployed.response.headers.get('x-duuka-cache')).toBe('miss');
    expect(renders()).toBe(2);
    const again = await serve(cache, shop(), app, { build: 'build-2' });
    expect(again.response.headers.get('x-duuka-cache')).toBe('hit');
  });

  it('after a desk change, renders again: the catalogue version is part of the key', async () => {
    const cache = memoryCache();
    const { app, renders } = countedPage();
    const shop = () => new Request('https://duuka.ug/shop');
    let version = '7';
    const now = { version: async () => version };
    await serve(cache, shop(), app, now);
    expect((await serve(cache, shop(), app, now)).response.headers.get('x-duuka-cache')).toBe(
      'hit',
    );
    version = '8';
    const edited = await serve(cache, shop(), app, now);
    expect(edited.response.headers.get('x-duuka-cache')).toBe('miss');
    expect(renders()).toBe(2);
    expect((await serve(cache, shop(), app, now)).response.headers.get('x-duuka-cache')).toBe(
      'hit',
    );
  });

  it('renders without the cache when the version cannot be read, and keeps nothing', async () => {
    const cache = memoryCache();
    const { app, renders } = countedPage();
    const down = { version: () => Promise.reject(new Error('database unreachable')) };
    const first = await serve(cache, new Request('https://duuka.ug/shop'), app, down);
    await serve(cache, new Request('https://duuka.ug/shop'), app, down);
    expect(first.response.status).toBe(200);
    expect(first.body).toContain('17 items');
    expect(first.response.headers.get('x-duuka-cache')).toBeNull();
    expect(renders()).toBe(2);
    expect(cache.size()).toBe(0);
  });

  it('never serves or keeps a signed-in shopper’s page', async () => {
    const cache = memoryCache();
    const signedIn = { cookie: 'theme=dark; duuka.session_token=abc.def' };
    const { app, renders } = countedPage();
    for (let i = 0; i < 2; i++) {
      await serve(cache, new Request('https://duuka.ug/', { headers: signedIn }), app);
    }
    expect(renders()).toBe(2);
    expect(cache.size()).toBe(0);
    // …nor hands an anonymous visitor a page made for someone (it was never kept).
    const secure = { cookie: '__Secure-duuka.session_token=abc' };
    expect(isCacheable(new Request('https://duuka.ug/', { headers: secure }))).toBe(false);
  });

  it('keeps only public pages and public catalogue queries, for GET', () => {
    const cacheable = (path: string, init?: RequestInit) =>
      isCacheable(new Request(`https://duuka.ug${path}`, init));
    for (const path of [
      '/',
      '/shop',
      '/search?q=dress',
      '/products',
      '/products/ankara-wrap-dress',
      '/about',
      '/contact',
      '/terms',
      '/privacy',
      '/cookies',
    ]) {
      expect(cacheable(path), path).toBe(true);
    }
    expect(cacheable('/api/trpc/catalogue.home,catalogue.rates?batch=1&input=%7B%7D')).toBe(true);
    for (const path of [
      '/cart',
      '/checkout',
      '/orders',
      '/profile',
      '/settings',
      '/desk',
      '/order-history/1',
      '/api/trpc/cart.get',
      '/api/trpc/catalogue.home,cart.get?batch=1',
      '/api/orders/x/receipt.pdf',
      '/api/auth/get-session',
    ]) {
      expect(cacheable(path), path).toBe(false);
    }
    expect(cacheable('/shop', { method: 'POST', body: '' })).toBe(false);
  });

  it('keeps nothing that sets a cookie or is not a 200', async () => {
    const cache = memoryCache();
    await serve(cache, new Request('https://duuka.ug/'), (nonce) =>
      page(nonce, { 'set-cookie': 'duuka.state=1' }),
    );
    await serve(
      cache,
      new Request('https://duuka.ug/products/gone'),
      () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/html' } }),
    );
    expect(cache.size()).toBe(0);
  });

  it('keeps the streamed and the plain answer of a query apart', async () => {
    const cache = memoryCache();
    const url = 'https://duuka.ug/api/trpc/catalogue.home';
    const json = () =>
      new Response('{"result":{}}', { headers: { 'content-type': 'application/json' } });
    await serve(cache, new Request(url), json);
    const streamed = await serve(
      cache,
      new Request(url, { headers: { 'trpc-accept': 'application/jsonl' } }),
      () => new Response('{"0":[]}\n', { headers: { 'content-type': 'application/jsonl' } }),
    );
    expect(streamed.response.headers.get('x-duuka-cache')).toBe('miss');
    expect(cache.size()).toBe(2);
  });

  it('keeps a page made light (Save-Data, or the "Use less data" cookie) apart from the full one', async () => {
    const cache = memoryCache();
    const visitors = [
      ['full', {}],
      ['light for Save-Data', { 'save-data': 'on' }],
      ['light for the setting', { cookie: 'lessData=1' }],
    ] as const;
    for (const round of ['miss', 'hit']) {
      for (const [made, headers] of visitors) {
        const answer = await serve(
          cache,
          new Request('https://duuka.ug/shop', { headers }),
          (nonce) =>
            new Response(`<html><script nonce="${nonce}"></script>${made}</html>`, {
              headers: { 'content-type': 'text/html' },
            }),
        );
        expect(answer.body, made).toContain(`</script>${made}</html>`);
        expect(answer.response.headers.get('x-duuka-cache'), made).toBe(round);
      }
    }
    expect(cache.size()).toBe(3);
    // A query's answer is the same either way: one copy.
    const url = 'https://duuka.ug/api/trpc/catalogue.home';
    const json = () => new Response('{}', { headers: { 'content-type': 'application/json' } });
    await serve(cache, new Request(url), json);
    const light = await serve(cache, new Request(url, { headers: { 'save-data': 'on' } }), json);
    expect(light.response.headers.get('x-duuka-cache')).toBe('hit');
  });

  it('is off at 0 seconds', async () => {
    const cache = memoryCache();
    await serve(cache, new Request('https://duuka.ug/'), (nonce) => page(nonce), { seconds: 0 });
    expect(cache.size()).toBe(0);
  });
});
