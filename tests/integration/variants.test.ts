// Sizes and colours through checkout, orders, receipts and texts (issue 21; decisions 0039, 0040),
// on a real database through the Neon driver and the real tRPC router, as shoppers call it: races
// for the last pieces of one size, retries, `{ productId }` for old clients, order items and
// receipts that keep the label, and the back-in-stock text (once, never lost) when a deleted
// pending order returns a size. The races only prove something on PostgreSQL (TEST_DATABASE_URL);
// PGlite runs them one after another.
import { randomUUID } from 'node:crypto';
import { neonConfig } from '@neondatabase/serverless';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_TEXT } from '#core/cart-rules.ts';
import { CHECKOUT_TEXT, ORDERS_TEXT } from '#core/order-rules.ts';
import type { Receipt } from '#core/receipt.ts';
import { VARIANT_TEXT } from '#core/variants.ts';
import {
  backInStockRequests,
  orderItems,
  orders,
  profiles,
  receipts,
  smsNotifications,
} from '#db/schema/index.ts';
import { FAKE_EGOSMS, startFakeEgoSms } from '#local/fakes/egosms-fake.ts';
import type { Auth } from '#server/auth.ts';
import { runScheduledSweeps } from '#server/scheduled.ts';
import { textBackInStock } from '#server/services/back-in-stock.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { orderBook } from '#server/services/desk-orders-service.ts';
import { egoSms } from '#server/services/sms/egosms.ts';
import type { SmsService } from '#server/services/sms-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf, type TestPiece } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, testContext } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakeEgoSms>>;
let sms: SmsService;
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  fake = await startFakeEgoSms();
  sms = {
    gateway: egoSms({
      url: fake.env.EGOSMS_URL ?? '',
      username: FAKE_EGOSMS.username,
      password: FAKE_EGOSMS.password,
      sender: 'duuka',
      timeoutMs: 2000,
    }),
    adminPhone: '+256700111222',
    gapMs: 5,
  };
});
afterAll(async () => {
  await Promise.allSettled(background);
  await fake?.close();
  await test?.close();
});

/** Runs what requests left in the background (SMS delivery), and waits for it. */
async function settle() {
  while (background.length > 0) await Promise.all(background.splice(0));
}

type Shopper = Awaited<ReturnType<typeof signedInShopper>> & { phone: string | null };

let phoneCounter = 0;
/** A signed-in shopper with a complete profile (a phone of their own unless `phone: null`). */
async function shopper(phone?: string | null): Promise<Shopper> {
  const account = await signedInShopper(test.db, auth);
  phoneCounter += 1;
  const number = phone === undefined ? `+2567721${String(phoneCounter).padStart(5, '0')}` : phone;
  await test.db
    .update(profiles)
    .set({ fullName: account.name, phone: number, address: 'Plot 4, Kampala Road' })
    .where(eq(profiles.id, account.id));
  return { ...account, phone: number };
}

const as = (who: Shopper | null) =>
  callerFor(test.db, new Headers(who ? { cookie: who.cookie } : {}), {
    auth,
    sms,
    background: (work) => background.push(work),
  });

const SIZE_COLOUR = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Colour', values: ['Indigo', 'Terracotta'] },
];

let dressCounter = 0;
/** A wrap dress in three sizes and two colours, with `stock` pieces by label. */
function dress(stock: Record<string, number>, price = 145_000): Promise<TestPiece> {
  dressCounter += 1;
  return addProduct(test.db, {
    name: `Ankara Wrap Dress ${dressCounter}`,
    price,
    options: SIZE_COLOUR,
    stock,
  });
}

const variantId = (piece: TestPiece, label: string) => {
  const id = piece.variants[label];
  if (id === undefined) throw new Error(`no variant ${label}`);
  return id;
};

