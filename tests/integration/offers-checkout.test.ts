// Offers at checkout on a real database (issue 35, decision 0081): checkout.preview's totals and
// checkout.placeOrder's one write, which counts each use and spends each balance in the same
// statement. The races only prove something on PostgreSQL (TEST_DATABASE_URL); PGlite runs
// them serially, and they must hold there too.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TEXT } from '#core/delivery-rules.ts';
import { giftCardHash, giftCardLast4, newGiftCardCode } from '#core/gift-cards.ts';
import { OFFER_TEXT } from '#core/offers.ts';
import { DELIVERY_FEE } from '#core/order-rules.ts';
import { CREDIT_PAYMENT_LABEL } from '#core/receipt.ts';
import { DESK_ORDERS_TEXT } from '#core/sms.ts';
import {
  orderOffers,
  orders,
  profiles,
  promotions,
  receipts,
  user,
  valueAccounts,
  valueEntries,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf as stockNow } from '../support/catalogue.ts';
import { deskCaller, deskMember } from '../support/desk.ts';
import {
  betweenReadAndWrite,
  openTestDatabase,
  type TestDatabase,
} from '../support/test-database.ts';
import { inARow } from '../support/trips.ts';
import { callerFor, mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

/** A code nobody else in this database uses (tests share it). */
const uniqueCode = (head: string) => `${head}${randomUUID().slice(0, 6).toUpperCase()}`;

type NewOffer = typeof promotions.$inferInsert;
async function addOffer(values: Partial<NewOffer> & Pick<NewOffer, 'kind'>) {
  const [row] = await test.db
    .insert(promotions)
    .values({ name: 'Test offer', ...values })
    .returning();
  if (!row) throw new Error('offer not added');
  return row;
}

/** "2 tops, the cheaper half price" (buy 1 get 1 at 50%) on a category, on top of others. */
const addTopsOffer = (tops: number) =>
  addOffer({
    name: 'Tops: the cheaper half price',
    kind: 'buy_x_get_y',
    value: 50,
    buyQuantity: 1,
    getQuantity: 1,
    categoryIds: [tops],
    combinable: true,
  });

async function addCategory() {
  const result = await test.db.execute<{ id: number }>(
    sql`insert into categories (name) values (${`Tops ${randomUUID()}`}) returning id`,
  );
  return Number(result.rows[0]?.id);
}

/** A gift card already issued, with this balance (issued through its ledger entry). */
async function addGiftCard(balance: number) {
  const code = newGiftCardCode();
  const [card] = await test.db
    .insert(valueAccounts)
    .values({
      kind: 'gift_card',
      codeHash: await giftCardHash(code),
      codeLast4: giftCardLast4(code),
      amount: balance,
      issuedAt: new Date(),
      balance,
    })
    .returning();
  if (!card) throw new Error('gift card not added');
  await test.db
    .insert(valueEntries)
    .values({ accountId: card.id, amount: balance, balanceAfter: balance, reason: 'issued' });
  return { code, id: card.id };
}

/** A signed-in shopper with a complete profile, and her caller. */
async function shopper() {
  const signedIn = await signedInShopper(test.db, auth);
  await test.db
    .insert(profiles)
    .values({
      id: signedIn.id,
      email: signedIn.email,
      fullName: signedIn.name,
      phone: '+256772123456',
    })
    .onConflictDoUpdate({
      target: profiles.id,
      set: { fullName: signedIn.name, phone: '+256772123456' },
    });
  const caller = callerFor(test.db, new Headers({ cookie: signedIn.cookie ?? '' }));
  return { ...signedIn, caller };
}

const visitor = () =>
  callerFor(
    test.db,
    new Headers({ 'cf-connecting-ip': `10.9.${Math.floor(Math.random() * 250)}.1` }),
  );

describe('checkout.preview', () => {
  it('answers the totals the shop would charge: a code, its saving per line, the fee', async () => {
    const dress = await addProduct(test.db, { price: 145_000 });
    const scarf = await addProduct(test.db, { price: 35_000 });
    const code = uniqueCode('NAKATO');
    await addOffer({ name: 'Nakato 10%', code, kind: 'percent', value: 10, tag: 'nakato' });
    const preview = await visitor().checkout.preview({
      items: [
        { variantId: dress.variantId, quantity: 1 },
        { productId: scarf.id, quantity: 2 },
      ],
      codes: [code.toLowerCase()],
    });
    expect(preview).toEqual({
      subtotal: 215_000,
      deliveryFee: DELIVERY_FEE,
      discount: 21_500,
      credit: 0,
      total: 215_000 + DELIVERY_FEE - 21_500,
      applied: [{ code, name: 'Nakato 10%', amount: 21_500, kind: 'percent' }],
      problems: [],
      lines: [
        { variantId: dress.variantId, discount: 14_500 },
        { variantId: scarf.variantId, discount: 7_000 },
      ],
    });
  });

  it('an unknown delivery option: the problem placeOrder refuses it with, no fee', async () => {
    const top = await addProduct(test.db, { price: 50_000, stock: 3 });
    const items = [{ variantId: top.variantId, quantity: 1 }];
    const buyer = await shopper();
    const preview = await buyer.caller.checkout.preview({ items, deliveryOptionId: 'no-such-way' });
    expect(preview).toMatchObject({
      deliveryFee: 0,
      total: 50_000,
      problems: [{ code: '', message: DELIVERY_TEXT.optionUnavailable }],
    });
    await expect(
      buyer.caller.checkout.placeOrder({
        orderId: randomUUID(),
        items,
        paymentMethod: 'mobile_money',
        deliveryOptionId: 'no-such-way',
        deliveryArea: 'Ntinda',
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: DELIVERY_TEXT.optionUnavailable });
  });

  it('tells each code that gives nothing why, in the shopper’s words', async () => {
    const top = await addProduct(test.db, { price: 50_000 });
    const ended = uniqueCode('OLD');
    const later = uniqueCode('SOON');
    const startsAt = new Date(Date.now() + 3 * 24 * 3600_000);
    await addOffer({ code: ended, kind: 'percent', value: 10, endsAt: new Date(Date.now() - 1) });
    await addOffer({ code: later, kind: 'percent', value: 10, startsAt });
    const preview = await visitor().checkout.preview({
      items: [{ variantId: top.variantId, quantity: 1 }],
      codes: [ended, later, 'NOSUCHCODE', 'karibu10'],
    });
    expect(preview.problems).toEqual([
      { code: ended, message: OFFER_TEXT.ended(ended) },
      { code: later, message: OFFER_TEXT.notStarted(later, startsAt.toISOString()) },
      { code: 'NOSUCHCODE', message: OFFER_TEXT.unknown('NOSUCHCODE') },
      // The welcome code is once per shopper: a visitor signs in first.
      { code: 'karibu10', message: OFFER_TEXT.signIn('karibu10') },
    ]);
    expect(preview.total).toBe(50_000 + DELIVERY_FEE);
  });

  it('signed in: the welcome code, a category offer, a gift card and credit', async () => {
    const tops = await addCategory();
    const top = await addProduct(test.db, { price: 60_000, category: tops });
    const skirt = await addProduct(test.db, { price: 40_000 });
    await addTopsOffer(tops);
    const card = await addGiftCard(30_000);
    const buyer = await shopper();
    await test.db
      .insert(valueAccounts)
      .values({ kind: 'store_credit', userId: buyer.id, balance: 500_000 });
    const preview = await buyer.caller.checkout.preview({
      items: [
        { variantId: top.variantId, quantity: 2 },
        { variantId: skirt.variantId, quantity: 1 },
      ],
      codes: ['KARIBU10', card.code],
      useCredit: true,
    });
    // 160,000: 10% (16,000) and, on top, half of one top (30,000); the rest paid by card and credit.
    expect(preview).toMatchObject({
      subtotal: 160_000,
      discount: 46_000,
      deliveryFee: DELIVERY_FEE,
      credit: 160_000 + DELIVERY_FEE - 46_000,
      total: 0,
      problems: [],
    });
    expect(preview.applied.map((a) => a.amount)).toEqual([16_000, 30_000]);
  });

  it('refuses tampered input: NUL, a huge code, too many codes, wrong types', async () => {
    const top = await addProduct(test.db, { price: 10_000 });
    const items = [{ variantId: top.variantId, quantity: 1 }];
    const call = (input: unknown) => visitor().checkout.preview(input as never);
    await expect(call({ items, codes: ['A\u0000B'] })).rejects.toThrow(OFFER_TEXT.badCode);
    await expect(call({ items, codes: ['X'.repeat(41)] })).rejects.toThrow(OFFER_TEXT.badCode);
    await expect(
      call({ items, codes: Array.from({ length: 50 }, (_, i) => `C${i}`) }),
    ).rejects.toThrow(OFFER_TEXT.tooManyCodes);
    await expect(call({ items, codes: 'NAKATO10' })).rejects.toThrow();
    await expect(call({ items, useCredit: 'yes' })).rejects.toThrow();
    await expect(call({ items: [{ variantId: -1, quantity: 1 }] })).rejects.toThrow();
  });
});

/** A customer with a complete profile, written directly (no password hashing: races need 200). */
async function customer() {
  const id = randomUUID();
  const email = `${id}@example.ug`;
  await test.db.insert(user).values({ id, name: 'Achieng', email, emailVerified: true });
  await test.db
    .insert(profiles)
    .values({ id, email, fullName: 'Achieng Auma', phone: '+256772123456' });
  return { id, email, name: 'Achieng' };
}

const order = (
  piece: { variantId: number },
  more: { quantity?: number; codes?: string[]; useCredit?: boolean } = {},
) => ({
  orderId: randomUUID(),
  lines: [{ variantId: piece.variantId, quantity: more.quantity ?? 1 }],
  paymentMethod: 'mobile_money' as const,
  codes: more.codes,
  useCredit: more.useCredit,
});

const orderRow = async (id: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, id)))[0];
const offerRow = async (id: number) =>
  (await test.db.select().from(promotions).where(eq(promotions.id, id)))[0];
