// Gift cards and store credit on a real database (issue 35, decision 0081): a gift card bought as
// an order, paid at the desk, issued once with a code texted to its recipient (the hash of that
// code is what the shop keeps), spent to 0 and then refused; a late second confirmation issues
// nothing; staff grant credit and the shopper (only she) reads it; a balance is the sum of its
// entries; roles and bad input refused before anything is written.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftCardHash, giftCardLast4, isGiftCardCode } from '#core/gift-cards.ts';
import { CHECKOUT_LIMIT } from '#core/limits.ts';
import { CHECKOUT_TEXT, DELIVERY_FEE } from '#core/order-rules.ts';
import { CREDIT_TEXT, GIFT_CARD_TEXT } from '#core/value-ledger.ts';
import { PG, postgresCode } from '#db/errors.ts';
import {
  deskRecords,
  orderItems,
  orders,
  profiles,
  smsNotifications,
  valueAccounts,
  valueEntries,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { afterPaymentReceived } from '#server/services/order-events.ts';
import { countAttempt } from '#server/services/rate-limit.ts';
import { issueGiftCards, sweepGiftCards } from '#server/services/value-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf as stockNow } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import {
  betweenReadAndWrite,
  openTestDatabase,
  type TestDatabase,
} from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let owner: DeskMember;
let staff: DeskMember;
let buyer: Awaited<ReturnType<typeof signedInShopper>>;
let other: Awaited<ReturnType<typeof signedInShopper>>;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  owner = await deskMember(test.db, auth, 'owner');
  staff = await deskMember(test.db, auth, 'staff');
  buyer = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  other = await signedInShopper(test.db, auth, { name: 'Achan Grace' });
  for (const [person, phone] of [
    [buyer, '+256772000951'],
    [other, '+256772000952'],
  ] as const) {
    await test.db
      .insert(profiles)
      .values({ id: person.id, email: person.email, fullName: person.name, phone })
      .onConflictDoUpdate({ target: profiles.id, set: { fullName: person.name, phone } });
  }
});
afterAll(async () => {
  await test?.close();
});

const as = (person: { cookie: string }) =>
  callerFor(test.db, new Headers({ cookie: person.cookie }));
const visitor = () => callerFor(test.db);
const texting = () => ({ db: test.db, sms: { gateway: null, adminPhone: null } });

const card = async (orderId: string) =>
  (await test.db.select().from(valueAccounts).where(eq(valueAccounts.orderId, orderId)))[0];
const entriesOf = (accountId: number) =>
  test.db.select().from(valueEntries).where(eq(valueEntries.accountId, accountId));
const giftTexts = (orderId: string) =>
  test.db
    .select()
    .from(smsNotifications)
    .where(and(eq(smsNotifications.orderId, orderId), eq(smsNotifications.kind, 'gift-card')));

/** The stored balance equals the sum of the account's entries. */
async function expectBalanceIsSum(accountId: number) {
  const [account] = await test.db
    .select({ balance: valueAccounts.balance })
    .from(valueAccounts)
    .where(eq(valueAccounts.id, accountId));
  const entries = await entriesOf(accountId);
  expect(account?.balance).toBe(entries.reduce((sum, e) => sum + e.amount, 0));
  return account?.balance;
}

/** A spend written straight to the ledger, past the checkout: for the CHECK's own test. */
function spend(accountId: number, amount: number) {
  return test.db.execute(sql`
    with taken as (
      update value_accounts set balance = balance - ${amount}::bigint where id = ${accountId}
      returning id, balance
    )
    insert into value_entries (account_id, amount, balance_after, reason, order_id)
    select id, ${-amount}::bigint, balance, 'spent', ${randomUUID()}::uuid from taken
  `);
}

const buyInput = (orderId = randomUUID()) => ({
  orderId,
  amount: 100_000,
  recipientName: 'Amina Nalule',
  recipientPhone: '0772 123456',
  message: 'Happy birthday!',
  paymentMethod: 'bank_transfer' as const,
});

