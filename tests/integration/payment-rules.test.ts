// How an order may be paid (issue 32, decision 0060): the checkout and a change of payment keep
// one rule (core/payment-rules.ts). Cash on delivery only where the option takes cash: an order
// placed upcountry by mobile money could be switched to cash, a combination the checkout refuses.
// No payment above what its provider takes at once (MTN and Airtel: UGX 5,000,000; Pesapal:
// the shop's UGX 5,000,000), no order above UGX 10,000,000,000: an order of UGX 10^13 was placed,
// and mobile-money and card requests of UGX 10^11 were sent to the providers.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TEXT } from '#core/delivery-rules.ts';
import { ORDER_CEILING, PAYMENT_CEILINGS } from '#core/payment-rules.ts';
import { deliveryOptions, orders, payments, profiles } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import type { MobileMoney } from '#server/services/payments/providers.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { mutateOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
/** What reached the providers: a refused payment must never be asked for. */
const asked: { provider: string; amount: number }[] = [];
const providers: MobileMoney = {
  callbackOrigin: 'http://shop.test',
  providers: {
    mtn: {
      network: 'mtn',
      requestPayment: async (request) =>
        void asked.push({ provider: 'mtn', amount: request.amount }),
      paymentStatus: async () => ({ state: 'pending' }),
      parseCallback: async () => null,
    },
  },
  card: {
    provider: 'pesapal',
    timeoutMs: 1_000,
    configuredIpnId: 'ipn-test',
    registerIpn: async () => 'ipn-test',
    submitOrder: async (order) => {
      asked.push({ provider: 'pesapal', amount: order.amount });
      return { trackingId: randomUUID(), redirectUrl: 'https://pay.pesapal.test/' };
    },
    transactionStatus: async () => {
      throw new Error('not asked in these tests');
    },
    refundRequest: async () => {
      throw new Error('not asked in these tests');
    },
  },
};

type Shopper = Awaited<ReturnType<typeof signedInShopper>>;
async function shopper(): Promise<Shopper> {
  const made = await signedInShopper(test.db, auth);
  await test.db
    .update(profiles)
    .set({ fullName: 'Nakato Achieng', phone: '+256772000990', address: 'Plot 4, Kampala Road' })
    .where(eq(profiles.id, made.id));
  return made;
}
const as = (who: Shopper) => ({ auth, cookie: who.cookie, payments: providers });

/** A piece at this price, with plenty in stock. */
const piece = (price: number) => addProduct(test.db, { price, stock: 1_000 });

function place(
  who: Shopper,
  lines: { variantId: number; quantity: number }[],
  paymentMethod: string,
  delivery: Record<string, string> = {},
) {
  const orderId = randomUUID();
  return mutateOverHttp(
    test.db,
    'checkout.placeOrder',
    { orderId, items: lines, paymentMethod, ...delivery },
    as(who),
  ).then((answer) => ({ orderId, answer }));
}

const orderRow = async (id: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, id)))[0];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test?.close());

describe('payments.changeMethod keeps the checkout’s cash rule', () => {
  it('refuses cash on delivery for an order going upcountry, as the checkout does', async () => {
    const nakato = await shopper();
    const wrap = await piece(80_000);
    const upcountry = { deliveryOptionId: 'upcountry', deliveryArea: 'Gulu' };
    const line = [{ variantId: wrap.variantId, quantity: 1 }];

    // The checkout's own refusal, for comparison.
    const byCash = await place(nakato, line, 'cash_on_delivery', upcountry);
    expect([byCash.answer.status, byCash.answer.body.error?.message]).toEqual([
      400,
      DELIVERY_TEXT.cashNotOffered('Upcountry by bus courier'),
    ]);

    const { orderId, answer } = await place(nakato, line, 'mobile_money', upcountry);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const change = (paymentMethod: string) =>
      mutateOverHttp(test.db, 'payments.changeMethod', { orderId, paymentMethod }, as(nakato));
    const toCash = await change('cash_on_delivery');
    expect([toCash.status, toCash.body.error?.message]).toEqual([
      400,
      DELIVERY_TEXT.cashNotOffered('Upcountry by bus courier'),
    ]);
    expect(await orderRow(orderId)).toMatchObject({
      paymentMethod: 'mobile_money',
      deliveryOptionId: 'upcountry',
    });
    // Another way the option takes is fine.
    expect((await change('bank_transfer')).body.result?.data).toEqual({ changed: true });
    expect((await orderRow(orderId))?.paymentMethod).toBe('bank_transfer');
  });

  it('follows the option as the owner sets it now: Kampala without cash refuses the change', async () => {
    const nakato = await shopper();
    const wrap = await piece(60_000);
    const kampala = { deliveryOptionId: 'kampala', deliveryArea: 'Ntinda' };
    const { orderId } = await place(
      nakato,
      [{ variantId: wrap.variantId, quantity: 1 }],
      'mobile_money',
      kampala,
    );
    await test.db
      .update(deliveryOptions)
      .set({ cashOnDelivery: false })
      .where(eq(deliveryOptions.id, 'kampala'));
    try {
      const toCash = await mutateOverHttp(
        test.db,
        'payments.changeMethod',
        { orderId, paymentMethod: 'cash_on_delivery' },
        as(nakato),
      );
      expect([toCash.status, toCash.body.error?.message]).toEqual([
        400,
        DELIVERY_TEXT.cashNotOffered('Kampala delivery'),
      ]);
      expect((await orderRow(orderId))?.paymentMethod).toBe('mobile_money');
    } finally {
      await test.db
        .update(deliveryOptions)
        .set({ cashOnDelivery: true })
        .where(eq(deliveryOptions.id, 'kampala'));
    }
  });
});

