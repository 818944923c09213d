// Offers at checkout on a real database (issue 35, decision 0081): checkout.preview's totals and
// checkout.placeOrder's one write, which counts each use and spends each balance in the same
// statement. The races only prove something on PostgreSQL (TEST_DATABASE_URL); PGlite runs
// them serially, and they must hold there too.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftCardHash, giftCardLast4, newGiftCardCode } from '#core/gift-cards.ts';
import { OFFER_TEXT } from '#core/offers.ts';
import { DELIVERY_FEE } from '#core/order-rules.ts';
import {
  orderOffers,
  orders,
  profiles,
  promotions,
  user,
  valueAccounts,
  valueEntries,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf as stockNow } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

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
      applied: [{ code, name: 'Nakato 10%', amount: 21_500 }],
      problems: [],
      lines: [
        { variantId: dress.variantId, discount: 14_500 },
        { variantId: scarf.variantId, discount: 7_000 },
      ],
    });
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
    await addOffer({
      name: 'Tops: the cheaper half price',
      kind: 'buy_x_get_y',
      value: 50,
      buyQuantity: 1,
      getQuantity: 1,
      categoryIds: [tops],
      combinable: true,
    });
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