describe('a gift card bought, paid, issued and spent', () => {
  const orderId = randomUUID();
  let code = '';

  it('is an order of one line at the amount, no fee, sent by text, its card awaiting payment', async () => {
    const bought = await as(buyer).giftCards.buy(buyInput(orderId));
    expect(bought).toEqual({ orderId, total: 100_000, created: true });
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      customerId: buyer.id,
      subtotal: 100_000,
      deliveryFee: 0,
      discount: 0,
      total: 100_000,
      status: 'pending',
      paymentMethod: 'bank_transfer',
      deliveryOption: 'Sent by text',
      deliveryKind: 'pickup',
    });
    const items = await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(items).toEqual([
      expect.objectContaining({
        name: 'Gift card for Amina Nalule',
        price: 100_000,
        quantity: 1,
        productId: null,
        variantId: null,
      }),
    ]);
    expect(await card(orderId)).toMatchObject({
      kind: 'gift_card',
      amount: 100_000,
      balance: 0,
      issuedAt: null,
      codeHash: null,
      recipientName: 'Amina Nalule',
      recipientPhone: '+256772123456',
      message: 'Happy birthday!',
    });
  });

  it('is one order for a retried id; another shopper’s id is refused', async () => {
    expect(await as(buyer).giftCards.buy(buyInput(orderId))).toEqual({
      orderId,
      total: 100_000,
      created: false,
    });
    await expect(as(other).giftCards.buy(buyInput(orderId))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: GIFT_CARD_TEXT.failed,
    });
    const cards = await test.db
      .select()
      .from(valueAccounts)
      .where(eq(valueAccounts.orderId, orderId));
    expect(cards).toHaveLength(1);
  });

  it('is not issued before it is paid', async () => {
    expect(await issueGiftCards(texting(), orderId)).toBe(0);
    expect((await card(orderId))?.issuedAt).toBeNull();
    expect(await giftTexts(orderId)).toEqual([]);
  });

  it('is issued once on payment and its code texted to the recipient, only hashed in the shop', async () => {
    await deskCaller(test.db, staff).markPaid({ orderId, reference: 'STANBIC-GIFT-1' });
    const issued = await card(orderId);
    expect(issued?.issuedAt).toBeInstanceOf(Date);
    expect(issued?.balance).toBe(100_000);
    const [text, ...more] = await giftTexts(orderId);
    expect(more).toEqual([]);
    expect(text?.recipientPhone).toBe('+256772123456');
    expect(text?.messageContent.length).toBeLessThanOrEqual(160);
    expect(text?.messageContent).toContain('Nakato');
    expect(text?.messageContent).toContain('UGX 100,000');
    code = text?.messageContent.match(/GIFT-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/)?.[0] ?? '';
    expect(isGiftCardCode(code)).toBe(true);
    expect(issued?.codeHash).toBe(await giftCardHash(code));
    expect(issued?.codeLast4).toBe(giftCardLast4(code));
    // The plain code is nowhere in the ledger.
    const stored = JSON.stringify([issued, await entriesOf(issued?.id ?? 0)]);
    expect(stored).not.toContain(code.slice(5));
    const entries = await entriesOf(issued?.id ?? 0);
    expect(entries).toEqual([
      expect.objectContaining({ amount: 100_000, balanceAfter: 100_000, reason: 'issued' }),
    ]);
    // Nothing is left to do for it: delivered by the text.
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('completed');
  });

  it('is not issued twice by a late second confirmation', async () => {
    await afterPaymentReceived(texting(), { orderId, amount: 100_000, transactionId: 'LATE' });
    expect(await issueGiftCards(texting(), orderId)).toBe(0);
    const issued = await card(orderId);
    expect(issued?.codeHash).toBe(await giftCardHash(code));
    expect(await entriesOf(issued?.id ?? 0)).toHaveLength(1);
    expect(await giftTexts(orderId)).toHaveLength(1);
  });

  it('is spent at checkout across two orders to 0, then refused; its balance is the sum of its entries', async () => {
    const id = (await card(orderId))?.id ?? 0;
    // The texted code, typed as a shopper types it, pays 60,000 + delivery, then the rest.
    const dress = await addProduct(test.db, { price: 60_000 - DELIVERY_FEE, stock: 5 });
    const coat = await addProduct(test.db, { price: 70_000, stock: 5 });
    const buy = (variantId: number) =>
      as(other).checkout.placeOrder({
        orderId: randomUUID(),
        items: [{ variantId, quantity: 1 }],
        paymentMethod: 'mobile_money',
        codes: [code.toLowerCase().replaceAll('-', ' ')],
      });
    const first = await buy(dress.variantId);
    expect(first.total).toBe(0);
    expect(await expectBalanceIsSum(id)).toBe(40_000);
    const second = await buy(coat.variantId);
    expect(second.total).toBe(70_000 + DELIVERY_FEE - 40_000);
    expect(await expectBalanceIsSum(id)).toBe(0);
    await expect(buy(dress.variantId)).rejects.toThrow(
      /^The gift card .+ has nothing left on it\.$/,
    );
    expect(await expectBalanceIsSum(id)).toBe(0);
    const spends = (await entriesOf(id)).filter((entry) => entry.reason === 'spent');
    expect(spends.map((entry) => [entry.amount, entry.orderId])).toEqual([
      [-60_000, first.orderId],
      [-40_000, second.orderId],
    ]);
    // The balance's CHECK is the last guard: a spend past it is refused by the database itself.
    const refused = await spend(id, 1).catch((error: unknown) => error);
    expect(postgresCode(refused)).toBe(PG.check);
  });
});

