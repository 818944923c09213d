// Refunds through the provider that took the money (issue 36, decision 0086) against the fake MTN
// Disbursement, Airtel disbursement and Pesapal RefundRequest (local/fakes/, their real shapes),
// through the real adapters, on a real database: each provider's success, failure and late
// success; what the providers refuse, told to staff in the shop's words with Retry possible; one
// live refund per payment under 10 concurrent taps; a refund_due payment refunded; refunds by
// hand recorded; a dead or hanging provider leaves the refund for the sweep, never a 500.
// The refund rows are inserted directly: the returns' part builds them from returns.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONEY_TEXT } from '#core/desk-money.ts';
import { REFUND_FAILURE_TEXT, REFUND_TEXT } from '#core/returns.ts';
import {
  deskRecords,
  payments,
  profiles,
  refunds,
  returns,
  smsNotifications,
} from '#db/schema/index.ts';
import { startFakeMobileMoney } from '#local/fakes/mobile-money-fake.ts';
import { startFakePesapal } from '#local/fakes/pesapal-fake.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { type MobileMoney, mobileMoneyFrom } from '#server/services/payments/providers.ts';
import { sendRefund, sweepRefunds } from '#server/services/refunds-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, testContext } from '../support/trpc.ts';

const APPROVAL_MS = 150;
const PESAPAL_REFUND_MS = 300;
let test: TestDatabase;
let auth: Auth;
let mobile: Awaited<ReturnType<typeof startFakeMobileMoney>>;
let pesapal: Awaited<ReturnType<typeof startFakePesapal>>;
let providers: MobileMoney;
let operator: Awaited<ReturnType<typeof signedInShopper>>;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;
let other: Awaited<ReturnType<typeof signedInShopper>>;
const background: Promise<unknown>[] = [];

const providersFrom = (changes: Record<string, string> = {}) =>
  mobileMoneyFrom(
    {
      ...mobile.providerEnv,
      ...pesapal.env,
      BETTER_AUTH_URL: 'http://shop.test',
      ...changes,
    } as Parameters<typeof mobileMoneyFrom>[0],
    1_000,
  );

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  mobile = await startFakeMobileMoney({ approvalMs: APPROVAL_MS });
  pesapal = await startFakePesapal({ refundMs: PESAPAL_REFUND_MS });
  providers = providersFrom();
  operator = await signedInShopper(test.db, auth, { name: 'Olivia Operator' });
  shopper = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  other = await signedInShopper(test.db, auth, { name: 'Amina Other' });
  await test.db
    .insert(profiles)
    .values({
      id: shopper.id,
      email: shopper.email,
      fullName: 'Nakato Achieng',
      phone: '+256772000901',
    })
    .onConflictDoUpdate({ target: profiles.id, set: { phone: '+256772000901' } });
});
afterAll(async () => {
  await Promise.allSettled(background);
  await mobile?.close();
  await pesapal?.close();
  await test?.close();
});

const extras = (payments = providers) => ({
  payments,
  ownerEmails: [operator.email.toLowerCase()],
  background: (work: Promise<unknown>) => {
    background.push(work);
  },
});
const ctx = (payments = providers) => testContext(test.db, new Headers(), extras(payments));
const desk = (payments = providers) =>
  callerFor(test.db, new Headers({ cookie: operator.cookie }), extras(payments)).desk;
const as = (who: { cookie: string }) =>
  callerFor(test.db, new Headers({ cookie: who.cookie }), extras());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let counter = 0;
