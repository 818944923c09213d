import { describe, expect, it } from 'vitest';
import { TEXT } from '#core/account.ts';
import { REQUEST_TEXT } from '#core/requests.ts';
import { classifiedPath, endpointOf } from './endpoints.ts';
import { type ShopApp, serveShop } from './shop-http.ts';

const MiB = 1024 * 1024;

/** An upload of `bytes` (chunked unless a length is declared) that records how far it was read. */
function post(path: string, bytes: number, headers: Record<string, string> = {}) {
  const seen = { read: 0, ended: false };
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) {
        seen.ended = true;
        return controller.close();
      }
      const chunk = new Uint8Array(Math.min(64 * 1024, bytes - sent));
      sent += chunk.byteLength;
      seen.read = sent;
      controller.enqueue(chunk);
    },
  });
  const request = new Request(`http://shop.test${path}`, {
    method: 'POST',
    // What the shop's own pages send to tRPC, unless the test says otherwise.
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
  return { request, seen };
}

const OURS = 'https://duuka.ug';
const serve = (request: Request, app: ShopApp) =>
  serveShop(request, app, { dev: false, ownOrigins: [OURS, 'https://preview.duuka.ug'] });
const unreachable: ShopApp = () => {
  throw new Error('the app must not be called');
};

describe('serveShop: methods', () => {
  it.each([
    ['PUT', '/api/account/avatar'],
    ['PATCH', '/api/trpc/catalogue.shop'],
    ['DELETE', '/api/trpc/catalogue.shop'],
    ['PUT', '/api/auth/sign-in/email'],
    ['OPTIONS', '/api/auth/get-session'],
  ])('%s %s answers 405 with Allow and JSON', async (method, path) => {
    const response = await serve(new Request(`http://shop.test${path}`, { method }), unreachable);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(JSON.stringify(await response.json())).toContain('Method not allowed');
  });

  it('answers 405 in tRPC’s error shape on /api/trpc', async () => {
    const response = await serve(
      new Request('http://shop.test/api/trpc/x', { method: 'PUT' }),
      unreachable,
    );
    expect(await response.json()).toMatchObject({
      error: { code: -32005, data: { code: 'METHOD_NOT_SUPPORTED', httpStatus: 405 } },
    });
  });

  it('leaves pages to the app, whatever the method (their 404 view answers)', async () => {
    const response = await serve(
      new Request('http://shop.test/shop', { method: 'DELETE' }),
      () => new Response('page', { status: 404, headers: { 'content-type': 'text/html' } }),
    );
    expect(response.status).toBe(404);
  });
});

describe('serveShop: body limits', () => {
  it('refuses a declared length over the limit before the app runs', async () => {
    const { request } = post('/api/trpc/x', 10, { 'content-length': String(1 * MiB + 1) });
    const response = await serve(request, unreachable);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: -32013, data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 } },
    });
  });

  it('takes up to 5 MiB for the desk’s spreadsheet import, 1 MiB for any other call', async () => {
    const size = { 'content-length': String(3 * MiB) };
    const file = post('/api/trpc/desk.importProducts', 10, size);
    expect((await serve(file.request, () => new Response('ok'))).status).toBe(200);
    const batched = post('/api/trpc/desk.role,desk.importProducts', 10, size);
    expect((await serve(batched.request, () => new Response('ok'))).status).toBe(200);
    const other = post('/api/trpc/desk.saveProduct', 10, size);
    expect((await serve(other.request, unreachable)).status).toBe(413);
    const huge = post('/api/trpc/desk.importProducts', 10, {
      'content-length': String(5 * MiB + 1),
    });
    expect((await serve(huge.request, unreachable)).status).toBe(413);
  });

  it('takes an avatar under 2 MB, refuses 2 MB with the spec’s message', async () => {
    const ok = post('/api/account/avatar', 10, { 'content-length': String(1.5 * MiB) });
    expect((await serve(ok.request, () => new Response('ok'))).status).toBe(200);
    const big = post('/api/account/avatar', 10, { 'content-length': String(2 * MiB) });
    const response = await serve(big.request, unreachable);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: TEXT.avatarSize });
  });

  it('turns a chunked body past the limit into 413, whatever the app made of the failed read', async () => {
    const failing: ShopApp = async (request) => {
      try {
        await request.arrayBuffer();
        return new Response('stored');
      } catch {
        return new Response('Internal Server Error', { status: 500 });
      }
    };
    // Bigger than the drain allowance: received up to it, then cut, never read whole.
    const { request, seen } = post('/api/auth/sign-up/email', 80 * MiB);
    const response = await serve(request, failing);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(seen.read).toBeLessThan(80 * MiB);

    const throwing: ShopApp = async (request) => new Response(await request.arrayBuffer());
    const thrown = await serve(post('/api/trpc/x', 3 * MiB).request, throwing);
    expect(thrown.status).toBe(413);
  });

  it('passes a body within the limit to the app whole', async () => {
    const echo: ShopApp = async (request) =>
      new Response(String((await request.arrayBuffer()).byteLength));
    const response = await serve(post('/api/trpc/x', MiB).request, echo);
    expect(await response.text()).toBe(String(MiB));
  });
});