describe('a gift card whose issuing was cut short', () => {
  it('is issued by the scheduled sweep, once', async () => {
    const orderId = randomUUID();
    await as(buyer).giftCards.buy({
      ...buyInput(orderId),
      recipientName: 'Sarah Nansubuga',
      recipientPhone: '0772 654321',
    });
    // Paid, but the work after the confirmation never ran (the Worker was stopped).
    await test.db.execute(sql`
      insert into payments (id, order_id, customer_id, network, amount, status, transaction_id,
                            callback_secret, settled_at)
      values (${randomUUID()}::uuid, ${orderId}::uuid, ${buyer.id}, 'bank_transfer', 100000,
              'successful', 'SWEPT', ${randomUUID()}, now())`);
    expect((await card(orderId))?.issuedAt).toBeNull();
    expect(await sweepGiftCards(texting())).toBe(1);
    expect(await sweepGiftCards(texting())).toBe(0);
    expect((await card(orderId))?.balance).toBe(100_000);
    expect(await giftTexts(orderId)).toHaveLength(1);
  });
});

describe('giftCards.buy refuses', () => {
  it('a visitor (UNAUTHORIZED)', async () => {
    await expect(visitor().giftCards.buy(buyInput())).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it.each([
    ['an amount below the least', { amount: 9_999 }, GIFT_CARD_TEXT.badAmount],
    ['an amount above the most', { amount: 2_000_001 }, GIFT_CARD_TEXT.badAmount],
    ['a fraction', { amount: 50_000.5 }, GIFT_CARD_TEXT.badAmount],
    ['an amount as text', { amount: '50000' }, GIFT_CARD_TEXT.badAmount],
    ['cash on delivery', { paymentMethod: 'cash_on_delivery' }, GIFT_CARD_TEXT.badMethod],
    ['a number abroad', { recipientPhone: '+447700900123' }, GIFT_CARD_TEXT.badPhone],
    ['letters for a phone', { recipientPhone: 'call me' }, GIFT_CARD_TEXT.badPhone],
    ['no name', { recipientName: '   ' }, GIFT_CARD_TEXT.badName],
    ['a NUL in the name', { recipientName: 'Amina\u0000' }, GIFT_CARD_TEXT.badName],
    ['a huge message', { message: 'x'.repeat(100_000) }, GIFT_CARD_TEXT.badMessage],
    ['a key it does not know', { price: 1 }, GIFT_CARD_TEXT.failed],
  ])('%s, writing nothing', async (_case, change, message) => {
    const input = { ...buyInput(), ...change };
    await expect(as(buyer).giftCards.buy(input as never)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message,
    });
    expect(await test.db.select().from(orders).where(eq(orders.id, input.orderId))).toEqual([]);
  });

  it('no way of paying: the payment text, writing nothing', async () => {
    const { paymentMethod: _none, ...input } = buyInput();
    await expect(as(buyer).giftCards.buy(input as never)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: GIFT_CARD_TEXT.badMethod,
    });
    expect(await test.db.select().from(orders).where(eq(orders.id, input.orderId))).toEqual([]);
  });

  it('her ordinary order’s id, and a checkout with her gift card’s id (409, nothing written)', async () => {
    const scarf = await addProduct(test.db, { price: 40_000, stock: 3 });
    const items = [{ variantId: scarf.variantId, quantity: 1 }];
    const orderId = randomUUID();
    await as(buyer).checkout.placeOrder({ orderId, items, paymentMethod: 'bank_transfer' });
    await expect(as(buyer).giftCards.buy(buyInput(orderId))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: CHECKOUT_TEXT.orderIdOtherKind,
    });
    expect(await card(orderId)).toBeUndefined();

    const cardOrderId = randomUUID();
    await as(buyer).giftCards.buy({ ...buyInput(cardOrderId), recipientName: 'Other Kind' });
    await expect(
      as(buyer).checkout.placeOrder({
        orderId: cardOrderId,
        items,
        paymentMethod: 'bank_transfer',
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: CHECKOUT_TEXT.orderIdOtherKind });
    const lines = await test.db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, cardOrderId));
    expect(lines).toHaveLength(1);
    expect(await stockNow(test.db, scarf)).toBe(2);
  });

  it('her other attempts using up the limit before the write: 429 with the wait', async () => {
    const hasty = await signedInShopper(test.db, auth, { name: 'Hasty Buyer' });
    const phone = '+256772000953';
    await test.db
      .insert(profiles)
      .values({ id: hasty.id, email: hasty.email, fullName: hasty.name, phone })
      .onConflictDoUpdate({ target: profiles.id, set: { fullName: hasty.name, phone } });
    // Her other attempts in flight are counted between this one's read and its write.
    const racing = betweenReadAndWrite(test.db, async () => {
      for (let n = 0; n < CHECKOUT_LIMIT.max; n++) {
        await countAttempt(test.db, `checkout:user:${hasty.id}`, CHECKOUT_LIMIT);
      }
    });
    const input = buyInput();
    await expect(
      callerFor(racing, new Headers({ cookie: hasty.cookie }), { auth }).giftCards.buy(input),
    ).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringMatching(
        /^Too many attempts\. Please wait \d+ seconds and try again\.$/,
      ),
    });
    expect(await test.db.select().from(orders).where(eq(orders.id, input.orderId))).toEqual([]);
  });
});