const balanceOf = async (id: number) =>
  (await test.db.select().from(valueAccounts).where(eq(valueAccounts.id, id)))[0]?.balance;

describe('placeOrder with offers: counted in the one write', () => {
  it('a code: the discount, the use counted, the offer on the order and the receipt', async () => {
    const dress = await addProduct(test.db, { price: 145_000 });
    const code = uniqueCode('NAKATO');
    const offer = await addOffer({ name: 'Nakato 10%', code, kind: 'percent', value: 10 });
    const buyer = await customer();
    const asked = order(dress, { codes: [code.toLowerCase()] });
    const placed = await placeOrder(test.db, buyer, asked);
    expect(placed).toMatchObject({ ok: true, order: { total: 145_000 - 14_500 + DELIVERY_FEE } });
    expect(await orderRow(asked.orderId)).toMatchObject({
      subtotal: 145_000,
      deliveryFee: DELIVERY_FEE,
      discount: 14_500,
      credit: 0,
      total: 135_500,
      status: 'pending',
    });
    expect((await offerRow(offer.id))?.used).toBe(1);
    const given = await test.db
      .select()
      .from(orderOffers)
      .where(eq(orderOffers.orderId, asked.orderId));
    expect(given).toMatchObject([
      {
        promotionId: offer.id,
        code,
        name: 'Nakato 10%',
        amount: 14_500,
        shopper: buyer.id,
        counted: true,
      },
    ]);
    if (!placed.ok) throw new Error('not placed');
    expect(placed.order.receipt).toMatchObject({
      discount: 14_500,
      offers: [{ code, name: 'Nakato 10%', amount: 14_500 }],
      total: 135_500,
    });
    // A retry with the same order id changes nothing (the use is not counted twice).
    const again = await placeOrder(test.db, buyer, asked);
    expect(again).toMatchObject({ ok: true, order: { created: false, total: 135_500 } });
    expect((await offerRow(offer.id))?.used).toBe(1);
  });

  it('an order asking for a code it cannot have is refused with the reason; nothing written', async () => {
    const top = await addProduct(test.db, { price: 50_000, stock: 4 });
    const ended = uniqueCode('OLD');
    await addOffer({ code: ended, kind: 'percent', value: 10, endsAt: new Date(Date.now() - 1) });
    const buyer = await customer();
    for (const [codes, text] of [
      [[ended], OFFER_TEXT.ended(ended)],
      [['NOSUCHCODE'], OFFER_TEXT.unknown('NOSUCHCODE')],
      [['GIFT-2345-6789-ABCD'], OFFER_TEXT.unknown('GIFT-2345-6789-ABCD')],
    ] as const) {
      const asked = order(top, { codes: [...codes] });
      const refused = await placeOrder(test.db, buyer, asked);
      expect(refused).toEqual({ ok: false, problem: 'offer-refused', message: text });
      expect(await orderRow(asked.orderId)).toBeUndefined();
    }
    expect(await stockNow(test.db, top)).toBe(4);
  });
});

