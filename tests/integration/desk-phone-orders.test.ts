// Orders the desk takes by phone, on WhatsApp or at the counter, and the desk's customers (issue
// 34, decision 0076), on a real database: a walk-in customer kept by name and phone; an account
// found by phone in another spelling; five staff racing for the last two pieces; a retry; cash at
// the counter paid at once; mobile money paid through the fake provider; the texts of an online
// order; hostile input; customers refused. The customers list: counts, totals, search, paging.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_PHONE_ORDERS_TEXT } from '#core/desk-phone-orders.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { CHECKOUT_TEXT } from '#core/order-rules.ts';
import {
  deskRecords,
  orders,
  payments,
  productVariants,
  profiles,
  smsNotifications,
  stockMovements,
  userSettings,
} from '#db/schema/index.ts';
import { startFakeMobileMoney } from '#local/fakes/mobile-money-fake.ts';
import type { Auth } from '#server/auth.ts';
import { type MobileMoney, mobileMoneyFrom } from '#server/services/payments/providers.ts';
import { sweepPayments } from '#server/services/payments/service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp, testContext } from '../support/trpc.ts';

const ADMIN = '+256700111222';
const T = DESK_PHONE_ORDERS_TEXT;

let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakeMobileMoney>>;
let mobileMoney: MobileMoney;
let owner: DeskMember;
let staff: DeskMember[];
let shopper: Awaited<ReturnType<typeof signedInShopper>>;
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  fake = await startFakeMobileMoney({ approvalMs: 100 });
  mobileMoney = mobileMoneyFrom(
    { ...fake.providerEnv, BETTER_AUTH_URL: 'http://shop.test' } as Parameters<
      typeof mobileMoneyFrom
    >[0],
    1_000,
  );
  owner = await deskMember(test.db, auth, 'owner', 'Olive Owner');
  staff = [];
  for (let i = 0; i < 5; i++) staff.push(await deskMember(test.db, auth, 'staff', `Staff ${i}`));
  shopper = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  await test.db
    .insert(profiles)
    .values({
      id: shopper.id,
      email: shopper.email,
      fullName: 'Nakato Achieng',
      phone: '+256772345678',
    })
    .onConflictDoUpdate({
      target: profiles.id,
      set: { fullName: 'Nakato Achieng', phone: '+256772345678' },
    });
});
afterAll(async () => {
  await Promise.allSettled(background);
  await fake?.close();
  await test?.close();
});

const extras = () => ({
  payments: mobileMoney,
  sms: { gateway: null, adminPhone: ADMIN },
  background: (work: Promise<unknown>) => {
    background.push(work);
  },
});
const desk = (person: DeskMember = owner) => deskCaller(test.db, person, extras());
async function settle() {
  while (background.length > 0) await Promise.all(background.splice(0));
}

let counter = 0;
async function piece(stock = 10, price = 85_000) {
  counter += 1;
  return addProduct(test.db, { name: `Kitenge Wrap ${counter}`, price, stock });
}
const orderRow = async (id: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, id)))[0];
const paymentsOf = (orderId: string) =>
  test.db.select().from(payments).where(eq(payments.orderId, orderId));
const textsOf = (orderId: string) =>
  test.db.select().from(smsNotifications).where(eq(smsNotifications.orderId, orderId));
const recordsOf = (orderId: string) =>
  test.db.select().from(deskRecords).where(eq(deskRecords.orderId, orderId));
const stockOf = async (variantId: number) =>
  (await test.db.select().from(productVariants).where(eq(productVariants.id, variantId)))[0]?.stock;

