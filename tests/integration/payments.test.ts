// Mobile money against the fake MTN MoMo and Airtel Money servers (local/fakes/mobile-money.ts,
// their real HTTP shapes) through the real adapters, on a real database: the order becomes paid
// once, with the provider's transaction id, and every failure is recorded and told truthfully.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import { orders, payments, products, profiles, receipts, user } from '#db/schema/index.ts';
import { startFakeMobileMoney } from '#local/fakes/mobile-money.ts';
import type { Auth } from '#server/auth.ts';
import { handlePaymentCallback } from '#server/http/payment-callbacks.ts';
import { placeOrder } from '#server/services/checkout.ts';
import { receiptFor } from '#server/services/orders.ts';
import { type MobileMoney, mobileMoneyFrom } from '#server/services/payments/providers.ts';
import { paymentStatus, startPayment, sweepPayments } from '#server/services/payments/service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp, testContext } from '../support/trpc.ts';

const APPROVAL_MS = 150;
let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakeMobileMoney>>;
let mobileMoney: MobileMoney;
/** Work the shop left running after its answer (the payment-received follow-ups). */
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  fake = await startFakeMobileMoney({ approvalMs: APPROVAL_MS });
  mobileMoney = mobileMoneyFrom(
    { ...fake.env, BETTER_AUTH_URL: 'http://shop.test' } as Parameters<typeof mobileMoneyFrom>[0],
    1_000,
  );
});
afterAll(async () => {
  await fake?.close();
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
  const [dress] = await test.db
    .insert(products)
    .values({
      productName: `Gomesi ${counter}`,
      slug: `gomesi-${randomUUID()}`,
      price: 145_000,
      quantity: 5,
    })
    .returning();
  const shopper = await customer(phone);
  const orderId = randomUUID();
  const placed = await placeOrder(test.db, shopper, {
    orderId,
    lines: [{ productId: dress?.id ?? 0, quantity: 1 }],
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
  }[];

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
    // The sandbox only takes EUR; the amount is the order's, in whole units.
    expect(sent).toMatchObject({
      amount: String(total),
      currency: 'EUR',
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
    expect((await fakeRequests()).find((r) => r.reference === payment.id)).toMatchObject({
      phone: '752000001',
      amount: String(total),
      currency: 'UGX',
    });
    await sleep(APPROVAL_MS + 50);
    const paid = await statusNow(shopper.id, orderId, payment.id);
    expect(paid).toMatchObject({ state: 'successful' });
    expect(paid?.transactionId).toMatch(/^MP\d{10}$/);
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
    expect(result).toEqual({ ok: false, problem: { notConfigured: 'mtn' } });
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

  it('an Airtel callback claiming success is checked with Airtel, which says it is still in progress', async () => {
    const { shopper, orderId } = await placedOrder('+256752000004');
    const payment = await start(shopper.id, orderId);
    await allowCheck(payment.id);
    const request = new Request('http://shop.test/api/payments/airtel', {
      method: 'POST',
      body: JSON.stringify({
        transaction: {
          id: payment.id,
          message: 'Paid',
          status_code: 'TS',
          airtel_money_id: 'MP-FORGED',
        },
      }),
    });
    expect((await handlePaymentCallback(ctx(), request, 'airtel')).status).toBe(200);
    expect(await rowOf(payment.id)).toMatchObject({ status: 'pending', transactionId: null });
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
    const [coat] = await test.db
      .insert(products)
      .values({
        productName: 'Bark Cloth Coat',
        slug: `coat-${randomUUID()}`,
        price: 200_000,
        quantity: 3,
      })
      .returning();
    const extras = { payments: mobileMoney, cookie: shopper.cookie };
    const orderId = randomUUID();
    const placed = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      { orderId, items: [{ productId: coat?.id, quantity: 1 }], paymentMethod: 'mobile_money' },
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