describe('placeOrder: each kind and target, combined', () => {
  it('fixed off a category, free delivery, buy 1 get 1 at half: totals and each offer kept', async () => {
    const tops = await addCategory();
    const top = await addProduct(test.db, { price: 60_000, category: tops });
    const cheaperTop = await addProduct(test.db, { price: 40_000, category: tops });
    const bag = await addProduct(test.db, { price: 100_000 });
    const fixed = uniqueCode('BAG');
    const ride = uniqueCode('RIDE');
    await addOffer({
      name: '20,000 off bags',
      code: fixed,
      kind: 'fixed',
      value: 20_000,
      productIds: [bag.id],
    });
    await addOffer({ name: 'Free delivery', code: ride, kind: 'free_delivery' });
    await addTopsOffer(tops);
    const buyer = await customer();
    const asked = {
      orderId: randomUUID(),
      lines: [
        { variantId: top.variantId, quantity: 1 },
        { variantId: cheaperTop.variantId, quantity: 1 },
        { variantId: bag.variantId, quantity: 1 },
      ],
      paymentMethod: 'cash_on_delivery' as const,
      codes: [fixed, ride],
    };
    const placed = await placeOrder(test.db, buyer, asked);
    expect(placed).toMatchObject({
      ok: true,
      order: { total: 200_000 - 20_000 - 20_000, deliveryFee: 0 },
    });
    expect(await orderRow(asked.orderId)).toMatchObject({
      subtotal: 200_000,
      deliveryFee: 0,
      discount: 40_000,
      total: 160_000,
    });
    const given = await test.db
      .select({ name: orderOffers.name, amount: orderOffers.amount })
      .from(orderOffers)
      .where(eq(orderOffers.orderId, asked.orderId));
    expect(given.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: '20,000 off bags', amount: 20_000 },
      { name: 'Free delivery', amount: DELIVERY_FEE },
      { name: 'Tops: the cheaper half price', amount: 20_000 },
    ]);
  });

  it('a code that loses to a better automatic offer is not a refusal: the better one is given', async () => {
    const tops = await addCategory();
    const top = await addProduct(test.db, { price: 100_000, category: tops });
    const weak = uniqueCode('WEAK');
    await addOffer({ name: 'Weak', code: weak, kind: 'percent', value: 5 });
    await addOffer({ name: 'Weekend 30%', kind: 'percent', value: 30, categoryIds: [tops] });
    const buyer = await customer();
    const preview = await visitor().checkout.preview({
      items: [{ variantId: top.variantId, quantity: 1 }],
      codes: [weak],
    });
    expect(preview.problems).toEqual([
      { code: weak, message: OFFER_TEXT.betterOffer(weak, 'Weekend 30%'), note: true },
    ]);
    const asked = order(top, { codes: [weak] });
    expect(await placeOrder(test.db, buyer, asked)).toMatchObject({
      ok: true,
      order: { total: 75_000 },
    });
  });

  it('the dates at their boundaries: not started, running from its start, ended at its end', async () => {
    const top = await addProduct(test.db, { price: 10_000 });
    const buyer = await customer();
    const now = Date.now();
    const later = new Date(now + 60 * 60_000);
    const soon = uniqueCode('SOON');
    const running = uniqueCode('NOW');
    const over = uniqueCode('OVER');
    await addOffer({ code: soon, kind: 'percent', value: 10, startsAt: later });
    await addOffer({
      code: running,
      kind: 'percent',
      value: 10,
      startsAt: new Date(now - 1),
      endsAt: later,
    });
    await addOffer({ code: over, kind: 'percent', value: 10, endsAt: new Date(now - 1) });
    expect(await placeOrder(test.db, buyer, order(top, { codes: [soon] }))).toEqual({
      ok: false,
      problem: 'offer-refused',
      message: OFFER_TEXT.notStarted(soon, later.toISOString()),
    });
    expect(await placeOrder(test.db, buyer, order(top, { codes: [over] }))).toEqual({
      ok: false,
      problem: 'offer-refused',
      message: OFFER_TEXT.ended(over),
    });
    expect(await placeOrder(test.db, buyer, order(top, { codes: [running] }))).toMatchObject({
      ok: true,
      order: { total: 9_000 + DELIVERY_FEE },
    });
  });
});