describe('serveShop: early answers', () => {
  it('reads to its end the body a route answered without reading', async () => {
    const { request, seen } = post('/api/account/avatar', 500 * 1024);
    const response = await serve(request, () => Response.json({ message: 'no' }, { status: 401 }));
    expect(response.status).toBe(401);
    expect(seen.ended).toBe(true);
  });

  it('leaves the body to a route that answers first and reads it after (tRPC streaming)', async () => {
    let input: Promise<string> | undefined;
    const streaming: ShopApp = (request) => {
      input = new Promise((resolve) => setTimeout(() => resolve(request.text()), 20));
      return new Response('[stream]');
    };
    const { request } = post('/api/trpc/account.updateProfile', 300 * 1024);
    expect((await serve(request, streaming)).status).toBe(200);
    expect((await input)?.length).toBe(300 * 1024);
  });

  it('reads the body of a refused method too', async () => {
    const { request, seen } = post('/api/trpc/x', 200 * 1024);
    const put = new Request(request, { method: 'PUT' });
    expect((await serve(put, unreachable)).status).toBe(405);
    expect(seen.ended).toBe(true);
  });
});

describe('serveShop: the desk’s first address', () => {
  const visit = (path: string) => serve(new Request(`http://shop.test${path}`), unreachable);

  it('answers /operator/… with a permanent redirect to the same page under /desk', async () => {
    for (const [from, to] of [
      ['/operator', '/desk'],
      ['/operator/', '/desk/'],
      ['/operator/orders', '/desk/orders'],
      ['/operator/returns', '/desk/returns'],
      ['/operator/products/12?tab=photos', '/desk/products/12?tab=photos'],
      ['/OPERATOR/stock?variant=3', '/desk/stock?variant=3'],
      ['/%6Fperator/record', '/desk/record'],
      ['//operator//settings', '/desk//settings'],
    ] as const) {
      const answer = await visit(from);
      expect([from, answer.status, answer.headers.get('location')]).toEqual([from, 308, to]);
    }
  });

  it('leaves alone a path that only starts like it', async () => {
    const app: ShopApp = () => new Response('page');
    for (const path of [
      '/operators',
      '/operator-guide',
      '/desk/orders',
      '/api/trpc/operator.orders',
    ]) {
      const answer = await serve(new Request(`http://shop.test${path}`), app);
      expect([path, answer.status]).toEqual([path, 200]);
    }
  });
});