describe('desk.createOrder', () => {
  it('a walk-in customer without an account: kept by name and phone, no account made, texts as online', async () => {
    const dress = await piece(5, 120_000);
    const orderId = randomUUID();
    const answer = await desk(staff[0]).createOrder({
      orderId,
      customer: { phone: '0701 234 567', name: '  Aisha Walk-in  ' },
      items: [{ variantId: dress.variantId, quantity: 2 }],
      deliveryOptionId: 'kampala',
      deliveryArea: 'Ntinda',
      paymentMethod: 'cash_on_delivery',
      source: 'whatsapp',
      note: 'Call before 5pm; gate is blue.',
    });
    expect(answer).toMatchObject({ orderId, created: true, paid: false, customerId: null });
    await settle();
    const row = await orderRow(orderId);
    expect(row).toMatchObject({
      customerId: null,
      customerName: 'Aisha Walk-in',
      customerPhone: '+256701234567',
      source: 'whatsapp',
      paymentMethod: 'cash_on_delivery',
      status: 'pending',
      deliveryArea: 'Ntinda',
      subtotal: 240_000,
      deliveryFee: 5_000,
      total: 245_000,
    });
    expect(await stockOf(dress.variantId)).toBe(3);
    // The desk record: created (with the source and who) and the note, both naming the order.
    const records = await recordsOf(orderId);
    const created = records.find((r) => r.action === 'order.created');
    expect(created).toMatchObject({ actorEmail: staff[0]?.email, requestKey: orderId });
    expect(created?.details).toMatchObject({ source: 'whatsapp', by: staff[0]?.email });
    const noted = records.find((r) => r.action === 'order.noted');
    expect(noted?.details).toMatchObject({ text: 'Call before 5pm; gate is blue.' });
    expect(records).toHaveLength(2);
    // The texts of an online order: the customer's confirmation (to the phone on the order) and
    // the admin's alert.
    const texts = await textsOf(orderId);
    expect(texts.find((t) => t.recipientType === 'customer')).toMatchObject({
      recipientPhone: '+256701234567',
      kind: 'order-confirmation',
    });
    expect(texts.find((t) => t.recipientType === 'admin')?.recipientPhone).toBe(ADMIN);
  });

  it('an account found by phone in another spelling: the order is theirs and in their orders', async () => {
    const top = await piece(4, 60_000);
    const orderId = randomUUID();
    await desk(staff[1]).createOrder({
      orderId,
      customer: { phone: '+256 772-345-678', name: 'Nakato (phone)' },
      items: [{ productId: top.id, quantity: 1 }],
      deliveryArea: 'Kololo',
      paymentMethod: 'bank_transfer',
    });
    expect(await orderRow(orderId)).toMatchObject({
      customerId: shopper.id,
      source: 'phone',
      customerPhone: '+256772345678',
      customerEmail: shopper.email,
      deliveryOption: expect.any(String),
    });
    const mine = await callerFor(test.db, new Headers({ cookie: shopper.cookie })).orders.list();
    expect(mine.map((o: { id: string }) => o.id)).toContain(orderId);
    // As she types, the page shows the account's name, in any spelling.
    expect((await desk().customerByPhone({ phone: '0772345678' })).customer).toMatchObject({
      name: 'Nakato Achieng',
    });
    expect((await desk().customerByPhone({ phone: '0772 999 999' })).customer).toBeNull();
    expect((await desk().customerByPhone({ phone: 'not a phone' })).customer).toBeNull();
  });

  it('five staff racing for the last two pieces: exactly two orders, stock 0, two movements', async () => {
    const last = await piece(2, 150_000);
    const results = await Promise.allSettled(
      (staff as DeskMember[]).map((member, i) =>
        desk(member).createOrder({
          orderId: randomUUID(),
          customer: { phone: `0772 100 20${i}`, name: `Racer ${i}` },
          items: [{ variantId: last.variantId, quantity: 1 }],
          paymentMethod: 'cash',
          source: 'counter',
        }),
      ),
    );
    const placed = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(placed).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason.message).toBe(
        CHECKOUT_TEXT.insufficientStock(last.name, 0),
      );
    }
    expect(await stockOf(last.variantId)).toBe(0);
    const moves = await test.db
      .select()
      .from(stockMovements)
      .where(eq(stockMovements.variantId, last.variantId));
    const sales = moves.filter((m) => m.reason === 'sale');
    expect(sales).toHaveLength(2);
    expect(sales.map((m) => m.stockAfter).sort()).toEqual([0, 1]);
    const rows = await test.db.select().from(orders).where(eq(orders.source, 'counter'));
    const racers = rows.filter((o) => o.customerName.startsWith('Racer'));
    expect(racers).toHaveLength(2);
  });

  it('a retry answers once; the same id from another staff member or a shopper’s order is refused', async () => {
    const bag = await piece(5, 40_000);
    const orderId = randomUUID();
    const input = {
      orderId,
      customer: { phone: '0752 300 400', name: 'Retry Rita' },
      items: [{ variantId: bag.variantId, quantity: 1 }],
      paymentMethod: 'cash' as const,
      source: 'counter' as const,
    };
    const [first, second] = await Promise.all([
      desk(staff[2]).createOrder(input),
      desk(staff[2]).createOrder(input),
    ]);
    expect(first.orderId).toBe(orderId);
    expect(second.orderId).toBe(orderId);
    const third = await desk(staff[2]).createOrder({
      ...input,
      items: [{ variantId: bag.variantId, quantity: 3 }],
    });
    expect(third).toMatchObject({ orderId, created: false });
    await settle();
    expect(await stockOf(bag.variantId)).toBe(4);
    expect(await paymentsOf(orderId)).toHaveLength(1);
    expect((await recordsOf(orderId)).filter((r) => r.action === 'order.created')).toHaveLength(1);
    expect((await textsOf(orderId)).filter((t) => t.kind === 'order-confirmation')).toHaveLength(1);
    // Another staff member with the same id: 409, nothing changed.
    const other = await mutateOverHttp(test.db, 'desk.createOrder', input, {
      cookie: staff[3]?.cookie,
      ...extras(),
    });
    expect(other.status).toBe(409);
    expect(other.body.error?.message).toBe(DESK_TEXT.badRequestKey);
    expect(await stockOf(bag.variantId)).toBe(4);
  });

  it('cash at the counter is paid at once: a successful cash payment, processing, in the paid figures', async () => {
    const shirt = await piece(3, 95_000);
    const orderId = randomUUID();
    const answer = await desk(staff[4]).createOrder({
      orderId,
      customer: { phone: '0782 555 010', name: 'Counter Carol', email: 'carol@example.ug' },
      items: [{ variantId: shirt.variantId, quantity: 1 }],
      paymentMethod: 'cash',
      source: 'counter',
    });
    expect(answer).toMatchObject({ created: true, paid: true, total: 95_000 });
    await settle();
    // A counter sale is picked up (no fee), paid, and moved on as a paid order is.
    expect(await orderRow(orderId)).toMatchObject({
      status: 'processing',
      paymentMethod: 'cash',
      deliveryKind: 'pickup',
      total: 95_000,
      customerEmail: 'carol@example.ug',
    });
    const [payment, ...more] = await paymentsOf(orderId);
    expect(more).toHaveLength(0);
    expect(payment).toMatchObject({
      network: 'cash',
      status: 'successful',
      amount: 95_000,
      confirmedBy: staff[4]?.id,
      transactionId: `CASH-${orderId.slice(0, 8).toUpperCase()}`,
    });
    // The desk's orders show it paid; the money view has nothing to confirm for it.
    const listed = (await desk().orders()).orders.find((o) => o.id === orderId);
    expect(listed).toMatchObject({ paid: true, canMarkPaid: false });
    const money = await desk().money();
    expect(money.toConfirm.some((o) => o.orderId === orderId)).toBe(false);
    // Texts: the confirmation, then the payment received.
    const kinds = (await textsOf(orderId))
      .filter((t) => t.recipientType === 'customer')
      .map((t) => t.kind)
      .sort();
    expect(kinds).toEqual(['order-confirmation', 'payment-received']);
    const confirmation = (await textsOf(orderId)).find((t) => t.kind === 'order-confirmation');
    expect(confirmation?.messageContent).toContain('Paid in cash.');
    const alert = (await textsOf(orderId)).find((t) => t.kind === 'admin-new-order');
    expect(alert?.messageContent).toContain('Cash (paid at');
  });

  it('cash is for the counter only; the ceiling of mobile money applies', async () => {
    const coat = await piece(5, 3_000_000);
    const byPhone = await mutateOverHttp(
      test.db,
      'desk.createOrder',
      {
        orderId: randomUUID(),
        customer: { phone: '0772 000 111', name: 'Phone Cash' },
        items: [{ variantId: coat.variantId, quantity: 1 }],
        paymentMethod: 'cash',
        source: 'phone',
      },
      { cookie: owner.cookie, ...extras() },
    );
    expect(byPhone.status).toBe(400);
    expect(byPhone.body.error?.message).toBe(T.cashAtCounterOnly);
    const over = await mutateOverHttp(
      test.db,
      'desk.createOrder',
      {
        orderId: randomUUID(),
        customer: { phone: '0772 000 111', name: 'Big Spender' },
        items: [{ variantId: coat.variantId, quantity: 2 }],
        deliveryOptionId: 'pickup',
        paymentMethod: 'mobile_money',
      },
      { cookie: owner.cookie, ...extras() },
    );
    expect(over.status).toBe(400);
    expect(over.body.error?.message).toMatch(/Mobile money takes at most/);
    expect(await stockOf(coat.variantId)).toBe(5);
  });

  it('mobile money: the prompt goes to the customer’s phone, and the fake’s approval pays the order', async () => {
    const scarf = await piece(5, 45_000);
    const orderId = randomUUID();
    const answer = await desk(staff[0]).createOrder({
      orderId,
      // Last digit 1: the fake approves after its delay.
      customer: { phone: '0772 880 011', name: 'Momo Mary' },
      items: [{ variantId: scarf.variantId, quantity: 1 }],
      deliveryOptionId: 'pickup',
      paymentMethod: 'mobile_money',
    });
    expect(answer.prompt).toMatchObject({ state: 'pending' });
    const [waiting] = await paymentsOf(orderId);
    expect(waiting).toMatchObject({
      network: 'mtn',
      phone: '+256772880011',
      amount: 45_000,
      status: 'pending',
      customerId: null,
    });
    const sent = (await (await fetch(`${fake.url}/__requests`)).json()) as {
      reference: string;
      phone: string;
      amount: string;
    }[];
    expect(sent.find((r) => r.reference === waiting?.id)).toMatchObject({
      phone: '256772880011',
      amount: '45000',
    });
    // Driven as the payments tests drive it: after the approval, the sweep reads the provider.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await test.db.update(payments).set({ checkedAt: null }).where(eq(payments.orderId, orderId));
    await sweepPayments(testContext(test.db, new Headers(), extras()));
    await settle();
    const [paid] = await paymentsOf(orderId);
    expect(paid?.status).toBe('successful');
    expect(await orderRow(orderId)).toMatchObject({ status: 'processing' });
    const kinds = (await textsOf(orderId)).map((t) => t.kind);
    expect(kinds).toContain('order-confirmation');
    expect(kinds).toContain('payment-received');
  });

  it('hostile input is refused with a clear text, nothing written', async () => {
    const dress = await piece(5, 70_000);
    const base = {
      orderId: randomUUID(),
      customer: { phone: '0772 123 321', name: 'Hostile Hana' },
      items: [{ variantId: dress.variantId, quantity: 1 }],
      deliveryOptionId: 'pickup',
      paymentMethod: 'bank_transfer',
    };
    const cases: [unknown, number, string | RegExp][] = [
      [{ ...base, customer: { ...base.customer, name: 'x'.repeat(5_000) } }, 400, T.nameTooLong],
      [{ ...base, customer: { ...base.customer, name: 'Ha\u0000na' } }, 400, T.nameInvisible],
      [{ ...base, customer: { ...base.customer, name: '   ' } }, 400, T.nameRequired],
      [{ ...base, customer: { ...base.customer, phone: '12' } }, 400, T.badPhone],
      [{ ...base, customer: { ...base.customer, phone: 'DROP TABLE' } }, 400, T.badPhone],
      [{ ...base, items: [{ variantId: dress.variantId, quantity: 1e21 }] }, 400, T.badItem],
      [{ ...base, items: [{ variantId: dress.variantId, quantity: -1 }] }, 400, T.badItem],
      [{ ...base, items: [] }, 400, T.noItems],
      [
        {
          ...base,
          items: Array.from({ length: 101 }, () => ({ variantId: dress.variantId, quantity: 1 })),
        },
        400,
        T.tooManyLines,
      ],
      [{ ...base, items: [{ variantId: 2_000_000_000, quantity: 1 }] }, 404, /not found/],
      [{ ...base, items: [{ variantId: 2 ** 40, quantity: 1 }] }, 400, T.badItem],
      // A price sent with a line, or a total beside the order: refused, never priced from.
      [{ ...base, items: [{ variantId: dress.variantId, quantity: 1, price: 1 }] }, 400, T.badItem],
      [{ ...base, total: 1 }, 400, T.badInput],
      [{ ...base, paymentMethod: 'card' }, 400, T.badPayment],
      [{ ...base, source: 'web' }, 400, T.badSource],
      [{ ...base, orderId: 'not-a-uuid' }, 400, T.badOrderId],
      [{ ...base, note: 'n'.repeat(2_000) }, 400, T.noteTooLong],
      [
        { ...base, items: [{ variantId: dress.variantId, quantity: 6 }] },
        409,
        /Insufficient stock/,
      ],
    ];
    for (const [input, status, text] of cases) {
      const answer = await mutateOverHttp(test.db, 'desk.createOrder', input, {
        cookie: owner.cookie,
        ...extras(),
      });
      const label = JSON.stringify(input).slice(0, 300);
      expect(answer.status, label).toBe(status);
      expect(answer.body.error?.message, label).toMatch(
        typeof text === 'string'
          ? new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
          : text,
      );
      expect(answer.body.error?.data.stack).toBeUndefined();
    }
    expect(await stockOf(dress.variantId)).toBe(5);
    expect(await orderRow(base.orderId)).toBeUndefined();
  });

  it('a customer is refused (403), and a visitor (401)', async () => {
    const dress = await piece(5);
    const input = {
      orderId: randomUUID(),
      customer: { phone: '0772 123 999', name: 'Not Staff' },
      items: [{ variantId: dress.variantId, quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
      deliveryOptionId: 'pickup',
    };
    const asCustomer = await mutateOverHttp(test.db, 'desk.createOrder', input, {
      cookie: shopper.cookie,
    });
    expect(asCustomer.status).toBe(403);
    expect((await mutateOverHttp(test.db, 'desk.createOrder', input, {})).status).toBe(401);
    for (const path of ['desk.customers', 'desk.customerByPhone']) {
      const read = await queryOverHttp(
        test.db,
        path,
        path === 'desk.customers' ? {} : { phone: '0772345678' },
        { cookie: shopper.cookie },
      );
      expect(read.status, path).toBe(403);
    }
    expect(await stockOf(dress.variantId)).toBe(5);
  });
});