describe('limits', () => {
  it('the per-shopper limit: twice, then "already used"; the welcome code on a first order only', async () => {
    const top = await addProduct(test.db, { price: 10_000, stock: 20 });
    const twice = uniqueCode('TWICE');
    const offer = await addOffer({ code: twice, kind: 'percent', value: 10, perShopperLimit: 2 });
    const buyer = await customer();
    for (let n = 0; n < 2; n++) {
      expect(await placeOrder(test.db, buyer, order(top, { codes: [twice] }))).toMatchObject({
        ok: true,
      });
    }
    expect(await placeOrder(test.db, buyer, order(top, { codes: [twice] }))).toEqual({
      ok: false,
      problem: 'offer-refused',
      message: OFFER_TEXT.alreadyUsed(twice),
    });
    const slots = await test.db
      .select({ useNumber: orderOffers.useNumber })
      .from(orderOffers)
      .where(eq(orderOffers.promotionId, offer.id));
    expect(slots.map((s) => s.useNumber).sort()).toEqual([1, 2]);
    // KARIBU10: her next order is not her first.
    expect(await placeOrder(test.db, buyer, order(top, { codes: ['karibu10'] }))).toEqual({
      ok: false,
      problem: 'offer-refused',
      message: OFFER_TEXT.firstOrderOnly('karibu10'),
    });
    const newcomer = await customer();
    expect(await placeOrder(test.db, newcomer, order(top, { codes: ['karibu10'] }))).toMatchObject({
      ok: true,
      order: { total: 9_000 + DELIVERY_FEE },
    });
  });

  it('one shopper racing two orders for her one use: one is given it, the other refused', async () => {
    const top = await addProduct(test.db, { price: 10_000, stock: 20 });
    const once = uniqueCode('ONCE');
    const offer = await addOffer({ code: once, kind: 'percent', value: 10, perShopperLimit: 1 });
    const buyer = await customer();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => placeOrder(test.db, buyer, order(top, { codes: [once] }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    // Read after the other was placed: she has used it; lost the race for it: it was just used.
    for (const refused of results.filter((r) => !r.ok)) {
      expect([
        { ok: false, problem: 'offer-refused', message: OFFER_TEXT.alreadyUsed(once) },
        { ok: false, problem: 'offer-lost', message: OFFER_TEXT.justUsed(once) },
      ]).toContainEqual(refused);
    }
    expect((await offerRow(offer.id))?.used).toBe(1);
  });

  it('her other order taking her one use between the read and the write: "just used", not "already used"', async () => {
    const top = await addProduct(test.db, { price: 10_000, stock: 20 });
    const once = uniqueCode('ONCE');
    const offer = await addOffer({ code: once, kind: 'percent', value: 10, perShopperLimit: 1 });
    const buyer = await customer();
    const other = order(top, { codes: [once] });
    const racing = betweenReadAndWrite(test.db, () => placeOrder(test.db, buyer, other));
    const asked = order(top, { codes: [once] });
    expect(await placeOrder(racing, buyer, asked)).toEqual({
      ok: false,
      problem: 'offer-lost',
      message: OFFER_TEXT.justUsed(once),
    });
    expect(await orderRow(other.orderId)).toBeDefined();
    expect(await orderRow(asked.orderId)).toBeUndefined();
    expect((await offerRow(offer.id))?.used).toBe(1);
    expect(await stockNow(test.db, top)).toBe(19);
  });

  it('200 shoppers racing for the last 10 uses: exactly 10 discounted orders, none at full price', async () => {
    const top = await addProduct(test.db, { price: 20_000, stock: 500 });
    const last = uniqueCode('VIRAL');
    const offer = await addOffer({
      code: last,
      kind: 'percent',
      value: 50,
      usageLimit: 60,
      used: 50,
    });
    const buyers = await Promise.all(Array.from({ length: 200 }, () => customer()));
    const results = await Promise.all(
      buyers.map((buyer) => placeOrder(test.db, buyer, order(top, { codes: [last] }))),
    );
    const placed = results.filter((r) => r.ok);
    expect(placed).toHaveLength(10);
    for (const r of placed) expect(r.order.total).toBe(10_000 + DELIVERY_FEE);
    for (const refused of results.filter((r) => !r.ok)) {
      expect(refused).toMatchObject({ message: OFFER_TEXT.usedUp(last) });
    }
    // On PostgreSQL they read a use left and lose it at the write: the CHECK is what refuses.
    const lost = results.filter((r) => !r.ok && r.problem === 'offer-lost').length;
    if (process.env.TEST_DATABASE_URL) expect(lost).toBeGreaterThan(0);
    expect((await offerRow(offer.id))?.used).toBe(60);
    const made = await test.db
      .select({ total: orders.total })
      .from(orders)
      .innerJoin(orderOffers, eq(orderOffers.orderId, orders.id))
      .where(eq(orderOffers.promotionId, offer.id));
    expect(made).toHaveLength(10);
    expect(await stockNow(test.db, top)).toBe(490);
  }, 120_000);

  it('a deleted pending order and a cancelled one give the use back; she may use the code again', async () => {
    const top = await addProduct(test.db, { price: 10_000, stock: 20 });
    const once = uniqueCode('ONCE');
    const offer = await addOffer({
      code: once,
      kind: 'percent',
      value: 10,
      perShopperLimit: 1,
      usageLimit: 1,
    });
    const buyer = await shopper();
    const buy = () =>
      buyer.caller.checkout.placeOrder({
        orderId: randomUUID(),
        items: [{ variantId: top.variantId, quantity: 1 }],
        paymentMethod: 'mobile_money',
        codes: [once],
      });
    const first = await buy();
    expect(first.total).toBe(9_000 + DELIVERY_FEE);
    await expect(buy()).rejects.toThrow(OFFER_TEXT.usedUp(once));
    await buyer.caller.orders.delete({ id: first.orderId });
    expect((await offerRow(offer.id))?.used).toBe(0);
    const second = await buy();
    expect(second.total).toBe(9_000 + DELIVERY_FEE);
    await test.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, second.orderId));
    expect((await offerRow(offer.id))?.used).toBe(0);
    expect((await buy()).total).toBe(9_000 + DELIVERY_FEE);
  });

  it('a code edited between the checkout’s read and its write refuses the order; nothing written', async () => {
    const top = await addProduct(test.db, { price: 10_000, stock: 5 });
    const code = uniqueCode('EDIT');
    const offer = await addOffer({ code, kind: 'percent', value: 10 });
    const buyer = await customer();
    // The desk saves the offer (version + 1) just after the checkout's first batch answers.
    let reads = 0;
    const editing = new Proxy(test.db, {
      get(db, key) {
        const value = Reflect.get(db, key);
        if (key !== 'batch') return typeof value === 'function' ? value.bind(db) : value;
        return async (...args: unknown[]) => {
          const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(db, args);
          reads += 1;
          if (reads === 1) {
            await db
              .update(promotions)
              .set({ value: 50, version: sql`${promotions.version} + 1` })
              .where(eq(promotions.id, offer.id));
          }
          return answer;
        };
      },
    });
    const asked = order(top, { codes: [code] });
    expect(await placeOrder(editing, buyer, asked)).toEqual({
      ok: false,
      problem: 'offers-changed',
    });
    expect(await orderRow(asked.orderId)).toBeUndefined();
    expect((await offerRow(offer.id))?.used).toBe(0);
    expect(await stockNow(test.db, top)).toBe(5);
  });
});

