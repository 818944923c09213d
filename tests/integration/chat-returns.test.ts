// The assistant and returns (issue 36) against the fake Gemini on loopback, on a real database:
// "Can I return this?" and "Where is my refund?" are answered by the myReturns tool from the
// shopper's own orders, returns and refunds (migration 0020's tables) and the shop's windows from
// its settings; another shopper's returns are never in the answer; a visitor must sign in.
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { receiptNumber } from '#core/order-rules.ts';
import {
  orderItems,
  orders,
  payments,
  products,
  profiles,
  refunds,
  returnLines,
  returns,
  systemSettings,
} from '#db/schema/index.ts';
import { FAKE_GEMINI_KEY, startFakeGemini } from '#local/fakes/gemini.ts';
import type { Auth } from '#server/auth.ts';
import type { AssistantConfig } from '#server/services/chat/assistant.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakeGemini>>;
let model: AssistantConfig;
const DAY = 24 * 60 * 60 * 1000;
type Shopper = Awaited<ReturnType<typeof signedInShopper>>;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  fake = await startFakeGemini();
  model = {
    apiKey: FAKE_GEMINI_KEY,
    model: 'gemini-2.5-flash',
    baseUrl: fake.env.GEMINI_BASE_URL ?? null,
    contact: DEFAULT_SUPPORT,
  };
});
afterAll(async () => {
  await fake?.close();
  await test?.close();
});

/** A day as the shop tells it, in Kampala ('17 March 2026'), worked out apart from the shop. */
const kampalaDay = (at: number) =>
  new Date(at).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Africa/Kampala',
  });

async function shopper(name: string): Promise<Shopper> {
  const signed = await signedInShopper(test.db, auth, { name });
  await test.db
    .update(profiles)
    .set({ phone: '+256772000001', fullName: name, address: 'Plot 4, Kampala Road' })
    .where(eq(profiles.id, signed.id));
  return signed;
}

