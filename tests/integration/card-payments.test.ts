// Card payments against the fake Pesapal (local/fakes/pesapal-fake.ts, Pesapal API 3.0's shapes)
// through the real adapter, on a real database. The fake's IPN and the shopper's return reach the
// shop's own handlers over HTTP: only Pesapal's status read decides, an order is paid once, and
// a short amount, a decline or a forged notification never pays it.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CARD_TEXT } from '#core/card-payments.ts';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import {
  orders,
  payments,
  profiles,
  smsNotifications,
  systemSettings,
  user,
} from '#db/schema/index.ts';
import { startFakePesapal } from '#local/fakes/pesapal-fake.ts';
import type { Auth } from '#server/auth.ts';
import { handlePesapalIpn, handlePesapalReturn } from '#server/http/pesapal-callbacks.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { receiptFor } from '#server/services/orders-service.ts';
import {
  cardPaymentStatus,
  PESAPAL_IPN_SETTING,
  startCardPayment,
  sweepCardPayments,
} from '#server/services/payments/card.ts';
import { type MobileMoney, mobileMoneyFrom } from '#server/services/payments/providers.ts';
import { sweepPayments } from '#server/services/payments/service.ts';
import { previewProblems, readWranglerConfig } from '../../scripts/check-previews.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { mutateOverHttp, queryOverHttp, testContext } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakePesapal>>;
let card: MobileMoney;
/** The shop's Pesapal endpoints on loopback, so the fake's IPN really reaches them. */
let shop: Server;
let shopUrl: string;
/** Work the shop left running after its answer (the payment-received text). */
const background: Promise<unknown>[] = [];

const paymentsFrom = (env: Record<string, string>, timeoutMs = 1_000) =>
  mobileMoneyFrom(
    { ...env, BETTER_AUTH_URL: shopUrl } as unknown as Parameters<typeof mobileMoneyFrom>[0],
    timeoutMs,
  );

const ctx = (payments: MobileMoney = card, headers = new Headers()) =>
  testContext(test.db, headers, {
    payments,
    background: (work) => background.push(work),
  });

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  fake = await startFakePesapal();
  shop = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', shopUrl);
    const request = new Request(url, {
      method: req.method,
      // The shopper's session cookie, when their browser sends one.
      headers: req.headers.cookie ? { cookie: req.headers.cookie } : {},
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    const handle = url.pathname.endsWith('/ipn') ? handlePesapalIpn : handlePesapalReturn;
    const answer = await handle(ctx(card, request.headers), request);
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  card = paymentsFrom(fake.env);
});
afterAll(async () => {
  await Promise.allSettled(background);
  shop?.closeAllConnections();
  await new Promise((resolve) => shop?.close(resolve));
  await fake?.close();
  await test?.close();
});

let counter = 0;
/** A placed order of 145,000 + 5,000 delivery for a new customer, signed in (their session
 * cookie) when the test needs their browser. */
