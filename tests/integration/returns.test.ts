// A shopper's returns and exchanges on a real database (issue 36, decision 0086): the windows in
// Kampala days (day 14 accepted, day 15 refused; the exchange's 7), non-returnable pieces, more
// than is left, an exchange holding the last M under a race of 20 shoppers (exactly one, one
// 'exchange-held' movement, stock 0), the same id replayed, another shopper's order and return
// not found, and wrong input refused with the shop's texts.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETURN_TEXT, returnPhotoKey } from '#core/returns.ts';
import {
  orderItems,
  products,
  returns,
  smsNotifications,
  stockMovements,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf, type TestPiece } from '../support/catalogue.ts';
import { deliveredOrder, sizeOf } from '../support/returns.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let dress: TestPiece;
type Shopper = Awaited<ReturnType<typeof signedInShopper>>;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  dress = await addProduct(test.db, {
    name: 'Ankara Wrap Dress',
    price: 80_000,
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    stock: { S: 5, M: 5, L: 5 },
  });
});
afterAll(async () => {
  await test?.close();
});

const as = (person: { cookie: string }) =>
  callerFor(test.db, new Headers({ cookie: person.cookie }));
const shopper = () => signedInShopper(test.db, auth);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 'NONE', message: '' }),
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  );

const refund = (orderId: string, orderItemId: string, quantity = 1) => ({
  returnId: randomUUID(),
  orderId,
  lines: [{ orderItemId, quantity, reason: 'changed_mind' as const }],
  resolution: 'refund' as const,
});

describe('the windows, in Kampala days from delivery', () => {
  let buyer: Shopper;
  beforeAll(async () => {
    buyer = await shopper();
  });

  it('a refund on day 14 is accepted; on day 15 refused with the day it closed', async () => {
    const day14 = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 1 }], {
      daysAgo: 14,
    });
    const made = await as(buyer).returns.request(refund(day14.orderId, day14.items[0] ?? ''));
    expect(made.status).toBe('requested');

    const day15 = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 1 }], {
      daysAgo: 15,
    });
    const refused = await refusal(
      as(buyer).returns.request(refund(day15.orderId, day15.items[0] ?? '')),
    );
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toMatch(/^The return window for this order closed on \d+ \w+ \d{4}\.$/);
    const options = await as(buyer).returns.options({ orderId: day15.orderId });
    expect(options).toMatchObject({ canReturn: false, canExchange: false });
    expect(options.problem).toBe(refused.message);
  });

  it('an exchange is refused after day 7 but a refund is still offered', async () => {
    const order = await deliveredOrder(
      test.db,
      buyer,
      [{ piece: dress, variantId: sizeOf(dress, 'M'), label: 'M', quantity: 1 }],
      { daysAgo: 8 },
    );
    const options = await as(buyer).returns.options({ orderId: order.orderId });
    expect(options).toMatchObject({ canReturn: true, canExchange: false });
    expect(options.problem).toMatch(/You can still ask for a refund\.$/);
    const refused = await refusal(
      as(buyer).returns.request({
        returnId: randomUUID(),
        orderId: order.orderId,
        lines: [
          {
            orderItemId: order.items[0] ?? '',
            quantity: 1,
            reason: 'too_small',
            exchangeVariantId: sizeOf(dress, 'L'),
          },
        ],
        resolution: 'exchange',
      }),
    );
    expect(refused.message).toBe(options.problem);
  });

  it('an order not delivered cannot be returned', async () => {
    const order = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 1 }]);
    await test.db.execute(
      sql`update orders set status = 'processing', delivered_at = null where id = ${order.orderId}::uuid`,
    );
    const refused = await refusal(
      as(buyer).returns.request(refund(order.orderId, order.items[0] ?? '')),
    );
    expect(refused).toEqual({ code: 'BAD_REQUEST', message: RETURN_TEXT.notDelivered });
  });
});