/** An order of `pieces` (one each) by mobile money, delivered `daysAgo` days ago. */
async function delivered(who: Shopper, daysAgo: number, pieces: { variantId: number }[]) {
  const orderId = randomUUID();
  const placed = await placeOrder(test.db, who, {
    orderId,
    lines: pieces.map((p) => ({ variantId: p.variantId, quantity: 1 })),
    paymentMethod: 'mobile_money',
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  const at = Date.now() - daysAgo * DAY;
  await test.db
    .update(orders)
    .set({ status: 'delivered', deliveredAt: new Date(at) })
    .where(eq(orders.id, orderId));
  const items = await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  return { orderId, at, items };
}

/** A return of the order's first line for a refund, in `status`, with its refund in `refund`. */
async function returned(
  who: Shopper,
  order: Awaited<ReturnType<typeof delivered>>,
  status: string,
  refund: { status: string; amount: number; reference?: string } | null,
) {
  const [item] = order.items;
  if (!item) throw new Error('the order has no line');
  const returnId = randomUUID();
  await test.db.insert(returns).values({
    id: returnId,
    orderId: order.orderId,
    customerId: who.id,
    status,
    resolution: 'refund',
    refundTo: 'original',
    amount: item.price,
    handover: 'drop_off',
  });
  await test.db
    .insert(returnLines)
    .values({ returnId, orderItemId: item.id, quantity: 1, reason: 'too_small' });
  await test.db.update(orderItems).set({ returned: 1 }).where(eq(orderItems.id, item.id));
  if (refund) {
    await test.db.insert(refunds).values({
      orderId: order.orderId,
      returnId,
      customerId: who.id,
      method: 'mtn',
      amount: refund.amount,
      status: refund.status,
      reference: refund.reference ?? null,
      settledAt: refund.status === 'succeeded' ? new Date() : null,
    });
  }
  return returnId;
}

async function ask(cookie: string, text: string) {
  const background: Promise<unknown>[] = [];
  const chat = callerFor(test.db, new Headers({ cookie }), {
    assistant: model,
    background: (work) => background.push(work),
  }).chat;
  const { sessionId } = await chat.start();
  let said = '';
  for await (const piece of await chat.send({ sessionId, text })) {
    if (typeof piece === 'string') said += piece;
  }
  await Promise.all(background);
  const request = fake.requests.at(-1);
  // The reply after the tool ran: the tool's call and answer are in its contents.
  const called = fake.requests
    .slice(-2)
    .flatMap((r) => r.contents.flatMap((c) => c.parts.flatMap((p) => p.functionCall?.name ?? [])));
  return { said, request, called };
}

describe('the assistant and returns', () => {
  it('tells a shopper her delivered piece can be returned until its day, and which cannot', async () => {
    const me = await shopper('Nakato Achieng');
    const dress = await addProduct(test.db, { name: 'Ankara wrap dress', price: 85_000 });
    const hoops = await addProduct(test.db, { name: 'Gold hoop earrings', price: 25_000 });
    await test.db.update(products).set({ returnable: false }).where(eq(products.id, hoops.id));
    const order = await delivered(me, 3, [dress, hoops]);

    const { said, called, request } = await ask(me.cookie, 'Can I return this?');
    expect(called).toContain('myReturns');
    expect(request?.tools).toContain('myReturns');
    expect(said).toContain(`Order ${receiptNumber(order.orderId)}`);
    expect(said).toContain(
      `1 x Ankara wrap dress can be returned until ${kampalaDay(order.at + 14 * DAY)} and exchanged until ${kampalaDay(order.at + 7 * DAY)}`,
    );
    expect(said).toContain('Gold hoop earrings cannot be returned or exchanged.');
    expect(said).not.toMatch(/Gold hoop earrings[^.]*can be returned/);
  });

  it('counts day 14 in and day 15 out: a window past is told closed', async () => {
    const me = await shopper('Achan Grace');
    const shirt = await addProduct(test.db, { name: 'Kitenge shirt', price: 60_000 });
    const last = await delivered(me, 14, [shirt]);
    const past = await delivered(me, 15, [shirt]);

    const { said } = await ask(me.cookie, 'Can I return my kitenge shirt?');
    expect(said).toContain(
      `1 x Kitenge shirt can be returned until ${kampalaDay(Date.now())} (for a refund; the exchange window closed on ${kampalaDay(last.at + 7 * DAY)})`,
    );
    expect(said).toContain(
      `Order ${receiptNumber(past.orderId)}, delivered on ${kampalaDay(past.at)}. The return window for this order closed on ${kampalaDay(past.at + 14 * DAY)}.`,
    );
  });

  it('reports a refund in progress with its status, and one paid with its reference', async () => {
    const me = await shopper('Auma Brenda');
    const skirt = await addProduct(test.db, { name: 'Pleated midi skirt', price: 70_000 });
    const bag = await addProduct(test.db, { name: 'Woven raffia bag', price: 45_000 });
    const sent = await delivered(me, 5, [skirt]);
    const paid = await delivered(me, 6, [bag]);
    await returned(me, sent, 'received', { status: 'sent', amount: 70_000 });
    await returned(me, paid, 'refunded', {
      status: 'succeeded',
      amount: 45_000,
      reference: 'MTN-RF-5521',
    });

    const { said, called } = await ask(me.cookie, 'Where is my refund?');
    expect(called).toContain('myReturns');
    expect(said).toContain(
      `Return on order ${receiptNumber(sent.orderId)}, asked on ${kampalaDay(Date.now())}, for a refund of UGX 70,000: 1 x Pleated midi skirt. Received by the shop. Refund: UGX 70,000 to MTN Mobile Money: sent, waiting for the confirmation.`,
    );
    expect(said).toContain(
      `1 x Woven raffia bag. Refunded. Refund: UGX 45,000 to MTN Mobile Money: paid on ${kampalaDay(Date.now())} (reference MTN-RF-5521).`,
    );
    // Pieces in a return are not offered again.
    expect(said).toContain('Pleated midi skirt is already in a return.');
  });

  it('tells a cancelled order’s money due back, not yet sent', async () => {
    const me = await shopper('Namubiru Joy');
    const coat = await addProduct(test.db, { name: 'Linen trench coat', price: 120_000 });
    const order = await delivered(me, 1, [coat]);
    await test.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, order.orderId));
    await test.db.insert(payments).values({
      id: randomUUID(),
      callbackSecret: randomUUID(),
      orderId: order.orderId,
      customerId: me.id,
      network: 'mtn',
      phone: '+256772000001',
      amount: 125_000,
      status: 'refund_due',
    });

    const { said } = await ask(me.cookie, 'Where is my refund?');
    expect(said).toContain(
      `Refund for order ${receiptNumber(order.orderId)}: UGX 125,000 to MTN Mobile Money: being prepared, not sent yet.`,
    );
  });

  it('never tells another shopper’s returns or refunds, even asked by her reference', async () => {
    const her = await shopper('Kemigisha Ruth');
    const other = await shopper('Brian Okello');
    const gomesi = await addProduct(test.db, { name: 'Silk gomesi', price: 150_000 });
    const order = await delivered(her, 2, [gomesi]);
    await returned(her, order, 'refunded', {
      status: 'succeeded',
      amount: 150_000,
      reference: 'RUTH-PAID-77',
    });
    const own = await ask(her.cookie, 'Where is my refund?');
    expect(own.said).toContain('RUTH-PAID-77');

    for (const asked of [
      'Where is my refund?',
      `Can I return ${receiptNumber(order.orderId)}?`,
      `Where is the refund for ${receiptNumber(order.orderId)} of ${her.email}?`,
    ]) {
      const { said, called } = await ask(other.cookie, asked);
      expect(called).toContain('myReturns');
      expect(said).toContain(
        asked.includes('RCP-')
          ? 'No order of yours has that reference.'
          : 'You have no orders, returns or refunds yet.',
      );
      for (const never of [
        'RUTH-PAID-77',
        'Silk gomesi',
        '150,000',
        receiptNumber(order.orderId),
      ]) {
        if (!asked.includes(never)) expect(said).not.toContain(never);
      }
    }
  });

  it('asks a signed-out visitor to sign in, and reads nothing', async () => {
    const before = fake.requests.length;
    const chat = callerFor(test.db, new Headers()).chat;
    await expect(chat.start()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(
      chat.send({ sessionId: 'someone-1764000000000', text: 'Where is my refund?' }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(fake.requests.length).toBe(before);
  });

  it('names the shop’s own windows from its settings, in the instructions and in the answer', async () => {
    const me = await shopper('Nansubuga Faith');
    const blazer = await addProduct(test.db, { name: 'Tailored blazer', price: 95_000 });
    const order = await delivered(me, 20, [blazer]);

    const before = await ask(me.cookie, 'Can I return my blazer?');
    expect(before.request?.system).toContain(
      'Returns within 14 days for unworn items with tags. Exchanges within 7 days with the receipt.',
    );
    expect(before.said).toContain('The return window for this order closed on');

    await test.db.insert(systemSettings).values([
      { settingKey: 'return_days', settingValue: '30' },
      { settingKey: 'exchange_days', settingValue: '21' },
    ]);
    try {
      const after = await ask(me.cookie, 'Can I return my blazer?');
      expect(after.request?.system).toContain(
        'Returns within 30 days for unworn items with tags. Exchanges within 21 days with the receipt.',
      );
      expect(after.request?.system).not.toMatch(/14 days|7 days/);
      expect(after.said).toContain(
        `1 x Tailored blazer can be returned until ${kampalaDay(order.at + 30 * DAY)} and exchanged until ${kampalaDay(order.at + 21 * DAY)}`,
      );
    } finally {
      await test.db
        .delete(systemSettings)
        .where(inArray(systemSettings.settingKey, ['return_days', 'exchange_days']));
    }
  });
});