describe('serveShop: writes only from the shop’s own pages', () => {
  const reached = () => {
    const seen = { calls: 0 };
    const app: ShopApp = () => {
      seen.calls++;
      return Response.json({ result: { data: null } });
    };
    return { seen, app };
  };
  const write = (path: string, headers: Record<string, string>, body = '{}') =>
    new Request(`http://shop.test${path}`, { method: 'POST', headers, body });

  it('refuses a tRPC POST from another origin with 403 in tRPC’s shape; the app never runs', async () => {
    const { seen, app } = reached();
    for (const origin of ['http://127.0.0.1:4000', 'https://evil.duuka.ug', 'null']) {
      const response = await serve(
        write('/api/trpc/cart.clear', {
          origin,
          'content-type': 'multipart/form-data; boundary=x',
        }),
        app,
      );
      expect(response.status, origin).toBe(403);
      expect(await response.json()).toEqual({
        error: {
          message: REQUEST_TEXT.otherSite,
          code: -32003,
          data: { code: 'FORBIDDEN', httpStatus: 403 },
        },
      });
    }
    expect(seen.calls).toBe(0);
  });

  // Every spelling TanStack's router matches to the same handler (case, a trailing slash, repeated
  // slashes, escaped letters, a Kelvin sign that lower-cases to "k") meets the same rule.
  it.each([
    ['/API/TRPC/desk.saveSettings', 'trpc'],
    ['/Api/tRPC/cart.clear', 'trpc'],
    ['/api/trpc/desk.saveSettings/', 'trpc'],
    ['/api//trpc/cart.clear', 'trpc'],
    ['/api/trpc//cart.clear', 'trpc'],
    ['/api/%74rpc/cart.clear', 'trpc'],
    ['/%61pi/TR%50C/cart.clear', 'trpc'],
    ['/api/%54%52%50%43', 'trpc'],
    ['/API/DESK/PRODUCTS/2/PHOTOS', 'photo'],
    ['/api/desk/products/2/photos/', 'photo'],
    ['/api/desk//products/2/photos', 'photo'],
    ['/api/desk/products/2/%70hotos', 'photo'],
    ['/api/des%E2%84%AA/products/2/photos', 'photo'],
    ['/API/RETURNS/PHOTOS', 'photo'],
    ['/api/returns/photos/', 'photo'],
    ['/API/ACCOUNT/AVATAR', 'avatar'],
    ['/api/account/avatar/', 'avatar'],
    ['/api/account/%61vatar', 'avatar'],
  ])('%s from another site: 403, the app never runs', async (path, kind) => {
    const { seen, app } = reached();
    const response = await serve(
      write(path, { origin: 'http://evil.example', 'content-type': 'application/json' }),
      app,
    );
    expect(response.status).toBe(403);
    const body = (await response.json()) as { message?: string; error?: { message?: string } };
    expect(kind === 'trpc' ? body.error?.message : body.message).toBe(REQUEST_TEXT.otherSite);
    expect(seen.calls).toBe(0);
  });

  it('reads a path as the router will, once: each segment decoded (never into a new “/”), lower case', () => {
    expect(classifiedPath('/API//TRPC/Desk.SaveSettings/')).toBe('/api/trpc/desk.savesettings');
    expect(classifiedPath('/api/desk/products/2%2Fx/photos')).toBe(
      '/api/desk/products/2%2fx/photos',
    );
    expect(classifiedPath('/api/%2574rpc/x')).toBe('/api/%2574rpc/x');
    expect(classifiedPath('/api/tr%70c%/x%E2')).toBe('/api/trpc%/x%e2');
    expect(classifiedPath('/')).toBe('/');
    // An escaped slash keeps its segment whole: not the photo upload (the router does not run it).
    expect(endpointOf(new URL('http://shop.test/api/desk/products/2%2Fphotos')).kind).toBe('page');
    // Meta's webhook (issue 37) under any spelling: its own small limit; its signature guards it.
    for (const path of [
      '/API/WhatsApp/Webhook',
      '/api/whatsapp/webhook/',
      '/api//%77hatsapp/webhook',
    ]) {
      expect(endpointOf(new URL(`http://shop.test${path}`))).toMatchObject({
        kind: 'webhook',
        bodyLimit: 256 * 1024,
      });
    }
    // The spreadsheet import's larger limit, whatever the case of its name.
    expect(endpointOf(new URL('http://shop.test/API/TRPC/desk.importProducts')).bodyLimit).toBe(
      5 * MiB,
    );
  });

  it('without Origin, Sec-Fetch-Site must be same-origin (or absent: not a browser)', async () => {
    const { seen, app } = reached();
    const json = { 'content-type': 'application/json' };
    for (const site of ['same-site', 'cross-site', 'none']) {
      const response = await serve(
        write('/api/trpc/chat.clear', { ...json, 'sec-fetch-site': site }),
        app,
      );
      expect(response.status, site).toBe(403);
    }
    expect(seen.calls).toBe(0);
    expect(
      (
        await serve(
          write('/api/trpc/chat.clear', { ...json, 'sec-fetch-site': 'same-origin' }),
          app,
        )
      ).status,
    ).toBe(200);
    expect((await serve(write('/api/trpc/chat.clear', json), app)).status).toBe(200);
    expect(seen.calls).toBe(2);
  });

  it('takes JSON from our origins (any letter case, a trailing slash, a charset)', async () => {
    const { seen, app } = reached();
    for (const [origin, type] of [
      [OURS, 'application/json'],
      ['https://DUUKA.ug/', 'application/json; charset=utf-8'],
      ['https://preview.duuka.ug', 'Application/JSON'],
    ] as const) {
      const response = await serve(
        write('/api/trpc/cart.clear', { origin, 'content-type': type }),
        app,
      );
      expect(response.status, origin).toBe(200);
    }
    expect(seen.calls).toBe(3);
  });

  it('refuses any other body type to tRPC with 415, even from our origin', async () => {
    const { seen, app } = reached();
    for (const type of [
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/octet-stream',
      '',
    ]) {
      const headers: Record<string, string> = { origin: OURS };
      if (type) headers['content-type'] = type;
      const response = await serve(write('/api/trpc/cart.clear', headers), app);
      expect(response.status, type).toBe(415);
      expect(await response.json()).toMatchObject({
        error: { message: REQUEST_TEXT.notJson, data: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
      });
    }
    expect(seen.calls).toBe(0);
  });

  it('the avatar upload: refused from another origin with {message}; its image type is the route’s', async () => {
    const { seen, app } = reached();
    const foreign = await serve(
      write('/api/account/avatar', {
        origin: 'http://127.0.0.1:4000',
        'content-type': 'image/png',
      }),
      app,
    );
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ message: REQUEST_TEXT.otherSite });
    expect(seen.calls).toBe(0);
    const own = await serve(
      write('/api/account/avatar', { origin: OURS, 'content-type': 'image/png' }),
      app,
    );
    expect(own.status).toBe(200);
  });

  it('leaves reads, better-auth and the payment callbacks alone', async () => {
    const { seen, app } = reached();
    const foreign = { origin: 'https://elsewhere.example', 'content-type': 'text/plain' };
    const get = new Request('http://shop.test/api/trpc/catalogue.shop', { headers: foreign });
    expect((await serve(get, app)).status).toBe(200);
    expect((await serve(write('/api/auth/sign-in/email', foreign), app)).status).toBe(200);
    expect((await serve(write('/api/payments/airtel', foreign), app)).status).toBe(200);
    expect(seen.calls).toBe(3);
  });
});

describe('serveShop: headers', () => {
  it('hands the app the nonce its page policy names', async () => {
    let given = '';
    const response = await serve(new Request('https://shop.test/'), (_request, nonce) => {
      given = nonce;
      return new Response('<html>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    });
    expect(given).not.toBe('');
    expect(response.headers.get('content-security-policy')).toContain(`'nonce-${given}'`);
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('says a page varies with Save-Data (decision 0091); a query’s answer does not', async () => {
    const page = await serve(
      new Request('https://shop.test/shop'),
      () =>
        new Response('<html>', {
          headers: { 'content-type': 'text/html; charset=utf-8', vary: 'Accept-Encoding' },
        }),
    );
    expect(page.headers.get('vary')).toBe('Accept-Encoding, Save-Data');
    const query = await serve(new Request('https://shop.test/api/trpc/catalogue.home'), () =>
      Response.json({}),
    );
    expect(query.headers.get('vary')).toBeNull();
  });
});