describe('what may come back', () => {
  let buyer: Shopper;
  beforeAll(async () => {
    buyer = await shopper();
  });

  it('a piece marked non-returnable is refused by name; the options say so', async () => {
    const earrings = await addProduct(test.db, { name: 'Brass Earrings', price: 20_000 });
    await test.db.update(products).set({ returnable: false }).where(eq(products.id, earrings.id));
    const order = await deliveredOrder(test.db, buyer, [{ piece: earrings, quantity: 1 }]);
    const options = await as(buyer).returns.options({ orderId: order.orderId });
    expect(options.lines[0]).toMatchObject({ returnable: false, left: 1 });
    const refused = await refusal(
      as(buyer).returns.request(refund(order.orderId, order.items[0] ?? '')),
    );
    expect(refused.message).toBe(RETURN_TEXT.notReturnable('Brass Earrings'));
    const [product] = await as(buyer)
      .catalogue.productBySlug({ slug: earrings.slug })
      .then((p) => [p]);
    expect(product?.returnable).toBe(false);
  });

  it('more than is left is refused; what was returned counts on the line', async () => {
    const order = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 2 }]);
    const item = order.items[0] ?? '';
    const tooMany = await refusal(as(buyer).returns.request(refund(order.orderId, item, 3)));
    expect(tooMany).toEqual({
      code: 'CONFLICT',
      message: RETURN_TEXT.tooMany('Ankara Wrap Dress', 2),
    });
    await as(buyer).returns.request(refund(order.orderId, item, 2));
    const [line] = await test.db.select().from(orderItems).where(eq(orderItems.id, item));
    expect(line?.returned).toBe(2);
    const again = await refusal(as(buyer).returns.request(refund(order.orderId, item, 1)));
    expect(again.message).toBe(RETURN_TEXT.tooMany('Ankara Wrap Dress', 0));
  });

  it('another shopper’s order and return are not found (404); nothing is written', async () => {
    const order = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 1 }]);
    const mine = await as(buyer).returns.request(refund(order.orderId, order.items[0] ?? ''));
    const other = await shopper();
    const asked = await refusal(
      as(other).returns.request(refund(order.orderId, order.items[0] ?? '')),
    );
    expect(asked).toEqual({ code: 'NOT_FOUND', message: RETURN_TEXT.orderNotFound });
    expect(await refusal(as(other).returns.options({ orderId: order.orderId }))).toEqual({
      code: 'NOT_FOUND',
      message: RETURN_TEXT.orderNotFound,
    });
    expect(await refusal(as(other).returns.byId({ id: mine.returnId }))).toEqual({
      code: 'NOT_FOUND',
      message: RETURN_TEXT.returnNotFound,
    });
    expect((await as(other).returns.list()).returns).toEqual([]);
    // Her return id replayed by another shopper is refused, and changes nothing.
    const replayed = await refusal(
      as(other).returns.request({
        ...refund(order.orderId, order.items[0] ?? ''),
        returnId: mine.returnId,
      }),
    );
    expect(replayed.code).not.toBe('NONE');
  });

  it('the same id again answers the first answer; for another order it is refused', async () => {
    const order = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 1 }]);
    const input = refund(order.orderId, order.items[0] ?? '');
    // Her order page offers a return until its last day, while a piece can still come back.
    const before = await as(buyer).orders.byId({ id: order.orderId });
    expect(before.returnUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const [first, second] = await Promise.all([
      as(buyer).returns.request(input),
      as(buyer).returns.request(input),
    ]);
    expect(second).toEqual(first);
    const again = await as(buyer).returns.request(input);
    expect(again).toEqual({ returnId: input.returnId, status: 'requested' });
    const made = await test.db.select().from(returns).where(eq(returns.orderId, order.orderId));
    expect(made).toHaveLength(1);
    const otherOrder = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 1 }]);
    const refused = await refusal(
      as(buyer).returns.request({
        ...refund(otherOrder.orderId, otherOrder.items[0] ?? ''),
        returnId: input.returnId,
      }),
    );
    expect(refused).toEqual({ code: 'CONFLICT', message: RETURN_TEXT.replayMismatch });
    // Her order page reads the return; with its one piece in it, no other return is offered.
    const page = await as(buyer).orders.byId({ id: order.orderId });
    expect(page.returns).toEqual([
      expect.objectContaining({ id: input.returnId, status: 'requested', resolution: 'refund' }),
    ]);
    expect(page.returnUntil).toBeNull();
    const texts = await test.db
      .select()
      .from(smsNotifications)
      .where(
        and(
          eq(smsNotifications.orderId, order.orderId),
          eq(smsNotifications.kind, 'return-requested'),
        ),
      );
    expect(texts).toHaveLength(1);
  });

  it('wrong types, NUL, a huge note and a photo she did not upload are refused with texts', async () => {
    // Her own shopper: the refusals a well-formed request earns count towards her minute's limit.
    const buyer = await shopper();
    const order = await deliveredOrder(test.db, buyer, [{ piece: dress, quantity: 1 }]);
    const base = refund(order.orderId, order.items[0] ?? '');
    const cases: [unknown, string][] = [
      [{ ...base, lines: [{ ...base.lines[0], quantity: '1' }] }, RETURN_TEXT.badQuantity],
      [{ ...base, lines: [] }, RETURN_TEXT.noLines],
      [{ ...base, resolution: 'swap' }, RETURN_TEXT.badResolution],
      [{ ...base, note: 'Too small\u0000' }, RETURN_TEXT.badNote],
      [{ ...base, note: 'x'.repeat(100_000) }, RETURN_TEXT.badNote],
      [{ ...base, returnId: 'not-a-uuid' }, RETURN_TEXT.badRequest],
      [{ ...base, photos: ['../../etc/passwd'] }, RETURN_TEXT.badPhoto],
      [
        { ...base, photos: [returnPhotoKey('someoneElse', randomUUID(), 'image/jpeg')] },
        RETURN_TEXT.badPhoto,
      ],
    ];
    for (const [input, message] of cases) {
      const refused = await refusal(as(buyer).returns.request(input as never));
      expect(refused.message, JSON.stringify(input).slice(0, 120)).toBe(message);
    }
    const made = await test.db.select().from(returns).where(eq(returns.orderId, order.orderId));
    expect(made).toHaveLength(0);
    // Her own upload's key is taken, and read back as a URL.
    const key = returnPhotoKey(buyer.id, randomUUID(), 'image/webp');
    const ok = await as(buyer).returns.request({ ...base, photos: [key], note: 'Too tight' });
    const view = await as(buyer).returns.byId({ id: ok.returnId });
    expect(view.photos).toEqual([expect.stringContaining(key)]);
    expect(view).toMatchObject({ note: 'Too tight', amount: 80_000, status: 'requested' });
  });
});

