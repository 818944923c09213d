// Mobile money against the fake MTN MoMo and Airtel Money servers (local/fakes/mobile-money-fake.ts,
// their real HTTP shapes) through the real adapters, on a real database: the order becomes paid
// once, with the provider's transaction id, and every failure is recorded and told truthfully.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import {
  orders,
  payments,
  profiles,
  receipts,
  smsNotifications,
  systemSettings,
  user,
} from '#db/schema/index.ts';
import { FAKE_AIRTEL, FAKE_MOMO, startFakeMobileMoney } from '#local/fakes/mobile-money-fake.ts';
import type { Auth } from '#server/auth.ts';
import { handlePaymentCallback } from '#server/http/payment-callbacks.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { receiptFor } from '#server/services/orders-service.ts';
import { airtelCallbackHash } from '#server/services/payments/airtel-money.ts';
import { oauthToken } from '#server/services/payments/provider.ts';
import { type MobileMoney, mobileMoneyFrom } from '#server/services/payments/providers.ts';
import {
  changePaymentMethod,
  paymentStatus,
  startPayment,
  sweepPayments,
} from '#server/services/payments/service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp, testContext } from '../support/trpc.ts';

const APPROVAL_MS = 150;
let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakeMobileMoney>>;
let mobileMoney: MobileMoney;
/** Work the shop left running after its answer (the payment-received follow-ups). */
const background: Promise<unknown>[] = [];
/** The shop's Airtel callback route, as Airtel's portal names it: the fake posts here. */
let airtelRoute: Server;
/** The Airtel callbacks that arrived. */
const airtelCallbacks: unknown[] = [];
/**
 * Whether they reach the shop: only in the test about them, so that elsewhere a callback's read
 * never races the test's own status read (a concurrent reader answers the row as it is).
 */
let airtelCallbacksReachShop = false;

type ProviderConfig = Parameters<typeof mobileMoneyFrom>[0];
const providersFrom = (changes: Partial<Record<string, string>> = {}) =>
  mobileMoneyFrom(
    { ...fake.providerEnv, BETTER_AUTH_URL: 'http://shop.test', ...changes } as ProviderConfig,
    1_000,
  );

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  airtelRoute = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    airtelCallbacks.push(JSON.parse(body));
    if (!airtelCallbacksReachShop) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: true }));
      return;
    }
    const request = new Request('http://shop.test/api/payments/airtel', { method: 'POST', body });
    const answer = await handlePaymentCallback(ctx(), request, 'airtel');
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => airtelRoute.listen(0, '127.0.0.1', resolve));
  const { port } = airtelRoute.address() as AddressInfo;
  fake = await startFakeMobileMoney({
    approvalMs: APPROVAL_MS,
    airtelCallbackUrl: `http://127.0.0.1:${port}/api/payments/airtel`,
  });
  mobileMoney = providersFrom();
});
afterAll(async () => {
  await fake?.close();
  airtelRoute?.closeAllConnections();
  await new Promise((resolve) => airtelRoute?.close(resolve));
  await test?.close();
});

const ctx = () =>
  testContext(test.db, new Headers(), {
    payments: mobileMoney,
    background: (work) => background.push(work),
  });

let counter = 0;
async function customer(phone: string) {
  const id = randomUUID();
  const email = `${id}@example.ug`;
  await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
  await test.db
    .insert(profiles)
    .values({ id, email, fullName: 'Nakato Achieng', phone, address: 'Plot 4, Kampala Road' });
  return { id, email, name: 'Nakato Achieng' };
}