/** A placed order of the shopper's (120,000), paid by mobile money. */
async function order() {
  counter += 1;
  const piece = await addProduct(test.db, { name: `Kitenge ${counter}`, price: 120_000, stock: 5 });
  const placed = await placeOrder(
    test.db,
    { id: shopper.id, email: shopper.email, name: shopper.name },
    {
      orderId: randomUUID(),
      lines: [{ variantId: piece.variantId, quantity: 1 }],
      paymentMethod: 'mobile_money',
    },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return placed.order.orderId;
}

type Network = 'mtn' | 'airtel' | 'pesapal' | 'bank_transfer' | 'cash';

/** A payment of `amount` that went through (or money the order did not need: refund_due). */
async function payment(
  network: Network,
  options: {
    phone?: string;
    amount?: number;
    status?: 'successful' | 'refund_due';
    pesapalMethod?: string;
    /** What Pesapal collected, when it differs from what the shop recorded. */
    collected?: number;
  } = {},
) {
  const orderId = await order();
  const amount = options.amount ?? 120_000;
  let transactionId = `TX${counter}`;
  let providerReference: string | null = null;
  if (network === 'pesapal') {
    const paid = (await (
      await fetch(`${pesapal.url}/__paid`, {
        method: 'POST',
        body: JSON.stringify({
          amount: options.collected ?? amount,
          paymentMethod: options.pesapalMethod ?? 'Visa',
        }),
      })
    ).json()) as { trackingId: string; confirmationCode: string };
    transactionId = paid.confirmationCode;
    providerReference = paid.trackingId;
  }
  const id = randomUUID();
  await test.db.insert(payments).values({
    id,
    orderId,
    customerId: shopper.id,
    network,
    phone: options.phone ?? null,
    amount,
    status: options.status ?? 'successful',
    transactionId,
    providerReference,
    callbackSecret: 'secret',
    settledAt: new Date(),
  });
  return { orderId, paymentId: id };
}

/** A requested refund of that payment, as the returns' part writes one. */
async function refundOf(
  paid: { orderId: string; paymentId: string },
  method: Network,
  amount = 120_000,
  returnId: string | null = null,
) {
  const [row] = await test.db
    .insert(refunds)
    .values({
      orderId: paid.orderId,
      paymentId: paid.paymentId,
      returnId,
      customerId: shopper.id,
      method,
      amount,
      actorEmail: operator.email,
    })
    .returning({ id: refunds.id });
  return row?.id ?? '';
}

const refundRow = async (id: string) =>
  (await test.db.select().from(refunds).where(eq(refunds.id, id)))[0];
const paymentRow = async (id: string) =>
  (await test.db.select().from(payments).where(eq(payments.id, id)))[0];
const refundsOfPayment = (paymentId: string) =>
  test.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
const fakeRefunds = async () =>
  (await (await fetch(`${mobile.url}/__refunds`)).json()) as {
    reference: string;
    network: string;
    amount: string;
    currency: string;
    phone: string;
    count: number;
  }[];
/** The provider decides a refund now (a late answer). */
const decide = (reference: string, outcome: { status: 'SUCCESSFUL' | 'FAILED'; reason?: string }) =>
  fetch(`${mobile.url}/__decide/${reference}`, { method: 'POST', body: JSON.stringify(outcome) });
/** The sweep reads this refund at once (reads are spaced otherwise). */
async function sweepNow(refundId: string) {
  await test.db.update(refunds).set({ checkedAt: null }).where(eq(refunds.id, refundId));
  await sweepRefunds(ctx());
  return refundRow(refundId);
}
const refundTexts = (orderId: string) =>
  test.db
    .select()
    .from(smsNotifications)
    .where(and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'refund-sent')));