describe('an exchange holds the new size at once', () => {
  it('20 shoppers racing for the last M: exactly one holds it, stock 0, one movement', async () => {
    const top = await addProduct(test.db, {
      name: 'Kitenge Top',
      price: 50_000,
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      stock: { S: 0, M: 1, L: 3 },
    });
    const racers = await Promise.all(Array.from({ length: 20 }, () => shopper()));
    const orders = await Promise.all(
      racers.map((racer) =>
        deliveredOrder(test.db, racer, [
          { piece: top, variantId: sizeOf(top, 'S'), label: 'S', quantity: 1 },
        ]),
      ),
    );
    const answers = await Promise.all(
      racers.map((racer, i) =>
        refusal(
          as(racer).returns.request({
            returnId: randomUUID(),
            orderId: orders[i]?.orderId ?? '',
            lines: [
              {
                orderItemId: orders[i]?.items[0] ?? '',
                quantity: 1,
                reason: 'too_small',
                exchangeVariantId: sizeOf(top, 'M'),
              },
            ],
            resolution: 'exchange',
          }),
        ),
      ),
    );
    const won = answers.filter((a) => a.code === 'NONE');
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.code !== 'NONE');
    expect(new Set(lost.map((a) => a.message))).toEqual(new Set([RETURN_TEXT.soldOut('M', ['L'])]));
    expect(await stockOf(test.db, { variantId: sizeOf(top, 'M') })).toBe(0);
    const held = await test.db
      .select()
      .from(stockMovements)
      .where(
        and(
          eq(stockMovements.variantId, sizeOf(top, 'M')),
          eq(stockMovements.reason, 'exchange-held'),
        ),
      );
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ change: -1, stockAfter: 0 });
    // The losers' pieces were not counted as returned.
    const counted = await test.db
      .select({ returned: sql<number>`sum(${orderItems.returned})::int` })
      .from(orderItems)
      .where(eq(orderItems.productId, top.id));
    expect(Number(counted[0]?.returned)).toBe(1);
  }, 180_000);

  it('a dearer other piece is refused; the options list the sizes with their stock', async () => {
    const buyer = await shopper();
    const cheap = await addProduct(test.db, { name: 'Cotton Scarf', price: 15_000 });
    const dear = await addProduct(test.db, { name: 'Silk Gomesi', price: 250_000 });
    const order = await deliveredOrder(test.db, buyer, [{ piece: cheap, quantity: 1 }]);
    const refused = await refusal(
      as(buyer).returns.request({
        returnId: randomUUID(),
        orderId: order.orderId,
        lines: [
          {
            orderItemId: order.items[0] ?? '',
            quantity: 1,
            reason: 'changed_mind',
            exchangeVariantId: dear.variantId,
          },
        ],
        resolution: 'exchange',
      }),
    );
    expect(refused.message).toBe(RETURN_TEXT.exchangeTooDear('Silk Gomesi'));
    const dressOrder = await deliveredOrder(test.db, buyer, [
      { piece: dress, variantId: sizeOf(dress, 'S'), label: 'S', quantity: 1 },
    ]);
    const options = await as(buyer).returns.options({ orderId: dressOrder.orderId });
    expect(options.lines[0]?.exchangeChoices.map((c) => c.label)).toEqual(['M', 'L']);
    expect(options.pickupFee).toBe(5000);
  });
});
