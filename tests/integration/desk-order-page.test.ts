// One order on the desk (issue 34, decision 0075) on a real database: desk.order holds the
// order's pieces (with pictures; a removed product's name without one), its customer with call
// and WhatsApp links, delivery, payments and refunds, the texts sent and the order's record; a
// private note is recorded and read back, and the shopper never sees it; setStatus, markPaid and
// markRefunded each leave exactly one record naming the order (a refused or repeated change
// none); customers 403, an unknown order 404, hostile input 400.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { callLink, DESK_ORDER_TEXT, whatsAppLink } from '#core/desk-order.ts';
import type { PaymentMethod } from '#core/order-rules.ts';
import { deskRecords, payments, products, profiles } from '#db/schema/index.ts';
import { tripsOf } from '#local/distance.ts';
import type { Auth } from '#server/auth.ts';
import { shopTools } from '#server/services/chat/assistant.ts';
import { shopperContext } from '#server/services/chat/conversation.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { deskOrder } from '#server/services/desk-order-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let owner: DeskMember;
let staff: DeskMember;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;
const PHONE = '+256772004417';
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  owner = await deskMember(test.db, auth, 'owner', 'Olive Owner');
  staff = await deskMember(test.db, auth, 'staff', 'Sam Staff');
  shopper = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  await test.db
    .insert(profiles)
    .values({ id: shopper.id, email: shopper.email, fullName: 'Nakato Achieng', phone: PHONE })
    .onConflictDoUpdate({ target: profiles.id, set: { phone: PHONE } });
});
afterAll(async () => {
  await Promise.allSettled(background);
  await test?.close();
});

const extras = () => ({
  background: (work: Promise<unknown>) => {
    background.push(work);
  },
});
const deskOf = (who: DeskMember) => deskCaller(test.db, who, extras());
const asShopper = () => callerFor(test.db, new Headers({ cookie: shopper.cookie }), extras());
async function settle() {
  while (background.length > 0) await Promise.all(background.splice(0));
}

