// The desk's money (decision 0037) on a real database: a bank transfer or the rider's cash
// confirmed once, with the order processing, the reference on the receipt and one payment text;
// what may not be marked paid; refunds recorded once; the money view; bad input refused before
// anything is written; customers FORBIDDEN; two racing confirmations make one payment.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONEY_TEXT } from '#core/desk-money.ts';
import type { PaymentMethod } from '#core/order-rules.ts';
import { orders, payments, profiles, receipts, smsNotifications } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

const BANK = 'Stanbic Bank Uganda · duuka Ltd · A/C 9030012345678 · Kampala Road branch';

let test: TestDatabase;
let auth: Auth;
let operator: Awaited<ReturnType<typeof signedInShopper>>;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  operator = await signedInShopper(test.db, auth, { name: 'Olivia Operator' });
  shopper = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
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
  await test?.close();
});

const extras = () => ({
  ownerEmails: [operator.email.toLowerCase()],
  bankDetails: BANK,
  background: (work: Promise<unknown>) => {
    background.push(work);
  },
});
const desk = () => callerFor(test.db, new Headers({ cookie: operator.cookie }), extras()).desk;
const asShopper = () => callerFor(test.db, new Headers({ cookie: shopper.cookie }), extras());

async function settle() {
  while (background.length > 0) await Promise.all(background.splice(0));
}

let counter = 0;
async function order(paymentMethod: PaymentMethod, price = 120_000) {
  counter += 1;
  const piece = await addProduct(test.db, { name: `Gomesi ${counter}`, price, stock: 20 });
  const placed = await placeOrder(
    test.db,
    { id: shopper.id, email: shopper.email, name: shopper.name },
    { orderId: randomUUID(), lines: [{ variantId: piece.variantId, quantity: 1 }], paymentMethod },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return { orderId: placed.order.orderId, total: placed.order.total };
}

const orderRow = async (orderId: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, orderId)))[0];
const paymentsOf = (orderId: string) =>
  test.db.select().from(payments).where(eq(payments.orderId, orderId));
const paymentTexts = (orderId: string) =>
  test.db
    .select()
    .from(smsNotifications)
    .where(
      and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'payment-received')),
    );

describe('marking a bank transfer paid', () => {
  it('is recorded once: the order processing, the reference on the receipt, one payment text', async () => {
    const { orderId, total } = await order('bank_transfer', 1_250_000);
    const head = orderId.slice(0, 8);

    // Before: the money view lists it to confirm; the customer's receipt is UNPAID, with the
    // shop's bank details and the reference to quote.
    const before = await desk().money();
    expect(before.toConfirm.find((row) => row.orderId === orderId)).toMatchObject({
      paymentMethod: 'bank_transfer',
      total,
      customerName: 'Nakato Achieng',
    });
    expect(before.waiting.some((row) => row.orderId === orderId)).toBe(false);
    expect((await desk().orders()).orders.find((o) => o.id === orderId)).toMatchObject({
      paid: false,
      canMarkPaid: true,
    });
    const unpaid = await asShopper().orders.receipt({ orderId });
    expect(unpaid.payment).toEqual({
      state: 'unpaid',
      bankTransfer: { details: BANK, reference: `RCP-${head}` },
    });

    const answer = await desk().markPaid({ orderId, reference: '  FT26329XK81  ' });
    expect(answer).toEqual({ orderId, status: 'paid', reference: 'FT26329XK81' });
    await settle();

    expect((await orderRow(orderId))?.status).toBe('processing');
    const [payment, ...more] = await paymentsOf(orderId);
    expect(more).toHaveLength(0);
    expect(payment).toMatchObject({
      network: 'bank_transfer',
      status: 'successful',
      amount: 1_255_000,
      transactionId: 'FT26329XK81',
      confirmedBy: operator.id,
      phone: null,
    });
    expect(payment?.settledAt).toBeInstanceOf(Date);
    const [stored] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(stored?.transactionId).toBe('FT26329XK81');
    expect((stored?.receiptData as { transactionId?: string } | undefined)?.transactionId).toBe(
      'FT26329XK81',
    );
    const paid = await asShopper().orders.receipt({ orderId });
    expect(paid.payment).toEqual({
      state: 'paid',
      method: 'Bank Transfer',
      reference: 'FT26329XK81',
    });
    expect(paid.transactionId).toBe('FT26329XK81');
    const texts = await paymentTexts(orderId);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ recipientPhone: '+256772000901', recipientType: 'customer' });
    expect(texts[0]?.messageContent).toContain('FT26329XK81');
    expect(texts[0]?.messageContent).toContain('UGX 1,255,000');

    // Again (a second tap, another member of staff): refused, nothing changes; under the desk's
    // first name too (`operator.markPaid`, which earlier clients call).
    await expect(desk().markPaid({ orderId, reference: 'FT-OTHER' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: MONEY_TEXT.alreadyPaid,
    });
    const again = await mutateOverHttp(
      test.db,
      'operator.markPaid',
      { orderId, reference: 'FT-OTHER' },
      { cookie: operator.cookie, ...extras() },
    );
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(MONEY_TEXT.alreadyPaid);
    await settle();
    expect(await paymentsOf(orderId)).toHaveLength(1);
    expect(await paymentTexts(orderId)).toHaveLength(1);
    expect((await orderRow(orderId))?.status).toBe('processing');
    const after = await desk().money();
    expect(after.toConfirm.some((row) => row.orderId === orderId)).toBe(false);
    expect((await desk().orders()).orders.find((o) => o.id === orderId)).toMatchObject({
      paid: true,
      paidReference: 'FT26329XK81',
      canMarkPaid: false,
    });
  });

  it('two confirmations at the same moment make one payment and one text', async () => {
    const { orderId } = await order('bank_transfer');
    const results = await Promise.allSettled([
      desk().markPaid({ orderId, reference: 'FT-A' }),
      desk().markPaid({ orderId, reference: 'FT-B' }),
      desk().markPaid({ orderId, reference: 'FT-C' }),
    ]);
    await settle();
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const refused of results.filter((r) => r.status === 'rejected')) {
      expect(refused.reason).toMatchObject({ code: 'CONFLICT', message: MONEY_TEXT.alreadyPaid });
    }
    const rows = await paymentsOf(orderId);
    expect(rows).toHaveLength(1);
    expect((await paymentTexts(orderId)).map((t) => t.messageContent)).toEqual([
      expect.stringContaining(rows[0]?.transactionId ?? '?'),
    ]);
  });
});

