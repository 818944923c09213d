// Delivery at checkout (issue 23), through the real router on a real database: each option's
// total and what the order and its receipt keep; the fee and the free-delivery threshold read by
// the one write, never taken from the client; cash on delivery refused where the owner disabled
// it; retired and unknown options refused; bad input answered 400 with the field's message.
// PGlite by default; PostgreSQL when TEST_DATABASE_URL is set.
import { randomUUID } from 'node:crypto';
import { neonConfig } from '@neondatabase/serverless';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TEXT, FREE_DELIVERY_KEY } from '#core/delivery-rules.ts';
import { CHECKOUT_TEXT, DELIVERY_FEE } from '#core/order-rules.ts';
import type { Receipt } from '#core/receipt.ts';
import { invisibleCharacters } from '#core/text.ts';
import {
  deliveryOptions,
  orderItems,
  orders,
  profiles,
  receipts,
  systemSettings,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf, type TestPiece } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

let phones = 0;
/** A signed-in shopper with a complete profile (its own phone), and their tRPC caller. */
async function shopper() {
  const signed = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  phones += 1;
  const phone = `+25677200${String(phones).padStart(4, '0')}`;
  await test.db.update(profiles).set({ phone }).where(eq(profiles.id, signed.id));
  const caller = callerFor(test.db, new Headers({ cookie: signed.cookie }), { auth });
  return { ...signed, phone, checkout: caller.checkout };
}

const piece = (price: number, stock = 10) => addProduct(test.db, { price, stock });

const one = (p: TestPiece, quantity = 1) => [{ variantId: p.variantId, quantity }];

const orderRow = async (id: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, id)))[0];
const storedReceipt = async (id: string) =>
  (await test.db.select().from(receipts).where(eq(receipts.orderId, id)))[0];
/** The delivery the stored receipt names. */
const receiptDelivery = async (id: string) =>
  ((await storedReceipt(id))?.receiptData as Receipt | undefined)?.delivery;
const ordersOf = (customerId: string) =>
  test.db.select().from(orders).where(eq(orders.customerId, customerId));

/** What the owner does on the desk: an option's fields, the threshold (null: off). */
async function setOption(id: string, change: Partial<typeof deliveryOptions.$inferInsert>) {
  await test.db.update(deliveryOptions).set(change).where(eq(deliveryOptions.id, id));
}
async function setThreshold(value: string | null) {
  await test.db.delete(systemSettings).where(eq(systemSettings.settingKey, FREE_DELIVERY_KEY));
  if (value !== null) {
    await test.db
      .insert(systemSettings)
      .values({ settingKey: FREE_DELIVERY_KEY, settingValue: value });
  }
}
const DEFAULTS = {
  kampala: { fee: 5000, active: true, cashOnDelivery: true },
  pickup: { fee: 0, active: true, cashOnDelivery: true },
  upcountry: { fee: 15_000, active: true, cashOnDelivery: false },
} as const;
async function restoreDefaults() {
  for (const [id, values] of Object.entries(DEFAULTS)) await setOption(id, values);
  await setThreshold(null);
}