async function placedOrder(
  paymentMethod: 'card' | 'mobile_money' | 'bank_transfer' = 'card',
  { signedIn = false } = {},
) {
  counter += 1;
  const dress = await addProduct(test.db, {
    name: `Kitenge Dress ${counter}`,
    price: 145_000,
    stock: 5,
  });
  let id: string = randomUUID();
  let email = `${id}@example.ug`;
  let cookie = '';
  if (signedIn) {
    ({ id, email, cookie } = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' }));
  } else {
    await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
  }
  const profile = {
    fullName: 'Nakato Achieng Mirembe',
    phone: '+256772000001',
    address: 'Plot 4, Kampala Road',
  };
  await test.db
    .insert(profiles)
    .values({ id, email, ...profile })
    .onConflictDoUpdate({ target: profiles.id, set: profile });
  const shopper = { id, email, name: 'Nakato Achieng', cookie };
  const orderId = randomUUID();
  const placed = await placeOrder(test.db, shopper, {
    orderId,
    lines: [{ variantId: dress.variantId, quantity: 1 }],
    paymentMethod,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return { shopper, orderId, total: 150_000 };
}

async function start(customerId: string, orderId: string, payments = card) {
  const result = await startCardPayment(ctx(payments), customerId, { orderId });
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return result.payment;
}

type FakeOrder = {
  trackingId: string;
  merchantReference: string;
  amount: number;
  currency: string;
  description: string;
  callbackUrl: string;
  notificationId: string;
  billing: Record<string, string>;
};
async function fakeState() {
  return (await (await fetch(`${fake.url}/__requests`)).json()) as {
    tokens: number;
    ipnRegistrations: number;
    submitted: number;
    statusReads: number;
    ipnsSent: number;
    ipnsAcknowledged: number;
    orders: FakeOrder[];
  };
}
const trackingOf = (redirectUrl: string) => redirectUrl.split('/').pop() ?? '';

/** The shopper presses a button on the fake's page; answers where the browser is sent. */
async function decide(redirectUrl: string, decision: 'approve' | 'decline') {
  const answer = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return answer.headers.get('location') ?? '';
}

async function settleAtFake(trackingId: string, body: Record<string, unknown>) {
  const answer = await fetch(`${fake.url}/__settle/${trackingId}`, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

async function ipn(params: Record<string, string>, method: 'GET' | 'POST' = 'GET') {
  const url = new URL('/api/payments/pesapal/ipn', shopUrl);
  if (method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const answer = await fetch(url, {
    method,
    body: method === 'POST' ? JSON.stringify(params) : undefined,
  });
  return { status: answer.status, body: (await answer.json()) as unknown };
}

/** The browser's return from Pesapal's page, with this shopper's session cookie when given. */
async function shopperReturns(location: string, cookie = '') {
  const answer = await fetch(location, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { status: answer.status, location: answer.headers.get('location') };
}

/** The card payment payments.status answers for the order. */
async function cardStatus(customerId: string, orderId: string) {
  const answer = await cardPaymentStatus(ctx(), customerId, orderId);
  if (!('payment' in answer)) throw new Error(JSON.stringify(answer));
  return answer.payment;
}

/** A signed-in shopper whose profile can check out (a phone number). */
async function checkoutReady() {
  const shopper = await signedInShopper(test.db, auth);
  await test.db.update(profiles).set({ phone: '+256772000001' }).where(eq(profiles.id, shopper.id));
  return shopper;
}

const rowOf = async (id: string) =>
  (await test.db.select().from(payments).where(eq(payments.id, id)))[0];
const orderRow = async (id: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, id)))[0];
const paymentTexts = async (orderId: string) => {
  await Promise.allSettled(background);
  return test.db
    .select()
    .from(smsNotifications)
    .where(
      and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'payment-received')),
    );
};
/** Lets the next read ask Pesapal at once (reads are spaced 3 s apart otherwise). */
const allowCheck = (paymentId: string) =>
  test.db.update(payments).set({ checkedAt: null }).where(eq(payments.id, paymentId));

describe('a card payment that goes through', () => {
  it('sends the order total to Pesapal, and Completed pays the order once, with the confirmation code on the receipt', async () => {
    const { shopper, orderId, total } = await placedOrder('card', { signedIn: true });
    const payment = await start(shopper.id, orderId);
    expect(payment).toMatchObject({
      network: 'pesapal',
      phone: '',
      state: 'pending',
      amount: total,
      orderId,
    });
    expect(payment.redirectUrl).toMatch(new RegExp(`^${fake.url}/pay/[0-9a-f-]{36}$`));
    const trackingId = trackingOf(payment.redirectUrl);
    const sent = (await fakeState()).orders.find((o) => o.trackingId === trackingId);
    expect(sent).toMatchObject({
      merchantReference: payment.id,
      amount: total,
      currency: 'UGX',
      description: `duuka order RCP-${orderId.slice(0, 8)}`,
      callbackUrl: `${shopUrl}/api/payments/pesapal/return`,
      billing: {
        email_address: shopper.email,
        phone_number: '+256772000001',
        country_code: 'UG',
        first_name: 'Nakato',
        last_name: 'Achieng Mirembe',
      },
    });
    expect((await rowOf(payment.id))?.providerReference).toBe(trackingId);

    // Pesapal's page: the merchant, the amount, the two buttons.
    const page = await (await fetch(payment.redirectUrl)).text();
    expect(page).toContain('Pesapal (test)');
    expect(page).toContain('UGX 150,000');
    expect(page).toMatch(/<button[^>]*>Approve payment<\/button>/);
    expect(page).toMatch(/<button[^>]*>Decline payment<\/button>/);

    // Not paid yet: Pesapal answers INVALID "Pending Payment", which is still waiting.
    await allowCheck(payment.id);
    expect((await cardStatus(shopper.id, orderId))?.state).toBe('pending');
    await allowCheck(payment.id);

    const back = await decide(payment.redirectUrl, 'approve');
    expect(back).toBe(
      `${shopUrl}/api/payments/pesapal/return?OrderTrackingId=${trackingId}&OrderMerchantReference=${payment.id}&OrderNotificationType=CALLBACKURL`,
    );
    // The fake's IPN reached the shop, which read the status: paid before the shopper is back.
    const paid = await rowOf(payment.id);
    expect(paid).toMatchObject({ status: 'successful', amount: total });
    expect(paid?.transactionId).toMatch(/^PSP\d{10}$/);
    expect(await orderRow(orderId)).toMatchObject({ status: 'processing', total });
    expect((await receiptFor(test.db, shopper.id, orderId))?.transactionId).toBe(
      paid?.transactionId,
    );

    expect(await shopperReturns(back, shopper.cookie)).toEqual({
      status: 303,
      location: `/orders?order=${orderId}`,
    });
    const seen = await cardPaymentStatus(ctx(), shopper.id, orderId);
    expect(seen).toMatchObject({
      order: true,
      payment: { state: 'successful', message: null, transactionId: paid?.transactionId },
    });

    // Pesapal repeats its IPN (GET and POST): nothing is counted twice.
    const params = {
      OrderTrackingId: trackingId,
      OrderMerchantReference: payment.id,
      OrderNotificationType: 'IPNCHANGE',
    };
    for (const method of ['GET', 'POST', 'GET'] as const) {
      await allowCheck(payment.id);
      expect(await ipn(params, method)).toEqual({
        status: 200,
        body: {
          orderNotificationType: 'IPNCHANGE',
          orderTrackingId: trackingId,
          orderMerchantReference: payment.id,
          status: 200,
        },
      });
    }
    expect(await rowOf(payment.id)).toMatchObject({
      status: 'successful',
      transactionId: paid?.transactionId,
      settledAt: paid?.settledAt,
    });
    expect(await paymentTexts(orderId)).toHaveLength(1);
    // Paid: Pay now is refused.
    expect(await startCardPayment(ctx(), shopper.id, { orderId })).toEqual({
      ok: false,
      problem: 'already-paid',
    });
  });

  it('a second Pay now while one waits answers the same page, even two at once', async () => {
    const { shopper, orderId } = await placedOrder();
    const before = (await fakeState()).submitted;
    const [first, second] = await Promise.all([
      start(shopper.id, orderId),
      start(shopper.id, orderId),
    ]);
    expect(second.id).toBe(first.id);
    expect(second.redirectUrl).toBe(first.redirectUrl);
    const third = await start(shopper.id, orderId);
    expect(third.redirectUrl).toBe(first.redirectUrl);
    expect((await fakeState()).submitted).toBe(before + 1);
    expect(await test.db.select().from(payments).where(eq(payments.orderId, orderId))).toHaveLength(
      1,
    );
  });
});

describe('a card payment that does not pay the order', () => {
  it('declined: explained, the order stays pending, and Try again starts a new attempt that pays', async () => {
    const { shopper, orderId } = await placedOrder('card', { signedIn: true });
    const declined = await start(shopper.id, orderId);
    const back = await decide(declined.redirectUrl, 'decline');
    expect(await shopperReturns(back, shopper.cookie)).toMatchObject({
      location: `/orders?order=${orderId}`,
    });
    expect(await cardStatus(shopper.id, orderId)).toMatchObject({
      id: declined.id,
      state: 'failed',
      reason: 'declined',
      message: 'The card payment was declined. No money was taken.',
      transactionId: null,
      redirectUrl: '',
    });
    expect((await orderRow(orderId))?.status).toBe('pending');

    const retry = await start(shopper.id, orderId);
    expect(retry.id).not.toBe(declined.id);
    expect(retry.redirectUrl).not.toBe(declined.redirectUrl);
    await decide(retry.redirectUrl, 'approve');
    expect((await orderRow(orderId))?.status).toBe('processing');
    expect(await paymentTexts(orderId)).toHaveLength(1);
  });

  it('a shorter amount is recorded as short and never pays; another currency neither', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { shopper, orderId } = await placedOrder();
      const payment = await start(shopper.id, orderId);
      await settleAtFake(trackingOf(payment.redirectUrl), {
        status: 'Completed',
        amount: 100_000,
        notify: true,
      });
      expect(await rowOf(payment.id)).toMatchObject({
        status: 'short',
        reason: 'short',
        receivedAmount: 100_000,
        receivedCurrency: 'UGX',
      });
      expect((await rowOf(payment.id))?.transactionId).toMatch(/^PSP\d{10}$/);
      expect((await orderRow(orderId))?.status).toBe('pending');
      expect(await paymentTexts(orderId)).toHaveLength(0);
      expect(errors.mock.calls.flat().join(' ')).toMatch(/short, not paid/);
      expect(await cardStatus(shopper.id, orderId)).toMatchObject({
        state: 'short',
        message: CARD_TEXT.reasons.short,
      });

      const dollars = await placedOrder();
      const inUsd = await start(dollars.shopper.id, dollars.orderId);
      await settleAtFake(trackingOf(inUsd.redirectUrl), {
        status: 'Completed',
        amount: 150_000,
        currency: 'USD',
        notify: true,
      });
      expect(await rowOf(inUsd.id)).toMatchObject({
        status: 'short',
        receivedAmount: 150_000,
        receivedCurrency: 'USD',
      });
      expect((await orderRow(dollars.orderId))?.status).toBe('pending');
    } finally {
      errors.mockRestore();
    }
  });

  it('Invalid is explained; Reversed after paying keeps the order and is logged for the desk', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const invalid = await placedOrder();
      const first = await start(invalid.shopper.id, invalid.orderId);
      await settleAtFake(trackingOf(first.redirectUrl), { status: 'Invalid', notify: true });
      expect(await cardStatus(invalid.shopper.id, invalid.orderId)).toMatchObject({
        state: 'failed',
        reason: 'invalid',
        message: 'The card payment could not be completed.',
      });

      const reversed = await placedOrder();
      const paid = await start(reversed.shopper.id, reversed.orderId);
      await decide(paid.redirectUrl, 'approve');
      expect((await orderRow(reversed.orderId))?.status).toBe('processing');
      await allowCheck(paid.id);
      await settleAtFake(trackingOf(paid.redirectUrl), { status: 'Reversed', notify: true });
      expect(await rowOf(paid.id)).toMatchObject({ status: 'reversed', reason: 'reversed' });
      // Not silently unpaid: the order stays where it was, and the desk is told.
      expect((await orderRow(reversed.orderId))?.status).toBe('processing');
      expect(errors.mock.calls.flat().join(' ')).toMatch(/REVERSED.*desk/);
      expect(await cardStatus(reversed.shopper.id, reversed.orderId)).toMatchObject({
        state: 'reversed',
        message: CARD_TEXT.reasons.reversed,
      });
    } finally {
      errors.mockRestore();
    }
  });

  it('unfinished for 30 minutes: expired, Pay now starts anew, and a late Completed still counts', async () => {
    const { shopper, orderId } = await placedOrder();
    const old = await start(shopper.id, orderId);
    await test.db
      .update(payments)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(eq(payments.id, old.id));
    const fresh = await start(shopper.id, orderId);
    expect(fresh.id).not.toBe(old.id);
    expect(await rowOf(old.id)).toMatchObject({ status: 'expired', reason: 'expired' });
    expect((await cardStatus(shopper.id, orderId))?.id).toBe(fresh.id);

    // The shopper finished the new one; the old page's late approval is kept, never lost.
    await decide(fresh.redirectUrl, 'approve');
    expect((await orderRow(orderId))?.status).toBe('processing');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await settleAtFake(trackingOf(old.redirectUrl), { status: 'Completed', notify: true });
    } finally {
      errors.mockRestore();
    }
    expect(await rowOf(old.id)).toMatchObject({ status: 'refund_due' });
    expect(await paymentTexts(orderId)).toHaveLength(1);

    // Expired alone, then completed late: it pays the order.
    const late = await placedOrder();
    const waiting = await start(late.shopper.id, late.orderId);
    await test.db
      .update(payments)
      .set({ status: 'expired', reason: 'expired' })
      .where(eq(payments.id, waiting.id));
    await settleAtFake(trackingOf(waiting.redirectUrl), { status: 'Completed', notify: true });
    expect(await rowOf(waiting.id)).toMatchObject({ status: 'successful' });
    expect((await orderRow(late.orderId))?.status).toBe('processing');
  });

  it('the sweep reads waiting card payments and expires the unfinished; mobile money’s sweep leaves them alone', async () => {
    const approved = await placedOrder();
    const silent = await placedOrder();
    const a = await start(approved.shopper.id, approved.orderId);
    const b = await start(silent.shopper.id, silent.orderId);
    // Approved at Pesapal, but its IPN and the shopper's return were lost.
    await settleAtFake(trackingOf(a.redirectUrl), { status: 'Completed' });
    await test.db
      .update(payments)
      .set({ createdAt: sql`now() - interval '40 minutes'` })
      .where(eq(payments.id, b.id));
    await sweepPayments(ctx());
    expect((await rowOf(b.id))?.status).toBe('pending');

    await test.db.update(payments).set({ checkedAt: null }).where(eq(payments.network, 'pesapal'));
    await sweepCardPayments(ctx());
    expect((await rowOf(a.id))?.status).toBe('successful');
    expect((await orderRow(approved.orderId))?.status).toBe('processing');
    expect(await rowOf(b.id)).toMatchObject({ status: 'expired', reason: 'expired' });
    expect((await orderRow(silent.orderId))?.status).toBe('pending');
  });
});