describe('gift cards and store credit', () => {
  it('a gift card spent across two orders, to 0; the third is refused; every entry kept', async () => {
    const top = await addProduct(test.db, { price: 30_000, stock: 10 });
    const card = await addGiftCard(50_000);
    const buyer = await customer();
    const first = order(top, { codes: [card.code] });
    expect(await placeOrder(test.db, buyer, first)).toMatchObject({
      ok: true,
      order: { total: 0 },
    });
    // Paid in full: nothing to collect, so it goes on at once.
    expect(await orderRow(first.orderId)).toMatchObject({
      credit: 30_000 + DELIVERY_FEE,
      total: 0,
      status: 'processing',
    });
    expect(await balanceOf(card.id)).toBe(50_000 - 35_000);
    const second = order(top, { codes: [card.code.toLowerCase().replaceAll('-', ' ')] });
    expect(await placeOrder(test.db, buyer, second)).toMatchObject({
      ok: true,
      order: { total: 35_000 - 15_000 },
    });
    expect(await balanceOf(card.id)).toBe(0);
    expect(await placeOrder(test.db, buyer, order(top, { codes: [card.code] }))).toEqual({
      ok: false,
      problem: 'offer-refused',
      message: OFFER_TEXT.giftCardEmpty(card.code),
    });
    const entries = await test.db
      .select({
        amount: valueEntries.amount,
        after: valueEntries.balanceAfter,
        reason: valueEntries.reason,
      })
      .from(valueEntries)
      .where(eq(valueEntries.accountId, card.id))
      .orderBy(valueEntries.id);
    expect(entries).toEqual([
      { amount: 50_000, after: 50_000, reason: 'issued' },
      { amount: -35_000, after: 15_000, reason: 'spent' },
      { amount: -15_000, after: 0, reason: 'spent' },
    ]);
  });

  it('twenty orders spending one gift card at once never take it below 0', async () => {
    const top = await addProduct(test.db, { price: 40_000, stock: 100 });
    const card = await addGiftCard(100_000);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => customer()));
    const results = await Promise.all(
      buyers.map((buyer) => placeOrder(test.db, buyer, order(top, { codes: [card.code] }))),
    );
    const balance = await balanceOf(card.id);
    expect(balance).toBeGreaterThanOrEqual(0);
    const spent = await test.db
      .select({ amount: valueEntries.amount })
      .from(valueEntries)
      .where(and(eq(valueEntries.accountId, card.id), eq(valueEntries.reason, 'spent')));
    expect(spent.reduce((sum, e) => sum - e.amount, 0)).toBe(100_000 - (balance ?? 0));
    for (const refused of results.filter((r) => !r.ok)) {
      expect(['balance-changed', 'offer-refused']).toContain(refused.problem);
    }
    // Each order placed spent what it says it did; at most 45,000 + 45,000 + 10,000 fit.
    const placed = results.filter((r) => r.ok);
    expect(placed.length).toBeGreaterThanOrEqual(2);
    expect(placed.length).toBeLessThanOrEqual(3);
    const credits = await Promise.all(
      placed.map(async (r) => (await orderRow(r.order.orderId))?.credit ?? 0),
    );
    expect(credits.reduce((sum, c) => sum + c, 0)).toBe(100_000 - (balance ?? 0));
  });

  it('ten orders of one shopper spending her store credit at once never take it below 0', async () => {
    const top = await addProduct(test.db, { price: 40_000, stock: 100 });
    const buyer = await customer();
    const [account] = await test.db
      .insert(valueAccounts)
      .values({ kind: 'store_credit', userId: buyer.id, balance: 100_000 })
      .returning();
    if (!account) throw new Error('no account');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => placeOrder(test.db, buyer, order(top, { useCredit: true }))),
    );
    const balance = (await balanceOf(account.id)) ?? 0;
    expect(balance).toBeGreaterThanOrEqual(0);
    const placed = results.filter((r) => r.ok);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    // Every order placed spent what its row says, and the ledger's entries add up to the balance.
    const credits = await Promise.all(
      placed.map(async (r) => (await orderRow(r.order.orderId))?.credit ?? 0),
    );
    const spent = await test.db
      .select({ amount: valueEntries.amount })
      .from(valueEntries)
      .where(and(eq(valueEntries.accountId, account.id), eq(valueEntries.reason, 'spent')));
    expect(spent.reduce((sum, e) => sum - e.amount, 0)).toBe(100_000 - balance);
    expect(credits.reduce((sum, c) => sum + c, 0)).toBe(100_000 - balance);
  });

  it('store credit spent with useCredit, and given back when the order is cancelled', async () => {
    const top = await addProduct(test.db, { price: 50_000 });
    const buyer = await customer();
    const [account] = await test.db
      .insert(valueAccounts)
      .values({ kind: 'store_credit', userId: buyer.id, balance: 20_000 })
      .returning();
    if (!account) throw new Error('no account');
    const without = order(top);
    expect(await placeOrder(test.db, buyer, without)).toMatchObject({ order: { total: 55_000 } });
    const asked = order(top, { useCredit: true });
    expect(await placeOrder(test.db, buyer, asked)).toMatchObject({
      ok: true,
      order: { total: 35_000 },
    });
    expect(await orderRow(asked.orderId)).toMatchObject({ credit: 20_000, total: 35_000 });
    expect(await balanceOf(account.id)).toBe(0);
    await test.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, asked.orderId));
    expect(await balanceOf(account.id)).toBe(20_000);
  });

  it('an order cancelled after spending credit is not reopened by the desk; one without is', async () => {
    const top = await addProduct(test.db, { price: 30_000 });
    const staff = await deskMember(test.db, auth, 'staff');
    const desk = deskCaller(test.db, staff);
    const buyer = await customer();
    const [account] = await test.db
      .insert(valueAccounts)
      .values({ kind: 'store_credit', userId: buyer.id, balance: 10_000 })
      .returning();
    if (!account) throw new Error('no account');
    const spending = order(top, { useCredit: true });
    const plain = order(top);
    for (const placed of [spending, plain]) {
      expect(await placeOrder(test.db, buyer, placed)).toMatchObject({ ok: true });
      await desk.setStatus({ orderId: placed.orderId, status: 'cancelled' });
    }
    expect(await balanceOf(account.id)).toBe(10_000);
    // Reopened, it would keep the 10,000 off while she has it back to spend again.
    await expect(
      desk.setStatus({ orderId: spending.orderId, status: 'processing' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: DESK_ORDERS_TEXT.givenBack });
    expect(await orderRow(spending.orderId)).toMatchObject({ status: 'cancelled', credit: 10_000 });
    // Cancelled again is still cancelled; an order that took nothing may be reopened as before.
    await desk.setStatus({ orderId: spending.orderId, status: 'cancelled' });
    await desk.setStatus({ orderId: plain.orderId, status: 'processing' });
    expect(await orderRow(plain.orderId)).toMatchObject({ status: 'processing' });
    expect(await balanceOf(account.id)).toBe(10_000);
  });

  it('an order whose gift card was issued is not cancelled by the desk (the card spends)', async () => {
    const top = await addProduct(test.db, { price: 40_000 });
    const desk = deskCaller(test.db, await deskMember(test.db, auth, 'staff'));
    const buyer = await customer();
    const sold = order(top);
    expect(await placeOrder(test.db, buyer, sold)).toMatchObject({ ok: true });
    // As a gift card order stands once paid: its card issued with its balance.
    const [card] = await test.db
      .insert(valueAccounts)
      .values({ kind: 'gift_card', orderId: sold.orderId, amount: 40_000, balance: 40_000 })
      .returning();
    if (!card) throw new Error('no card');
    await desk.setStatus({ orderId: sold.orderId, status: 'processing' });
    await test.db
      .update(valueAccounts)
      .set({ issuedAt: new Date() })
      .where(eq(valueAccounts.id, card.id));
    await expect(
      desk.setStatus({ orderId: sold.orderId, status: 'cancelled' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: DESK_ORDERS_TEXT.cardIssued });
    expect(await orderRow(sold.orderId)).toMatchObject({ status: 'processing' });
    // Other moves stay open to it.
    await desk.setStatus({ orderId: sold.orderId, status: 'completed' });
    expect(await orderRow(sold.orderId)).toMatchObject({ status: 'completed' });
  });

  it('a paid-in-full order is not charged again: the payment answers it is paid', async () => {
    const top = await addProduct(test.db, { price: 20_000 });
    const card = await addGiftCard(100_000);
    const buyer = await shopper();
    const placed = await buyer.caller.checkout.placeOrder({
      orderId: randomUUID(),
      items: [{ variantId: top.variantId, quantity: 1 }],
      paymentMethod: 'mobile_money',
      codes: [card.code],
    });
    expect(placed.total).toBe(0);
    expect(await buyer.caller.orders.receipt({ orderId: placed.orderId })).toMatchObject({
      total: 0,
      credit: 20_000 + DELIVERY_FEE,
      payment: { state: 'paid', method: CREDIT_PAYMENT_LABEL },
    });
    await expect(
      buyer.caller.payments.start({ orderId: placed.orderId, phone: '0772123456' }),
    ).rejects.toThrow('This order is already paid.');
  });
});