describe('cash on delivery', () => {
  it('is marked paid once when the rider hands it over, even after the order shipped', async () => {
    const pending = await order('cash_on_delivery');
    await desk().markPaid({ orderId: pending.orderId, reference: 'Rider Okello, receipt 118' });
    await settle();
    expect((await orderRow(pending.orderId))?.status).toBe('processing');
    expect((await paymentsOf(pending.orderId))[0]).toMatchObject({
      network: 'cash_on_delivery',
      status: 'successful',
      transactionId: 'Rider Okello, receipt 118',
    });
    expect(await paymentTexts(pending.orderId)).toHaveLength(1);
    await expect(
      desk().markPaid({ orderId: pending.orderId, reference: 'again' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: MONEY_TEXT.alreadyPaid });

    // Shipped before the cash came back: the money is recorded, the status stays shipped, and
    // the receipt turns from UNPAID to PAID.
    const shipped = await order('cash_on_delivery');
    await desk().setStatus({ orderId: shipped.orderId, status: 'shipped', tracking: 'UG-1' });
    expect((await asShopper().orders.receipt({ orderId: shipped.orderId })).payment).toEqual({
      state: 'unpaid',
      bankTransfer: null,
    });
    expect((await desk().money()).toConfirm.map((row) => row.orderId)).toContain(shipped.orderId);
    await desk().markPaid({ orderId: shipped.orderId, reference: 'CASH-77' });
    expect((await orderRow(shipped.orderId))?.status).toBe('shipped');
    expect((await asShopper().orders.receipt({ orderId: shipped.orderId })).payment).toEqual({
      state: 'paid',
      method: 'Cash on Delivery',
      reference: 'CASH-77',
    });
  });
});

describe('cancelling an order that was paid', () => {
  it('turns its payment into a refund due on the desk, texts the refund, and records it once', async () => {
    const { orderId } = await order('bank_transfer', 310_000);
    await desk().markPaid({ orderId, reference: 'FT-CANCEL-1' });
    await desk().setStatus({ orderId, status: 'cancelled', reason: 'Out of fabric' });
    await settle();

    const [payment, ...more] = await paymentsOf(orderId);
    expect(more).toHaveLength(0);
    expect(payment).toMatchObject({ status: 'refund_due', transactionId: 'FT-CANCEL-1' });
    expect((await desk().money()).refundsDue.map((row) => row.id)).toContain(payment?.id);
    const [cancelText] = await test.db
      .select()
      .from(smsNotifications)
      .where(and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'cancelled')));
    expect(cancelText?.messageContent).toMatch(/refund in 3-5 days/i);

    // Cancelled again (a second tap): still one refund due, not a second one.
    await desk().setStatus({ orderId, status: 'cancelled' });
    expect((await paymentsOf(orderId)).map((row) => row.status)).toEqual(['refund_due']);
    await desk().markRefunded({ paymentId: payment?.id ?? '', reference: 'STANBIC-RTN-9' });
    expect((await paymentsOf(orderId))[0]).toMatchObject({
      status: 'refunded',
      refundReference: 'STANBIC-RTN-9',
    });
  });

  it('an unpaid order cancelled leaves no refund due and promises none', async () => {
    const { orderId } = await order('bank_transfer');
    await desk().setStatus({ orderId, status: 'cancelled', reason: 'Changed her mind' });
    await settle();
    expect(await paymentsOf(orderId)).toHaveLength(0);
    const [cancelText] = await test.db
      .select()
      .from(smsNotifications)
      .where(and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'cancelled')));
    expect(cancelText?.messageContent).not.toMatch(/refund/i);
  });
});