describe('MTN MoMo Disbursement', () => {
  it('sends the refund as a transfer to the payer, and the sweep records its success, reference and text', async () => {
    const paid = await payment('mtn', { phone: '+256772100001' });
    const refundId = await refundOf(paid, 'mtn', 50_000);
    expect(await sendRefund(ctx(), refundId)).toEqual({ refundId, status: 'sent' });
    const row = await refundRow(refundId);
    const sent = (await fakeRefunds()).find((r) => r.reference === row?.providerReference);
    expect(sent).toMatchObject({
      network: 'mtn',
      amount: '50000',
      currency: 'UGX',
      phone: '256772100001',
      count: 1,
    });
    // Sent again (a double tap): nothing new reaches MTN.
    expect(await sendRefund(ctx(), refundId)).toEqual({ refundId, status: 'sent' });
    await sleep(APPROVAL_MS + 50);
    const done = await sweepNow(refundId);
    expect(done).toMatchObject({ status: 'succeeded', reason: null });
    expect(done?.reference).toMatch(/^\d{10}$/);
    expect(done?.settledAt).toBeInstanceOf(Date);
    // A return's part refund leaves a successful payment successful.
    expect((await paymentRow(paid.paymentId))?.status).toBe('successful');
    const [text] = await refundTexts(paid.orderId);
    expect(text?.messageContent).toContain('UGX 50,000');
    expect(text?.messageContent).toContain(done?.reference ?? '-');
    expect(text?.messageContent.length).toBeLessThanOrEqual(160);
    expect((await fakeRefunds()).find((r) => r.reference === row?.providerReference)?.count).toBe(
      1,
    );
  });

  it('a transfer MTN fails is failed with the shop’s words, and Retry sends a new refund', async () => {
    const paid = await payment('mtn', { phone: '+256772100005' });
    const refundId = await refundOf(paid, 'mtn', 120_000);
    expect((await sendRefund(ctx(), refundId))?.status).toBe('sent');
    await sleep(APPROVAL_MS + 50);
    expect(await sweepNow(refundId)).toMatchObject({
      status: 'failed',
      reason: REFUND_FAILURE_TEXT['payee-not-found'],
    });
    const again = await desk().retryRefund({ refundId });
    expect(again.refundId).not.toBe(refundId);
    expect(again.status).toBe('sent');
    const rows = await refundsOfPayment(paid.paymentId);
    expect(rows.map((r) => r.status).sort()).toEqual(['failed', 'sent']);
    const record = await test.db
      .select()
      .from(deskRecords)
      .where(and(eq(deskRecords.orderId, paid.orderId), eq(deskRecords.action, 'refund.retried')));
    expect(record).toHaveLength(1);
  });

  it('a late success counts: pending at first, succeeded when MTN answers', async () => {
    const paid = await payment('mtn', { phone: '+256772100004' });
    const refundId = await refundOf(paid, 'mtn', 80_000);
    await sendRefund(ctx(), refundId);
    await sleep(APPROVAL_MS + 50);
    expect((await sweepNow(refundId))?.status).toBe('sent');
    const row = await refundRow(refundId);
    await decide(row?.providerReference ?? '', { status: 'SUCCESSFUL' });
    expect((await sweepNow(refundId))?.status).toBe('succeeded');
  });

  it('more than the payment took is never sent', async () => {
    const paid = await payment('mtn', { phone: '+256772100011', amount: 60_000 });
    const refundId = await refundOf(paid, 'mtn', 60_001);
    expect((await sendRefund(ctx(), refundId))?.status).toBe('failed');
    expect((await refundRow(refundId))?.reason).toBe(REFUND_FAILURE_TEXT['over-paid']);
    const row = await refundRow(refundId);
    expect((await fakeRefunds()).some((r) => r.reference === row?.providerReference)).toBe(false);
  });

  it('the sandbox is paid in EUR, and a wrong currency is refused as MTN refuses it', async () => {
    const sandbox = providersFrom({ MOMO_TARGET_ENVIRONMENT: 'sandbox' });
    const paid = await payment('mtn', { phone: '+256772100021' });
    const refundId = await refundOf(paid, 'mtn', 10_000);
    expect((await sendRefund(ctx(sandbox), refundId))?.status).toBe('sent');
    const row = await refundRow(refundId);
    expect(
      (await fakeRefunds()).find((r) => r.reference === row?.providerReference)?.currency,
    ).toBe('EUR');
    // What the fake answers a transfer in the wrong currency (the shop never pairs them wrong).
    const token = (await (
      await fetch(`${mobile.url}/momo/disbursement/token/`, {
        method: 'POST',
        headers: {
          'Ocp-Apim-Subscription-Key': mobile.providerEnv.MOMO_DISBURSEMENT_SUBSCRIPTION_KEY ?? '',
          Authorization: `Basic ${btoa(`${mobile.providerEnv.MOMO_DISBURSEMENT_API_USER}:${mobile.providerEnv.MOMO_DISBURSEMENT_API_KEY}`)}`,
        },
      })
    ).json()) as { access_token: string };
    const wrong = await fetch(`${mobile.url}/momo/disbursement/v1_0/transfer`, {
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': mobile.providerEnv.MOMO_DISBURSEMENT_SUBSCRIPTION_KEY ?? '',
        Authorization: `Bearer ${token.access_token}`,
        'X-Target-Environment': 'mtnuganda',
        'X-Reference-Id': randomUUID(),
      },
      body: JSON.stringify({
        amount: '1000',
        currency: 'EUR',
        externalId: 'x',
        payee: { partyIdType: 'MSISDN', partyId: '256772100021' },
      }),
    });
    expect(wrong.status).toBe(500);
    expect(await wrong.json()).toMatchObject({ code: 'INVALID_CURRENCY' });
  });

  it('without the disbursement keys, staff are told to set them or refund by hand', async () => {
    const noKeys = mobileMoneyFrom(
      {
        ...mobile.providerEnv,
        BETTER_AUTH_URL: 'http://shop.test',
        MOMO_DISBURSEMENT_API_USER: '',
        MOMO_DISBURSEMENT_API_KEY: '',
        MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: '',
      } as Parameters<typeof mobileMoneyFrom>[0],
      1_000,
    );
    const paid = await payment('mtn', { phone: '+256772100031' });
    const refundId = await refundOf(paid, 'mtn', 10_000);
    expect((await sendRefund(ctx(noKeys), refundId))?.status).toBe('failed');
    expect((await refundRow(refundId))?.reason).toBe(REFUND_FAILURE_TEXT['not-configured']);
  });
});