describe('desk.customers', () => {
  it('lists accounts and walk-ins with exact counts, paid totals, consent, search and paging', async () => {
    const stamp = randomUUID().slice(0, 6);
    const gown = await piece(100, 100_000);
    // Zuri: an account, two orders by phone (one paid in cash at the counter), takes promotions.
    const zuri = await signedInShopper(test.db, auth, { name: `Zuri ${stamp}` });
    await test.db
      .insert(profiles)
      .values({ id: zuri.id, email: zuri.email, fullName: `Zuri ${stamp}`, phone: '+256772909090' })
      .onConflictDoUpdate({ target: profiles.id, set: { phone: '+256772909090' } });
    await test.db
      .insert(userSettings)
      .values({ userId: zuri.id, marketingNotifications: true })
      .onConflictDoUpdate({ target: userSettings.userId, set: { marketingNotifications: true } });
    const order = (phone: string, name: string, paymentMethod: 'cash' | 'bank_transfer') =>
      desk().createOrder({
        orderId: randomUUID(),
        customer: { phone, name },
        items: [{ variantId: gown.variantId, quantity: 1 }],
        paymentMethod,
        source: paymentMethod === 'cash' ? 'counter' : 'phone',
        deliveryOptionId: 'pickup',
      });
    await order('0772 909 090', 'Zuri', 'cash');
    await order('0772909090', 'Zuri', 'bank_transfer');
    // Wanjiru: no account, three orders by the same phone in two spellings, two paid.
    await order('0703 606 060', `Wanjiru ${stamp}`, 'cash');
    await order('+256703606060', `Wanjiru ${stamp}`, 'cash');
    await order('0703606060', `Wanjiru ${stamp}`, 'bank_transfer');
    await settle();

    const byName = await desk().customers({ q: `wanjiru ${stamp}` });
    expect(byName.customers).toHaveLength(1);
    expect(byName.customers[0]).toMatchObject({
      accountId: null,
      phone: '+256703606060',
      orders: 3,
      spent: 200_000,
      promotions: false,
    });
    const byPhone = await desk().customers({ q: '0772 909 090' });
    expect(byPhone.customers.find((c) => c.accountId === zuri.id)).toMatchObject({
      name: `Zuri ${stamp}`,
      email: zuri.email,
      orders: 2,
      spent: 100_000,
      promotions: true,
    });
    expect((await desk().customers({ q: '+256 703 606 060' })).customers[0]?.orders).toBe(3);
    expect((await desk().customers({ q: zuri.email.toUpperCase() })).customers).toHaveLength(1);
    // A LIKE wildcard is searched as itself.
    expect((await desk().customers({ q: `%${stamp}` })).customers).toHaveLength(0);

    // Paging: more than a page of walk-ins; every one once, none missed, newest first.
    for (let i = 0; i < 55; i++) {
      await order(`07049${String(i).padStart(5, '0')}`, `Pager ${stamp} ${i}`, 'bank_transfer');
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await desk().customers({ q: `pager ${stamp}`, cursor });
      seen.push(...page.customers.map((c) => c.key));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 5);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(55);
    expect(new Set(seen).size).toBe(55);
    const everyone = await desk().customers();
    expect(everyone.customers.length).toBe(50);
    expect(everyone.nextCursor).toMatch(/~[ap]:/);

    // A cursor not made by the shop, or a search too long: 400 with the list's text.
    for (const input of [{ cursor: 'x' }, { q: 'q'.repeat(101) }, { cursor: 5 }]) {
      const answer = await queryOverHttp(test.db, 'desk.customers', input, {
        cookie: owner.cookie,
      });
      expect(answer.status, JSON.stringify(input)).toBe(400);
    }
  });
});
