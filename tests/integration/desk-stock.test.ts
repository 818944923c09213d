// Stock at the desk (issue 22): adjustments racing with checkouts never go below zero and the log
// stays exact (a variant's stock is the sum of its movements, one 'sale' row per order placed);
// order deletion, refusals, request keys, the record, the back-in-stock text, low stock. The
// races only prove something on PostgreSQL (TEST_DATABASE_URL); PGlite runs them in turn.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { MAX_ADJUSTMENT, MAX_COUNT, STOCK_LOG_PAGE, STOCK_TEXT } from '#core/desk-stock.ts';
import {
  deskRecords,
  profiles,
  smsNotifications,
  stockMovements,
  systemSettings,
  user,
} from '#db/schema/index.ts';
import { FAKE_EGOSMS, startFakeEgoSms } from '#local/fakes/egosms-fake.ts';
import type { Auth } from '#server/auth.ts';
import { catalogueVersion } from '#server/services/catalogue-version.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { SETTING_KEYS } from '#server/services/shop-settings.ts';
import { egoSms } from '#server/services/sms/egosms.ts';
import type { SmsService } from '#server/services/sms-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, setStock, stockOf } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, callOverHttp, mutateOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let staff: DeskMember;
let fake: Awaited<ReturnType<typeof startFakeEgoSms>>;
let sms: SmsService;
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  staff = await deskMember(test.db, auth, 'staff');
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

const desk = (who: { cookie: string } = staff) =>
  deskCaller(test.db, who, { auth, sms, background: (work) => background.push(work) });

let phoneCounter = 0;
/** A customer with a complete profile, written directly (no password hashing needed). */
async function customer() {
  const id = randomUUID();
  const email = `${id}@example.ug`;
  phoneCounter += 1;
  await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
  await test.db.insert(profiles).values({
    id,
    email,
    fullName: 'Nakato Achieng',
    phone: `+2567731${String(phoneCounter).padStart(5, '0')}`,
    address: 'Plot 4, Kampala Road',
  });
  return { id, email, name: 'Nakato Achieng' };
}

const movementsOf = (variantId: number) =>
  test.db
    .select()
    .from(stockMovements)
    .where(eq(stockMovements.variantId, variantId))
    .orderBy(asc(stockMovements.id));

/** The log's own account of a variant: its changes add up to its stock, each level follows. */
async function expectExactLog(variantId: number) {
  const rows = await movementsOf(variantId);
  const stock = await stockOf(test.db, { variantId });
  expect(rows.reduce((sum, row) => sum + row.change, 0)).toBe(stock);
  for (const row of rows) expect(row.stockAfter).toBeGreaterThanOrEqual(0);
  // Each level is the one before plus its change, in id order: a row's id is taken while its
  // statement holds the variant's row lock, so ids follow the order the changes committed in.
  rows.forEach((row, k) => {
    const before = k === 0 ? 0 : (rows[k - 1]?.stockAfter ?? 0);
    expect(row.stockAfter, `movement ${row.id}`).toBe(before + row.change);
  });
  expect(rows.at(-1)?.stockAfter).toBe(stock);
  return rows;
}