describe('30 buyers racing for the last 3 of one size', () => {
  it('makes exactly 3 orders, that size at 0, the other sizes untouched', async () => {
    const piece = await dress({ 'M · Indigo': 3, 'L · Indigo': 5, 'M · Terracotta': 4 });
    const m = variantId(piece, 'M · Indigo');
    const buyers = await Promise.all(Array.from({ length: 30 }, () => shopper()));
    const ids = buyers.map(() => randomUUID());
    const results = await Promise.allSettled(
      buyers.map((buyer, i) =>
        as(buyer).checkout.placeOrder({
          orderId: ids[i] as string,
          items: [{ variantId: m, quantity: 1 }],
          paymentMethod: 'cash_on_delivery',
        }),
      ),
    );
    await settle();
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const refused of results.filter((r) => r.status === 'rejected')) {
      expect((refused as PromiseRejectedResult).reason.message).toBe(
        CHECKOUT_TEXT.insufficientStock(`${piece.name} (M · Indigo)`, 0),
      );
    }
    expect(await stockOf(test.db, { variantId: m })).toBe(0);
    expect(await stockOf(test.db, { variantId: variantId(piece, 'L · Indigo') })).toBe(5);
    expect(await stockOf(test.db, { variantId: variantId(piece, 'M · Terracotta') })).toBe(4);
    expect(await stockOf(test.db, { variantId: variantId(piece, 'S · Indigo') })).toBe(0);
    const written = await test.db.select().from(orders).where(inArray(orders.id, ids));
    expect(written).toHaveLength(3);
    const items = await test.db
      .select({ variantId: orderItems.variantId, quantity: orderItems.quantity })
      .from(orderItems)
      .where(eq(orderItems.variantId, m));
    expect(items).toEqual(Array.from({ length: 3 }, () => ({ variantId: m, quantity: 1 })));
  });
});

describe('a retried order per variant', () => {
  it('the same order id twice, and five times at once: one order, each size taken once', async () => {
    const piece = await dress({ 'M · Indigo': 6, 'L · Terracotta': 4 });
    const m = variantId(piece, 'M · Indigo');
    const l = variantId(piece, 'L · Terracotta');
    const buyer = await shopper();
    const order = {
      orderId: randomUUID(),
      items: [
        { variantId: m, quantity: 2 },
        { variantId: l, quantity: 1 },
      ],
      paymentMethod: 'cash_on_delivery' as const,
    };
    const first = await as(buyer).checkout.placeOrder(order);
    const again = await as(buyer).checkout.placeOrder(order);
    expect(first).toMatchObject({
      orderId: order.orderId,
      created: true,
      total: 3 * 145_000 + 5000,
    });
    expect(again).toMatchObject({ orderId: order.orderId, created: false });
    const burst = { ...order, orderId: randomUUID() };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        placeOrder(test.db, buyer, {
          orderId: burst.orderId,
          lines: burst.items,
          paymentMethod: burst.paymentMethod,
        }),
      ),
    );
    await settle();
    expect(answers.filter((a) => a.ok && a.order.created)).toHaveLength(1);
    expect(answers.every((a) => a.ok && a.order.orderId === burst.orderId)).toBe(true);
    expect(await stockOf(test.db, { variantId: m })).toBe(6 - 2 - 2);
    expect(await stockOf(test.db, { variantId: l })).toBe(4 - 1 - 1);
    const items = await test.db
      .select()
      .from(orderItems)
      .where(inArray(orderItems.orderId, [order.orderId, burst.orderId]));
    expect(items).toHaveLength(4);
  });
});