describe('Airtel disbursement', () => {
  it('sends a signed B2C disbursement with the encrypted PIN; success read back', async () => {
    const paid = await payment('airtel', { phone: '+256752100001' });
    const refundId = await refundOf(paid, 'airtel', 70_000);
    expect((await sendRefund(ctx(), refundId))?.status).toBe('sent');
    const row = await refundRow(refundId);
    expect((await fakeRefunds()).find((r) => r.reference === row?.providerReference)).toMatchObject(
      {
        network: 'airtel',
        amount: '70000',
        phone: '752100001',
      },
    );
    await sleep(APPROVAL_MS + 50);
    const done = await sweepNow(refundId);
    expect(done?.status).toBe('succeeded');
    expect(done?.reference).toMatch(/^MP\d+$/);
  });

  it('not enough money in the shop’s wallet: failed, with what to do', async () => {
    const paid = await payment('airtel', { phone: '+256752100003' });
    const refundId = await refundOf(paid, 'airtel', 70_000);
    await sendRefund(ctx(), refundId);
    await sleep(APPROVAL_MS + 50);
    expect(await sweepNow(refundId)).toMatchObject({
      status: 'failed',
      reason: REFUND_FAILURE_TEXT['not-enough-balance'],
    });
  });

  it('a late success counts', async () => {
    const paid = await payment('airtel', { phone: '+256752100004' });
    const refundId = await refundOf(paid, 'airtel', 70_000);
    await sendRefund(ctx(), refundId);
    await sleep(APPROVAL_MS + 50);
    expect((await sweepNow(refundId))?.status).toBe('sent');
    await decide((await refundRow(refundId))?.providerReference ?? '', { status: 'SUCCESSFUL' });
    expect((await sweepNow(refundId))?.status).toBe('succeeded');
  });

  it('a wrong PIN is refused: failed with the setting to check, and Retry works once it is right', async () => {
    const wrongPin = providersFrom({ AIRTEL_DISBURSEMENT_PIN: '0000' });
    const paid = await payment('airtel', { phone: '+256752100021' });
    const refundId = await refundOf(paid, 'airtel', 30_000);
    expect((await sendRefund(ctx(wrongPin), refundId))?.status).toBe('failed');
    expect((await refundRow(refundId))?.reason).toBe(REFUND_FAILURE_TEXT['wrong-pin']);
    const again = await desk().retryRefund({ refundId });
    expect(again.status).toBe('sent');
  });
});