describe('notifications are only hints', () => {
  it('the IPN answer echoes the notification type Pesapal sent (RECURRING too), and Pesapal counts it delivered', async () => {
    const params = {
      OrderTrackingId: randomUUID(),
      OrderMerchantReference: randomUUID(),
      OrderNotificationType: 'RECURRING',
    };
    for (const method of ['GET', 'POST'] as const) {
      expect(await ipn(params, method)).toEqual({
        status: 200,
        body: {
          orderNotificationType: 'RECURRING',
          orderTrackingId: params.OrderTrackingId,
          orderMerchantReference: params.OrderMerchantReference,
          status: 200,
        },
      });
    }
    // The fake's own IPNs (IPNCHANGE) are each acknowledged as Pesapal requires.
    const { shopper, orderId } = await placedOrder();
    const payment = await start(shopper.id, orderId);
    await decide(payment.redirectUrl, 'approve');
    const state = await fakeState();
    expect(state.ipnsSent).toBeGreaterThan(0);
    expect(state.ipnsAcknowledged).toBe(state.ipnsSent);
  });

  it('a forged IPN naming another order’s merchant reference changes nothing for that order', async () => {
    const victim = await placedOrder();
    const theirs = await start(victim.shopper.id, victim.orderId);
    // The attacker pays their own cheap order, then names the victim's payment with their tracking id.
    const attacker = await placedOrder('card', { signedIn: true });
    const mine = await start(attacker.shopper.id, attacker.orderId);
    await decide(mine.redirectUrl, 'approve');
    const forged = {
      OrderTrackingId: trackingOf(mine.redirectUrl),
      OrderMerchantReference: theirs.id,
      OrderNotificationType: 'IPNCHANGE',
    };
    expect((await ipn(forged)).body).toEqual({
      orderNotificationType: 'IPNCHANGE',
      orderTrackingId: forged.OrderTrackingId,
      orderMerchantReference: theirs.id,
      status: 200,
    });
    const unknown = { ...forged, OrderTrackingId: randomUUID() };
    expect((await ipn(unknown, 'POST')).body).toEqual({
      orderNotificationType: 'IPNCHANGE',
      orderTrackingId: unknown.OrderTrackingId,
      orderMerchantReference: theirs.id,
      status: 200,
    });
    expect((await ipn({ OrderTrackingId: "x'; drop table payments; --" })).status).toBe(200);
    expect(await rowOf(theirs.id)).toMatchObject({ status: 'pending', transactionId: null });
    expect((await orderRow(victim.orderId))?.status).toBe('pending');
    // The return route goes to the order of the payment with that tracking id, whatever it says.
    const back = new URL('/api/payments/pesapal/return', shopUrl);
    back.searchParams.set('OrderTrackingId', forged.OrderTrackingId);
    back.searchParams.set('OrderMerchantReference', theirs.id);
    expect(await shopperReturns(back.toString(), attacker.shopper.cookie)).toEqual({
      status: 303,
      location: `/orders?order=${attacker.orderId}`,
    });
    back.searchParams.set('OrderTrackingId', randomUUID());
    expect(await shopperReturns(back.toString())).toEqual({ status: 303, location: '/orders' });
    expect(
      await shopperReturns(new URL('/api/payments/pesapal/return', shopUrl).toString()),
    ).toEqual({ status: 303, location: '/orders' });
  });

  it('the return names the order, and reads Pesapal, only for the payment’s own shopper', async () => {
    const owner = await placedOrder('card', { signedIn: true });
    const payment = await start(owner.shopper.id, owner.orderId);
    const trackingId = trackingOf(payment.redirectUrl);
    // Approved at Pesapal, its IPN lost: only a read of the status would pay the order.
    await settleAtFake(trackingId, { status: 'Completed' });
    const back = new URL('/api/payments/pesapal/return', shopUrl);
    back.searchParams.set('OrderTrackingId', trackingId);
    back.searchParams.set('OrderMerchantReference', payment.id);
    back.searchParams.set('OrderNotificationType', 'CALLBACKURL');
    const other = await placedOrder('card', { signedIn: true });
    for (const [who, cookie] of [
      ['a visitor', ''],
      ['another shopper', other.shopper.cookie],
    ]) {
      await allowCheck(payment.id);
      const reads = (await fakeState()).statusReads;
      expect(await shopperReturns(back.toString(), cookie), who).toEqual({
        status: 303,
        location: '/orders',
      });
      expect((await fakeState()).statusReads, who).toBe(reads);
      expect((await rowOf(payment.id))?.status, who).toBe('pending');
    }
    await allowCheck(payment.id);
    const reads = (await fakeState()).statusReads;
    expect(await shopperReturns(back.toString(), owner.shopper.cookie)).toEqual({
      status: 303,
      location: `/orders?order=${owner.orderId}`,
    });
    expect((await fakeState()).statusReads).toBeGreaterThan(reads);
    expect((await rowOf(payment.id))?.status).toBe('successful');
    expect((await orderRow(owner.orderId))?.status).toBe('processing');
    // The IPN still reads it for anyone (Pesapal's server has no session).
    const late = await placedOrder();
    const lost = await start(late.shopper.id, late.orderId);
    await settleAtFake(trackingOf(lost.redirectUrl), { status: 'Completed' });
    await allowCheck(lost.id);
    await ipn({ OrderTrackingId: trackingOf(lost.redirectUrl), OrderMerchantReference: lost.id });
    expect((await rowOf(lost.id))?.status).toBe('successful');
  });

  it('keeps one token for several calls and registers the IPN URL once', async () => {
    const before = await fakeState();
    const { shopper, orderId } = await placedOrder();
    const payment = await start(shopper.id, orderId);
    await allowCheck(payment.id);
    await cardPaymentStatus(ctx(), shopper.id, orderId);
    await decide(payment.redirectUrl, 'approve');
    const after = await fakeState();
    expect(after.tokens).toBe(before.tokens);
    expect(after.statusReads).toBeGreaterThan(before.statusReads);
    // Over the whole file: one token and one registration for this adapter.
    expect(after.tokens).toBe(1);
    expect(after.ipnRegistrations).toBe(1);
    const [kept] = await test.db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, PESAPAL_IPN_SETTING));
    expect(JSON.parse(kept?.settingValue ?? '{}')).toEqual({
      url: `${shopUrl}/api/payments/pesapal/ipn`,
      ipnId: after.orders.at(-1)?.notificationId,
    });
    // Another isolate (a new adapter): its own token, the kept IPN id.
    const other = paymentsFrom(fake.env);
    const next = await placedOrder();
    await start(next.shopper.id, next.orderId, other);
    expect((await fakeState()).ipnRegistrations).toBe(1);
    // PESAPAL_IPN_ID given: used as it is.
    const given = paymentsFrom({ ...fake.env, PESAPAL_IPN_ID: 'ipn-from-the-portal' });
    const third = await placedOrder();
    expect(
      await startCardPayment(ctx(given), third.shopper.id, { orderId: third.orderId }),
    ).toEqual({ ok: false, problem: 'unavailable' });
  });
});