describe('receipts', () => {
  it('the stored receipt and one rebuilt from the order show the discount, its offer and the credit', async () => {
    const top = await addProduct(test.db, { price: 100_000 });
    const code = uniqueCode('RCPT');
    await addOffer({ name: 'Receipt 10%', code, kind: 'percent', value: 10 });
    const card = await addGiftCard(20_000);
    const buyer = await shopper();
    const placed = await buyer.caller.checkout.placeOrder({
      orderId: randomUUID(),
      items: [{ variantId: top.variantId, quantity: 1 }],
      paymentMethod: 'mobile_money',
      codes: [code, card.code],
    });
    expect(placed.total).toBe(100_000 + DELIVERY_FEE - 10_000 - 20_000);
    const expected = {
      subtotal: 100_000,
      deliveryFee: DELIVERY_FEE,
      discount: 10_000,
      offers: [{ code, name: 'Receipt 10%', amount: 10_000 }],
      credit: 20_000,
      total: 75_000,
    };
    expect(await buyer.caller.orders.receipt({ orderId: placed.orderId })).toMatchObject(expected);
    await test.db.delete(receipts).where(eq(receipts.orderId, placed.orderId));
    expect(await buyer.caller.orders.receipt({ orderId: placed.orderId })).toMatchObject(expected);
  });
});

