// Security sweeps against the production build in workerd (issue 14), beside the router's own
// (tests/integration/sweeps.test.ts):
// - every HTTP route under app/routes/api, enumerated from the files: another shopper's ids get
//   nothing (a route that this table does not name fails the test);
// - HTML and script stored in names, addresses, product texts, order lines and chat messages render
//   as inert text on every screen that shows them.
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createDb } from '#db/client.ts';
import {
  cartItems,
  chatMessages,
  products,
  profiles,
  user,
  whatsappMessages,
} from '#db/schema/index.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { closeBrowser, DESKTOP, newPage } from '../support/browser.ts';
import { addProduct, demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { type Shopper, sessionCookie, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const shopUrl = shop().url;
afterAll(closeBrowser);

const get = (path: string, cookie?: string) =>
  fetch(new URL(path, shopUrl), { headers: cookie ? { cookie } : {}, redirect: 'manual' });

let alice: Shopper;
let bob: Shopper;
let aliceOrder: string;
beforeAll(async () => {
  alice = await verifiedShopper(db, 'Alice Namubiru', {
    phone: '+256772123456',
    address: 'Plot 7',
  });
  bob = await verifiedShopper(db, 'Bob Mugisha', { phone: '+256772123457', address: 'Plot 8' });
  const piece = await demoPiece(db, { minStock: 6 });
  const placed = await placeOrder(db, alice, {
    orderId: randomUUID(),
    lines: [{ variantId: piece.variantId, quantity: 1 }],
    paymentMethod: 'cash_on_delivery',
  });
  if (!placed.ok) throw new Error('order refused');
  aliceOrder = placed.order.orderId;
});

/** Each HTTP route file, and how another shopper is kept out of what it serves. */
const ROUTES: Record<string, () => Promise<void>> = {
  'account/avatar.ts': async () => {
    // No URL names a person: the picture is always the session's own.
    const tiny = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const aliceCookie = await sessionCookie(alice);
    const upload = await fetch(new URL('/api/account/avatar', shopUrl), {
      method: 'POST',
      headers: { cookie: aliceCookie, 'content-type': 'image/png', origin: shopUrl },
      body: tiny,
    });
    expect(upload.status).toBe(200);
    expect((await get('/api/account/avatar', aliceCookie)).status).toBe(200);
    expect((await get('/api/account/avatar', await sessionCookie(bob))).status).toBe(404);
    expect((await get('/api/account/avatar')).status).toBe(401);
  },
  'orders/$orderId/receipt[.]pdf.ts': async () => {
    const path = `/api/orders/${aliceOrder}/receipt.pdf`;
    const own = await get(path, await sessionCookie(alice));
    expect(own.headers.get('content-type')).toBe('application/pdf');
    for (const cookie of [await sessionCookie(bob), undefined]) {
      const answer = await get(path, cookie);
      expect(answer.status).toBe(404);
      await expect(answer.text()).resolves.toBe('Order not found');
    }
  },
  // Better-auth's own routes: a session is read from its cookie only, never from an id.
  'auth/$.ts': async () => {
    const session = await get('/api/auth/get-session', await sessionCookie(bob));
    const body = await session.text();
    expect(body).toContain(bob.email);
    expect(body).not.toContain(alice.email);
  },
  // The providers' callbacks change nothing without the payment's secret: proven with the fake
  // providers in tests/integration/payments.test.ts ('a forged callback … changes nothing').
  'payments/airtel.ts': async () => {
    const answer = await fetch(new URL('/api/payments/airtel', shopUrl), {
      method: 'POST',
      body: JSON.stringify({ transaction: { id: aliceOrder, status_code: 'TS' } }),
    });
    expect(answer.status).toBe(200);
    await expect(answer.json()).resolves.toEqual({ received: true });
  },
  'payments/mtn.$paymentId.$secret.ts': async () => {
    const answer = await fetch(new URL(`/api/payments/mtn/${randomUUID()}/forged`, shopUrl), {
      method: 'PUT',
      body: JSON.stringify({ status: 'SUCCESSFUL' }),
    });
    await expect(answer.json()).resolves.toEqual({ received: true });
  },
  // Pesapal's notices name an order but only a tracking id Pesapal gave the shop counts: a forged
  // one for Alice's order changes nothing (tests/integration/card-payments.test.ts proves it
  // against the fake) and gets the same answer Pesapal requires.
  'payments/pesapal.ipn.ts': async () => {
    const tracking = randomUUID();
    const answer = await fetch(
      new URL(
        `/api/payments/pesapal/ipn?OrderTrackingId=${tracking}&OrderMerchantReference=${aliceOrder}&OrderNotificationType=IPNCHANGE`,
        shopUrl,
      ),
    );
    expect(answer.status).toBe(200);
    await expect(answer.json()).resolves.toEqual({
      orderNotificationType: 'IPNCHANGE',
      orderTrackingId: tracking,
      orderMerchantReference: aliceOrder,
      status: 200,
    });
  },
  'payments/pesapal.return.ts': async () => {
    const answer = await fetch(
      new URL(
        `/api/payments/pesapal/return?OrderTrackingId=${randomUUID()}&OrderMerchantReference=${aliceOrder}&OrderNotificationType=CALLBACKURL`,
        shopUrl,
      ),
      { headers: { cookie: await sessionCookie(bob) }, redirect: 'manual' },
    );
    // Bob is sent to his own orders, never to Alice's.
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location') ?? '', shopUrl).pathname).toBe('/orders');
    expect(answer.headers.get('location')).not.toContain(aliceOrder);
  },
  // The desk's files: the shop's staff only; a customer is refused, a visitor asked to sign in.
  'desk/products[.]csv.ts': async () => {
    expect((await get('/api/desk/products.csv', await sessionCookie(bob))).status).toBe(403);
    expect((await get('/api/desk/products.csv')).status).toBe(401);
  },
  'desk/orders[.]csv.ts': async () => {
    expect((await get('/api/desk/orders.csv', await sessionCookie(bob))).status).toBe(403);
    expect((await get('/api/desk/orders.csv')).status).toBe(401);
  },
  'desk/orders/$orderId.packing-slip[.]pdf.ts': async () => {
    const slip = `/api/desk/orders/${aliceOrder}/packing-slip.pdf`;
    expect((await get(slip, await sessionCookie(bob))).status).toBe(403);
    expect((await get(slip)).status).toBe(401);
  },
  'desk/products/$productId.photos.ts': async () => {
    const upload = async (cookie?: string) =>
      fetch(new URL('/api/desk/products/1/photos', shopUrl), {
        method: 'POST',
        headers: { ...(cookie ? { cookie } : {}), 'content-type': 'image/png', origin: shopUrl },
        body: Buffer.from('iVBORw0KGgo=', 'base64'),
      });
    expect((await upload(await sessionCookie(bob))).status).toBe(403);
    expect((await upload()).status).toBe(401);
  },
  // A credit note (issue 36): the shopper's own only; anyone else the same 404.
  'credit-notes/$refundId.ts': async () => {
    for (const cookie of [await sessionCookie(bob), undefined]) {
      expect((await get(`/api/credit-notes/${randomUUID()}`, cookie)).status).toBe(404);
    }
  },
  // A return's photos: read only by their shopper or the desk; uploaded only when signed in.
  'returns/$userId.$photo.ts': async () => {
    const photo = `/api/returns/${alice.id}/${randomUUID()}.jpg`;
    expect([403, 404]).toContain((await get(photo, await sessionCookie(bob))).status);
    expect([401, 404]).toContain((await get(photo)).status);
  },
  'returns/photos.ts': async () => {
    const answer = await fetch(new URL('/api/returns/photos', shopUrl), {
      method: 'POST',
      headers: { 'content-type': 'image/png', origin: shopUrl },
      body: Buffer.from('iVBORw0KGgo=', 'base64'),
    });
    expect(answer.status).toBe(401);
  },
  // Meta's webhook (issue 37): nothing is read without the app secret's signature; the GET check
  // answers only Meta's verify token. Signed deliveries: tests/integration/whatsapp.test.ts.
  'whatsapp/webhook.ts': async () => {
    const forged = JSON.stringify({
      entry: [
        {
          changes: [
            {
              value: {
                messages: [
                  {
                    from: '256772000001',
                    id: `wamid.${randomUUID()}`,
                    type: 'text',
                    text: { body: `Where is ${aliceOrder}?` },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    for (const signature of [null, `sha256=${'0'.repeat(64)}`, 'sha1=abc']) {
      const answer = await fetch(new URL('/api/whatsapp/webhook', shopUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'x-hub-signature-256': signature } : {}),
        },
        body: forged,
      });
      expect(answer.status).toBe(401);
    }
    const kept = await db
      .select({ id: whatsappMessages.id })
      .from(whatsappMessages)
      .where(eq(whatsappMessages.body, `Where is ${aliceOrder}?`));
    expect(kept).toEqual([]);
    const check = await get(
      '/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=4242',
    );
    expect(check.status).toBe(403);
  },
  // Every procedure: tests/integration/sweeps.test.ts.
  'trpc/$.ts': async () => {
    const answer = await get(
      `/api/trpc/orders.byId?input=${encodeURIComponent(JSON.stringify({ id: aliceOrder }))}`,
      await sessionCookie(bob),
    );
    expect(answer.status).toBe(404);
  },
};

describe('HTTP routes', () => {
  it('names every route file under app/routes/api', async () => {
    const files = (await readdir('app/routes/api', { recursive: true }))
      .filter((file) => file.endsWith('.ts'))
      .sort();
    expect(Object.keys(ROUTES).sort()).toEqual(files);
  });

  for (const [route, check] of Object.entries(ROUTES)) {
    it(`keeps another shopper out: ${route}`, check);
  }
});

const MARKUP = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>`;

describe('markup in stored text', () => {
  it('renders as inert text on every screen that shows it', async () => {
    const shopper = await verifiedShopper(db, 'Grace Atim', { phone: '+256772123458' });
    // Stored by ways other than the shop's own forms (those refuse markup): an import, a console.
    await db
      .update(user)
      .set({ name: `Grace ${MARKUP}` })
      .where(eq(user.id, shopper.id));
    await db
      .update(profiles)
      .set({ fullName: `Grace ${MARKUP}`, address: `Plot 9 ${MARKUP}` })
      .where(eq(profiles.id, shopper.id));
    const piece = await addProduct(db, {
      name: `Kaftan ${MARKUP}`,
      price: 80_000,
      stock: 20,
      description: `Linen. ${MARKUP}`,
      // Not among the newest: other test files read the front page's newest pieces.
      createdAt: new Date('2020-01-01T00:00:00Z'),
    });
    onTestFinished(async () => {
      await db.delete(products).where(eq(products.id, piece.id));
    });
    const placed = await placeOrder(
      db,
      { ...shopper, name: `Grace ${MARKUP}` },
      {
        orderId: randomUUID(),
        lines: [{ variantId: piece.variantId, quantity: 1 }],
        paymentMethod: 'card',
      },
    );
    if (!placed.ok) throw new Error('order refused');
    await db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
    await db.insert(chatMessages).values({
      userId: shopper.id,
      sessionId: `${shopper.id}-${Date.now()}`,
      role: 'user',
      content: `Is this in stock? ${MARKUP}`,
    });

    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, shopper);
    // The screens that show one of the texts (/shop shows only the newest and chosen pieces,
    // /orders and /settings none of these texts: checked for inertness all the same).
    const showing = [
      `/products/${piece.slug}`,
      `/search?q=${encodeURIComponent('Kaftan <img')}`,
      '/cart',
      '/checkout',
      `/order-history/${placed.order.orderId}`,
      '/profile',
    ];
    const screens = [...showing, '/shop', '/orders', '/settings'];
    const shown: Record<string, boolean> = {};
    for (const path of screens) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      shown[path] = (await page.locator('main').innerText()).includes('<img src=x');
      expect({
        path,
        pwned: await page.evaluate(() => 'pwned' in window || '__pwned' in window),
      }).toEqual({ path, pwned: false });
      expect(await page.locator('main img[src="x"], main script:not([type])').count()).toBe(0);
    }
    // The chat widget shows the earlier message as text.
    await page.goto('/');
    await page.getByRole('button', { name: 'Ask duuka' }).click();
    await page.getByText(`Is this in stock? ${MARKUP}`).waitFor();
    expect(await page.evaluate(() => '__pwned' in window)).toBe(false);
    expect(shown).toEqual(
      Object.fromEntries(screens.map((path) => [path, showing.includes(path)])),
    );
    expect(errors).toEqual([]);
  });
});