describe('each option’s total and what the order keeps', () => {
  it('Kampala: items + 5,000; the area, landmark, notes and the profile’s phone are kept, on the receipt too', async () => {
    const me = await shopper();
    const dress = await piece(145_000, 5);
    const orderId = randomUUID();
    const placed = await me.checkout.placeOrder({
      orderId,
      items: one(dress, 2),
      paymentMethod: 'mobile_money',
      deliveryOptionId: 'kampala',
      deliveryArea: '  Ntinda ',
      deliveryLandmark: 'Opposite Capital Shoppers',
      deliveryNotes: 'Call when at the gate.\nBlue gate.',
    });
    expect(placed).toEqual({ orderId, total: 295_000, deliveryFee: 5000, created: true });
    expect(await orderRow(orderId)).toMatchObject({
      subtotal: 290_000,
      deliveryFee: 5000,
      total: 295_000,
      deliveryOptionId: 'kampala',
      deliveryOption: 'Kampala delivery',
      deliveryKind: 'delivery',
      deliveryArea: 'Ntinda',
      deliveryLandmark: 'Opposite Capital Shoppers',
      deliveryPhone: me.phone,
      deliveryNotes: 'Call when at the gate.\nBlue gate.',
      riderName: null,
      riderPhone: null,
    });
    const receipt = await storedReceipt(orderId);
    expect(receipt).toMatchObject({ deliveryFee: 5000, totalAmount: 295_000 });
    expect(await receiptDelivery(orderId)).toEqual({
      option: 'Kampala delivery',
      kind: 'delivery',
      area: 'Ntinda',
      landmark: 'Opposite Capital Shoppers',
      phone: me.phone,
      notes: 'Call when at the gate.\nBlue gate.',
    });
    expect(await stockOf(test.db, { variantId: dress.variantId })).toBe(3);
  });

  it('pickup: items + 0, no area needed; upcountry: items + 15,000 with the rider’s phone as given', async () => {
    const me = await shopper();
    const scarf = await piece(35_000);
    const pickupId = randomUUID();
    expect(
      await me.checkout.placeOrder({
        orderId: pickupId,
        items: one(scarf),
        paymentMethod: 'cash_on_delivery',
        deliveryOptionId: 'pickup',
      }),
    ).toEqual({ orderId: pickupId, total: 35_000, deliveryFee: 0, created: true });
    expect(await orderRow(pickupId)).toMatchObject({
      subtotal: 35_000,
      deliveryFee: 0,
      total: 35_000,
      deliveryOptionId: 'pickup',
      deliveryOption: 'Pick up at the boutique',
      deliveryKind: 'pickup',
      deliveryArea: '',
      deliveryPhone: me.phone,
      paymentMethod: 'cash_on_delivery',
    });
    expect(await receiptDelivery(pickupId)).toMatchObject({
      option: 'Pick up at the boutique',
      kind: 'pickup',
    });

    const upId = randomUUID();
    expect(
      await me.checkout.placeOrder({
        orderId: upId,
        items: one(scarf, 3),
        paymentMethod: 'card',
        deliveryOptionId: 'upcountry',
        deliveryArea: 'Gulu',
        deliveryLandmark: 'Gulu bus park',
        deliveryPhone: '0752 123 456',
        deliveryNotes: '',
      }),
    ).toEqual({ orderId: upId, total: 120_000, deliveryFee: 15_000, created: true });
    expect(await orderRow(upId)).toMatchObject({
      subtotal: 105_000,
      deliveryFee: 15_000,
      total: 120_000,
      deliveryOptionId: 'upcountry',
      deliveryOption: 'Upcountry by bus courier',
      deliveryKind: 'courier',
      deliveryArea: 'Gulu',
      deliveryLandmark: 'Gulu bus park',
      deliveryPhone: '+256752123456',
      deliveryNotes: '',
    });
    const receipt = await storedReceipt(upId);
    expect(receipt).toMatchObject({ deliveryFee: 15_000, totalAmount: 120_000 });
    expect(await receiptDelivery(upId)).toEqual({
      option: 'Upcountry by bus courier',
      kind: 'courier',
      area: 'Gulu',
      landmark: 'Gulu bus park',
      phone: '+256752123456',
      notes: '',
    });
  });

  it('no option given (older clients): Kampala delivery at exactly the spec’s 5,000, no area asked', async () => {
    const me = await shopper();
    const bag = await piece(80_000);
    const orderId = randomUUID();
    const placed = await me.checkout.placeOrder({
      orderId,
      items: one(bag),
      paymentMethod: 'card',
    });
    expect(DELIVERY_FEE).toBe(5000);
    expect(placed).toEqual({ orderId, total: 85_000, deliveryFee: DELIVERY_FEE, created: true });
    expect(await orderRow(orderId)).toMatchObject({
      deliveryFee: 5000,
      total: 85_000,
      deliveryOptionId: 'kampala',
      deliveryOption: 'Kampala delivery',
      deliveryKind: 'delivery',
      deliveryArea: '',
      deliveryPhone: me.phone,
    });
  });

  it('a blank phone for the rider is the profile’s', async () => {
    const me = await shopper();
    const orderId = randomUUID();
    await me.checkout.placeOrder({
      orderId,
      items: one(await piece(20_000)),
      paymentMethod: 'card',
      deliveryOptionId: 'kampala',
      deliveryArea: 'Kololo',
      deliveryPhone: '',
    });
    expect((await orderRow(orderId))?.deliveryPhone).toBe(me.phone);
  });
});