describe('what cannot be marked paid', () => {
  it('a mobile-money or card order, a cancelled order, a bank transfer already past pending, an unknown order', async () => {
    const momo = await order('mobile_money');
    const card = await order('card');
    const cancelled = await order('bank_transfer');
    await desk().setStatus({ orderId: cancelled.orderId, status: 'cancelled' });
    const moved = await order('bank_transfer');
    await desk().setStatus({ orderId: moved.orderId, status: 'processing' });
    const refusals: [string, string, string][] = [
      [momo.orderId, 'CONFLICT', MONEY_TEXT.paidByProvider],
      [card.orderId, 'CONFLICT', MONEY_TEXT.paidByProvider],
      [cancelled.orderId, 'CONFLICT', MONEY_TEXT.cancelled],
      [moved.orderId, 'CONFLICT', MONEY_TEXT.alreadyPaid],
      [randomUUID(), 'NOT_FOUND', MONEY_TEXT.orderNotFound],
    ];
    for (const [orderId, code, message] of refusals) {
      await expect(desk().markPaid({ orderId, reference: 'FT-1' })).rejects.toMatchObject({
        code,
        message,
      });
    }
    await settle();
    for (const { orderId } of [momo, card, cancelled, moved]) {
      expect(await paymentsOf(orderId)).toHaveLength(0);
      expect(await paymentTexts(orderId)).toHaveLength(0);
    }
    expect((await orderRow(momo.orderId))?.status).toBe('pending');
    expect((await orderRow(cancelled.orderId))?.status).toBe('cancelled');
    // The mobile-money order waits in the money view, not among those to confirm.
    const money = await desk().money();
    expect(money.waiting.map((row) => row.orderId)).toContain(momo.orderId);
    expect(money.toConfirm.map((row) => row.orderId)).not.toContain(momo.orderId);
    expect(money.toConfirm.map((row) => row.orderId)).not.toContain(cancelled.orderId);
  });

  it('refuses wrong types, huge strings, control characters and extra fields with a 400, writing nothing', async () => {
    const { orderId } = await order('bank_transfer');
    const bad: unknown[] = [
      { orderId, reference: 12345 },
      { orderId: 42, reference: 'FT-1' },
      { orderId, reference: '' },
      { orderId, reference: '     ' },
      { orderId, reference: 'x'.repeat(101) },
      { orderId, reference: 'x'.repeat(1_000_000) },
      { orderId, reference: 'FT\u00001' },
      { orderId, reference: 'FT-1\nDROP' },
      { orderId, reference: 'FT\u20281' },
      { orderId, reference: 'FT\u{1F4B0}\uD800' },
      { orderId, reference: ['FT-1'] },
      { orderId, reference: 'FT-1', amount: 1 },
      { orderId: 'not-a-uuid', reference: 'FT-1' },
      null,
      'FT-1',
    ];
    for (const input of bad) {
      const answer = await mutateOverHttp(test.db, 'desk.markPaid', input, {
        cookie: operator.cookie,
        ...extras(),
      });
      expect(answer.status, JSON.stringify(input)?.slice(0, 60)).toBe(400);
      expect(answer.body.error?.data.stack).toBeUndefined();
      expect(answer.body.error?.message.length).toBeLessThan(200);
    }
    const huge = await mutateOverHttp(
      test.db,
      'desk.markPaid',
      { orderId, reference: 'x'.repeat(101) },
      { cookie: operator.cookie, ...extras() },
    );
    expect(huge.body.error?.message).toBe(MONEY_TEXT.badReference);
    const refund = await mutateOverHttp(
      test.db,
      'desk.markRefunded',
      { paymentId: randomUUID(), reference: 'R\u0000' },
      { cookie: operator.cookie, ...extras() },
    );
    expect(refund.status).toBe(400);
    await settle();
    expect(await paymentsOf(orderId)).toHaveLength(0);
    expect((await orderRow(orderId))?.status).toBe('pending');
  });
});

