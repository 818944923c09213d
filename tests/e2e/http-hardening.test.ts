// The Worker's front layer on the production build in workerd (vite preview): security headers on
// every kind of response, 405 for methods an API does not answer, the tRPC batch cap, body
// limits (413 by Content-Length and for chunked bodies), early answers that leave the local
// proxy's connection usable (no 500 "fetch failed" on the request after them), and writes only
// from the shop's own pages (another port's auto-submitting form, in Chromium).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { TEXT } from '#core/account.ts';
import { REQUEST_TEXT } from '#core/requests.ts';
import { createDb } from '#db/client.ts';
import { chatMessages, productImages, user } from '#db/schema/index.ts';
import { setRole } from '#server/services/staff-service.ts';
import { closeBrowser, openBrowser } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { sessionCookie, signIn, verifiedShopper } from '../support/shoppers.ts';

const shopUrl = () => shop().url;
const url = (path: string) => `${shopUrl()}${path}`;
const KiB = 1024;
const MiB = 1024 * KiB;

let ipCounter = 0;
/** A client IP of its own, so these requests never share a rate limit with other tests. */
function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

/**
 * A chunked body (no Content-Length) of `bytes`. (How much the Worker read can't be seen from
 * here: the local proxy reads the rest of a refused upload to discard it; the unit tests of
 * server/http/body-limits.ts count what the Worker reads.)
 */
function chunked(bytes: number) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const chunk = new Uint8Array(Math.min(64 * KiB, bytes - sent)).fill(0x61);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