describe('store credit', () => {
  it('is granted by staff with a reason, recorded, and read by the shopper', async () => {
    const granted = await deskCaller(test.db, staff).grantCredit({
      email: ` ${other.email.toUpperCase()} `,
      amount: 25_000,
      reason: 'Late delivery, sorry',
    });
    expect(granted).toEqual({ balance: 25_000 });
    await deskCaller(test.db, owner).grantCredit({
      email: other.email,
      amount: 5_000,
      reason: 'Birthday',
    });
    const credit = await as(other).account.credit();
    expect(credit.balance).toBe(30_000);
    expect(credit.entries.map((e) => [e.amount, e.balanceAfter, e.reason, e.note])).toEqual([
      [5_000, 30_000, 'granted', 'Birthday'],
      [25_000, 25_000, 'granted', 'Late delivery, sorry'],
    ]);
    const accounts = await test.db
      .select()
      .from(valueAccounts)
      .where(and(eq(valueAccounts.userId, other.id), eq(valueAccounts.kind, 'store_credit')));
    expect(accounts).toHaveLength(1);
    await expectBalanceIsSum(accounts[0]?.id ?? 0);
    const entries = await entriesOf(accounts[0]?.id ?? 0);
    expect(new Set(entries.map((e) => e.actor))).toEqual(new Set([staff.id, owner.id]));
    const records = await test.db
      .select()
      .from(deskRecords)
      .where(eq(deskRecords.action, 'credit.granted'));
    expect(records.map((r) => r.actorEmail).sort()).toEqual([owner.email, staff.email].sort());
  });

  it('is the shopper’s own: another shopper reads only hers', async () => {
    expect(await as(buyer).account.credit()).toEqual({ balance: 0, entries: [] });
    await expect(visitor().account.credit()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('granted once for a retried key (a double tap, a dropped connection)', async () => {
    const fourth = await signedInShopper(test.db, auth, { name: 'Fourth Shopper' });
    const input = {
      email: fourth.email,
      amount: 7_000,
      reason: 'Once',
      requestKey: randomUUID(),
    };
    const answers = await Promise.all([
      deskCaller(test.db, staff).grantCredit(input),
      deskCaller(test.db, staff).grantCredit(input),
    ]);
    expect(await deskCaller(test.db, staff).grantCredit(input)).toEqual({ balance: 7_000 });
    expect(answers).toEqual([{ balance: 7_000 }, { balance: 7_000 }]);
    const credit = await as(fourth).account.credit();
    expect(credit).toMatchObject({ balance: 7_000, entries: [{ amount: 7_000 }] });
    // Another person's key is not theirs to replay.
    await expect(deskCaller(test.db, owner).grantCredit(input)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('two first grants at once make one account holding both', async () => {
    const third = await signedInShopper(test.db, auth, { name: 'Third Shopper' });
    await Promise.all([
      deskCaller(test.db, staff).grantCredit({ email: third.email, amount: 1_000, reason: 'a' }),
      deskCaller(test.db, owner).grantCredit({ email: third.email, amount: 2_000, reason: 'b' }),
    ]);
    expect((await as(third).account.credit()).balance).toBe(3_000);
  });

  it('for an unknown email is refused with a clear text, writing nothing', async () => {
    await expect(
      deskCaller(test.db, staff).grantCredit({
        email: 'nobody@example.ug',
        amount: 1_000,
        reason: 'x',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: CREDIT_TEXT.unknownEmail });
  });

  it.each([
    ['0', { amount: 0 }, CREDIT_TEXT.badAmount],
    ['above 5,000,000', { amount: 5_000_001 }, CREDIT_TEXT.badAmount],
    ['a fraction', { amount: 1.5 }, CREDIT_TEXT.badAmount],
    ['no reason', { reason: ' ' }, CREDIT_TEXT.badReason],
    ['a reason too long', { reason: 'x'.repeat(201) }, CREDIT_TEXT.badReason],
    ['a NUL', { reason: 'sorry\u0000' }, CREDIT_TEXT.badReason],
    ['no email', { email: 'not an email' }, CREDIT_TEXT.badEmail],
  ])('with %s is refused', async (_case, change, message) => {
    const input = { email: other.email, amount: 1_000, reason: 'ok', ...change };
    await expect(deskCaller(test.db, staff).grantCredit(input as never)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message,
    });
    expect((await as(other).account.credit()).balance).toBe(30_000);
  });

  it('is FORBIDDEN to customers and UNAUTHORIZED to visitors, on the desk', async () => {
    const input = { email: buyer.email, amount: 1_000, reason: 'for me' };
    await expect(as(buyer).desk.grantCredit(input)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(as(buyer).desk.credit()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(visitor().desk.grantCredit(input)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect((await as(buyer).account.credit()).balance).toBe(0);
  });

  it('and gift cards are listed on the desk with every entry', async () => {
    const { giftCards, credit } = await deskCaller(test.db, staff).credit();
    const sold = giftCards.find((c) => c.recipientName === 'Amina Nalule');
    expect(sold).toMatchObject({ amount: 100_000, balance: 0, buyer: 'Nakato Achieng' });
    expect(sold?.last4).toMatch(/^[A-Z0-9]{4}$/);
    expect(sold?.entries.map((e) => e.reason)).toEqual(['spent', 'spent', 'issued']);
    const hers = credit.find((c) => c.email === other.email);
    expect(hers).toMatchObject({ balance: 30_000, shopper: 'Achan Grace' });
    expect(hers?.entries).toHaveLength(2);
  });
});