describe('desk.adjustStock', () => {
  it('adds and takes with a reason, answers the level, logs who, records it, bumps the version', async () => {
    const piece = await addProduct(test.db, { name: 'Kitenge Shirt', price: 60_000, stock: 4 });
    const version = Number(await catalogueVersion(test.db));
    expect(
      await desk().adjustStock({ variantId: piece.variantId, delta: 6, reason: 'received' }),
    ).toEqual({ stock: 10 });
    expect(
      await desk().adjustStock({ variantId: piece.variantId, delta: -3, reason: 'damaged' }),
    ).toEqual({ stock: 7 });
    expect(Number(await catalogueVersion(test.db))).toBe(version + 2);
    const rows = await expectExactLog(piece.variantId);
    expect(rows.map((r) => [r.reason, r.change, r.stockAfter, r.actorEmail])).toEqual([
      ['counted', 4, 4, null],
      ['received', 6, 10, staff.email],
      ['damaged', -3, 7, staff.email],
    ]);
    const records = await test.db
      .select()
      .from(deskRecords)
      .where(
        and(eq(deskRecords.action, 'stock.adjusted'), eq(deskRecords.subject, 'Kitenge Shirt')),
      )
      .orderBy(asc(deskRecords.id));
    expect(records.map((r) => [r.actorEmail, r.details])).toEqual([
      [staff.email, expect.objectContaining({ variantId: piece.variantId, delta: 6, stock: 10 })],
      [staff.email, expect.objectContaining({ variantId: piece.variantId, delta: -3, stock: 7 })],
    ]);
  });

  it('refuses going below zero, naming what is left, and writes nothing', async () => {
    const piece = await addProduct(test.db, { price: 60_000, stock: 2 });
    const version = await catalogueVersion(test.db);
    const records = await test.db.$count(deskRecords);
    await expect(
      desk().adjustStock({ variantId: piece.variantId, delta: -3, reason: 'damaged' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Only 2 left: stock can’t go below zero.',
    });
    await setStock(test.db, piece.variantId, 0);
    await expect(
      desk().adjustStock({ variantId: piece.variantId, delta: -1, reason: 'damaged' }),
    ).rejects.toMatchObject({ message: STOCK_TEXT.belowZero(0) });
    expect(await stockOf(test.db, { variantId: piece.variantId })).toBe(0);
    expect(await catalogueVersion(test.db)).toBe(version);
    expect(await test.db.$count(deskRecords)).toBe(records);
    await expectExactLog(piece.variantId);
  });

  it('a repeated request key answers the first answer; another’s key is refused', async () => {
    const piece = await addProduct(test.db, { price: 60_000, stock: 5 });
    const requestKey = randomUUID();
    const input = { variantId: piece.variantId, delta: 2, reason: 'received' as const, requestKey };
    const answers = await Promise.allSettled([
      desk().adjustStock(input),
      desk().adjustStock(input),
      desk().adjustStock(input),
    ]);
    expect(answers).toEqual(Array(3).fill({ status: 'fulfilled', value: { stock: 7 } }));
    expect(await desk().adjustStock(input)).toEqual({ stock: 7 });
    expect(await stockOf(test.db, { variantId: piece.variantId })).toBe(7);
    expect(await test.db.$count(deskRecords, eq(deskRecords.requestKey, requestKey))).toBe(1);

    const colleague = await deskMember(test.db, auth, 'staff', 'Other Staff');
    await expect(desk(colleague).adjustStock(input)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: DESK_TEXT.badRequestKey,
    });
    const other = await addProduct(test.db, { price: 60_000, stock: 5 });
    await expect(
      desk().adjustStock({ ...input, variantId: other.variantId }),
    ).rejects.toMatchObject({ message: DESK_TEXT.badRequestKey });
    expect(await stockOf(test.db, { variantId: other.variantId })).toBe(5);
    await expectExactLog(piece.variantId);
  });

  it('refuses bad input with a clear text and writes nothing', async () => {
    const piece = await addProduct(test.db, { price: 60_000, stock: 5 });
    const v = piece.variantId;
    const bad: [unknown, string][] = [
      [{ variantId: v, delta: 0, reason: 'received' }, STOCK_TEXT.zeroDelta],
      [{ variantId: v, delta: 1.5, reason: 'received' }, STOCK_TEXT.badDelta],
      [{ variantId: v, delta: MAX_ADJUSTMENT + 1, reason: 'received' }, STOCK_TEXT.badDelta],
      [{ variantId: v, delta: -1e12, reason: 'received' }, STOCK_TEXT.badDelta],
      [{ variantId: v, delta: '3', reason: 'received' }, STOCK_TEXT.badDelta],
      [{ variantId: v, delta: 3, reason: 'sale' }, STOCK_TEXT.badReason],
      [{ variantId: v, delta: 3, reason: 'order-deleted' }, STOCK_TEXT.badReason],
      [{ variantId: v, delta: 3, reason: 'received\u0000' }, STOCK_TEXT.badReason],
      [{ variantId: v, delta: 3 }, STOCK_TEXT.badReason],
      ['3', STOCK_TEXT.incomplete],
      [{ variantId: 'x'.repeat(100_000), delta: 3, reason: 'received' }, STOCK_TEXT.badVariant],
      [{ variantId: -1, delta: 3, reason: 'received' }, STOCK_TEXT.badVariant],
      [
        { variantId: v, delta: 3, reason: 'received', requestKey: 'not\u0000a key' },
        DESK_TEXT.badRequestKey,
      ],
    ];
    for (const [input, message] of bad) {
      const answer = await mutateOverHttp(test.db, 'desk.adjustStock', input, {
        cookie: staff.cookie,
        auth,
      });
      expect(answer.status, JSON.stringify(input).slice(0, 80)).toBe(400);
      expect(answer.body.error?.message, JSON.stringify(input).slice(0, 80)).toBe(message);
    }
    await expect(
      desk().adjustStock({ variantId: 2_000_000_000, delta: 1, reason: 'received' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: DESK_TEXT.variantNotFound });
    expect(await stockOf(test.db, { variantId: v })).toBe(5);
    expect(await movementsOf(v)).toHaveLength(1);
  });

  it('refuses a customer and a visitor; staff and the owner may', async () => {
    const piece = await addProduct(test.db, { price: 60_000, stock: 5 });
    const input = { variantId: piece.variantId, delta: 1, reason: 'received' as const };
    const shopper = await signedInShopper(test.db, auth);
    await expect(desk(shopper).adjustStock(input)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: DESK_TEXT.deskOnly,
    });
    await expect(desk(shopper).stockLog({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(desk(shopper).lowStock()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(desk(shopper).stockSearch({ q: 'a' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(callerFor(test.db).desk.adjustStock(input)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    const owner = await deskMember(test.db, auth, 'owner');
    expect(await desk(owner).adjustStock(input)).toEqual({ stock: 6 });
    expect(await desk().adjustStock(input)).toEqual({ stock: 7 });
  });
});

describe('desk.adjustStock counted: the shelf’s count becomes the stock (issue 34)', () => {
  const count = (variantId: number, n: number, requestKey?: string) =>
    desk().adjustStock({ variantId, reason: 'counted', count: n, requestKey });

  it('6 on a shelf of 4 makes 6, logged +2 (not 10), with who, the record and the version', async () => {
    const piece = await addProduct(test.db, { name: 'Counted Kitenge', price: 60_000, stock: 4 });
    const version = Number(await catalogueVersion(test.db));
    expect(await count(piece.variantId, 6)).toEqual({ stock: 6 });
    expect(await stockOf(test.db, { variantId: piece.variantId })).toBe(6);
    expect(Number(await catalogueVersion(test.db))).toBe(version + 1);
    const rows = await expectExactLog(piece.variantId);
    expect(rows.map((r) => [r.reason, r.change, r.stockAfter, r.actorEmail])).toEqual([
      ['counted', 4, 4, null],
      ['counted', 2, 6, staff.email],
    ]);
    const [record] = await test.db
      .select()
      .from(deskRecords)
      .where(
        and(eq(deskRecords.action, 'stock.adjusted'), eq(deskRecords.subject, 'Counted Kitenge')),
      );
    expect(record?.details).toMatchObject({
      variantId: piece.variantId,
      reason: 'counted',
      count: 6,
      delta: 2,
      stock: 6,
    });
  });

  it('a count below the stock takes the difference; 0 empties the size; a matching count logs 0', async () => {
    const piece = await addProduct(test.db, { price: 60_000, stock: 9 });
    expect(await count(piece.variantId, 3)).toEqual({ stock: 3 });
    expect(await count(piece.variantId, 3)).toEqual({ stock: 3 });
    expect(await count(piece.variantId, 0)).toEqual({ stock: 0 });
    expect(await count(piece.variantId, MAX_COUNT)).toEqual({ stock: MAX_COUNT });
    const rows = await expectExactLog(piece.variantId);
    expect(rows.map((r) => [r.reason, r.change, r.stockAfter])).toEqual([
      ['counted', 9, 9],
      ['counted', -6, 3],
      ['counted', 0, 3],
      ['counted', -3, 0],
      ['counted', MAX_COUNT, MAX_COUNT],
    ]);
  });

  it('a repeated request key answers the first count; hostile counts are refused, nothing written', async () => {
    const piece = await addProduct(test.db, { price: 60_000, stock: 4 });
    const v = piece.variantId;
    const requestKey = randomUUID();
    const answers = await Promise.all([count(v, 6, requestKey), count(v, 6, requestKey)]);
    expect(answers).toEqual([{ stock: 6 }, { stock: 6 }]);
    expect(await count(v, 6, requestKey)).toEqual({ stock: 6 });
    expect(await movementsOf(v)).toHaveLength(2);
    const bad: [unknown, string][] = [
      [{ variantId: v, reason: 'counted', count: -1 }, STOCK_TEXT.badCount],
      [{ variantId: v, reason: 'counted', count: MAX_COUNT + 1 }, STOCK_TEXT.badCount],
      [{ variantId: v, reason: 'counted', count: 2.5 }, STOCK_TEXT.badCount],
      [{ variantId: v, reason: 'counted', count: '6' }, STOCK_TEXT.badCount],
      [{ variantId: v, reason: 'counted', count: 1e300 }, STOCK_TEXT.badCount],
      [{ variantId: v, reason: 'counted', count: null }, STOCK_TEXT.badCount],
      [{ variantId: v, reason: 'counted', delta: 2 }, STOCK_TEXT.incompleteCount],
      [{ variantId: v, reason: 'received', count: 6 }, STOCK_TEXT.incomplete],
      [{ variantId: v, reason: 'counted\u0000', count: 6 }, STOCK_TEXT.badReason],
      [{ variantId: v, reason: 'x'.repeat(100_000), count: 6 }, STOCK_TEXT.badReason],
      [{ variantId: -5, reason: 'counted', count: 6 }, STOCK_TEXT.badVariant],
      [null, STOCK_TEXT.incomplete],
      [[6], STOCK_TEXT.badReason],
    ];
    for (const [input, message] of bad) {
      const answer = await mutateOverHttp(test.db, 'desk.adjustStock', input, {
        cookie: staff.cookie,
        auth,
      });
      expect(answer.status, JSON.stringify(input).slice(0, 80)).toBe(400);
      expect(answer.body.error?.message, JSON.stringify(input).slice(0, 80)).toBe(message);
    }
    await expect(count(2_000_000_000, 3)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const shopper = await signedInShopper(test.db, auth);
    await expect(
      desk(shopper).adjustStock({ variantId: v, reason: 'counted', count: 1 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await stockOf(test.db, { variantId: v })).toBe(6);
    await expectExactLog(v);
  });

  it('counts racing checkouts: each count is the shelf at its moment, the log adds up', async () => {
    const piece = await addProduct(test.db, { price: 60_000, stock: 20 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => customer()));
    const results = await Promise.allSettled([
      ...buyers.map((buyer) =>
        placeOrder(test.db, buyer, {
          orderId: randomUUID(),
          lines: [{ variantId: piece.variantId, quantity: 1 }],
          paymentMethod: 'cash_on_delivery',
        }),
      ),
      count(piece.variantId, 12),
      count(piece.variantId, 15),
    ]);
    for (const result of results.slice(-2)) expect(result.status).toBe('fulfilled');
    const rows = await expectExactLog(piece.variantId);
    const stock = await stockOf(test.db, { variantId: piece.variantId });
    // The last count set the stock; only sales after it took from it.
    const lastCount = rows.findLastIndex((r) => r.reason === 'counted' && r.actorEmail);
    const after = rows.slice(lastCount + 1);
    expect(after.every((r) => r.reason === 'sale')).toBe(true);
    expect(stock).toBe((rows[lastCount]?.stockAfter ?? 0) - after.length);
  });
});

describe('the stock log under a race', () => {
  it('15 one-piece checkouts and 8 adjustments on 10 pieces: never below zero, the log exact', async () => {
    const piece = await addProduct(test.db, { name: 'Busuuti Gown', price: 90_000, stock: 10 });
    const v = piece.variantId;
    const shoppers = await Promise.all(Array.from({ length: 5 }, () => customer()));
    const orderIds = Array.from({ length: 15 }, () => randomUUID());
    const checkouts = orderIds.map((orderId, i) =>
      placeOrder(test.db, shoppers[i % 5] as (typeof shoppers)[number], {
        orderId,
        lines: [{ variantId: v, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
      }),
    );
    const adjustments = Array.from({ length: 8 }, (_, i) =>
      desk().adjustStock({
        variantId: v,
        delta: i % 2 === 0 ? -1 : 1,
        reason: i % 2 === 0 ? 'damaged' : 'returned',
      }),
    );
    const [sold, adjusted] = await Promise.all([
      Promise.all(checkouts),
      Promise.allSettled(adjustments),
    ]);
    for (const refused of sold.filter((r) => !r.ok)) {
      expect(refused).toMatchObject({ ok: false, problem: 'insufficient-stock' });
    }
    for (const a of adjusted) {
      if (a.status === 'rejected') {
        expect(a.reason).toMatchObject({ code: 'CONFLICT' });
        expect(a.reason.message).toMatch(/^(None|Only \d+) left: stock can’t go below zero\.$/);
      } else {
        expect(a.value.stock).toBeGreaterThanOrEqual(0);
      }
    }
    const placed = sold.flatMap((r) => (r.ok ? [r.order.orderId] : []));
    // At most 10 + 4 pieces could be sold: some checkouts were refused.
    expect(placed.length).toBeLessThan(15);
    const stock = await stockOf(test.db, { variantId: v });
    expect(stock).toBeGreaterThanOrEqual(0);
    const rows = await expectExactLog(v);
    const sales = rows.filter((r) => r.reason === 'sale');
    expect(sales.map((r) => r.orderId).sort()).toEqual([...placed].sort());
    for (const sale of sales) expect(sale.change).toBe(-1);
    const kept = adjusted.filter((a) => a.status === 'fulfilled').length;
    expect(rows.filter((r) => r.actorEmail === staff.email)).toHaveLength(kept);
    expect(
      10 - placed.length + rows.filter((r) => r.actorEmail).reduce((s, r) => s + r.change, 0),
    ).toBe(stock);
    // Every adjustment that happened is in the record, none that didn't.
    const recorded = await test.db
      .select()
      .from(deskRecords)
      .where(
        and(eq(deskRecords.action, 'stock.adjusted'), eq(deskRecords.subject, 'Busuuti Gown')),
      );
    expect(recorded).toHaveLength(kept);
  });

  it('an order of several pieces writes one sale row per variant; its deletion writes the return', async () => {
    const piece = await addProduct(test.db, {
      name: 'Ankara Two-Piece',
      price: 120_000,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      stock: { S: 3, M: 4 },
    });
    const s = piece.variants.S as number;
    const m = piece.variants.M as number;
    const buyer = await signedInShopper(test.db, auth);
    await test.db
      .insert(profiles)
      .values({
        id: buyer.id,
        email: buyer.email,
        fullName: buyer.name,
        phone: '+256772000111',
        address: 'Plot 4, Kampala Road',
      })
      .onConflictDoUpdate({
        target: profiles.id,
        set: { fullName: buyer.name, phone: '+256772000111', address: 'Plot 4, Kampala Road' },
      });
    const orderId = randomUUID();
    const shop = callerFor(test.db, new Headers({ cookie: buyer.cookie }), { auth });
    await shop.checkout.placeOrder({
      orderId,
      items: [
        { variantId: s, quantity: 2 },
        { variantId: m, quantity: 1 },
        { variantId: s, quantity: 1 },
      ],
      paymentMethod: 'cash_on_delivery',
    });
    expect(
      (await movementsOf(s)).map((r) => [r.reason, r.change, r.stockAfter, r.orderId]),
    ).toEqual([
      ['counted', 3, 3, null],
      ['sale', -3, 0, orderId],
    ]);
    const log = await desk().stockLog({ variantId: m });
    expect(log.rows.map((r) => [r.reason, r.change, r.stockAfter, r.orderId])).toEqual([
      ['sale', -1, 3, orderId],
      ['counted', 4, 4, null],
    ]);
    expect(log.variant).toMatchObject({
      variantId: m,
      name: 'Ankara Two-Piece',
      label: 'M',
      stock: 3,
    });

    expect(await shop.orders.delete({ id: orderId })).toEqual({ deleted: true });
    for (const [variant, back, level] of [
      [s, 3, 3],
      [m, 1, 4],
    ] as const) {
      const rows = await expectExactLog(variant);
      expect(rows.at(-1)).toMatchObject({
        reason: 'order-deleted',
        change: back,
        stockAfter: level,
        orderId: null,
      });
      // The sale keeps its row; the order it named is gone.
      expect(rows.find((r) => r.reason === 'sale')).toMatchObject({ orderId: null });
    }
  });
});

describe('desk.stockLog', () => {
  it('lists every change newest first with names, who and when, 50 a page', async () => {
    const piece = await addProduct(test.db, { name: 'Linen Kanzu', price: 80_000, stock: 1 });
    const v = piece.variantId;
    for (let i = 0; i < STOCK_LOG_PAGE + 4; i += 1) {
      await desk().adjustStock({ variantId: v, delta: 1, reason: 'received' });
    }
    const first = await desk().stockLog({ variantId: v });
    expect(first.rows).toHaveLength(STOCK_LOG_PAGE);
    expect(first.rows[0]).toMatchObject({
      name: 'Linen Kanzu',
      label: '',
      sku: expect.any(String),
      change: 1,
      stockAfter: STOCK_LOG_PAGE + 5,
      reason: 'received',
      actorEmail: staff.email,
      orderId: null,
    });
    expect(Date.now() - Date.parse(first.rows[0]?.createdAt ?? '')).toBeLessThan(60_000);
    expect(first.next).toBe(first.rows.at(-1)?.id);
    const second = await desk().stockLog({ variantId: v, before: first.next ?? 0 });
    expect(second.rows.map((r) => r.stockAfter)).toEqual([5, 4, 3, 2, 1]);
    expect(second.rows.at(-1)?.reason).toBe('counted');
    expect(second.next).toBeNull();
    // The whole log holds everyone's changes, newest first.
    const all = await desk().stockLog();
    expect(all.rows[0]?.variantId).toBe(v);
    expect(all.variant).toBeNull();
    for (const bad of [{ before: -1 }, { before: 'x' }, { variantId: 1.5 }]) {
      const answer = await callOverHttp(test.db, 'query', 'desk.stockLog', bad, {
        auth,
        cookie: staff.cookie,
      });
      expect(answer.status).toBe(400);
    }
  });

  it('desk.stockSearch finds a piece by name or SKU, wildcards taken literally', async () => {
    const piece = await addProduct(test.db, {
      name: 'Barkcloth 100% Tote',
      price: 50_000,
      stock: 2,
    });
    const [sku] = await test.db
      .select({ sku: stockMovements.sku })
      .from(stockMovements)
      .where(eq(stockMovements.variantId, piece.variantId));
    expect((await desk().stockSearch({ q: 'barkcloth 100%' })).map((r) => r.variantId)).toEqual([
      piece.variantId,
    ]);
    expect(
      (await desk().stockSearch({ q: sku?.sku.slice(2, 20) ?? '' })).map((r) => r.variantId),
    ).toEqual([piece.variantId]);
    expect(await desk().stockSearch({ q: '%_%_%_%_%' })).toEqual([]);
    expect(await desk().stockSearch({ q: '   ' })).toEqual([]);
    await expect(desk().stockSearch({ q: 'a\u0000' })).rejects.toMatchObject({
      message: STOCK_TEXT.badSearch,
    });
  });
});

describe('back in stock and low stock', () => {
  it('restocking a size a shopper asked about queues the back-in-stock text', async () => {
    const piece = await addProduct(test.db, {
      name: 'Gomesi Silk Dress',
      price: 145_000,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      stock: { S: 0, M: 2 },
    });
    const s = piece.variants.S as number;
    const asker = await signedInShopper(test.db, auth);
    await test.db
      .insert(profiles)
      .values({
        id: asker.id,
        email: asker.email,
        fullName: asker.name,
        phone: '+256772999001',
        address: 'Plot 4, Kampala Road',
      })
      .onConflictDoUpdate({ target: profiles.id, set: { phone: '+256772999001' } });
    const shop = callerFor(test.db, new Headers({ cookie: asker.cookie }), { auth });
    expect(await shop.catalogue.notifyWhenBack({ variantId: s })).toEqual({ asked: true });
    const texts = () =>
      test.db
        .select()
        .from(smsNotifications)
        .where(
          and(
            eq(smsNotifications.kind, 'back-in-stock'),
            eq(smsNotifications.recipientPhone, '+256772999001'),
          ),
        );
    // Another size's change texts nobody.
    await desk().adjustStock({
      variantId: piece.variants.M as number,
      delta: 1,
      reason: 'received',
    });
    await settle();
    expect(await texts()).toEqual([]);
    expect(await desk().adjustStock({ variantId: s, delta: 3, reason: 'received' })).toEqual({
      stock: 3,
    });
    await settle();
    const [text, ...more] = await texts();
    expect(more).toEqual([]);
    expect(text?.messageContent).toContain('Gomesi Silk Dress');
    expect(text?.status).toBe('sent');
  });

  it('lowStock follows the threshold setting', async () => {
    const piece = await addProduct(test.db, { name: 'Raffia Clutch', price: 40_000, stock: 4 });
    // The shop's other pieces out of the way (archived pieces are never low), put back after.
    const hidden = await test.db.execute<{ id: number }>(
      sql`update products set status = 'archived' where status = 'published' and id <> ${piece.id}
          returning id`,
    );
    const others = hidden.rows.map((row) => Number(row.id));
    const low = async () => {
      const { rows } = await desk().lowStock();
      expect(rows.every((row) => row.variantId === piece.variantId)).toBe(true);
      return rows.length === 1;
    };
    const setThreshold = (value: string) =>
      test.db
        .insert(systemSettings)
        .values({ settingKey: SETTING_KEYS.lowStockThreshold, settingValue: value })
        .onConflictDoUpdate({ target: systemSettings.settingKey, set: { settingValue: value } });
    await test.db
      .delete(systemSettings)
      .where(eq(systemSettings.settingKey, SETTING_KEYS.lowStockThreshold));
    expect((await desk().lowStock()).threshold).toBe(3);
    expect(await low()).toBe(false);
    await desk().adjustStock({ variantId: piece.variantId, delta: -1, reason: 'damaged' });
    expect(await low()).toBe(true);
    await setThreshold('1');
    expect(await desk().lowStock()).toMatchObject({ threshold: 1 });
    expect(await low()).toBe(false);
    await setThreshold('10');
    expect(await low()).toBe(true);
    await test.db
      .delete(systemSettings)
      .where(eq(systemSettings.settingKey, SETTING_KEYS.lowStockThreshold));
    await test.db.execute(
      sql`update products set status = 'published' where id = any(${sql.param(others)}::int[])`,
    );
  });
});