describe('tampered input', () => {
  it('50 codes, NUL, a huge code, a number for a code: refused before anything is read', async () => {
    const top = await addProduct(test.db, { price: 10_000, stock: 3 });
    const buyer = await shopper();
    const place = (extra: Record<string, unknown>) =>
      buyer.caller.checkout.placeOrder({
        orderId: randomUUID(),
        items: [{ variantId: top.variantId, quantity: 1 }],
        paymentMethod: 'mobile_money',
        ...extra,
      } as never);
    await expect(place({ codes: Array.from({ length: 50 }, (_, i) => `C${i}`) })).rejects.toThrow(
      OFFER_TEXT.tooManyCodes,
    );
    await expect(place({ codes: ['KARIBU\u000010'] })).rejects.toThrow(OFFER_TEXT.badCode);
    await expect(place({ codes: ['K'.repeat(100_000)] })).rejects.toThrow(OFFER_TEXT.badCode);
    await expect(place({ codes: [10] })).rejects.toThrow(OFFER_TEXT.badCode);
    await expect(place({ useCredit: 1 })).rejects.toThrow();
    await expect(place({ codes: ['KARIBU10', 'karibu10'] })).rejects.toThrow(
      OFFER_TEXT.twice('karibu10'),
    );
    expect(await stockNow(test.db, top)).toBe(3);
  });
});