let counter = 0;
/** An order the shopper places: a dress in M · Indigo (with its own picture) and a plain scarf. */
async function order(paymentMethod: PaymentMethod, delivery: Record<string, string> = {}) {
  counter += 1;
  const dress = await addProduct(test.db, {
    name: `Ankara Wrap Dress ${counter}`,
    price: 150_000,
    stock: 10,
    image: `/images/dress-${counter}.jpg`,
    options: [
      { name: 'Size', values: ['M'] },
      { name: 'Colour', values: ['Indigo'] },
    ],
  });
  const scarf = await addProduct(test.db, {
    name: `Kitenge Scarf ${counter}`,
    price: 30_000,
    stock: 10,
    image: `/images/scarf-${counter}.jpg`,
  });
  const placed = await placeOrder(
    test.db,
    { id: shopper.id, email: shopper.email, name: shopper.name },
    {
      orderId: randomUUID(),
      lines: [
        { variantId: dress.variantId, quantity: 2 },
        { variantId: scarf.variantId, quantity: 1 },
      ],
      paymentMethod,
      delivery: {
        optionId: 'kampala',
        area: 'Ntinda',
        landmark: 'Opposite Capital Shoppers',
        notes: 'Call at the gate',
        ...delivery,
      },
    },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  await settle();
  return { orderId: placed.order.orderId, total: placed.order.total, dress, scarf };
}

const recordOf = (orderId: string) =>
  test.db.select().from(deskRecords).where(eq(deskRecords.orderId, orderId));

describe('the order’s page', () => {
  it('holds the pieces with pictures, the customer’s links, delivery, payments, texts and record', async () => {
    const { orderId, total, scarf } = await order('bank_transfer');
    // The scarf leaves the catalogue: the order keeps its name, without a picture.
    await test.db.delete(products).where(eq(products.id, scarf.id));
    await deskOf(owner).markPaid({ orderId, reference: 'FT26333QX01' });
    await deskOf(staff).setStatus({
      orderId,
      status: 'out_for_delivery',
      riderName: 'Okello',
      riderPhone: '0772 123 456',
    });
    await settle();

    const page = await deskOf(staff).order({ id: orderId });
    expect(page).toMatchObject({
      id: orderId,
      status: 'out_for_delivery',
      source: 'web',
      paymentMethod: 'bank_transfer',
      total,
      paid: true,
      customer: { name: 'Nakato Achieng', phone: PHONE, email: shopper.email, textsTo: PHONE },
      delivery: {
        option: 'Kampala delivery',
        kind: 'delivery',
        area: 'Ntinda',
        landmark: 'Opposite Capital Shoppers',
        notes: 'Call at the gate',
        riderName: 'Okello',
        riderPhone: '+256772123456',
      },
    });
    expect(page.customer.account).not.toBeNull();
    expect(callLink(page.customer.phone ?? '')).toBe('tel:+256772004417');
    expect(whatsAppLink(page.customer.phone ?? '')).toBe('https://wa.me/256772004417');

    expect(page.items.map((i) => [i.name, i.variant, i.quantity, i.picture])).toEqual([
      [`Ankara Wrap Dress ${counter}`, 'M · Indigo', 2, `/images/dress-${counter}.jpg`],
      [`Kitenge Scarf ${counter}`, '', 1, null],
    ]);
    expect(page.payments).toHaveLength(1);
    expect(page.payments[0]).toMatchObject({
      network: 'bank_transfer',
      status: 'successful',
      amount: total,
      transactionId: 'FT26333QX01',
      confirmedBy: 'Olive Owner',
    });
    // The texts the desk's changes sent: payment received, out for delivery (with the rider),
    // newest first.
    const kinds = page.texts.filter((t) => t.recipientType === 'customer').map((t) => t.kind);
    expect(kinds).toEqual(['out-for-delivery', 'payment-received']);
    expect(page.texts[0]).toMatchObject({ recipientPhone: PHONE });
    expect(page.texts.find((t) => t.kind === 'out-for-delivery')?.message).toContain('Okello');
    // The record, newest first: the move, then the payment.
    expect(page.record.map((r) => [r.action, r.actorEmail])).toEqual([
      ['order.status', staff.email],
      ['order.paid', owner.email],
    ]);
    expect(page.record[0]?.details).toEqual({
      from: 'processing',
      to: 'out_for_delivery',
      rider: { name: 'Okello', phone: '+256772123456' },
    });
    expect(page.notes).toEqual([]);

    // All of it in one trip to the database.
    const trips = tripsOf(test.databaseUrl);
    const mark = await trips.mark();
    expect(await deskOrder(test.db, orderId)).toEqual(page);
    expect((await trips.since(mark)).count).toBe(1);
  });
});

describe('notes', () => {
  it('are recorded and read back, once per request key, and never shown to the shopper', async () => {
    const { orderId } = await order('cash_on_delivery');
    const requestKey = randomUUID();
    const text = '  Wants it gift-wrapped.\r\nCall before 5pm: SECRET-NOTE-4417  ';
    const saved = await deskOf(staff).addOrderNote({ orderId, text, requestKey });
    expect(saved).toEqual({
      orderId,
      text: 'Wants it gift-wrapped.\nCall before 5pm: SECRET-NOTE-4417',
    });
    // A double tap under the same key: the same answer, one note.
    expect(await deskOf(staff).addOrderNote({ orderId, text, requestKey })).toEqual(saved);
    // The same key from someone else, or on another order: refused, nothing written.
    await expect(deskOf(owner).addOrderNote({ orderId, text, requestKey })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const page = await deskOf(owner).order({ id: orderId });
    expect(page.notes.map((n) => [n.actorEmail, (n.details as { text: string }).text])).toEqual([
      [staff.email, 'Wants it gift-wrapped.\nCall before 5pm: SECRET-NOTE-4417'],
    ]);
    expect(await recordOf(orderId)).toHaveLength(1);

    // The shopper's list, order, receipt and the assistant read nothing of it.
    const seen = JSON.stringify([
      await asShopper().orders.list(),
      await asShopper().orders.byId({ id: orderId }),
      await asShopper().orders.receipt({ orderId }),
      await shopperContext(test.db, shopper, DEFAULT_SUPPORT),
      await shopTools(test.db, shopper, new Set()).trackOrder.execute?.(
        { reference: orderId.slice(0, 8) },
        { toolCallId: 'call', messages: [], context: {} },
      ),
    ]);
    expect(seen).toContain(orderId.slice(0, 8));
    expect(seen).not.toContain('SECRET-NOTE');
    expect(seen).not.toContain('gift-wrapped');
  });

  it('refuses an empty, huge or control-character note, and a note on no order', async () => {
    const { orderId } = await order('cash_on_delivery');
    for (const text of [
      '',
      '   ',
      'x'.repeat(1001),
      'a\u0000b',
      'bell\u0007',
      'esc\u001b[31m',
      7,
    ]) {
      const answer = await mutateOverHttp(
        test.db,
        'desk.addOrderNote',
        { orderId, text },
        { cookie: staff.cookie },
      );
      expect(answer.status, JSON.stringify(text).slice(0, 30)).toBe(400);
      expect(answer.body.error?.message).toBe(DESK_ORDER_TEXT.badNote);
    }
    const nowhere = await mutateOverHttp(
      test.db,
      'desk.addOrderNote',
      { orderId: randomUUID(), text: 'Hello' },
      { cookie: staff.cookie },
    );
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.error?.message).toBe(DESK_ORDER_TEXT.notFound);
    expect(await recordOf(orderId)).toHaveLength(0);
  });
});

describe('the record is complete', () => {
  it('each status move leaves one record with from → to; a refused or same-status one none', async () => {
    const { orderId } = await order('cash_on_delivery');
    await deskOf(staff).setStatus({ orderId, status: 'processing' });
    // Ready for pickup on a delivery order: refused, nothing recorded.
    await expect(
      deskOf(staff).setStatus({ orderId, status: 'ready_for_pickup' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // The status it has already: nothing moved, nothing recorded.
    await deskOf(staff).setStatus({ orderId, status: 'processing' });
    await deskOf(staff).setStatus({
      orderId,
      status: 'cancelled',
      reason: 'Customer changed mind',
    });
    const rows = (await recordOf(orderId)).sort((a, b) => a.id - b.id);
    expect(rows.map((r) => [r.action, r.subject, r.actorEmail, r.details])).toEqual([
      [
        'order.status',
        `Order #${orderId.slice(0, 8)}`,
        staff.email,
        { from: 'pending', to: 'processing' },
      ],
      [
        'order.status',
        `Order #${orderId.slice(0, 8)}`,
        staff.email,
        { from: 'processing', to: 'cancelled', reason: 'Customer changed mind' },
      ],
    ]);
  });

  it('markPaid leaves one record with the reference and amount; a second tap none', async () => {
    const { orderId, total } = await order('bank_transfer');
    await deskOf(owner).markPaid({ orderId, reference: 'FT-ONE-0001' });
    await expect(
      deskOf(owner).markPaid({ orderId, reference: 'FT-ONE-0001' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    const rows = await recordOf(orderId);
    expect(rows.map((r) => [r.action, r.details])).toEqual([
      ['order.paid', { reference: 'FT-ONE-0001', amount: total, method: 'bank_transfer' }],
    ]);
    // The status move the payment made (pending → processing) is the payment's own record.
    expect((await deskOf(owner).order({ id: orderId })).status).toBe('processing');
  });

  it('markRefunded leaves one record on the payment’s order; a second one none', async () => {
    const { orderId, total } = await order('mobile_money');
    const paymentId = randomUUID();
    await test.db.insert(payments).values({
      id: paymentId,
      orderId,
      customerId: shopper.id,
      network: 'mtn',
      phone: PHONE,
      amount: total,
      status: 'refund_due',
      transactionId: 'MTN-7781',
      callbackSecret: randomUUID(),
    });
    const before = await deskOf(staff).order({ id: orderId });
    expect(before.payments.map((p) => p.status)).toEqual(['refund_due']);
    await deskOf(staff).markRefunded({ paymentId, reference: 'RF-2026-11' });
    await expect(
      deskOf(staff).markRefunded({ paymentId, reference: 'RF-2026-11' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    const rows = await recordOf(orderId);
    expect(rows.map((r) => [r.action, r.subject, r.details])).toEqual([
      [
        'order.refunded',
        `Order #${orderId.slice(0, 8)}`,
        { reference: 'RF-2026-11', amount: total, paymentId },
      ],
    ]);
    const after = await deskOf(staff).order({ id: orderId });
    expect(after.payments[0]).toMatchObject({
      status: 'refunded',
      refundReference: 'RF-2026-11',
      confirmedBy: 'Sam Staff',
    });
    expect(after.record.map((r) => r.action)).toEqual(['order.refunded']);
  });
});

describe('who may, and what is refused', () => {
  it('refuses customers (403), an unknown order (404) and hostile input (400)', async () => {
    const { orderId } = await order('cash_on_delivery');
    const asCustomer = await queryOverHttp(
      test.db,
      'desk.order',
      { id: orderId },
      { cookie: shopper.cookie },
    );
    expect(asCustomer.status).toBe(403);
    const noteAsCustomer = await mutateOverHttp(
      test.db,
      'desk.addOrderNote',
      { orderId, text: 'mine' },
      { cookie: shopper.cookie },
    );
    expect(noteAsCustomer.status).toBe(403);
    const anonymous = await queryOverHttp(test.db, 'desk.order', { id: orderId });
    expect(anonymous.status).toBe(401);

    const unknown = await queryOverHttp(
      test.db,
      'desk.order',
      { id: randomUUID() },
      { cookie: staff.cookie },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe(DESK_ORDER_TEXT.notFound);

    const hostile: unknown[] = [
      { id: 'not-a-uuid' },
      { id: `${orderId}\u0000` },
      { id: 12 },
      { id: orderId, extra: 1 },
      { id: 'x'.repeat(100_000) },
      null,
      [orderId],
    ];
    for (const input of hostile) {
      const answer = await queryOverHttp(test.db, 'desk.order', input, { cookie: staff.cookie });
      expect(answer.status, JSON.stringify(input)?.slice(0, 40)).toBe(400);
      expect(answer.body.error?.message).toBe(DESK_ORDER_TEXT.badOrderId);
      expect(answer.body.error?.data.stack).toBeUndefined();
    }
    expect(await recordOf(orderId)).toHaveLength(0);
  });
});