describe('Pesapal RefundRequest', () => {
  it('a card refund is requested, then read back as the payment reversed (a late success)', async () => {
    const paid = await payment('pesapal', { amount: 150_000 });
    const refundId = await refundOf(paid, 'pesapal', 150_000);
    expect((await sendRefund(ctx(), refundId))?.status).toBe('sent');
    // Pesapal's finance team has not approved it yet: still sent.
    expect((await sweepNow(refundId))?.status).toBe('sent');
    await sleep(PESAPAL_REFUND_MS + 100);
    const done = await sweepNow(refundId);
    expect(done?.status).toBe('succeeded');
    expect(done?.reference).toMatch(/^PSP\d+$/);
  });

  it('part of a mobile-money payment is refused, told to staff; the whole of it is taken', async () => {
    const paid = await payment('pesapal', { amount: 90_000, pesapalMethod: 'MTN UG Mobile Money' });
    const part = await refundOf(paid, 'pesapal', 40_000);
    expect((await sendRefund(ctx(), part))?.status).toBe('failed');
    expect((await refundRow(part))?.reason).toBe(REFUND_FAILURE_TEXT['partial-mobile']);
    const whole = await refundOf(paid, 'pesapal', 90_000);
    expect((await sendRefund(ctx(), whole))?.status).toBe('sent');
  });

  it('more than Pesapal collected is refused by Pesapal', async () => {
    // The shop's record says 150,000; Pesapal collected 100,000 (a short payment).
    const paid = await payment('pesapal', { amount: 150_000, collected: 100_000 });
    const refundId = await refundOf(paid, 'pesapal', 150_000);
    expect((await sendRefund(ctx(), refundId))?.status).toBe('failed');
    expect((await refundRow(refundId))?.reason).toBe(REFUND_FAILURE_TEXT['over-paid']);
  });

  it('a second refund of one payment is refused by Pesapal, and Retry is possible', async () => {
    const paid = await payment('pesapal', { amount: 60_000 });
    const first = await refundOf(paid, 'pesapal', 20_000);
    expect((await sendRefund(ctx(), first))?.status).toBe('sent');
    // The shop lost track of it (staff saw it fail): a retry asks Pesapal a second time.
    await test.db.update(refunds).set({ status: 'failed' }).where(eq(refunds.id, first));
    const again = await desk().retryRefund({ refundId: first });
    expect(again.status).toBe('failed');
    expect((await refundRow(again.refundId))?.reason).toBe(REFUND_FAILURE_TEXT['already-refunded']);
    // Still possible to try again (each try a new row).
    const third = await desk().retryRefund({ refundId: again.refundId });
    expect(third.refundId).not.toBe(again.refundId);
  });
});

describe('one live refund per payment', () => {
  it('10 concurrent refundPayment calls on a refund_due payment make one refund, sent once; it ends refunded', async () => {
    const paid = await payment('mtn', {
      phone: '+256772100041',
      status: 'refund_due',
      amount: 95_000,
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => desk().refundPayment({ paymentId: paid.paymentId })),
    );
    const ids = new Set(answers.map((a) => a.refundId));
    expect(ids.size).toBe(1);
    const rows = await refundsOfPayment(paid.paymentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ method: 'mtn', amount: 95_000, status: 'sent' });
    const sent = (await fakeRefunds()).filter((r) => r.reference === rows[0]?.providerReference);
    expect(sent.map((r) => r.count)).toEqual([1]);
    await sleep(APPROVAL_MS + 50);
    expect((await sweepNow(rows[0]?.id ?? ''))?.status).toBe('succeeded');
    const payment_ = await paymentRow(paid.paymentId);
    expect(payment_?.status).toBe('refunded');
    expect(payment_?.refundReference).toBe((await refundRow(rows[0]?.id ?? ''))?.reference);
    // Asked again once refunded: the refund already made is answered.
    expect(await desk().refundPayment({ paymentId: paid.paymentId })).toEqual({
      refundId: rows[0]?.id,
      status: 'succeeded',
    });
  });

  it('10 concurrent retries of a failed refund make one new refund', async () => {
    const paid = await payment('mtn', { phone: '+256772100051' });
    const failed = await refundOf(paid, 'mtn', 40_000);
    await test.db
      .update(refunds)
      .set({ status: 'failed', reason: 'x' })
      .where(eq(refunds.id, failed));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => desk().retryRefund({ refundId: failed })),
    );
    expect(new Set(answers.map((a) => a.refundId)).size).toBe(1);
    const live = (await refundsOfPayment(paid.paymentId)).filter((r) => r.status !== 'failed');
    expect(live).toHaveLength(1);
  });

  it('a return is refunded once all its refunds succeeded', async () => {
    const paid = await payment('airtel', { phone: '+256752100061' });
    const returnId = randomUUID();
    await test.db.insert(returns).values({
      id: returnId,
      orderId: paid.orderId,
      customerId: shopper.id,
      status: 'received',
      resolution: 'refund',
      refundTo: 'original',
      amount: 120_000,
    });
    const refundId = await refundOf(paid, 'airtel', 120_000, returnId);
    await sendRefund(ctx(), refundId);
    await sleep(APPROVAL_MS + 50);
    await sweepNow(refundId);
    const [after] = await test.db.select().from(returns).where(eq(returns.id, returnId));
    expect(after?.status).toBe('refunded');
    expect(after?.closedAt).toBeInstanceOf(Date);
  });
});