/** A placed order of 145,000 + 5,000 delivery for a new customer with this phone. */
async function placedOrder(
  phone = '+256772000001',
  paymentMethod: 'mobile_money' | 'card' = 'mobile_money',
) {
  counter += 1;
  const dress = await addProduct(test.db, { name: `Gomesi ${counter}`, price: 145_000, stock: 5 });
  const shopper = await customer(phone);
  const orderId = randomUUID();
  const placed = await placeOrder(test.db, shopper, {
    orderId,
    lines: [{ variantId: dress.variantId, quantity: 1 }],
    paymentMethod,
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return { shopper, orderId, total: 150_000 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets the next status read ask the provider at once (reads are spaced 3 s apart otherwise). */
const allowCheck = (paymentId: string) =>
  test.db.update(payments).set({ checkedAt: null }).where(eq(payments.id, paymentId));

async function statusNow(customerId: string, orderId: string, paymentId: string) {
  await allowCheck(paymentId);
  return (await paymentStatus(ctx(), customerId, orderId)).payment;
}

async function start(customerId: string, orderId: string, phone?: string) {
  const result = await startPayment(ctx(), customerId, { orderId, phone });
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return result.payment;
}

const orderRow = async (id: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, id)))[0];
const paymentsOf = (orderId: string) =>
  test.db.select().from(payments).where(eq(payments.orderId, orderId));
const fakeRequests = async () =>
  (await (await fetch(`${fake.url}/__requests`)).json()) as {
    reference: string;
    amount: string;
    currency: string;
    phone: string;
    count: number;
    callbackUrl: string | null;
    version?: 'v1' | 'v2';
  }[];
/** The provider now says this (a late answer, or one the fake would not give by itself). */
const decide = (paymentId: string, outcome: { status: 'SUCCESSFUL' | 'FAILED'; reason?: string }) =>
  fetch(`${fake.url}/__decide/${paymentId}`, { method: 'POST', body: JSON.stringify(outcome) });
/** Moves a payment's start (and its last read) back in time. */
const startedAgo = (paymentId: string, started: string, checked: string | null = null) =>
  test.db
    .update(payments)
    .set({
      createdAt: sql`now() - ${started}::interval`,
      checkedAt: checked === null ? null : sql`now() - ${checked}::interval`,
    })
    .where(eq(payments.id, paymentId));
const paymentRow = async (id: string) =>
  (await test.db.select().from(payments).where(eq(payments.id, id)))[0];

describe('a payment that goes through', () => {
  it('MTN: asks for the order total, then the order is processing with the transaction id on its receipt', async () => {
    const { shopper, orderId, total } = await placedOrder('+256772000001');
    const payment = await start(shopper.id, orderId);
    expect(payment).toMatchObject({
      state: 'pending',
      network: 'mtn',
      amount: total,
      phone: '+256772000001',
    });

    const sent = (await fakeRequests()).find((r) => r.reference === payment.id);
    // Production in Uganda (mtnuganda) takes UGX; the amount is the order's, in whole units.
    expect(sent).toMatchObject({
      amount: String(total),
      currency: 'UGX',
      phone: '256772000001',
      count: 1,
    });
    expect(sent?.callbackUrl).toMatch(
      new RegExp(`^http://shop\\.test/api/payments/mtn/${payment.id}/[A-Za-z0-9_-]{32}$`),
    );

    // Still pending before the phone answers is shown by 'no answer' below, which waits on
    // /__decide; reading it here raced the 150 ms approval on a slow machine (CI, stop 19).
    await sleep(APPROVAL_MS + 50);
    const paid = await statusNow(shopper.id, orderId, payment.id);
    expect(paid).toMatchObject({ state: 'successful', reason: null, message: null });
    expect(paid?.transactionId).toMatch(/^\d{10}$/);
    expect(await orderRow(orderId)).toMatchObject({ status: 'processing', total });
    const receipt = await receiptFor(test.db, shopper.id, orderId);
    expect(receipt?.transactionId).toBe(paid?.transactionId);
    const [stored] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(stored?.transactionId).toBe(paid?.transactionId);
  });

  it('Airtel: a 075… number goes to Airtel Money, without the country code, and is paid the same way', async () => {
    const { shopper, orderId, total } = await placedOrder('+256752000001');
    const payment = await start(shopper.id, orderId);
    expect(payment).toMatchObject({ network: 'airtel', phone: '+256752000001', amount: total });
    // v2, signed with the portal's key (the fake decrypts x-key and x-signature to read it).
    expect((await fakeRequests()).find((r) => r.reference === payment.id)).toMatchObject({
      phone: '752000001',
      amount: String(total),
      currency: 'UGX',
      version: 'v2',
    });
    await sleep(APPROVAL_MS + 50);
    const paid = await statusNow(shopper.id, orderId, payment.id);
    expect(paid).toMatchObject({ state: 'successful' });
    expect(paid?.transactionId).toMatch(/^MP\d{10}$/);
    expect((await orderRow(orderId))?.status).toBe('processing');
  });

  it('MTN sandbox: the same request in EUR, which the sandbox takes, and paid the same way', async () => {
    const { shopper, orderId, total } = await placedOrder('+256772000001');
    const sandbox = providersFrom({ MOMO_TARGET_ENVIRONMENT: 'sandbox' });
    const started = await startPayment(
      testContext(test.db, new Headers(), {
        payments: sandbox,
        background: (w) => background.push(w),
      }),
      shopper.id,
      { orderId },
    );
    expect(started).toMatchObject({ ok: true, payment: { state: 'pending' } });
    const id = started.ok ? started.payment.id : '';
    expect((await fakeRequests()).find((r) => r.reference === id)).toMatchObject({
      amount: String(total),
      currency: 'EUR',
    });
  });

  it('Airtel calls back by itself, with a hash: the order is paid with no status poll from the page', async () => {
    const { shopper, orderId } = await placedOrder('+256702000001');
    airtelCallbacksReachShop = true;
    try {
      const payment = await start(shopper.id, orderId);
      await expect
        .poll(async () => (await paymentRow(payment.id))?.status, { timeout: 5_000, interval: 50 })
        .toBe('successful');
    } finally {
      airtelCallbacksReachShop = false;
    }
    const [payment] = await paymentsOf(orderId);
    expect((await orderRow(orderId))?.status).toBe('processing');
    const callback = airtelCallbacks.find(
      (body) => (body as { transaction?: { id?: string } }).transaction?.id === payment?.id,
    ) as { transaction: unknown; hash: string };
    expect(callback.hash).toBe(
      await airtelCallbackHash(callback.transaction, fake.providerEnv.AIRTEL_CALLBACK_SECRET ?? ''),
    );
  });

  it('Airtel answers TA (ambiguous) for a while: read again, then paid', async () => {
    const { shopper, orderId } = await placedOrder('+256752000009');
    const payment = await start(shopper.id, orderId);
    // Approved on the phone, but Airtel answers TA for a second (local/fakes/mobile-money-fake.ts).
    await sleep(APPROVAL_MS + 50);
    expect(await statusNow(shopper.id, orderId, payment.id)).toMatchObject({ state: 'pending' });
    expect((await orderRow(orderId))?.status).toBe('pending');
    await sleep(1_000);
    expect(await statusNow(shopper.id, orderId, payment.id)).toMatchObject({
      state: 'successful',
    });
    expect((await orderRow(orderId))?.status).toBe('processing');
  });

  it('pays from another number entered at checkout, and a double click starts one request', async () => {
    const { shopper, orderId } = await placedOrder('+256772000004');
    const [first, second] = await Promise.all([
      start(shopper.id, orderId, '0701 000 001'),
      start(shopper.id, orderId, '0701 000 001'),
    ]);
    expect(first.id).toBe(second.id);
    expect(first).toMatchObject({ network: 'airtel', phone: '+256701000001' });
    expect((await paymentsOf(orderId)).length).toBe(1);
    expect((await fakeRequests()).filter((r) => r.reference === first.id)[0]?.count).toBe(1);
  });
});

describe('a payment that does not go through', () => {
  it.each([
    ['+256772000002', 'declined', PAYMENT_TEXT.reasons.declined],
    ['+256772000003', 'not-enough-funds', PAYMENT_TEXT.reasons['not-enough-funds']],
    ['+256772000005', 'not-registered', PAYMENT_TEXT.reasons['not-registered']],
    ['+256752000002', 'declined', PAYMENT_TEXT.reasons.declined],
    ['+256752000003', 'not-enough-funds', PAYMENT_TEXT.reasons['not-enough-funds']],
    ['+256752000005', 'not-registered', PAYMENT_TEXT.reasons['not-registered']],
  ])('%s: %s, told in plain words; the order stays pending', async (phone, reason, message) => {
    const { shopper, orderId } = await placedOrder(phone);
    const payment = await start(shopper.id, orderId);
    await sleep(APPROVAL_MS + 50);
    expect(await statusNow(shopper.id, orderId, payment.id)).toMatchObject({
      state: 'failed',
      reason,
      message,
      transactionId: null,
    });
    expect((await orderRow(orderId))?.status).toBe('pending');
  });

  it('a retry after a decline is a new reference for the same order, paid once', async () => {
    const { shopper, orderId, total } = await placedOrder('+256772000002');
    const declined = await start(shopper.id, orderId);
    await sleep(APPROVAL_MS + 50);
    expect((await statusNow(shopper.id, orderId, declined.id))?.state).toBe('failed');

    const retry = await start(shopper.id, orderId, '0772 000 001');
    expect(retry.id).not.toBe(declined.id);
    expect(retry.amount).toBe(total);
    await sleep(APPROVAL_MS + 50);
    expect((await statusNow(shopper.id, orderId, retry.id))?.state).toBe('successful');
    // Paid: a third request is refused, and nothing was counted twice.
    expect(await startPayment(ctx(), shopper.id, { orderId })).toEqual({
      ok: false,
      problem: 'already-paid',
    });
    const rows = await paymentsOf(orderId);
    expect(rows.filter((r) => r.status === 'successful')).toHaveLength(1);
    expect(rows.every((r) => r.amount === total)).toBe(true);
  });

  it('no answer: pending until a late success, which pays the order once', async () => {
    const { shopper, orderId } = await placedOrder('+256772000004');
    const payment = await start(shopper.id, orderId);
    await sleep(APPROVAL_MS + 50);
    expect(await statusNow(shopper.id, orderId, payment.id)).toMatchObject({ state: 'pending' });
    // While it waits, another request is refused: the same pending payment is answered.
    expect((await start(shopper.id, orderId, '0772 000 001')).id).toBe(payment.id);

    await fetch(`${fake.url}/__decide/${payment.id}`, {
      method: 'POST',
      body: JSON.stringify({ status: 'SUCCESSFUL' }),
    });
    await sleep(100); // the fake's callback arrives (handled in the next test's way); the read decides
    const paid = await statusNow(shopper.id, orderId, payment.id);
    expect(paid?.state).toBe('successful');
    expect((await orderRow(orderId))?.status).toBe('processing');
  });

  it('no answer for 5 minutes: expired, the order stays pending, and a new request may start', async () => {
    const { shopper, orderId } = await placedOrder('+256772000004');
    const payment = await start(shopper.id, orderId);
    await test.db
      .update(payments)
      .set({ createdAt: sql`now() - interval '6 minutes'` })
      .where(eq(payments.id, payment.id));
    expect(await statusNow(shopper.id, orderId, payment.id)).toMatchObject({
      state: 'expired',
      reason: 'expired',
      message: PAYMENT_TEXT.reasons.expired,
    });
    expect((await orderRow(orderId))?.status).toBe('pending');
    const again = await start(shopper.id, orderId, '0772 000 001');
    expect(again.id).not.toBe(payment.id);
  });

  it('the provider answers 500: failed at once with a clear reason, order and stock intact', async () => {
    const { shopper, orderId, total } = await placedOrder('+256772000006');
    const payment = await start(shopper.id, orderId);
    expect(payment).toMatchObject({
      state: 'failed',
      reason: 'unavailable',
      message: PAYMENT_TEXT.reasons.unavailable,
    });
    expect(await orderRow(orderId)).toMatchObject({ status: 'pending', total });
  });

  it('the provider hangs: the request returns within its time limit and the payment waits for the truth', async () => {
    const { shopper, orderId } = await placedOrder('+256752000007');
    const began = Date.now();
    const payment = await start(shopper.id, orderId);
    const took = Date.now() - began;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5_000);
    // It may have reached the provider: pending, not failed. The provider never heard of it, so
    // after a minute it is told as unavailable.
    expect(payment.state).toBe('pending');
    await test.db
      .update(payments)
      .set({ createdAt: sql`now() - interval '2 minutes'` })
      .where(eq(payments.id, payment.id));
    expect(await statusNow(shopper.id, orderId, payment.id)).toMatchObject({
      state: 'failed',
      reason: 'unavailable',
    });
    expect((await orderRow(orderId))?.status).toBe('pending');
  });

  it('a provider with no configuration: a clear message, nothing recorded', async () => {
    const { shopper, orderId } = await placedOrder('+256772000001');
    const result = await startPayment(
      testContext(test.db, new Headers(), {
        payments: { providers: {}, callbackOrigin: 'http://shop.test' },
      }),
      shopper.id,
      { orderId },
    );
    expect(result).toEqual({ ok: false, problem: 'not-configured', network: 'mtn' });
    expect(await paymentsOf(orderId)).toHaveLength(0);
  });
});

describe('callbacks are only hints', () => {
  async function mtnCallback(
    paymentId: string,
    secret: string,
    body: unknown = { status: 'SUCCESSFUL' },
  ) {
    const request = new Request(`http://shop.test/api/payments/mtn/${paymentId}/${secret}`, {
      method: 'PUT',
      body: JSON.stringify(body),
    });
    return handlePaymentCallback(ctx(), request, 'mtn', { paymentId, secret });
  }
  const secretOf = async (id: string) =>
    (await test.db.select().from(payments).where(eq(payments.id, id)))[0]?.callbackSecret ?? '';
  const rowOf = async (id: string) =>
    (await test.db.select().from(payments).where(eq(payments.id, id)))[0];

  it('a true callback settles the payment; the same callback again changes nothing', async () => {
    const { shopper, orderId } = await placedOrder('+256772000001');
    const payment = await start(shopper.id, orderId);
    await sleep(APPROVAL_MS + 50);
    const secret = await secretOf(payment.id);
    expect((await mtnCallback(payment.id, secret)).status).toBe(200);
    const first = await rowOf(payment.id);
    expect(first).toMatchObject({ status: 'successful', amount: 150_000 });
    await allowCheck(payment.id);
    await mtnCallback(payment.id, secret, { status: 'SUCCESSFUL', amount: '1' });
    await mtnCallback(payment.id, secret);
    expect(await rowOf(payment.id)).toMatchObject({
      status: 'successful',
      amount: 150_000,
      transactionId: first?.transactionId,
      settledAt: first?.settledAt,
    });
    expect((await orderRow(orderId))?.status).toBe('processing');
  });

  it('a forged callback (wrong secret, or another payment’s id) changes nothing, and says nothing', async () => {
    const { shopper, orderId } = await placedOrder('+256772000004');
    const payment = await start(shopper.id, orderId);
    const other = await placedOrder('+256772000004');
    const otherPayment = await start(other.shopper.id, other.orderId);
    // The provider now says paid: only a callback with the right secret may make the shop look.
    await fetch(`${fake.url}/__decide/${payment.id}`, {
      method: 'POST',
      body: JSON.stringify({ status: 'SUCCESSFUL' }),
    });
    await allowCheck(payment.id);
    const forged = await mtnCallback(payment.id, 'x'.repeat(32));
    const swapped = await mtnCallback(payment.id, await secretOf(otherPayment.id));
    const unknown = await mtnCallback(randomUUID(), await secretOf(payment.id));
    for (const answer of [forged, swapped, unknown]) {
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: true });
    }
    expect((await rowOf(payment.id))?.status).toBe('pending');
    expect((await rowOf(payment.id))?.checkedAt).toBeNull();
    expect((await orderRow(orderId))?.status).toBe('pending');
  });

  it('an Airtel callback without the right hash changes nothing; with it, Airtel is asked (still in progress)', async () => {
    const { shopper, orderId } = await placedOrder('+256752000004');
    const payment = await start(shopper.id, orderId);
    await allowCheck(payment.id);
    const transaction = {
      id: payment.id,
      message: 'Paid',
      status_code: 'TS',
      airtel_money_id: 'MP-FORGED',
    };
    const airtelCallback = (body: unknown) =>
      handlePaymentCallback(
        ctx(),
        new Request('http://shop.test/api/payments/airtel', {
          method: 'POST',
          body: JSON.stringify(body),
        }),
        'airtel',
      );
    for (const forged of [
      { transaction },
      { transaction, hash: await airtelCallbackHash(transaction, 'a guessed key') },
    ]) {
      const answer = await airtelCallback(forged);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: true });
    }
    // Not even a status read was made for them.
    expect(await rowOf(payment.id)).toMatchObject({
      status: 'pending',
      transactionId: null,
      checkedAt: null,
    });
    const secret = fake.providerEnv.AIRTEL_CALLBACK_SECRET ?? '';
    await airtelCallback({ transaction, hash: await airtelCallbackHash(transaction, secret) });
    const read = await rowOf(payment.id);
    expect(read).toMatchObject({ status: 'pending', transactionId: null });
    expect(read?.checkedAt).not.toBeNull();
    // Broken bodies get the same answer.
    for (const body of [
      '{',
      'null',
      '"x"',
      JSON.stringify({ transaction: { id: 42 } }),
      'x'.repeat(70_000),
    ]) {
      const broken = new Request('http://shop.test/api/payments/airtel', { method: 'POST', body });
      expect((await handlePaymentCallback(ctx(), broken, 'airtel')).status).toBe(200);
    }
  });
});