describe('the fee is the shop’s, read by the write', () => {
  it('a fee or total sent by the client is refused by the strict input; nothing lowers the fee', async () => {
    const me = await shopper();
    const coat = await piece(200_000);
    for (const extra of [
      { deliveryFee: 0 },
      { total: 1 },
      { fee: 0 },
      { delivery: { fee: 0 } },
      { freeDeliveryOver: 1 },
    ]) {
      const tampered = await mutateOverHttp(
        test.db,
        'checkout.placeOrder',
        {
          orderId: randomUUID(),
          items: one(coat),
          paymentMethod: 'card',
          deliveryOptionId: 'upcountry',
          deliveryArea: 'Mbarara',
          ...extra,
        },
        { auth, cookie: me.cookie },
      );
      expect(tampered.status, JSON.stringify(extra)).toBe(400);
      expect(tampered.body.error?.message).toBe(CHECKOUT_TEXT.checkoutError);
    }
    expect(await ordersOf(me.id)).toEqual([]);
    expect(await stockOf(test.db, { variantId: coat.variantId })).toBe(10);
    // Sent plainly, the same order pays the option's fee as the shop sets it.
    const orderId = randomUUID();
    const ok = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId,
        items: one(coat),
        paymentMethod: 'card',
        deliveryOptionId: 'upcountry',
        deliveryArea: 'Mbarara',
      },
      { auth, cookie: me.cookie },
    );
    expect(ok.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ deliveryFee: 15_000, total: 215_000 });
  });

  it('the owner changing the fee after the shopper looked: the order pays the fee at write time', async () => {
    const me = await shopper();
    const skirt = await piece(60_000);
    try {
      const seen = await me.checkout.deliveryOptions();
      expect(seen.options.find((o) => o.id === 'kampala')?.fee).toBe(5000);
      // Changed between the shopper's view and Place Order.
      await setOption('kampala', { fee: 7000 });
      const first = randomUUID();
      expect(
        await me.checkout.placeOrder({
          orderId: first,
          items: one(skirt),
          paymentMethod: 'card',
          deliveryOptionId: 'kampala',
          deliveryArea: 'Bukoto',
        }),
      ).toMatchObject({ total: 67_000, deliveryFee: 7000 });

      // Changed after placeOrder's read and just before its write is sent: the write's own read
      // of the fee decides (8,000), not anything read earlier.
      const second = randomUUID();
      const original = neonConfig.fetchFunction;
      let changed = false;
      neonConfig.fetchFunction = async (url: string, init: RequestInit) => {
        if (!changed && /insert into orders/i.test(String(init.body))) {
          changed = true;
          await setOption('kampala', { fee: 8000 });
        }
        return fetch(url, init);
      };
      try {
        expect(
          await me.checkout.placeOrder({
            orderId: second,
            items: one(skirt),
            paymentMethod: 'card',
            deliveryOptionId: 'kampala',
            deliveryArea: 'Bukoto',
          }),
        ).toMatchObject({ total: 68_000, deliveryFee: 8000 });
      } finally {
        neonConfig.fetchFunction = original;
      }
      expect(changed).toBe(true);
      expect(await orderRow(second)).toMatchObject({ deliveryFee: 8000, total: 68_000 });
      expect(await storedReceipt(second)).toMatchObject({ deliveryFee: 8000, totalAmount: 68_000 });
      // The first order keeps what it was charged.
      expect(await orderRow(first)).toMatchObject({ deliveryFee: 7000, total: 67_000 });
    } finally {
      await restoreDefaults();
    }
  });

  it('an option retired just before the write places nothing and says so', async () => {
    const me = await shopper();
    const hat = await piece(30_000, 4);
    const original = neonConfig.fetchFunction;
    let retired = false;
    neonConfig.fetchFunction = async (url: string, init: RequestInit) => {
      if (!retired && /insert into orders/i.test(String(init.body))) {
        retired = true;
        await setOption('upcountry', { active: false });
      }
      return fetch(url, init);
    };
    try {
      await expect(
        me.checkout.placeOrder({
          orderId: randomUUID(),
          items: one(hat),
          paymentMethod: 'card',
          deliveryOptionId: 'upcountry',
          deliveryArea: 'Lira',
        }),
      ).rejects.toMatchObject({ code: 'CONFLICT', message: DELIVERY_TEXT.optionUnavailable });
    } finally {
      neonConfig.fetchFunction = original;
      await restoreDefaults();
    }
    expect(retired).toBe(true);
    expect(await ordersOf(me.id)).toEqual([]);
    expect(await stockOf(test.db, { variantId: hat.variantId })).toBe(4);
  });
});