describe('refunds by hand', () => {
  it('a bank transfer’s refund_due is refunded by hand: refundPayment says so, markRefunded writes its refund row', async () => {
    const paid = await payment('bank_transfer', { status: 'refund_due', amount: 75_000 });
    const refused = await mutateOverHttp(
      test.db,
      'desk.refundPayment',
      { paymentId: paid.paymentId },
      { cookie: operator.cookie, ...extras() },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe(REFUND_TEXT.byHand);
    const done = await desk().markRefunded({ paymentId: paid.paymentId, reference: 'FT-998877' });
    expect(done).toMatchObject({ paymentId: paid.paymentId, status: 'refunded' });
    const [row] = await refundsOfPayment(paid.paymentId);
    expect(row).toMatchObject({
      method: 'bank_transfer',
      amount: 75_000,
      status: 'succeeded',
      reference: 'FT-998877',
      actorEmail: operator.email,
    });
    expect((await paymentRow(paid.paymentId))?.status).toBe('refunded');
    expect((await refundTexts(paid.orderId))[0]?.messageContent).toContain('FT-998877');
  });

  it('a return’s cash refund is recorded by its refundId, once', async () => {
    const paid = await payment('cash');
    const refundId = await refundOf(paid, 'cash', 30_000);
    expect(await desk().markRefunded({ refundId, reference: 'Cash at the shop' })).toMatchObject({
      refundId,
      status: 'refunded',
    });
    expect(await refundRow(refundId)).toMatchObject({
      status: 'succeeded',
      reference: 'Cash at the shop',
    });
    const again = await mutateOverHttp(
      test.db,
      'desk.markRefunded',
      { refundId, reference: 'Cash again' },
      { cookie: operator.cookie, ...extras() },
    );
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(MONEY_TEXT.alreadyRefunded);
    // Retry is for the providers' refunds.
    const retry = await mutateOverHttp(
      test.db,
      'desk.retryRefund',
      { refundId },
      { cookie: operator.cookie, ...extras() },
    );
    expect(retry.status).toBe(409);
    expect(retry.body.error?.message).toBe(REFUND_TEXT.byHand);
  });
});

describe('a dead or hanging provider', () => {
  it('MTN answering 500 leaves the refund requested; the sweep sends it again with the same reference', async () => {
    const paid = await payment('mtn', { phone: '+256772100066' });
    const refundId = await refundOf(paid, 'mtn', 20_000);
    expect((await sendRefund(ctx(), refundId))?.status).toBe('requested');
    const reference = (await refundRow(refundId))?.providerReference;
    expect(reference).toMatch(/^[0-9a-f-]{36}$/);
    await sweepNow(refundId);
    expect((await refundRow(refundId))?.providerReference).toBe(reference);
  });

  it('MTN hanging: the refund is sent (it may have arrived) and the sweep reads it', async () => {
    const paid = await payment('mtn', { phone: '+256772100067' });
    const refundId = await refundOf(paid, 'mtn', 20_000);
    // Retry of a refund still live answers that refund itself (and sends it).
    expect(await desk().retryRefund({ refundId })).toEqual({ refundId, status: 'sent' });
    // MTN never heard of it (the request hung before it arrived): after a minute it is
    // requested again, to be sent with the same reference.
    expect((await sweepNow(refundId))?.status).toBe('sent');
    await test.db
      .update(refunds)
      .set({ sentAt: sql`now() - interval '2 minutes'` })
      .where(eq(refunds.id, refundId));
    expect((await sweepNow(refundId))?.status).toBe('requested');
  });

  it('Pesapal down: requested, no error for staff; Pesapal hanging: sent', async () => {
    await fetch(`${pesapal.url}/__mode`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'down' }),
    });
    try {
      const paid = await payment('pesapal', { amount: 50_000, status: 'refund_due' });
      const answer = await mutateOverHttp(
        test.db,
        'desk.refundPayment',
        { paymentId: paid.paymentId },
        { cookie: operator.cookie, ...extras() },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.result?.data).toMatchObject({ status: 'requested' });
      await fetch(`${pesapal.url}/__mode`, {
        method: 'POST',
        body: JSON.stringify({ mode: 'hang' }),
      });
      const hung = await payment('pesapal', { amount: 50_000 });
      const refundId = await refundOf(hung, 'pesapal', 50_000);
      expect((await sendRefund(ctx(), refundId))?.status).toBe('sent');
    } finally {
      await fetch(`${pesapal.url}/__mode`, {
        method: 'POST',
        body: JSON.stringify({ mode: 'normal' }),
      });
    }
  });
});