describe('when Pesapal is missing, down or hanging', () => {
  const silenced = async <T>(work: () => Promise<T>) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      return await work();
    } finally {
      errors.mockRestore();
    }
  };
  const setMode = (mode: 'normal' | 'down' | 'hang') =>
    fetch(`${fake.url}/__mode`, { method: 'POST', body: JSON.stringify({ mode }) });

  it('down: a clear error, no 500, nothing waiting; it works again once Pesapal is back', async () => {
    const shopper = await checkoutReady();
    const coat = await addProduct(test.db, { name: 'Bark Cloth Coat', price: 200_000, stock: 5 });
    const orderId = randomUUID();
    const extras = { payments: paymentsFrom(fake.env), cookie: shopper.cookie };
    const placed = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      { orderId, items: [{ variantId: coat.variantId, quantity: 1 }], paymentMethod: 'card' },
      extras,
    );
    expect(placed.status).toBe(200);
    await setMode('down');
    try {
      const down = await silenced(() =>
        mutateOverHttp(test.db, 'payments.start', { orderId }, extras),
      );
      expect(down).toMatchObject({
        status: 503,
        body: { error: { message: CARD_TEXT.reasons.unavailable } },
      });
      expect(JSON.stringify(down.body)).not.toContain('stack');
      const rows = await test.db.select().from(payments).where(eq(payments.orderId, orderId));
      expect(rows.filter((r) => r.status === 'pending')).toHaveLength(0);
      expect((await orderRow(orderId))?.status).toBe('pending');
      // The shopper's return and the IPN still answer while Pesapal is down.
      const back = new URL('/api/payments/pesapal/return', shopUrl);
      back.searchParams.set('OrderTrackingId', randomUUID());
      expect((await shopperReturns(back.toString())).status).toBe(303);
    } finally {
      await setMode('normal');
    }
    const again = await mutateOverHttp(test.db, 'payments.start', { orderId }, extras);
    // The answer the checkout sends the shopper on with.
    expect(again.body.result?.data).toMatchObject({
      orderId,
      network: 'pesapal',
      phone: '',
      state: 'pending',
      amount: 205_000,
      reason: null,
      message: null,
      transactionId: null,
      redirectUrl: expect.stringMatching(/\/pay\/[0-9a-f-]{36}$/),
    });
    const status = await queryOverHttp(test.db, 'payments.status', { orderId }, extras);
    expect(status.body.result?.data).toMatchObject({ network: 'pesapal', state: 'pending' });
  });

  it('hanging: the start gives up within its deadline with a clear error', async () => {
    const adapter = paymentsFrom(fake.env);
    const warm = await placedOrder();
    await start(warm.shopper.id, warm.orderId, adapter); // its token is kept: the order hangs
    const { shopper, orderId } = await placedOrder();
    await setMode('hang');
    try {
      const began = Date.now();
      const result = await silenced(() => startCardPayment(ctx(adapter), shopper.id, { orderId }));
      expect(Date.now() - began).toBeLessThan(5_000);
      expect(result).toEqual({ ok: false, problem: 'unavailable' });
      const rows = await test.db.select().from(payments).where(eq(payments.orderId, orderId));
      expect(rows.map((r) => r.status)).toEqual(['failed']);
      expect(rows[0]?.reason).toBe('unavailable');
    } finally {
      await setMode('normal');
    }
  });

  it('not configured: a card order says so, and nothing is written', async () => {
    const { shopper, orderId } = await placedOrder();
    const none = { providers: {}, callbackOrigin: shopUrl };
    expect(await startCardPayment(ctx(none), shopper.id, { orderId })).toEqual({
      ok: false,
      problem: 'not-configured',
    });
    const signedIn = await checkoutReady();
    const scarf = await addProduct(test.db, { name: 'Silk Scarf', price: 40_000, stock: 5 });
    const id = randomUUID();
    const extras = { payments: none, cookie: signedIn.cookie };
    await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      { orderId: id, items: [{ variantId: scarf.variantId, quantity: 1 }], paymentMethod: 'card' },
      extras,
    );
    const answer = await mutateOverHttp(test.db, 'payments.start', { orderId: id }, extras);
    expect(answer).toMatchObject({
      status: 503,
      body: {
        error: {
          message: 'Card payments are not available right now. Please choose another method.',
        },
      },
    });
    expect(await test.db.select().from(payments).where(eq(payments.orderId, id))).toHaveLength(0);
  });
});