describe('the scheduled sweep', () => {
  it('settles payments still pending and expires those unanswered for 5 minutes', async () => {
    const approved = await placedOrder('+256772000001');
    const silent = await placedOrder('+256772000004');
    const a = await start(approved.shopper.id, approved.orderId);
    const b = await start(silent.shopper.id, silent.orderId);
    await test.db
      .update(payments)
      .set({ createdAt: sql`now() - interval '10 minutes'` })
      .where(eq(payments.id, b.id));
    await sleep(APPROVAL_MS + 50);
    await test.db.update(payments).set({ checkedAt: null }).where(eq(payments.status, 'pending'));
    await sweepPayments(ctx());
    const [rowA] = await test.db.select().from(payments).where(eq(payments.id, a.id));
    const [rowB] = await test.db.select().from(payments).where(eq(payments.id, b.id));
    expect(rowA?.status).toBe('successful');
    expect(rowB).toMatchObject({ status: 'expired', reason: 'expired' });
    expect((await orderRow(approved.orderId))?.status).toBe('processing');
    expect((await orderRow(silent.orderId))?.status).toBe('pending');
  });
});

describe('the payments procedures', () => {
  it('refuse another customer’s order, a card order, bad input and a paid order, in the spec’s words', async () => {
    const owner = await placedOrder('+256772000001');
    const intruder = await signedInShopper(test.db, auth);
    const extras = { payments: mobileMoney, cookie: intruder.cookie };
    const theirs = await mutateOverHttp(
      test.db,
      'payments.start',
      { orderId: owner.orderId },
      extras,
    );
    expect(theirs).toMatchObject({
      status: 404,
      body: { error: { message: PAYMENT_TEXT.orderNotFound } },
    });
    const asIntruder = callerFor(test.db, new Headers({ cookie: intruder.cookie }), {
      payments: mobileMoney,
    });
    await expect(asIntruder.payments.status({ orderId: owner.orderId })).rejects.toThrow(
      PAYMENT_TEXT.orderNotFound,
    );
    await expect(
      asIntruder.payments.changeMethod({ orderId: owner.orderId, paymentMethod: 'card' }),
    ).rejects.toThrow(PAYMENT_TEXT.orderNotFound);
    const visitor = await queryOverHttp(test.db, 'payments.status', { orderId: owner.orderId });
    expect(visitor.status).toBe(401);
    expect(await paymentsOf(owner.orderId)).toHaveLength(0);

    for (const input of [
      { orderId: 42 },
      { orderId: 'x'.repeat(100_000) },
      { orderId: randomUUID(), phone: '0772\u0000000001' },
      { orderId: randomUUID(), phone: '0712 000 001' },
      { orderId: randomUUID(), phone: ['0772000001'] },
      { orderId: randomUUID(), amount: 1 },
    ]) {
      const answer = await mutateOverHttp(test.db, 'payments.start', input, extras);
      expect(answer.status).toBe(400);
      expect(answer.body.error?.message.length).toBeLessThan(120);
      expect(JSON.stringify(answer.body)).not.toContain('stack');
    }
    const unsupported = await mutateOverHttp(
      test.db,
      'payments.start',
      { orderId: owner.orderId, phone: '0712 000 001' },
      extras,
    );
    expect(unsupported.body.error?.message).toBe(PAYMENT_TEXT.unsupportedNetwork);
  });

  it('start, status and changeMethod work for the owner; a card order is refused', async () => {
    const shopper = await signedInShopper(test.db, auth);
    await test.db
      .update(profiles)
      .set({ phone: '+256772000002' })
      .where(eq(profiles.id, shopper.id));
    const coat = await addProduct(test.db, { name: 'Bark Cloth Coat', price: 200_000, stock: 3 });
    const extras = { payments: mobileMoney, cookie: shopper.cookie };
    const orderId = randomUUID();
    const placed = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId,
        items: [{ variantId: coat.variantId, quantity: 1 }],
        paymentMethod: 'mobile_money',
      },
      extras,
    );
    expect(placed.status).toBe(200);
    const started = await mutateOverHttp(test.db, 'payments.start', { orderId }, extras);
    expect(started.body.result?.data).toMatchObject({
      state: 'pending',
      amount: 205_000,
      network: 'mtn',
    });
    // Declined on the phone; the shopper pays cash on delivery instead.
    await sleep(APPROVAL_MS + 50);
    await test.db.update(payments).set({ checkedAt: null }).where(eq(payments.orderId, orderId));
    const callerCtx = testContext(test.db, new Headers({ cookie: shopper.cookie }), {
      payments: mobileMoney,
    });
    expect((await paymentStatus(callerCtx, shopper.id, orderId)).payment?.state).toBe('failed');
    const changed = await mutateOverHttp(
      test.db,
      'payments.changeMethod',
      { orderId, paymentMethod: 'cash_on_delivery' },
      extras,
    );
    expect(changed.body.result?.data).toEqual({ changed: true });
    expect(await orderRow(orderId)).toMatchObject({
      paymentMethod: 'cash_on_delivery',
      status: 'pending',
    });
    expect((await receiptFor(test.db, shopper.id, orderId))?.paymentMethod).toBe(
      'Cash on Delivery',
    );
    const notMobile = await mutateOverHttp(test.db, 'payments.start', { orderId }, extras);
    expect(notMobile.body.error?.message).toBe(PAYMENT_TEXT.notMobileMoney);
  });

  it('never asks twice for a paid order, even when two starts race after it was paid', async () => {
    const { shopper, orderId } = await placedOrder('+256772000001');
    const payment = await start(shopper.id, orderId);
    await sleep(APPROVAL_MS + 50);
    await statusNow(shopper.id, orderId, payment.id);
    const again = await Promise.all([
      startPayment(ctx(), shopper.id, { orderId }),
      startPayment(ctx(), shopper.id, { orderId, phone: '0752000001' }),
    ]);
    expect(again).toEqual([
      { ok: false, problem: 'already-paid' },
      { ok: false, problem: 'already-paid' },
    ]);
    const paid = await test.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'successful')));
    expect(paid).toHaveLength(1);
    await Promise.all(background);
  });

  it('an order deleted while its payment waits: a late success is kept as a refund due, not lost', async () => {
    const { shopper, orderId } = await placedOrder('+256772000004');
    const payment = await start(shopper.id, orderId);
    await test.db.delete(orders).where(eq(orders.id, orderId));
    await fetch(`${fake.url}/__decide/${payment.id}`, {
      method: 'POST',
      body: JSON.stringify({ status: 'SUCCESSFUL' }),
    });
    await test.db.update(payments).set({ checkedAt: null }).where(eq(payments.id, payment.id));
    await sweepPayments(ctx());
    const [row] = await test.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ orderId: null, status: 'refund_due' });
    expect(row?.transactionId).toMatch(/^\d{10}$/);
  });
});