describe('who may', () => {
  it('a customer is refused every refund procedure; bad input gets a text, never a 500', async () => {
    const paid = await payment('mtn', { phone: '+256772100071', status: 'refund_due' });
    const customer = as(shopper).desk;
    await expect(customer.refundPayment({ paymentId: paid.paymentId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(customer.retryRefund({ refundId: randomUUID() })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(customer.creditNote({ refundId: randomUUID() })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      customer.markRefunded({ refundId: randomUUID(), reference: 'x' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await refundsOfPayment(paid.paymentId)).length).toBe(0);
    for (const input of [
      { paymentId: 'nope' },
      { paymentId: 12 },
      { paymentId: `${randomUUID()}\u0000` },
      { paymentId: 'x'.repeat(100_000) },
      {},
      { paymentId: randomUUID(), extra: 1 },
    ]) {
      const answer = await mutateOverHttp(test.db, 'desk.refundPayment', input, {
        cookie: operator.cookie,
        ...extras(),
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error?.message).toBe(REFUND_TEXT.paymentNotFound);
    }
    const unknown = await mutateOverHttp(
      test.db,
      'desk.refundPayment',
      { paymentId: randomUUID() },
      { cookie: operator.cookie, ...extras() },
    );
    expect(unknown.status).toBe(404);
  });

  it('the credit note is the shopper’s own: another shopper and an unknown id get 404', async () => {
    const paid = await payment('bank_transfer', { status: 'refund_due', amount: 42_000 });
    await desk().markRefunded({ paymentId: paid.paymentId, reference: 'FT-CN-1' });
    const [row] = await refundsOfPayment(paid.paymentId);
    const note = await as(shopper).orders.creditNote({ refundId: row?.id ?? '' });
    expect(note).toMatchObject({
      number: `CRN-${row?.id.slice(0, 8)}`,
      orderId: paid.orderId,
      amount: 42_000,
      methodLabel: 'Bank transfer',
      reference: 'FT-CN-1',
    });
    await expect(as(other).orders.creditNote({ refundId: row?.id ?? '' })).rejects.toThrow(
      REFUND_TEXT.creditNoteNotFound,
    );
    await expect(as(shopper).orders.creditNote({ refundId: randomUUID() })).rejects.toThrow(
      REFUND_TEXT.creditNoteNotFound,
    );
    expect((await desk().creditNote({ refundId: row?.id ?? '' })).number).toBe(note.number);
  });
});