describe('round trips', () => {
  it('placeOrder with a code and a gift card stays 2 in a row; preview is 2 (its limit, then the read)', async () => {
    const buyer = await shopper();
    const piece = await addProduct(test.db, { price: 45_000, stock: 9 });
    const code = uniqueCode('TRIPS');
    await addOffer({ code, kind: 'percent', value: 10, usageLimit: 100, perShopperLimit: 3 });
    const card = await addGiftCard(10_000);
    const afterwards: Promise<unknown>[] = [];
    const as = {
      cookie: buyer.cookie ?? '',
      background: (work: Promise<unknown>) => afterwards.push(work),
    };
    const items = [{ variantId: piece.variantId, quantity: 1 }];
    // The session's cookie is read once first, so the change starts beside its read.
    expect((await queryOverHttp(test.db, 'cart.get', undefined, as)).status).toBe(200);
    const preview = () =>
      queryOverHttp(test.db, 'checkout.preview', { items, codes: [code, card.code] }, as);
    expect(
      await inARow(test.databaseUrl, async () => expect((await preview()).status).toBe(200)),
    ).toBe(2);
    const order = () =>
      mutateOverHttp(
        test.db,
        'checkout.placeOrder',
        {
          orderId: randomUUID(),
          items,
          paymentMethod: 'cash_on_delivery',
          codes: [code, card.code],
        },
        as,
      );
    expect(
      await inARow(test.databaseUrl, async () => expect((await order()).status).toBe(200)),
    ).toBe(2);
    // The texts queued after the answer, and what they queue in turn.
    while (afterwards.length > 0) await Promise.all(afterwards.splice(0));
  });
});