describe('{ productId } from older clients', () => {
  it('is refused for a piece in several sizes with "Please choose a size.", nothing written', async () => {
    const piece = await dress({ 'M · Indigo': 3 });
    const buyer = await shopper();
    const orderId = randomUUID();
    await expect(
      as(buyer).checkout.placeOrder({
        orderId,
        items: [{ productId: piece.id, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
      }),
    ).rejects.toThrow(VARIANT_TEXT.chooseSize);
    expect(await test.db.select().from(orders).where(eq(orders.id, orderId))).toEqual([]);
    expect(await stockOf(test.db, { productId: piece.id })).toBe(3);
    await expect(as(buyer).cart.add({ productId: piece.id })).rejects.toThrow(
      VARIANT_TEXT.chooseSize,
    );
    expect((await as(buyer).cart.get()).productsInCart).toEqual([]);
    // Over HTTP too: a 400 with the text, not a 500.
    const http = await mutateOverHttp(
      test.db,
      'checkout.placeOrder',
      { orderId, items: [{ productId: piece.id, quantity: 1 }], paymentMethod: 'card' },
      { auth, cookie: buyer.cookie },
    );
    expect(http.status).toBe(400);
    expect(http.body.error?.message).toBe(VARIANT_TEXT.chooseSize);
  });

  it('is accepted for a piece sold in one variant, in the cart and at checkout', async () => {
    const scarf = await addProduct(test.db, { name: 'Kitenge Scarf', price: 35_000, stock: 4 });
    const buyer = await shopper();
    const cart = await as(buyer).cart.add({ productId: scarf.id });
    expect(cart.productsInCart).toEqual([
      expect.objectContaining({ productId: scarf.id, variantId: scarf.variantId, label: '' }),
    ]);
    const orderId = randomUUID();
    const placed = await as(buyer).checkout.placeOrder({
      orderId,
      items: [{ productId: scarf.id, quantity: 2 }],
      paymentMethod: 'cash_on_delivery',
    });
    await settle();
    expect(placed).toMatchObject({ orderId, created: true, total: 75_000 });
    expect(await stockOf(test.db, { variantId: scarf.variantId })).toBe(2);
    const [item] = await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(item).toMatchObject({ variantId: scarf.variantId, variantLabel: '', quantity: 2 });
  });

  it('cart.add({ variantId }) keeps sizes apart and names them; another size is its own line', async () => {
    const piece = await dress({ 'M · Indigo': 1, 'L · Indigo': 2 });
    const buyer = await shopper();
    await as(buyer).cart.add({ variantId: variantId(piece, 'M · Indigo') });
    const cart = await as(buyer).cart.add({ variantId: variantId(piece, 'L · Indigo') });
    expect(cart.productsInCart.map((line) => line.label).sort()).toEqual([
      'L · Indigo',
      'M · Indigo',
    ]);
    await expect(as(buyer).cart.add({ variantId: variantId(piece, 'M · Indigo') })).rejects.toThrow(
      CART_TEXT.cannotAddMore(1),
    );
  });
});

describe('placeOrder is still one write, at 1, 10 and 50 lines with variants', () => {
  it('one batched read, ONE statement for the order, items and every size, then the receipt', async () => {
    const colours = ['Indigo', 'Terracotta', 'Ochre', 'Ivory', 'Black', 'Emerald', 'Rust', 'Sand'];
    const sizes = ['XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];
    const stock: Record<string, number> = {};
    for (const size of sizes) for (const colour of colours) stock[`${size} · ${colour}`] = 5;
    const piece = await addProduct(test.db, {
      name: 'Barkcloth Tunic',
      price: 20_000,
      options: [
        { name: 'Size', values: sizes },
        { name: 'Colour', values: colours },
      ],
      stock,
    });
    const all = Object.values(piece.variants);
    expect(all.length).toBeGreaterThanOrEqual(50);
    const buyer = await shopper();
    for (const size of [1, 10, 50]) {
      const sent: string[] = [];
      const original = neonConfig.fetchFunction;
      neonConfig.fetchFunction = (url: string, init: RequestInit) => {
        sent.push(String(init.body));
        return fetch(url, init);
      };
      const orderId = randomUUID();
      try {
        const result = await placeOrder(test.db, buyer, {
          orderId,
          lines: all.slice(0, size).map((id) => ({ variantId: id, quantity: 1 })),
          paymentMethod: 'cash_on_delivery',
        });
        expect(result.ok).toBe(true);
      } finally {
        neonConfig.fetchFunction = original;
      }
      // The read batch, the order's write, the receipt's write: three round trips at any size.
      expect(sent).toHaveLength(3);
      const writes = sent.filter((body) => /\b(insert|update|delete)\b/i.test(body));
      expect(writes).toHaveLength(2);
      const [write] = writes.filter((body) => /insert into orders/i.test(body));
      // One statement (not a batch) writes the order, its items and every variant's stock.
      expect(JSON.parse(write ?? '{}')).toHaveProperty('query');
      expect(write).toMatch(/insert into order_items/i);
      expect(write).toMatch(/update product_variants/i);
      expect(writes.filter((body) => /insert into \\?"?receipts/i.test(body))).toHaveLength(1);
      const items = await test.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
      expect(items).toHaveLength(size);
    }
    expect(await stockOf(test.db, { variantId: all[0] as number })).toBe(5 - 3);
    expect(await stockOf(test.db, { variantId: all[49] as number })).toBe(5 - 1);
  });
});

describe('orders keep the size and colour', () => {
  it('in the items, both readings, the receipt (stored and rebuilt), the desk and the texts', async () => {
    const piece = await dress({ 'M · Indigo': 2 });
    const necklace = await addProduct(test.db, {
      name: 'Cowrie Necklace',
      price: 35_000,
      stock: 3,
    });
    const buyer = await shopper();
    const orderId = randomUUID();
    const m = variantId(piece, 'M · Indigo');
    await as(buyer).checkout.placeOrder({
      orderId,
      items: [
        { variantId: m, quantity: 1 },
        { variantId: necklace.variantId, quantity: 1 },
      ],
      paymentMethod: 'cash_on_delivery',
    });
    await settle();
    const items = await test.db
      .select({ variantId: orderItems.variantId, label: orderItems.variantLabel })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId));
    expect(items).toEqual(
      expect.arrayContaining([
        { variantId: m, label: 'M · Indigo' },
        { variantId: necklace.variantId, label: '' },
      ]),
    );
    const listed = (await as(buyer).orders.list()).find((o) => o.id === orderId);
    expect(listed?.items.map((i) => [i.name, i.variant])).toEqual(
      expect.arrayContaining([
        ['Cowrie Necklace', ''],
        [piece.name, 'M · Indigo'],
      ]),
    );
    const one = await as(buyer).orders.byId({ id: orderId });
    expect(one.items.find((i) => i.name === piece.name)?.variant).toBe('M · Indigo');

    const stored = await as(buyer).orders.receipt({ orderId });
    expect(stored.items.find((i) => i.name === piece.name)?.variant).toBe('M · Indigo');
    expect(stored.items.find((i) => i.name === 'Cowrie Necklace')).not.toHaveProperty('variant');
    await test.db.delete(receipts).where(eq(receipts.orderId, orderId));
    const rebuilt = await as(buyer).orders.receipt({ orderId });
    expect(rebuilt.items.find((i) => i.name === piece.name)?.variant).toBe('M · Indigo');
    const [again] = await test.db
      .select({ data: receipts.receiptData })
      .from(receipts)
      .where(eq(receipts.orderId, orderId));
    expect(
      (again?.data as Receipt | undefined)?.items.find((i) => i.name === piece.name)?.variant,
    ).toBe('M · Indigo');

    const desk = (await orderBook(test.db, { q: orderId })).orders.find((o) => o.id === orderId);
    expect(desk?.pieces).toEqual(
      expect.arrayContaining([
        { name: piece.name, variant: 'M · Indigo', quantity: 1 },
        { name: 'Cowrie Necklace', variant: '', quantity: 1 },
      ]),
    );

    const texts = await test.db
      .select({ kind: smsNotifications.kind, message: smsNotifications.messageContent })
      .from(smsNotifications)
      .where(eq(smsNotifications.orderId, orderId));
    const confirmation = texts.find((t) => t.kind === 'order-confirmation')?.message ?? '';
    expect(confirmation).toContain(`${piece.name} (M/Indigo) and Cowrie Necklace`);
    expect(confirmation).not.toMatch(/[·?]/);
    // The piece is down to 1: the admin's alert names the size.
    expect(texts.find((t) => t.kind === 'low-stock')?.message).toContain(
      `${piece.name} (M/Indigo, 1 left)`,
    );
    expect(fake.sent.some((s) => s.message === confirmation)).toBe(true);
  });
});

describe('back in stock', () => {
  /** A sold-out size with one pending order holding a piece of it; deleting it returns the size. */
  async function soldOutBy(buyer: Shopper, pieces = 1) {
    const piece = await dress({ 'M · Indigo': pieces, 'L · Indigo': 2 });
    const m = variantId(piece, 'M · Indigo');
    const orderId = randomUUID();
    await as(buyer).checkout.placeOrder({
      orderId,
      items: [{ variantId: m, quantity: pieces }],
      paymentMethod: 'cash_on_delivery',
    });
    await settle();
    expect(await stockOf(test.db, { variantId: m })).toBe(0);
    return { piece, m, orderId };
  }

  const backTexts = (phone: string | null) =>
    test.db
      .select()
      .from(smsNotifications)
      .where(
        and(
          eq(smsNotifications.kind, 'back-in-stock'),
          eq(smsNotifications.recipientPhone, phone ?? ''),
        ),
      );
  const requestsFor = (m: number) =>
    test.db.select().from(backInStockRequests).where(eq(backInStockRequests.variantId, m));

  it('asked twice is one request; the deleted order returns the size; one text with the link', async () => {
    const buyer = await shopper();
    const waiting = await shopper();
    const { piece, m, orderId } = await soldOutBy(buyer);
    expect(await as(waiting).catalogue.notifyWhenBack({ variantId: m })).toEqual({ asked: true });
    expect(await as(waiting).catalogue.notifyWhenBack({ variantId: m })).toEqual({ asked: true });
    expect(await requestsFor(m)).toHaveLength(1);

    expect(await as(buyer).orders.delete({ id: orderId })).toEqual({ deleted: true });
    await settle();
    expect(await stockOf(test.db, { variantId: m })).toBe(1);
    const link = `http://shop.test/products/${piece.slug}?variant=${m}`;
    const [text, ...more] = await backTexts(waiting.phone);
    expect(more).toEqual([]);
    expect(text).toMatchObject({
      orderId: null,
      recipientType: 'customer',
      kind: 'back-in-stock',
      status: 'sent',
    });
    // The test's slug is long (it ends with a uuid): the name gives way, the size and link stay.
    expect(text?.messageContent).toMatch(/^duuka: Good news! Ankara Wrap/);
    expect(text?.messageContent.endsWith(` in M/Indigo is back in stock: ${link}`)).toBe(true);
    expect(text?.messageContent.length).toBeLessThanOrEqual(160);
    expect(fake.sent.filter((s) => s.message === text?.messageContent)).toHaveLength(1);
    expect(await requestsFor(m)).toEqual([]);

    // Done: a later restock of the same size texts nobody again.
    await test.db.execute(sql`update product_variants set stock = stock + 3 where id = ${m}`);
    expect(await textBackInStock(testContext(test.db, new Headers(), { sms }), [m])).toBe(0);
    expect(await backTexts(waiting.phone)).toHaveLength(1);
  });

  it('two racing deletes of one order, and of two orders of the size: one text each asker', async () => {
    const buyer = await shopper();
    const other = await shopper();
    const waiting = await Promise.all([shopper(), shopper()]);
    const { m, orderId } = await soldOutBy(buyer);
    await test.db.execute(sql`update product_variants set stock = 1 where id = ${m}`);
    const second = randomUUID();
    await as(other).checkout.placeOrder({
      orderId: second,
      items: [{ variantId: m, quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
    });
    expect(await stockOf(test.db, { variantId: m })).toBe(0);
    for (const asker of waiting) await as(asker).catalogue.notifyWhenBack({ variantId: m });

    const deletes = await Promise.allSettled([
      as(buyer).orders.delete({ id: orderId }),
      as(buyer).orders.delete({ id: orderId }),
      as(other).orders.delete({ id: second }),
    ]);
    await settle();
    expect(deletes.filter((d) => d.status === 'fulfilled')).toHaveLength(2);
    const refused = deletes.find((d) => d.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.message).toBe(ORDERS_TEXT.deleteFailed);
    // Restocked once per order: 1 + 1.
    expect(await stockOf(test.db, { variantId: m })).toBe(2);
    for (const asker of waiting) {
      const texts = await backTexts(asker.phone);
      expect(texts).toHaveLength(1);
      expect(texts[0]?.status).toBe('sent');
    }
    expect(await requestsFor(m)).toEqual([]);
  });

  it('concurrent restock answers never write a request’s text twice', async () => {
    const buyer = await shopper();
    const asker = await shopper();
    const { m } = await soldOutBy(buyer);
    await as(asker).catalogue.notifyWhenBack({ variantId: m });
    await test.db.execute(sql`update product_variants set stock = 4 where id = ${m}`);
    const ctx = testContext(test.db, new Headers(), {
      sms,
      background: (work) => background.push(work),
    });
    const answered = await Promise.all(Array.from({ length: 6 }, () => textBackInStock(ctx, [m])));
    await settle();
    expect(answered.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await backTexts(asker.phone)).toHaveLength(1);
  });

  it('a request no restock answered (asked as the stock came back) is texted by the cron sweep', async () => {
    const buyer = await shopper();
    const asker = await shopper();
    const { m } = await soldOutBy(buyer);
    await as(asker).catalogue.notifyWhenBack({ variantId: m });
    // Stock back by a path that texts nobody (as if the ask landed just after the restock's read).
    await test.db.execute(sql`update product_variants set stock = 2 where id = ${m}`);
    expect(await backTexts(asker.phone)).toEqual([]);
    const ctx = testContext(test.db, new Headers(), {
      sms,
      background: (work) => background.push(work),
    });
    await runScheduledSweeps(ctx);
    await settle();
    const texts = await backTexts(asker.phone);
    expect(texts.map((t) => t.status)).toEqual(['sent']);
    await runScheduledSweeps(ctx);
    await settle();
    expect(await backTexts(asker.phone)).toHaveLength(1);
  });

  it('a shopper without a phone is refused with the text; one who removed it gets a failed row', async () => {
    const buyer = await shopper();
    const noPhone = await shopper(null);
    const { m, orderId } = await soldOutBy(buyer);
    await expect(as(noPhone).catalogue.notifyWhenBack({ variantId: m })).rejects.toThrow(
      VARIANT_TEXT.notifyNeedsPhone,
    );
    expect(await requestsFor(m)).toEqual([]);

    const changed = await shopper();
    await as(changed).catalogue.notifyWhenBack({ variantId: m });
    await test.db.update(profiles).set({ phone: null }).where(eq(profiles.id, changed.id));
    await as(buyer).orders.delete({ id: orderId });
    await settle();
    // Never lost silently: the request is answered with a row that says why nothing went out.
    const rows = await backTexts('');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'failed',
      errorMessage: 'No phone number for the customer: not sent',
    });
    expect(await requestsFor(m)).toEqual([]);
  });

  it('refuses an in-stock size, an unknown one, visitors and bad input with clear texts', async () => {
    const buyer = await shopper();
    const piece = await dress({ 'M · Indigo': 2 });
    await expect(
      as(buyer).catalogue.notifyWhenBack({ variantId: variantId(piece, 'M · Indigo') }),
    ).rejects.toThrow(VARIANT_TEXT.notInStockNow);
    await expect(as(buyer).catalogue.notifyWhenBack({ variantId: 2_000_000_000 })).rejects.toThrow(
      'Product not found',
    );
    await expect(
      as(null).catalogue.notifyWhenBack({ variantId: variantId(piece, 'S · Indigo') }),
    ).rejects.toThrow('User not authenticated');
    for (const input of [
      { variantId: 'M' },
      { variantId: -1 },
      { variantId: 1.5 },
      { variantId: 2 ** 40 },
      { variantId: 1, userId: buyer.id },
      {},
      null,
    ]) {
      const answer = await mutateOverHttp(test.db, 'catalogue.notifyWhenBack', input, {
        auth,
        cookie: buyer.cookie,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error?.message).toBe('Product not found');
    }
  });

  it('another shopper’s order cannot be deleted: no restock, no text', async () => {
    const buyer = await shopper();
    const thief = await shopper();
    const asker = await shopper();
    const { m, orderId } = await soldOutBy(buyer);
    await as(asker).catalogue.notifyWhenBack({ variantId: m });
    await expect(as(thief).orders.delete({ id: orderId })).rejects.toThrow(
      ORDERS_TEXT.deleteFailed,
    );
    const http = await mutateOverHttp(
      test.db,
      'orders.delete',
      { id: 'not-an-id' },
      {
        auth,
        cookie: thief.cookie,
      },
    );
    expect(http.status).toBe(400);
    await settle();
    expect(await stockOf(test.db, { variantId: m })).toBe(0);
    expect(await backTexts(asker.phone)).toEqual([]);
    expect(await requestsFor(m)).toHaveLength(1);
  });

  it('a deleted order that was not pending returns nothing and texts nobody', async () => {
    const buyer = await shopper();
    const asker = await shopper();
    const { m, orderId } = await soldOutBy(buyer);
    await as(asker).catalogue.notifyWhenBack({ variantId: m });
    await test.db.update(orders).set({ status: 'shipped' }).where(eq(orders.id, orderId));
    await as(buyer).orders.delete({ id: orderId });
    await settle();
    expect(await stockOf(test.db, { variantId: m })).toBe(0);
    expect(await backTexts(asker.phone)).toEqual([]);
  });
});