describe('the owner’s rules', () => {
  it('cash on delivery upcountry is refused with the option named; nothing written, stock untouched', async () => {
    const me = await shopper();
    const dress = await piece(145_000, 3);
    const orderId = randomUUID();
    const refused = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      {
        orderId,
        items: one(dress),
        paymentMethod: 'cash_on_delivery',
        deliveryOptionId: 'upcountry',
        deliveryArea: 'Gulu',
      },
      { auth, cookie: me.cookie },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(
      DELIVERY_TEXT.cashNotOffered('Upcountry by bus courier'),
    );
    expect(refused.body.error?.message).toBe(
      'Cash on delivery is not available for Upcountry by bus courier. Please choose another way to pay.',
    );
    expect(await orderRow(orderId)).toBeUndefined();
    expect(await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId))).toEqual(
      [],
    );
    expect(await stockOf(test.db, { variantId: dress.variantId })).toBe(3);
    // The same order paid another way goes through; cash stays fine in Kampala.
    await expect(
      me.checkout.placeOrder({
        orderId,
        items: one(dress),
        paymentMethod: 'mobile_money',
        deliveryOptionId: 'upcountry',
        deliveryArea: 'Gulu',
      }),
    ).resolves.toMatchObject({ total: 160_000, created: true });
    await expect(
      me.checkout.placeOrder({
        orderId: randomUUID(),
        items: one(dress),
        paymentMethod: 'cash_on_delivery',
        deliveryOptionId: 'kampala',
        deliveryArea: 'Nakawa',
      }),
    ).resolves.toMatchObject({ total: 150_000 });
  });

  it('the free-delivery threshold: off by default; when set, free at and above it, charged below', async () => {
    // Two shoppers: more orders than one may place in a minute (CHECKOUT_LIMIT).
    const [me, other] = [await shopper(), await shopper()];
    const [below, at, above] = [await piece(199_999), await piece(200_000), await piece(250_000)];
    let placed = 0;
    const place = async (p: TestPiece, deliveryOptionId = 'kampala') => {
      const orderId = randomUUID();
      placed += 1;
      const answer = await (placed <= 8 ? me : other).checkout.placeOrder({
        orderId,
        items: one(p),
        paymentMethod: 'card',
        deliveryOptionId,
        deliveryArea: 'Kira',
      });
      const row = await orderRow(orderId);
      return { answer: [answer.deliveryFee, answer.total], row: [row?.deliveryFee, row?.total] };
    };
    // Off by default: even a large order pays the fee.
    expect((await me.checkout.deliveryOptions()).freeDeliveryOver).toBeNull();
    expect(await place(above)).toEqual({ answer: [5000, 255_000], row: [5000, 255_000] });
    try {
      await setThreshold('200000');
      expect((await me.checkout.deliveryOptions()).freeDeliveryOver).toBe(200_000);
      expect(await place(below)).toEqual({ answer: [5000, 204_999], row: [5000, 204_999] });
      expect(await place(at)).toEqual({ answer: [0, 200_000], row: [0, 200_000] });
      expect(await place(above)).toEqual({ answer: [0, 250_000], row: [0, 250_000] });
      // It applies to every option, upcountry too.
      expect(await place(above, 'upcountry')).toEqual({
        answer: [0, 250_000],
        row: [0, 250_000],
      });
      // A value that is not a whole positive amount is no threshold at all: neither promised
      // nor applied.
      for (const junk of ['0', 'lots', '-5', '2e5', '007']) {
        await setThreshold(junk);
        expect((await me.checkout.deliveryOptions()).freeDeliveryOver, junk).toBeNull();
        expect(await place(above), junk).toEqual({
          answer: [5000, 255_000],
          row: [5000, 255_000],
        });
      }
      // Stored with spaces around it: what the shop promises is what it charges.
      await setThreshold(' 200000\n');
      expect((await me.checkout.deliveryOptions()).freeDeliveryOver).toBe(200_000);
      expect(await place(at)).toEqual({ answer: [0, 200_000], row: [0, 200_000] });
    } finally {
      await restoreDefaults();
    }
  });

  it('a retired option and an unknown one are refused: nothing written', async () => {
    const me = await shopper();
    const belt = await piece(40_000, 2);
    try {
      await setOption('upcountry', { active: false });
      expect((await me.checkout.deliveryOptions()).options.map((o) => o.id)).toEqual([
        'kampala',
        'pickup',
      ]);
      for (const deliveryOptionId of ['upcountry', 'mars', 'kampala-zone-9']) {
        await expect(
          me.checkout.placeOrder({
            orderId: randomUUID(),
            items: one(belt),
            paymentMethod: 'card',
            deliveryOptionId,
            deliveryArea: 'Jinja',
          }),
          deliveryOptionId,
        ).rejects.toMatchObject({ code: 'CONFLICT', message: DELIVERY_TEXT.optionUnavailable });
      }
    } finally {
      await restoreDefaults();
    }
    expect(await ordersOf(me.id)).toEqual([]);
    expect(await stockOf(test.db, { variantId: belt.variantId })).toBe(2);
  });

  it('a delivery needs the area, upcountry the town; a pickup neither', async () => {
    const me = await shopper();
    const ring = await piece(25_000);
    for (const [deliveryOptionId, deliveryArea, message] of [
      ['kampala', undefined, DELIVERY_TEXT.areaRequired],
      ['kampala', '   ', DELIVERY_TEXT.areaRequired],
      // A parcel goes by bus to a town: no rider looks for an area (issue 32).
      ['upcountry', '', DELIVERY_TEXT.townRequired],
    ] as const) {
      await expect(
        me.checkout.placeOrder({
          orderId: randomUUID(),
          items: one(ring),
          paymentMethod: 'card',
          deliveryOptionId,
          ...(deliveryArea === undefined ? {} : { deliveryArea }),
        }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', message });
    }
    expect(await ordersOf(me.id)).toEqual([]);
    await expect(
      me.checkout.placeOrder({
        orderId: randomUUID(),
        items: one(ring),
        paymentMethod: 'card',
        deliveryOptionId: 'pickup',
      }),
    ).resolves.toMatchObject({ total: 25_000, deliveryFee: 0 });
  });

  it('the same order id sent twice at once makes one order, one decrement; a retry answers its fee', async () => {
    const me = await shopper();
    const shoe = await piece(90_000, 5);
    const order = {
      orderId: randomUUID(),
      items: one(shoe, 2),
      paymentMethod: 'card' as const,
      deliveryOptionId: 'upcountry',
      deliveryArea: 'Mbale',
    };
    const answers = await Promise.all([
      me.checkout.placeOrder(order),
      me.checkout.placeOrder(order),
    ]);
    expect(answers.map((a) => a.orderId)).toEqual([order.orderId, order.orderId]);
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    // Both answers, the retry's too, carry the order's total and the fee it was charged.
    expect(answers.map((a) => [a.total, a.deliveryFee])).toEqual([
      [195_000, 15_000],
      [195_000, 15_000],
    ]);
    // A later retry (a dropped connection) is answered the same, whatever it now asks for.
    expect(await me.checkout.placeOrder({ ...order, deliveryOptionId: 'pickup' })).toEqual({
      orderId: order.orderId,
      total: 195_000,
      deliveryFee: 15_000,
      created: false,
    });
    expect(await ordersOf(me.id)).toHaveLength(1);
    expect(await stockOf(test.db, { variantId: shoe.variantId })).toBe(3);
  });
});