describe('late money is always counted', () => {
  const secretOf = async (id: string) => (await paymentRow(id))?.callbackSecret ?? '';
  const mtnCallback = async (paymentId: string, work = ctx()) =>
    handlePaymentCallback(
      work,
      new Request(`http://shop.test/api/payments/mtn/${paymentId}`, {
        method: 'PUT',
        body: JSON.stringify({ status: 'SUCCESSFUL' }),
      }),
      'mtn',
      { paymentId, secret: await secretOf(paymentId) },
    );
  /** An order whose payment got no answer for 5 minutes and was expired by the sweep. */
  async function expiredPayment(phone = '+256772000004') {
    const placed = await placedOrder(phone);
    const payment = await start(placed.shopper.id, placed.orderId);
    await startedAgo(payment.id, '6 minutes');
    await sweepPayments(ctx());
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'expired', reason: 'expired' });
    // As if that sweep ran a minute ago (a read within 3 s answers the row as it is).
    await startedAgo(payment.id, '7 minutes', '1 minute');
    return { ...placed, payment };
  }
  /** A context that counts the payment-received follow-ups it starts. */
  function countingContext() {
    const started: Promise<unknown>[] = [];
    const work = testContext(test.db, new Headers(), {
      payments: mobileMoney,
      background: (job) => {
        started.push(job);
        background.push(job);
      },
    });
    return { work, started };
  }
  const paymentTexts = (orderId: string) =>
    test.db
      .select()
      .from(smsNotifications)
      .where(
        and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'payment-received')),
      );

  it('the reproduction: an expired MTN payment approved late, then its callback: paid once, with the transaction id', async () => {
    const { shopper, orderId, payment, total } = await expiredPayment();
    await decide(payment.id, { status: 'SUCCESSFUL' });
    const { work, started } = countingContext();
    expect((await mtnCallback(payment.id, work)).status).toBe(200);

    const row = await paymentRow(payment.id);
    expect(row).toMatchObject({ status: 'successful', reason: null });
    expect(row?.transactionId).toMatch(/^\d{10}$/);
    expect(await orderRow(orderId)).toMatchObject({ status: 'processing', total });
    expect((await receiptFor(test.db, shopper.id, orderId))?.transactionId).toBe(
      row?.transactionId,
    );
    // The payment-received text, once, even when the callback comes again and the sweep runs.
    await mtnCallback(payment.id, work);
    await allowCheck(payment.id);
    await sweepPayments(work);
    await Promise.all(started);
    expect(started).toHaveLength(1);
    const texts = await paymentTexts(orderId);
    expect(texts).toHaveLength(1);
    expect(texts[0]?.messageContent).toContain(row?.transactionId ?? 'missing');
    // The shopper sees it paid.
    expect((await paymentStatus(ctx(), shopper.id, orderId)).payment).toMatchObject({
      state: 'successful',
      transactionId: row?.transactionId,
    });
  });

  it('the sweep alone finds a late approval (no callback), for Airtel too', async () => {
    for (const phone of ['+256772000004', '+256752000004']) {
      const { orderId, payment } = await expiredPayment(phone);
      await decide(payment.id, { status: 'SUCCESSFUL' });
      // 20 minutes old, last read 6 minutes ago: due again (every 5 minutes up to an hour).
      await startedAgo(payment.id, '20 minutes', '6 minutes');
      await sweepPayments(ctx());
      expect(await paymentRow(payment.id)).toMatchObject({ status: 'successful' });
      expect((await orderRow(orderId))?.status).toBe('processing');
    }
  });

  it('a late approval for a cancelled order is a refund due with its transaction id; the order stays cancelled', async () => {
    const { orderId, payment } = await expiredPayment();
    await test.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, orderId));
    await decide(payment.id, { status: 'SUCCESSFUL' });
    const { work, started } = countingContext();
    await mtnCallback(payment.id, work);
    const row = await paymentRow(payment.id);
    expect(row).toMatchObject({ status: 'refund_due' });
    expect(row?.transactionId).toMatch(/^\d{10}$/);
    expect((await orderRow(orderId))?.status).toBe('cancelled');
    expect(started).toHaveLength(0);
  });

  it('a waiting payment approved for an order that was cancelled meanwhile: refund due too', async () => {
    const { shopper, orderId } = await placedOrder('+256772000004');
    const payment = await start(shopper.id, orderId);
    await test.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, orderId));
    await decide(payment.id, { status: 'SUCCESSFUL' });
    await mtnCallback(payment.id);
    expect((await paymentRow(payment.id))?.status).toBe('refund_due');
    expect((await orderRow(orderId))?.status).toBe('cancelled');
  });

  it('the expired request approved while a retry waits: the order is paid once, the retry steps aside and, if approved too, is refunded', async () => {
    const { shopper, orderId, payment: first } = await expiredPayment();
    const retry = await start(shopper.id, orderId, '0772 000 014');
    expect(retry.state).toBe('pending');

    await decide(first.id, { status: 'SUCCESSFUL' });
    const { work, started } = countingContext();
    await mtnCallback(first.id, work);
    expect(await paymentRow(first.id)).toMatchObject({ status: 'successful' });
    expect(await paymentRow(retry.id)).toMatchObject({ status: 'expired', reason: 'expired' });
    expect((await orderRow(orderId))?.status).toBe('processing');
    expect((await paymentStatus(ctx(), shopper.id, orderId)).payment?.id).toBe(first.id);

    // The shopper approves the retry on the phone as well: that money is not needed.
    await decide(retry.id, { status: 'SUCCESSFUL' });
    await mtnCallback(retry.id, work);
    const second = await paymentRow(retry.id);
    expect(second?.status).toBe('refund_due');
    expect(second?.transactionId).toMatch(/^\d{10}$/);
    const rows = await paymentsOf(orderId);
    expect(rows.filter((r) => r.status === 'successful')).toHaveLength(1);
    expect(started).toHaveLength(1);
  });

  it('approved late after the shopper chose cash on delivery: paid by mobile money, as order and receipt say', async () => {
    const { shopper, orderId, payment } = await expiredPayment();
    const changed = await changePaymentMethod(ctx(), shopper.id, orderId, 'cash_on_delivery');
    expect(changed).toEqual({ ok: true });
    await decide(payment.id, { status: 'SUCCESSFUL' });
    await mtnCallback(payment.id);
    expect(await orderRow(orderId)).toMatchObject({
      status: 'processing',
      paymentMethod: 'mobile_money',
    });
    const receipt = await receiptFor(test.db, shopper.id, orderId);
    expect(receipt).toMatchObject({
      paymentMethod: 'Mobile Money',
      transactionId: (await paymentRow(payment.id))?.transactionId,
    });
    const [stored] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(stored?.receiptData).toMatchObject({ paymentMethod: 'Mobile Money' });
  });

  it('a late FAILED answer only refines the reason of an expired payment, which is then left alone', async () => {
    const { orderId, payment } = await expiredPayment();
    await decide(payment.id, { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' });
    await mtnCallback(payment.id);
    const row = await paymentRow(payment.id);
    expect(row).toMatchObject({
      status: 'expired',
      reason: 'not-enough-funds',
      transactionId: null,
    });
    expect((await orderRow(orderId))?.status).toBe('pending');
    // A final answer: the sweep does not ask again.
    await startedAgo(payment.id, '20 minutes', '6 minutes');
    const checkedAt = (await paymentRow(payment.id))?.checkedAt;
    await sweepPayments(ctx());
    expect((await paymentRow(payment.id))?.checkedAt).toEqual(checkedAt);
  });

  it('the sweep reads at a falling rate: every minute at first, every 5 minutes up to an hour, then every 30', async () => {
    const { payment } = await expiredPayment();
    const readBySweep = async (started: string, checked: string) => {
      await startedAgo(payment.id, started, checked);
      const before = (await paymentRow(payment.id))?.checkedAt?.getTime();
      await sweepPayments(ctx());
      return (await paymentRow(payment.id))?.checkedAt?.getTime() !== before;
    };
    expect(await readBySweep('8 minutes', '30 seconds')).toBe(false);
    expect(await readBySweep('8 minutes', '55 seconds')).toBe(true);
    expect(await readBySweep('30 minutes', '2 minutes')).toBe(false);
    expect(await readBySweep('30 minutes', '6 minutes')).toBe(true);
    expect(await readBySweep('3 hours', '10 minutes')).toBe(false);
    expect(await readBySweep('3 hours', '31 minutes')).toBe(true);
    expect(await readBySweep('23 hours', '31 minutes')).toBe(true);
  });

  it('a payment older than 24 hours is no longer read, by the sweep or a callback', async () => {
    const { orderId, payment } = await expiredPayment();
    await decide(payment.id, { status: 'SUCCESSFUL' });
    await startedAgo(payment.id, '25 hours', '2 hours');
    const checkedAt = (await paymentRow(payment.id))?.checkedAt;
    await sweepPayments(ctx());
    await mtnCallback(payment.id);
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'expired', checkedAt });
    expect((await orderRow(orderId))?.status).toBe('pending');
  });
});