describe('the ceilings', () => {
  it('are the providers’ own: UGX 5,000,000 a payment by mobile money or card, 10 billion an order', () => {
    expect(PAYMENT_CEILINGS).toEqual({
      mobile_money: 5_000_000,
      card: 5_000_000,
      bank_transfer: 10_000_000_000,
      cash_on_delivery: 10_000_000_000,
      // Cash at the counter (the desk's, issue 34): the order's own ceiling.
      cash: 10_000_000_000,
    });
    expect(ORDER_CEILING).toBe(10_000_000_000);
  });

  it('refuse an order above what mobile money or a card takes, naming the limit and bank transfer; nothing written', async () => {
    const nakato = await shopper();
    const gown = await piece(2_500_000);
    const two = [{ variantId: gown.variantId, quantity: 2 }]; // 5,000,000 + 5,000 delivery
    const cases = [
      [
        'mobile_money',
        'Mobile money takes at most UGX 5,000,000 a payment. Pay by bank transfer, or split your order.',
      ],
      [
        'card',
        'Card payments take at most UGX 5,000,000 a payment. Pay by bank transfer, or split your order.',
      ],
    ] as const;
    for (const [method, text] of cases) {
      const { orderId, answer } = await place(nakato, two, method);
      expect([method, answer.status, answer.body.error?.message]).toEqual([method, 400, text]);
      expect(await orderRow(orderId)).toBeUndefined();
    }
    expect(await stockOf(test.db, { variantId: gown.variantId })).toBe(1_000);

    // Just at the ceiling: 4,995,000 + 5,000.
    const atCeiling = await piece(4_995_000);
    const { answer } = await place(
      nakato,
      [{ variantId: atCeiling.variantId, quantity: 1 }],
      'mobile_money',
    );
    expect(answer.body.result?.data).toMatchObject({ total: 5_000_000, created: true });
  });

  it('take a large order by bank transfer up to the order’s ceiling, and refuse it above', async () => {
    const nakato = await shopper();
    const gown = await piece(99_999_950);
    const hundred = [{ variantId: gown.variantId, quantity: 100 }]; // 9,999,995,000 + 5,000
    const placed = await place(nakato, hundred, 'bank_transfer');
    expect(placed.answer.body.result?.data).toMatchObject({
      total: 10_000_000_000,
      created: true,
    });

    // The order: UGX 10^13 (100,000 pieces at 100,000,000), and UGX 5,000 over.
    const top = await addProduct(test.db, { price: 100_000_000, stock: 100_000 });
    for (const quantity of [100_000, 100]) {
      const lines = [{ variantId: top.variantId, quantity }];
      for (const method of ['bank_transfer', 'cash_on_delivery']) {
        const { orderId, answer } = await place(nakato, lines, method);
        expect([quantity, method, answer.status, answer.body.error?.message]).toEqual([
          quantity,
          method,
          400,
          'An order can come to at most UGX 10,000,000,000. Please split your order.',
        ]);
        expect(await orderRow(orderId)).toBeUndefined();
      }
    }
    expect(await stockOf(test.db, { variantId: top.variantId })).toBe(100_000);
  });

  it('payments.start and changeMethod refuse an order above the way’s ceiling, before asking any provider', async () => {
    // Orders placed before the ceilings: by mobile money at UGX 50,000,000, by card at 10^11.
    const nakato = await shopper();
    const wrap = await piece(50_000);
    const line = [{ variantId: wrap.variantId, quantity: 1 }];
    const byPhone = await place(nakato, line, 'mobile_money');
    const byCard = await place(nakato, line, 'card');
    await test.db.update(orders).set({ total: 50_000_000 }).where(eq(orders.id, byPhone.orderId));
    await test.db.update(orders).set({ total: 1e11 }).where(eq(orders.id, byCard.orderId));
    asked.length = 0;
    const start = (orderId: string) =>
      mutateOverHttp(test.db, 'payments.start', { orderId }, as(nakato));

    const phone = await start(byPhone.orderId);
    expect([phone.status, phone.body.error?.message]).toEqual([
      400,
      'Mobile money takes at most UGX 5,000,000 a payment. Pay by bank transfer, or split your order.',
    ]);
    const card = await start(byCard.orderId);
    expect([card.status, card.body.error?.message]).toEqual([
      400,
      'Card payments take at most UGX 5,000,000 a payment. Pay by bank transfer, or split your order.',
    ]);
    expect(asked).toEqual([]);
    const started = await test.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, byPhone.orderId));
    expect(started).toEqual([]);

    // After mobile money is refused: not card (the same ceiling), but bank transfer.
    const change = (paymentMethod: string) =>
      mutateOverHttp(
        test.db,
        'payments.changeMethod',
        { orderId: byPhone.orderId, paymentMethod },
        as(nakato),
      );
    const toCard = await change('card');
    expect([toCard.status, toCard.body.error?.message]).toEqual([
      400,
      'Card payments take at most UGX 5,000,000 a payment. Pay by bank transfer, or split your order.',
    ]);
    expect((await change('bank_transfer')).body.result?.data).toEqual({ changed: true });
  });
});