describe('the payments procedures for card orders', () => {
  it('refuse another customer’s order; mobile-money and bank-transfer orders answer as before', async () => {
    const owner = await placedOrder();
    const intruder = await signedInShopper(test.db, auth);
    const extras = { payments: card, cookie: intruder.cookie };
    for (const call of [
      () => mutateOverHttp(test.db, 'payments.start', { orderId: owner.orderId }, extras),
      () => queryOverHttp(test.db, 'payments.status', { orderId: owner.orderId }, extras),
    ]) {
      expect(await call()).toMatchObject({
        status: 404,
        body: { error: { message: PAYMENT_TEXT.orderNotFound } },
      });
    }
    expect(
      await test.db.select().from(payments).where(eq(payments.orderId, owner.orderId)),
    ).toHaveLength(0);

    // Mobile money with no provider configured: today's answer, untouched by Pesapal.
    const shopper = await checkoutReady();
    const bag = await addProduct(test.db, { name: 'Leather Bag', price: 90_000, stock: 5 });
    const own = { payments: card, cookie: shopper.cookie };
    const place = async (paymentMethod: string) => {
      const orderId = randomUUID();
      await mutateOverHttp(
        test.db,
        'checkout.placeOrder',
        { orderId, items: [{ variantId: bag.variantId, quantity: 1 }], paymentMethod },
        own,
      );
      return orderId;
    };
    const momo = await place('mobile_money');
    expect(await mutateOverHttp(test.db, 'payments.start', { orderId: momo }, own)).toMatchObject({
      status: 503,
      body: { error: { message: PAYMENT_TEXT.notConfigured('mtn') } },
    });
    expect(await queryOverHttp(test.db, 'payments.status', { orderId: momo }, own)).toMatchObject({
      status: 200,
      body: { result: { data: null } },
    });
    const transfer = await place('bank_transfer');
    expect(
      await mutateOverHttp(test.db, 'payments.start', { orderId: transfer }, own),
    ).toMatchObject({ status: 400, body: { error: { message: PAYMENT_TEXT.notMobileMoney } } });
    // A card order ignores a phone number given with it.
    const byCard = await place('card');
    const started = await mutateOverHttp(
      test.db,
      'payments.start',
      { orderId: byCard, phone: '0772 000 002' },
      own,
    );
    expect(started.body.result?.data).toMatchObject({ network: 'pesapal', phone: '' });
  });

  it('previews are refused Pesapal credentials', async () => {
    const config = await readWranglerConfig();
    const withKey = structuredClone(config) as { previews: { vars: Record<string, string> } };
    withKey.previews.vars.PESAPAL_CONSUMER_KEY = 'live-key';
    withKey.previews.vars.PESAPAL_CONSUMER_SECRET = 'live-secret';
    expect(previewProblems(withKey)).toEqual([
      '[previews.vars] PESAPAL_CONSUMER_KEY is set: previews must not reach real people or money',
      '[previews.vars] PESAPAL_CONSUMER_SECRET is set: previews must not reach real people or money',
    ]);
  });
});