describe("the shop's set-up refused by the provider", () => {
  it.each([
    [
      'MTN: an environment the API user may not use',
      '+256772000001',
      { MOMO_TARGET_ENVIRONMENT: 'mtnghana' },
      'NOT_ALLOWED_TARGET_ENVIRONMENT',
    ],
    ['MTN: wrong API key', '+256772000001', { MOMO_API_KEY: 'wrong' }, 'MTN MoMo token: HTTP 401'],
    [
      'Airtel: a public key that is not the portal’s',
      '+256752000001',
      { AIRTEL_PUBLIC_KEY: 'PLACEHOLDER' },
      'DP00800001026',
    ],
  ])(
    '%s: unavailable, try another method; logged for the desk with the code',
    async (_, phone, changes, code) => {
      const config: Record<string, string> = { ...changes };
      if (config.AIRTEL_PUBLIC_KEY === 'PLACEHOLDER') {
        const { generateKeyPairSync } = await import('node:crypto');
        config.AIRTEL_PUBLIC_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
          .publicKey.export({ type: 'spki', format: 'der' })
          .toString('base64');
      }
      const { shopper, orderId } = await placedOrder(phone);
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const result = await startPayment(
          testContext(test.db, new Headers(), { payments: providersFrom(config) }),
          shopper.id,
          { orderId },
        );
        expect(result).toMatchObject({
          ok: true,
          payment: {
            state: 'failed',
            reason: 'setup',
            message: 'Mobile money is unavailable right now. Please try another payment method.',
          },
        });
        expect(logged.mock.calls.flat().join('\n')).toMatch(new RegExp(`set-up[^\\n]*${code}`));
      } finally {
        logged.mockRestore();
      }
      expect((await orderRow(orderId))?.status).toBe('pending');
    },
  );
});