describe('refunds', () => {
  async function paymentWith(status: string, extra: Partial<typeof payments.$inferInsert> = {}) {
    const { orderId, total } = await order('mobile_money');
    const [row] = await test.db
      .insert(payments)
      .values({
        id: randomUUID(),
        orderId,
        customerId: shopper.id,
        network: 'mtn',
        phone: '+256772000901',
        amount: total,
        status,
        transactionId: `MTN-${counter}`,
        callbackSecret: randomUUID(),
        ...extra,
      })
      .returning();
    if (!row) throw new Error('no payment');
    return row;
  }

  it('refund_due becomes refunded once, with its reference and who recorded it', async () => {
    const due = await paymentWith('refund_due');
    const before = await desk().money();
    expect(before.refundsDue.find((row) => row.id === due.id)).toMatchObject({
      network: 'mtn',
      expected: due.amount,
      transactionId: due.transactionId,
      customerName: 'Nakato Achieng',
    });
    expect(await desk().markRefunded({ paymentId: due.id, reference: ' MTN-REV-5521 ' })).toEqual({
      paymentId: due.id,
      status: 'refunded',
    });
    const [after] = await test.db.select().from(payments).where(eq(payments.id, due.id));
    expect(after).toMatchObject({
      status: 'refunded',
      refundReference: 'MTN-REV-5521',
      confirmedBy: operator.id,
    });
    expect(after?.refundedAt).toBeInstanceOf(Date);
    await expect(
      desk().markRefunded({ paymentId: due.id, reference: 'MTN-REV-9999' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: MONEY_TEXT.alreadyRefunded });
    const [still] = await test.db.select().from(payments).where(eq(payments.id, due.id));
    expect(still?.refundReference).toBe('MTN-REV-5521');
    const money = await desk().money();
    expect(money.refundsDue.some((row) => row.id === due.id)).toBe(false);
    expect(money.refunded.find((row) => row.id === due.id)).toMatchObject({
      refundReference: 'MTN-REV-5521',
    });
  });

  it('a short payment is shown with what arrived and may be refunded; a successful or reversed one may not', async () => {
    const short = await paymentWith('short', {
      network: 'pesapal',
      phone: null,
      receivedAmount: 50_000,
      receivedCurrency: 'UGX',
    });
    const reversed = await paymentWith('reversed', { network: 'pesapal', phone: null });
    const successful = await paymentWith('successful');
    const money = await desk().money();
    expect(money.shortOrReversed.find((row) => row.id === short.id)).toMatchObject({
      status: 'short',
      expected: short.amount,
      received: 50_000,
      receivedCurrency: 'UGX',
    });
    expect(money.shortOrReversed.map((row) => row.id)).toContain(reversed.id);
    await desk().markRefunded({ paymentId: short.id, reference: 'PP-REFUND-1' });
    for (const id of [successful.id, reversed.id]) {
      await expect(desk().markRefunded({ paymentId: id, reference: 'R-1' })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: MONEY_TEXT.notRefundable,
      });
    }
    await expect(
      desk().markRefunded({ paymentId: randomUUID(), reference: 'R-1' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: MONEY_TEXT.paymentNotFound });
    const statuses = await test.db
      .select({ id: payments.id, status: payments.status })
      .from(payments);
    const statusOf = (id: string) => statuses.find((row) => row.id === id)?.status;
    expect([statusOf(short.id), statusOf(successful.id), statusOf(reversed.id)]).toEqual([
      'refunded',
      'successful',
      'reversed',
    ]);
  });
});

describe('customers', () => {
  it('are FORBIDDEN the money view, markPaid and markRefunded; visitors are UNAUTHORIZED', async () => {
    const { orderId } = await order('bank_transfer');
    const theirs = asShopper().desk;
    for (const call of [
      () => theirs.money(),
      () => theirs.markPaid({ orderId, reference: 'FT-SELF' }),
      () => theirs.markRefunded({ paymentId: randomUUID(), reference: 'R-SELF' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'Staff only.' });
    }
    const overHttp = await mutateOverHttp(
      test.db,
      'desk.markPaid',
      { orderId, reference: 'FT-SELF' },
      { cookie: shopper.cookie, ...extras() },
    );
    expect(overHttp.status).toBe(403);
    expect((await queryOverHttp(test.db, 'desk.money', undefined, extras())).status).toBe(401);
    await settle();
    expect(await paymentsOf(orderId)).toHaveLength(0);
    expect((await orderRow(orderId))?.status).toBe('pending');
  });
});
