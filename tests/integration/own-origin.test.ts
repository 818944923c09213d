// Writes only from the shop's own pages (decision 0038), through the same origin and content-type
// rule the Worker's front layer applies: what another site's auto-submitting form does with a
// shopper's session cookie (SameSite=Lax lets it through from another port or subdomain) changes
// nothing; the shop's own JSON still works.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TEXT } from '#core/requests.ts';
import { chatMessages } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { serveTrpc } from '#server/http/trpc-endpoint.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import {
  callerFor,
  mutateOverHttp,
  postOverHttp,
  TEST_SHOP_ORIGIN,
  testContext,
} from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  shopper = await signedInShopper(test.db, auth);
});
afterAll(() => test?.close());

const mine = () => callerFor(test.db, new Headers({ cookie: shopper.cookie }), { auth });

/** One piece in the shopper's cart and two lines of chat history. */
async function somethingToLose() {
  const wrap = await addProduct(test.db, { name: 'Kitenge Wrap', price: 85_000, stock: 5 });
  await mine().cart.clear();
  await mine().cart.add({ variantId: wrap.variantId });
  const sessionId = randomUUID();
  await test.db.insert(chatMessages).values([
    { userId: shopper.id, sessionId, role: 'user', content: 'Do you have kitenge in size 12?' },
    { userId: shopper.id, sessionId, role: 'assistant', content: 'Yes, the Kitenge Wrap.' },
  ]);
}

async function whatIsLeft() {
  const cart = await mine().cart.get();
  const chat = await test.db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(eq(chatMessages.userId, shopper.id));
  return { pieces: cart.productsInCart.length, messages: chat.length };
}

/** An auto-submitting `<form method=post enctype=multipart/form-data>` on another site's page. */
function formFrom(origin: string, enctype: 'multipart' | 'urlencoded' | 'text') {
  const headers: Record<string, string> = { cookie: shopper.cookie, origin };
  if (enctype === 'multipart') {
    const form = new FormData();
    form.set('x', '1');
    const request = new Request('http://x', { method: 'POST', body: form });
    headers['content-type'] = request.headers.get('content-type') ?? '';
    return { headers, body: form };
  }
  headers['content-type'] =
    enctype === 'urlencoded' ? 'application/x-www-form-urlencoded' : 'text/plain';
  return { headers, body: 'x=1' };
}

describe('another site’s form with the shopper’s cookie', () => {
  it('cannot clear the cart or the chat: 403 with a short JSON error, nothing changes', async () => {
    await somethingToLose();
    const before = await whatIsLeft();
    expect(before.pieces).toBe(1);
    expect(before.messages).toBeGreaterThanOrEqual(2);
    for (const origin of [
      'http://127.0.0.1:4000',
      'http://shop.test:8080',
      'https://evil.example',
    ]) {
      for (const path of ['cart.clear', 'chat.clear']) {
        const answer = await postOverHttp(test.db, path, formFrom(origin, 'multipart'), { auth });
        expect(answer.status, `${origin} ${path}`).toBe(403);
        expect(JSON.parse(answer.text)).toMatchObject({
          error: { message: REQUEST_TEXT.otherSite, data: { code: 'FORBIDDEN' } },
        });
        expect(answer.text.length).toBeLessThan(300);
      }
    }
    expect(await whatIsLeft()).toEqual(before);
  });

  it('a form from our own origin that is not JSON is refused too (415), a text/plain one included', async () => {
    await somethingToLose();
    const before = await whatIsLeft();
    for (const enctype of ['multipart', 'urlencoded', 'text'] as const) {
      for (const path of ['cart.clear', 'chat.clear']) {
        const answer = await postOverHttp(test.db, path, formFrom(TEST_SHOP_ORIGIN, enctype), {
          auth,
        });
        expect(answer.status, `${enctype} ${path}`).toBe(415);
        expect(JSON.parse(answer.text)).toMatchObject({ error: { message: REQUEST_TEXT.notJson } });
      }
    }
    expect(await whatIsLeft()).toEqual(before);
  });

  it('without an Origin, a browser’s cross-site Sec-Fetch-Site is refused', async () => {
    await somethingToLose();
    const before = await whatIsLeft();
    const answer = await postOverHttp(
      test.db,
      'cart.clear',
      {
        headers: {
          cookie: shopper.cookie,
          'content-type': 'application/json',
          'sec-fetch-site': 'same-site',
        },
        body: '{}',
      },
      { auth },
    );
    expect(answer.status).toBe(403);
    expect(await whatIsLeft()).toEqual(before);
  });

  it('the payment procedures follow the same rule', async () => {
    const answer = await postOverHttp(
      test.db,
      'payments.start',
      {
        headers: {
          cookie: shopper.cookie,
          origin: 'http://127.0.0.1:4000',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ orderId: randomUUID() }),
      },
      { auth },
    );
    expect(answer.status).toBe(403);
  });
});

describe('the tRPC endpoint itself, without the front layer (a path it misread)', () => {
  /** A POST straight to the endpoint the Worker's route serves. */
  async function straightIn(
    path: string,
    init: { headers: Record<string, string>; body: BodyInit },
  ) {
    const request = new Request(`${TEST_SHOP_ORIGIN}/api/trpc/${path}`, {
      method: 'POST',
      ...init,
    });
    const response = await serveTrpc(request, {
      ownOrigins: [TEST_SHOP_ORIGIN],
      createContext: () => testContext(test.db, request.headers, { auth, oneRequest: true }),
    });
    return { status: response.status, text: await response.text() };
  }

  it('refuses another site’s form or JSON (403) and a form of our own (415); nothing changes', async () => {
    await somethingToLose();
    const before = await whatIsLeft();
    for (const path of ['cart.clear', 'chat.clear']) {
      const form = await straightIn(path, formFrom('http://127.0.0.1:4000', 'multipart'));
      expect(form.status, path).toBe(403);
      expect(JSON.parse(form.text)).toMatchObject({
        error: { message: REQUEST_TEXT.otherSite, data: { code: 'FORBIDDEN' } },
      });
      const json = await straightIn(path, {
        headers: {
          cookie: shopper.cookie,
          origin: 'https://evil.example',
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect(json.status, path).toBe(403);
      const ours = await straightIn(path, formFrom(TEST_SHOP_ORIGIN, 'multipart'));
      expect(ours.status, path).toBe(415);
    }
    expect(await whatIsLeft()).toEqual(before);
    // The shop's own JSON goes through.
    const cleared = await straightIn('cart.clear', {
      headers: {
        cookie: shopper.cookie,
        origin: TEST_SHOP_ORIGIN,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(cleared.status).toBe(200);
    expect((await whatIsLeft()).pieces).toBe(0);
  });
});

describe('the shop’s own pages', () => {
  it('a JSON mutation from our origin still works, and so does one with no Origin (a script)', async () => {
    await somethingToLose();
    const cleared = await mutateOverHttp(test.db, 'cart.clear', undefined, {
      auth,
      cookie: shopper.cookie,
    });
    expect(cleared.status).toBe(200);
    expect((await whatIsLeft()).pieces).toBe(0);
    const chat = await mutateOverHttp(test.db, 'chat.clear', undefined, {
      auth,
      cookie: shopper.cookie,
      origin: null,
    });
    expect(chat.status).toBe(200);
    expect((await whatIsLeft()).messages).toBe(0);
  });
});