describe("Airtel's x-key padding (AIRTEL_RSA_PADDING, decision 0062)", () => {
  /** The desk's Money view, as the desk reads it. */
  async function moneyNotice() {
    const operator = await signedInShopper(test.db, auth);
    const desk = callerFor(test.db, new Headers({ cookie: operator.cookie }), {
      ownerEmails: [operator.email.toLowerCase()],
    });
    return (await desk.operator.money()).airtelSignature;
  }

  it.each([
    ['oaep', 'pkcs1'],
    ['pkcs1', 'oaep'],
  ] as const)(
    'a fake Airtel that reads %s takes it and refuses %s; the desk then says which to set',
    async (padding, other) => {
      const airtel = await startFakeMobileMoney({
        approvalMs: APPROVAL_MS,
        airtelRsaPadding: padding,
      });
      const shop = (rsaPadding: string) =>
        testContext(test.db, new Headers(), {
          payments: mobileMoneyFrom(
            {
              ...airtel.providerEnv,
              BETTER_AUTH_URL: 'http://shop.test',
              AIRTEL_RSA_PADDING: rsaPadding,
            } as ProviderConfig,
            1_000,
          ),
        });
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const refused = await placedOrder('+256752000001');
        const wrong = await startPayment(shop(other), refused.shopper.id, {
          orderId: refused.orderId,
        });
        expect(wrong).toMatchObject({ ok: true, payment: { state: 'failed', reason: 'setup' } });
        expect(logged.mock.calls.flat().join('\n')).toMatch(/set-up \(airtel\)[^\n]*DP00800001026/);
        expect(await moneyNotice()).toBe(
          `Airtel refused the shop's signature: set AIRTEL_RSA_PADDING to ${padding} (it is ${other} now), then try an Airtel payment again. Until then every Airtel Money payment fails. If Airtel refuses both, AIRTEL_PUBLIC_KEY is not its current key: remove it and the shop fetches Airtel’s own.`,
        );

        const taken = await placedOrder('+256752000001');
        const right = await startPayment(shop(padding), taken.shopper.id, {
          orderId: taken.orderId,
        });
        expect(right).toMatchObject({ ok: true, payment: { state: 'pending' } });
        const id = right.ok ? right.payment.id : '';
        const requests = (await (await fetch(`${airtel.url}/__requests`)).json()) as {
          reference: string;
          version: string;
        }[];
        expect(requests.find((r) => r.reference === id)).toMatchObject({ version: 'v2' });
        // Airtel took a signed payment: nothing left to change.
        expect(await moneyNotice()).toBeNull();
      } finally {
        logged.mockRestore();
        await airtel.close();
      }
    },
  );

  it('without AIRTEL_PUBLIC_KEY the shop signs with the key Airtel serves at /v1/rsa/encryption-keys', async () => {
    const { shopper, orderId } = await placedOrder('+256752000001');
    const keys = await fetch(`${fake.url}/airtel/v1/rsa/encryption-keys`);
    expect(keys.status).toBe(401); // Airtel's key needs the app's token, like every call.
    const result = await startPayment(
      testContext(test.db, new Headers(), {
        payments: providersFrom({ AIRTEL_PUBLIC_KEY: undefined }),
      }),
      shopper.id,
      { orderId },
    );
    expect(result).toMatchObject({ ok: true, payment: { state: 'pending', network: 'airtel' } });
    const id = result.ok ? result.payment.id : '';
    // v2, and the fake read it with its private key: signed with the key it served.
    expect((await fakeRequests()).find((r) => r.reference === id)).toMatchObject({
      version: 'v2',
      phone: '752000001',
    });
  });

  it("a refusal with Airtel's own key (fetched) says only which padding to set", async () => {
    const airtel = await startFakeMobileMoney({
      approvalMs: APPROVAL_MS,
      airtelRsaPadding: 'oaep',
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { shopper, orderId } = await placedOrder('+256752000001');
      const payments = mobileMoneyFrom(
        {
          ...airtel.providerEnv,
          BETTER_AUTH_URL: 'http://shop.test',
          AIRTEL_PUBLIC_KEY: undefined,
          AIRTEL_RSA_PADDING: 'pkcs1',
        } as unknown as ProviderConfig,
        1_000,
      );
      await startPayment(testContext(test.db, new Headers(), { payments }), shopper.id, {
        orderId,
      });
      expect(await moneyNotice()).toBe(
        "Airtel refused the shop's signature: set AIRTEL_RSA_PADDING to oaep (it is pkcs1 now), then try an Airtel payment again. Until then every Airtel Money payment fails.",
      );
    } finally {
      logged.mockRestore();
      await airtel.close();
      await test.db
        .delete(systemSettings)
        .where(eq(systemSettings.settingKey, 'airtel_signature_refused'));
    }
  });
});