describe('bad delivery input', () => {
  it('answers 400 with the field’s message, never 500, and writes nothing', async () => {
    const me = await shopper();
    const top = await piece(50_000);
    const base = {
      items: one(top),
      paymentMethod: 'card',
      deliveryOptionId: 'kampala',
      deliveryArea: 'Ntinda',
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ deliveryArea: 'Nti\u0000nda' }, invisibleCharacters('Area')],
      [{ deliveryLandmark: 'Shell\u0007' }, invisibleCharacters('Landmark')],
      [{ deliveryNotes: 'x'.repeat(10_000) }, DELIVERY_TEXT.notesTooLong],
      [{ deliveryNotes: 'Ring\u0000' }, invisibleCharacters('Delivery notes')],
      [{ deliveryArea: 'a'.repeat(81) }, DELIVERY_TEXT.areaTooLong],
      [{ deliveryLandmark: 'l'.repeat(121) }, DELIVERY_TEXT.landmarkTooLong],
      [{ deliveryPhone: 'abc' }, DELIVERY_TEXT.phoneInvalid],
      [{ deliveryPhone: '0772 12' }, DELIVERY_TEXT.phoneInvalid],
      [{ deliveryPhone: '+1 202 555 0100' }, DELIVERY_TEXT.phoneInvalid],
      [{ deliveryOptionId: 'KAMPALA' }, DELIVERY_TEXT.optionUnavailable],
      [{ deliveryOptionId: 'kampala🛵' }, DELIVERY_TEXT.optionUnavailable],
      [{ deliveryOptionId: 'kampala\u0000' }, DELIVERY_TEXT.optionUnavailable],
      [{ deliveryOptionId: '' }, DELIVERY_TEXT.optionUnavailable],
      [{ deliveryOptionId: 'x'.repeat(41) }, DELIVERY_TEXT.optionUnavailable],
      // Numbers where text belongs, and text where numbers belong.
      [{ deliveryOptionId: 1 }, DELIVERY_TEXT.optionUnavailable],
      [{ deliveryArea: 42 }, DELIVERY_TEXT.notText('Area')],
      [{ deliveryLandmark: 7 }, DELIVERY_TEXT.notText('Landmark')],
      [{ deliveryNotes: 0 }, DELIVERY_TEXT.notText('Delivery notes')],
      [{ deliveryPhone: 772123456 }, DELIVERY_TEXT.phoneInvalid],
      [
        { items: [{ variantId: String(top.variantId), quantity: '1' }] },
        CHECKOUT_TEXT.checkoutError,
      ],
    ];
    for (const [change, message] of cases) {
      const answer = await mutateOverHttp(
        test.db,
        'checkout.placeOrder',
        { ...base, orderId: randomUUID(), ...change },
        { auth, cookie: me.cookie },
      );
      const shown = `${JSON.stringify(change).slice(0, 80)} → ${JSON.stringify(answer.body).slice(0, 300)}`;
      expect(answer.status, shown).toBe(400);
      expect(answer.body.error?.message, shown).toBe(message);
      expect(JSON.stringify(answer.body), shown).not.toMatch(/stack|valibot|\\u0000/i);
    }
    expect(await ordersOf(me.id)).toEqual([]);
    expect(await stockOf(test.db, { variantId: top.variantId })).toBe(10);
  });
});