const chunkedInit = (body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  ({ method: 'POST', headers, body, duplex: 'half' }) as RequestInit;

function expectSecurityHeaders(response: Response) {
  const headers = response.headers;
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=()');
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-eval');
  // Served over plain http here: HSTS would be meaningless (browsers ignore it on http).
  expect(headers.has('strict-transport-security')).toBe(false);
}

describe('security headers', () => {
  it('a page: a fresh nonce per response, on every script the page carries', async () => {
    const [first, second] = await Promise.all([fetch(url('/')), fetch(url('/'))]);
    expectSecurityHeaders(first);
    const csp = first.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(second.headers.get('content-security-policy')).not.toBe(csp);

    const html = await first.text();
    await second.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('an API response, an auth response and static files', async () => {
    const api = await fetch(url('/api/trpc/catalogue.categories'));
    const auth = await fetch(url('/api/auth/get-session'));
    const html = await (await fetch(url('/'))).text();
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeTruthy();
    const statics = await Promise.all(
      ['/favicon.svg', '/images/placeholder.svg', `${script}`].map((path) => fetch(url(path))),
    );
    for (const response of [api, auth, ...statics]) {
      expect(response.status, response.url).toBe(200);
      expectSecurityHeaders(response);
      // Nothing but a page may run anything.
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      await response.arrayBuffer();
    }
  });
});

describe('methods', () => {
  it.each([
    ['PUT', '/api/account/avatar'],
    ['PATCH', '/api/account/avatar'],
    ['DELETE', '/api/account/avatar'],
    ['PUT', '/api/trpc/catalogue.shop'],
    ['PATCH', '/api/trpc/account.updateProfile'],
    ['DELETE', '/api/trpc/catalogue.shop'],
    ['PUT', '/api/auth/sign-in/email'],
    ['DELETE', '/api/auth/delete-user'],
  ])('%s %s answers 405 with Allow and a small JSON body', async (method, path) => {
    const response = await fetch(url(path), { method, body: method === 'DELETE' ? null : '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    expect(text.length).toBeLessThan(300);
    expect(text).toContain('Method not allowed');
    expectSecurityHeaders(response);
  });
});

describe('tRPC batch cap', () => {
  const batch = (calls: number) =>
    url(`/api/trpc/${Array(calls).fill('catalogue.shop').join(',')}?batch=1&input={}`);

  it('answers a batch of 20 calls', async () => {
    const response = await fetch(batch(20));
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(20);
  });

  it('refuses a bigger one before running any call, in tRPC’s error shape', async () => {
    // (1,000 calls would pass Cloudflare's 16 KB URL limit but not the local server's.)
    for (const calls of [21, 500]) {
      const response = await fetch(batch(calls));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = await response.json();
      expect(body).toMatchObject({
        error: { message: 'Batch call exceeds maximum size', data: { code: 'BAD_REQUEST' } },
      });
    }
  });
});

describe('body limits', () => {
  it('refuses a declared Content-Length over the limit with 413 (tRPC 1 MiB, auth 1 MiB)', async () => {
    const body = new Uint8Array(MiB + 1).fill(0x61);
    const trpc = await fetch(url('/api/trpc/contact.send'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(trpc.status).toBe(413);
    expect(await trpc.json()).toMatchObject({
      error: { code: -32013, data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 } },
    });
    const auth = await fetch(url('/api/auth/sign-up/email'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shopUrl() },
      body,
    });
    expect(auth.status).toBe(413);
    expect(await auth.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('refuses an avatar of 2 MB by its Content-Length, with the spec’s message', async () => {
    const response = await fetch(url('/api/account/avatar'), {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: new Uint8Array(2 * MiB), // the spec: under 2 MB
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: TEXT.avatarSize });
  });

  it('stops a chunked tRPC or auth body past 1 MiB with 413, not 500', async () => {
    for (const path of ['/api/trpc/contact.send', '/api/auth/sign-in/email']) {
      const body = chunked(20 * MiB);
      const response = await fetch(
        url(path),
        chunkedInit(body, {
          'content-type': 'application/json',
          origin: shopUrl(),
          'cf-connecting-ip': freshIp(),
        }),
      );
      expect(response.status, path).toBe(413);
      expect(JSON.stringify(await response.json())).toContain('PAYLOAD_TOO_LARGE');
    }
  });

  it('stops a chunked 40 MiB avatar of a signed-in shopper with 413 and the spec’s message', async () => {
    const cookie = await signedInShopper();
    const body = chunked(40 * MiB);
    const response = await fetch(
      url('/api/account/avatar'),
      chunkedInit(body, { 'content-type': 'image/png', cookie }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: TEXT.avatarSize });
  });
});

describe('bodies the routes read', () => {
  it('a streamed mutation, sent as the browser sends it, gets its whole input', async () => {
    // tRPC starts a streamed answer before the procedure reads its input (here after the
    // session lookup): the body received before answering must still reach it.
    const cookie = await signedInShopper();
    const response = await fetch(url('/api/trpc/account.updateProfile?batch=1'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'trpc-accept': 'application/jsonl', cookie },
      body: JSON.stringify({ 0: { fullName: 'Nakato Streamed', phone: '', address: '' } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/jsonl');
    const text = await response.text();
    expect(text).toContain('Nakato Streamed');
    expect(text).not.toContain('error');
  });
});

describe('early answers', () => {
  it('50 POSTs refused before their body is read, each followed by a normal request: no 500', async () => {
    const json = { 'content-type': 'application/json', origin: shopUrl() };
    const padding = JSON.stringify({ note: 'a'.repeat(200 * KiB) });
    const rateLimitedIp = freshIp();
    for (let attempt = 0; attempt < 6; attempt++) {
      await fetch(url('/api/auth/sign-in/email'), {
        method: 'POST',
        headers: { ...json, 'cf-connecting-ip': rateLimitedIp },
        body: JSON.stringify({ email: 'nobody@example.ug', password: 'wrong-password' }),
      }).then((response) => response.arrayBuffer());
    }
    const refusals: { expected: number; path: string; init: RequestInit }[] = [
      {
        expected: 401,
        path: '/api/account/avatar',
        init: { method: 'POST', headers: { 'content-type': 'image/png' }, body: padding },
      },
      {
        expected: 401,
        path: '/api/trpc/account.updateProfile',
        init: { method: 'POST', headers: json, body: padding },
      },
      { expected: 404, path: '/no-such-page', init: { method: 'POST', body: padding } },
      { expected: 405, path: '/api/trpc/catalogue.shop', init: { method: 'PUT', body: padding } },
      {
        expected: 413,
        path: '/api/account/avatar',
        init: {
          method: 'POST',
          headers: { 'content-type': 'image/png' },
          body: new Uint8Array(3 * MiB),
        },
      },
      {
        expected: 429,
        path: '/api/auth/sign-in/email',
        init: {
          method: 'POST',
          headers: { ...json, 'cf-connecting-ip': rateLimitedIp },
          body: padding,
        },
      },
    ];
    const failures: string[] = [];
    for (let round = 0; round < 50; round++) {
      const refusal = refusals[round % refusals.length];
      if (!refusal) continue;
      const early = await fetch(url(refusal.path), refusal.init);
      await early.arrayBuffer();
      if (early.status !== refusal.expected) {
        failures.push(`round ${round}: ${refusal.path} ${early.status}`);
      }
      const normal = await fetch(url('/robots.txt'));
      const text = await normal.text();
      if (normal.status !== 200) failures.push(`round ${round}: then ${normal.status} ${text}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('writes only from the shop’s own pages', () => {
  afterAll(closeBrowser);

  /** A page on another loopback port (same site for the SameSite=Lax cookie) with a form that
   * posts itself to the shop as soon as it loads. */
  async function attackerSite(action: string) {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Free kitenge</title>
<form id="f" method="post" enctype="multipart/form-data" action="${action}">
<input name="x" value="1"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { page, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('another port’s auto-submitting form cannot clear the cart or the chat in Chromium', async () => {
    const db = createDb(shop().databaseUrl);
    const shopper = await verifiedShopper(db, 'Nakato Forms', { phone: '+256772000990' });
    const wrap = await addProduct(db, { name: 'Kitenge Wrap', price: 85_000, stock: 5 });
    await db.insert(chatMessages).values({
      userId: shopper.id,
      sessionId: randomUUID(),
      role: 'user',
      content: 'Do you have this in size 12?',
    });
    const context = await (await openBrowser()).newContext({ baseURL: shopUrl() });
    const page = await context.newPage();
    await signIn(page, shopper);

    // The shop's own page: its JSON mutation works (Chromium sends our Origin).
    await page.goto(url('/about'), { waitUntil: 'domcontentloaded' });
    const added = await page.evaluate(async (variantId) => {
      const response = await fetch('/api/trpc/cart.add', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ variantId }),
      });
      return response.status;
    }, wrap.variantId);
    expect(added).toBe(200);
    const cart = async () =>
      page.evaluate(async () => {
        const response = await fetch('/api/trpc/cart.get');
        return ((await response.json()) as { result: { data: { productsInCart: unknown[] } } })
          .result.data.productsInCart.length;
      });
    expect(await cart()).toBe(1);

    for (const procedure of ['cart.clear', 'chat.clear']) {
      const attacker = await attackerSite(url(`/api/trpc/${procedure}`));
      try {
        const answered = page.waitForResponse((r) => r.url().includes(`/api/trpc/${procedure}`));
        await page.goto(attacker.page);
        const response = await answered;
        // The browser did send the shopper's cookie from the other port: only the rule stops it.
        const sent = await response.request().allHeaders();
        expect(sent.cookie ?? '').toContain('session_token');
        expect(sent.origin).toBe(attacker.page.replace(/\/$/, ''));
        expect(response.status(), procedure).toBe(403);
        expect(await response.json()).toMatchObject({ error: { message: REQUEST_TEXT.otherSite } });
      } finally {
        await attacker.close();
      }
    }
    await page.goto(url('/about'), { waitUntil: 'domcontentloaded' });
    expect(await cart()).toBe(1);
    const chat = await db.select().from(chatMessages).where(eq(chatMessages.userId, shopper.id));
    expect(chat).toHaveLength(1);
    await context.close();
  });

  it('a text/plain POST and an avatar from another origin are refused', async () => {
    const cookie = await signedInShopper();
    const plain = await fetch(url('/api/trpc/cart.clear'), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: shopUrl(), cookie },
      body: '{}',
    });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({ error: { message: REQUEST_TEXT.notJson } });
    const avatar = await fetch(url('/api/account/avatar'), {
      method: 'POST',
      headers: { 'content-type': 'image/png', origin: 'http://127.0.0.1:1', cookie },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
    expect(avatar.status).toBe(403);
    expect(await avatar.json()).toEqual({ message: REQUEST_TEXT.otherSite });
  });
});

describe('every spelling of a write’s path meets the same rule (0038)', () => {
  afterAll(closeBrowser);

  /** A picture the upload takes: a phone-sized JPEG. */
  const photo = () =>
    sharp({ create: { width: 1200, height: 1500, channels: 3, background: '#b5543a' } })
      .jpeg()
      .toBuffer();

  /** A staff member with one piece in their cart, a product with no photo yet; their cookie. */
  async function staffWithACart() {
    const db = createDb(shop().databaseUrl);
    const staff = await verifiedShopper(db, 'Sam Spelling');
    await setRole(db, staff.email, 'staff');
    const wrap = await addProduct(db, { name: `Spelling Wrap ${randomUUID()}`, price: 85_000 });
    const cookie = await sessionCookie(staff);
    const added = await fetch(url('/api/trpc/cart.add'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shopUrl(), cookie },
      body: JSON.stringify({ variantId: wrap.variantId }),
    });
    expect(added.status).toBe(200);
    const cart = async () => {
      const answer = await fetch(url('/api/trpc/cart.get'), { headers: { cookie } });
      const body = (await answer.json()) as { result: { data: { productsInCart: unknown[] } } };
      return body.result.data.productsInCart.length;
    };
    const photos = async () =>
      (await db.select().from(productImages).where(eq(productImages.productId, wrap.id))).length;
    return { db, staff, cookie, wrap, cart, photos };
  }

  it('from another site: 403 on every spelling the router takes; nothing changes', async () => {
    const { cookie, wrap, cart, photos } = await staffWithACart();
    const evil = { origin: 'http://evil.example', cookie };
    const json = { ...evil, 'content-type': 'application/json' };
    const picture = new Uint8Array(await photo());
    const spellings: [string, RequestInit, 'trpc' | 'upload'][] = [
      ...[
        '/API/TRPC/cart.clear',
        '/Api/tRPC/cart.clear',
        '/api/trpc/cart.clear/',
        '/api//trpc/cart.clear',
        '/api/%74rpc/cart.clear',
        '/%61pi/TR%50C/cart.clear',
      ].map((path): [string, RequestInit, 'trpc'] => [
        path,
        { method: 'POST', headers: json, body: '{}' },
        'trpc',
      ]),
      [
        '/API/TRPC/desk.saveSettings',
        { method: 'POST', headers: json, body: JSON.stringify({ supportPhone: '0772 000 666' }) },
        'trpc',
      ],
      ...[
        `/API/DESK/PRODUCTS/${wrap.id}/PHOTOS`,
        `/api/desk/products/${wrap.id}/photos/`,
        `/api/desk//products/${wrap.id}/photos`,
        `/api/desk/products/${wrap.id}/%70hotos`,
        `/api/des%E2%84%AA/products/${wrap.id}/photos`,
        '/API/ACCOUNT/AVATAR',
        '/api/account/avatar/',
        '/api/account/%61vatar',
      ].map((path): [string, RequestInit, 'upload'] => [
        path,
        { method: 'POST', headers: { ...evil, 'content-type': 'image/jpeg' }, body: picture },
        'upload',
      ]),
    ];
    const answers: string[] = [];
    for (const [path, init, kind] of spellings) {
      const answer = await fetch(url(path), { ...init, redirect: 'manual' });
      const body = (await answer.json().catch(() => null)) as {
        message?: string;
        error?: { message?: string };
      } | null;
      const message = kind === 'trpc' ? body?.error?.message : body?.message;
      answers.push(`${path} ${answer.status} ${message}`);
    }
    expect(answers).toEqual(spellings.map(([path]) => `${path} 403 ${REQUEST_TEXT.otherSite}`));
    expect(await cart()).toBe(1);
    expect(await photos()).toBe(0);
    const settings = await fetch(url('/api/trpc/desk.settings'), { headers: { cookie } });
    expect(JSON.stringify(await settings.json())).not.toContain('+256772000666');
  });

  it('in Chromium, another port’s page cannot add a photo or clear the cart through /API/…', async () => {
    const { cookie, wrap, cart, photos, staff } = await staffWithACart();
    expect(cookie).toContain('session_token');
    const jpeg = (await photo()).toString('base64');
    const shopOrigin = shopUrl().replace(/\/$/, '');
    // The attacker's page: a no-cors fetch of a picture, a no-cors multipart POST, and an
    // auto-submitting multipart form, all with the browser's cookies (same site: another port).
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Free kitenge</title>
<form id="f" method="post" enctype="multipart/form-data" action="${shopOrigin}/API/TRPC/cart.clear">
<input name="x" value="1"></form>
<script>
const bytes = Uint8Array.from(atob('${jpeg}'), (c) => c.charCodeAt(0));
const sent = [
  fetch('${shopOrigin}/API/desk/products/${wrap.id}/photos', {
    method: 'POST', mode: 'no-cors', credentials: 'include',
    body: new Blob([bytes], { type: 'image/jpeg' }),
  }),
  fetch('${shopOrigin}/API/TRPC/cart.clear', {
    method: 'POST', mode: 'no-cors', credentials: 'include', body: new FormData(),
  }),
];
Promise.allSettled(sent).then(() => document.getElementById('f').submit());
</script>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const attacker = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const context = await (await openBrowser()).newContext({ baseURL: shopUrl() });
    try {
      const page = await context.newPage();
      await signIn(page, staff);
      const answers: string[] = [];
      page.on('response', (response) => {
        if (/\/API\//.test(response.url())) {
          answers.push(`${new URL(response.url()).pathname} ${response.status()}`);
        }
      });
      const formAnswered = page.waitForResponse(
        (r) =>
          r.url().includes('/API/TRPC/cart.clear') && r.request().resourceType() === 'document',
      );
      await page.goto(attacker);
      const form = await formAnswered;
      // The browser did send the staff member's cookie from the other port (same site): only the
      // rule stops these.
      expect((await form.request().allHeaders()).cookie ?? '').toContain('session_token');
      const refused = answers;
      expect(refused.sort()).toEqual(
        [
          `/API/desk/products/${wrap.id}/photos 403`,
          '/API/TRPC/cart.clear 403',
          '/API/TRPC/cart.clear 403',
        ].sort(),
      );
    } finally {
      await context.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(await photos()).toBe(0);
    expect(await cart()).toBe(1);
  });
});

/** A verified shopper signed in over HTTP; the session cookie. */
async function signedInShopper(): Promise<string> {
  const email = `hardening-${Date.now()}@example.ug`;
  const password = 'kampala-2026';
  const headers = { 'content-type': 'application/json', origin: shopUrl() };
  const signUp = await fetch(url('/api/auth/sign-up/email'), {
    method: 'POST',
    headers: { ...headers, 'cf-connecting-ip': freshIp() },
    body: JSON.stringify({ name: 'Nakato Hardening', email, password }),
  });
  expect(signUp.status).toBe(200);
  await createDb(shop().databaseUrl)
    .update(user)
    .set({ emailVerified: true })
    .where(eq(user.email, email));
  const signIn = await fetch(url('/api/auth/sign-in/email'), {
    method: 'POST',
    headers: { ...headers, 'cf-connecting-ip': freshIp() },
    body: JSON.stringify({ email, password }),
  });
  expect(signIn.status).toBe(200);
  return signIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}