describe('the fakes answer as MTN and Airtel do', () => {
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const mtnToken = (user: string, key = FAKE_MOMO.apiKey) =>
    fetch(`${fake.url}/momo/collection/token/`, {
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': FAKE_MOMO.subscriptionKey,
        Authorization: `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`,
      },
    });

  it("MTN's API users are UUID v4: the fake's is, and it refuses any other at the token", async () => {
    expect(FAKE_MOMO.apiUser).toMatch(UUID_V4);
    expect(fake.providerEnv.MOMO_API_USER).toBe(FAKE_MOMO.apiUser);
    expect((await mtnToken(FAKE_MOMO.apiUser)).status).toBe(200);
    const refused = await mtnToken('fake-momo-api-user');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'login_failed' });
  });

  it("MTN's status echoes the externalId the shop sent: the order's id, not the reference", async () => {
    const { shopper, orderId } = await placedOrder('+256772000004');
    const payment = await start(shopper.id, orderId);
    const { access_token } = (await (await mtnToken(FAKE_MOMO.apiUser)).json()) as {
      access_token: string;
    };
    const status = await fetch(`${fake.url}/momo/collection/v1_0/requesttopay/${payment.id}`, {
      headers: {
        'Ocp-Apim-Subscription-Key': FAKE_MOMO.subscriptionKey,
        Authorization: `Bearer ${access_token}`,
        'X-Target-Environment': 'mtnuganda',
      },
    });
    expect(await status.json()).toMatchObject({ externalId: orderId, status: 'PENDING' });
  });

  it("Airtel's token gives expires_in as a string, which the adapter reads as a number would be", async () => {
    const answer = await fetch(`${fake.url}/airtel/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: FAKE_AIRTEL.clientId,
        client_secret: FAKE_AIRTEL.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
    const body = (await answer.json()) as { expires_in: unknown };
    expect(body.expires_in).toBe('180');
    for (const expiresIn of ['180', 180]) {
      const read = await oauthToken(
        Response.json({ access_token: 't', expires_in: expiresIn }),
        'Airtel Money token',
        { refusedStatuses: [401], lifetimeS: 60 },
      );
      expect(read).toEqual({ token: 't', expiresIn: 180 });
    }
  });
});
