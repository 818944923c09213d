// The desk's returns on a real database (issue 36, decision 0086): approve with the pickup's fee,
// refuse (the held exchange stock and the pieces' count given back, logged), receive (resellable
// back in stock with a 'returned' movement, damaged logged, sent again changes nothing), the
// refund's rows (to the payment's network, or store credit granted once under 10 concurrent
// receipts), the exchange's delivery, every step in the desk record with its order, a customer
// refused on every procedure, and wrong input refused with the shop's texts.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { RETURN_TEXT, type ReturnReason } from '#core/returns.ts';
import {
  deskRecords,
  orderItems,
  refunds,
  returnLines,
  returns,
  stockMovements,
  valueAccounts,
  valueEntries,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, stockOf, type TestPiece } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { deliveredOrder, sizeOf } from '../support/returns.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let staff: DeskMember;
let dress: TestPiece;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  staff = await deskMember(test.db, auth, 'staff');
  dress = await addProduct(test.db, {
    name: 'Bark Cloth Dress',
    price: 90_000,
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    stock: { S: 2, M: 0, L: 1 },
  });
});
afterAll(async () => {
  await test?.close();
});

const desk = () => deskCaller(test.db, staff);
const as = (person: { cookie: string }) =>
  callerFor(test.db, new Headers({ cookie: person.cookie }));
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 'NONE', message: '' }),
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  );
const movements = (variantId: number, reason: string) =>
  test.db
    .select()
    .from(stockMovements)
    .where(and(eq(stockMovements.variantId, variantId), eq(stockMovements.reason, reason)));

/** A shopper's delivered order of one M and her return of it (an exchange for L, or a refund). */
async function asked(
  resolution: 'exchange' | 'refund',
  options: {
    reason?: ReturnReason;
    refundTo?: 'original' | 'store_credit';
    payment?: 'mtn';
    size?: 'S' | 'M';
  } = {},
) {
  const buyer = await signedInShopper(test.db, auth);
  const size = options.size ?? 'M';
  const order = await deliveredOrder(
    test.db,
    buyer,
    [{ piece: dress, variantId: sizeOf(dress, size), label: size, quantity: 1 }],
    { payment: options.payment },
  );
  const orderItemId = order.items[0] ?? '';
  const made = await as(buyer).returns.request({
    returnId: randomUUID(),
    orderId: order.orderId,
    lines: [
      {
        orderItemId,
        quantity: 1,
        reason: options.reason ?? 'too_small',
        ...(resolution === 'exchange' ? { exchangeVariantId: sizeOf(dress, 'L') } : {}),
      },
    ],
    resolution,
    ...(options.refundTo ? { refundTo: options.refundTo } : {}),
  });
  return { buyer, order, orderItemId, returnId: made.returnId };
}

describe('approve or refuse', () => {
  it('refusing an exchange gives back the held L and her piece, logged and recorded', async () => {
    const before = await stockOf(test.db, { variantId: sizeOf(dress, 'L') });
    const { returnId, orderItemId, order, buyer } = await asked('exchange');
    expect(await stockOf(test.db, { variantId: sizeOf(dress, 'L') })).toBe(before - 1);

    const decided = await desk().decideReturn({
      returnId,
      decision: 'refuse',
      reason: 'The tags were removed',
    });
    expect(decided).toEqual({ status: 'refused' });
    expect(await stockOf(test.db, { variantId: sizeOf(dress, 'L') })).toBe(before);
    const released = await movements(sizeOf(dress, 'L'), 'exchange-released');
    expect(released.filter((m) => m.orderId === order.orderId)).toHaveLength(1);
    const [item] = await test.db.select().from(orderItems).where(eq(orderItems.id, orderItemId));
    expect(item?.returned).toBe(0);
    const [record] = await test.db
      .select()
      .from(deskRecords)
      .where(and(eq(deskRecords.orderId, order.orderId), eq(deskRecords.action, 'return.refused')));
    expect(record).toMatchObject({ actorEmail: staff.email });
    // She reads the staff's reason; deciding again is refused.
    const view = await as(buyer).returns.byId({ id: returnId });
    expect(view).toMatchObject({ status: 'refused', staffReason: 'The tags were removed' });
    const again = await refusal(desk().decideReturn({ returnId, decision: 'approve' }));
    expect(again).toEqual({ code: 'CONFLICT', message: RETURN_TEXT.alreadyDecided });
  });

  it('approving a pickup charges the zone fee, free when it is the shop’s fault', async () => {
    const mine = await asked('refund', { reason: 'changed_mind' });
    await desk().decideReturn({ returnId: mine.returnId, decision: 'approve', handover: 'pickup' });
    const view = await as(mine.buyer).returns.byId({ id: mine.returnId });
    expect(view).toMatchObject({ status: 'approved', handover: 'pickup', pickupFee: 5000 });
    expect(view.instructions).toBe(RETURN_TEXT.instructionsPickup(5000));

    const theirs = await asked('refund', { reason: 'damaged' });
    await desk().decideReturn({
      returnId: theirs.returnId,
      decision: 'approve',
      handover: 'pickup',
    });
    const free = await as(theirs.buyer).returns.byId({ id: theirs.returnId });
    expect(free.pickupFee).toBe(0);
    const queue = await desk().returns({ status: 'approved' });
    expect(queue.returns.map((r) => r.id)).toEqual(
      expect.arrayContaining([mine.returnId, theirs.returnId]),
    );
    expect(queue.counts.approved).toBeGreaterThanOrEqual(2);
    const one = await desk().returnById({ returnId: mine.returnId });
    expect(one.record.map((r) => r.action)).toEqual(['return.approved']);
    expect(one.lines[0]).toMatchObject({ price: 90_000, exchangeVariantId: null });
  });
});

describe('receive', () => {
  it('resellable goes back in stock with a returned movement; sent again changes nothing', async () => {
    const { returnId, orderItemId, order } = await asked('refund', {
      payment: 'mtn',
      size: 'M',
    });
    await desk().decideReturn({ returnId, decision: 'approve', handover: 'drop_off' });
    const stock = await stockOf(test.db, { variantId: sizeOf(dress, 'M') });
    const lines = [{ orderItemId, condition: 'resellable' as const }];
    const received = await desk().receiveReturn({ returnId, lines });
    expect(received.status).toBe('received');
    expect(received.refunds).toEqual([
      expect.objectContaining({ method: 'mtn', amount: 90_000, status: 'requested' }),
    ]);
    expect(await stockOf(test.db, { variantId: sizeOf(dress, 'M') })).toBe(stock + 1);
    const back = (await movements(sizeOf(dress, 'M'), 'returned')).filter(
      (m) => m.orderId === order.orderId,
    );
    expect(back).toHaveLength(1);
    const [refund] = await test.db.select().from(refunds).where(eq(refunds.returnId, returnId));
    expect(refund).toMatchObject({ paymentId: order.paymentId, method: 'mtn' });

    const again = await desk().receiveReturn({ returnId, lines });
    expect(again.status).toBe('received');
    expect(await stockOf(test.db, { variantId: sizeOf(dress, 'M') })).toBe(stock + 1);
    expect(
      (await movements(sizeOf(dress, 'M'), 'returned')).filter((m) => m.orderId === order.orderId),
    ).toHaveLength(1);
    expect(await test.db.select().from(refunds).where(eq(refunds.returnId, returnId))).toHaveLength(
      1,
    );
  });

  it('a damaged piece stays out of stock, logged with a change of 0', async () => {
    const { returnId, orderItemId, order } = await asked('refund', { size: 'S' });
    await desk().decideReturn({ returnId, decision: 'approve' });
    const stock = await stockOf(test.db, { variantId: sizeOf(dress, 'S') });
    await desk().receiveReturn({ returnId, lines: [{ orderItemId, condition: 'damaged' }] });
    expect(await stockOf(test.db, { variantId: sizeOf(dress, 'S') })).toBe(stock);
    const logged = (await movements(sizeOf(dress, 'S'), 'return-damaged')).filter(
      (m) => m.orderId === order.orderId,
    );
    expect(logged).toEqual([expect.objectContaining({ change: 0, stockAfter: stock })]);
    const [line] = await test.db
      .select()
      .from(returnLines)
      .where(eq(returnLines.returnId, returnId));
    expect(line?.condition).toBe('damaged');
  });

  it('store credit is granted once under 10 concurrent receipts', async () => {
    const { returnId, orderItemId, buyer } = await asked('refund', { refundTo: 'store_credit' });
    await desk().decideReturn({ returnId, decision: 'approve', handover: 'drop_off' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        refusal(
          desk().receiveReturn({ returnId, lines: [{ orderItemId, condition: 'resellable' }] }),
        ),
      ),
    );
    expect(answers.every((a) => a.code === 'NONE')).toBe(true);
    const rows = await test.db.select().from(refunds).where(eq(refunds.returnId, returnId));
    expect(rows).toEqual([
      expect.objectContaining({ method: 'store_credit', amount: 90_000, status: 'succeeded' }),
    ]);
    const [account] = await test.db
      .select()
      .from(valueAccounts)
      .where(and(eq(valueAccounts.userId, buyer.id), eq(valueAccounts.kind, 'store_credit')));
    expect(account?.balance).toBe(90_000);
    const entries = await test.db
      .select()
      .from(valueEntries)
      .where(eq(valueEntries.accountId, account?.id ?? 0));
    expect(entries).toEqual([expect.objectContaining({ amount: 90_000, reason: 'refund' })]);
    const [row] = await test.db.select().from(returns).where(eq(returns.id, returnId));
    expect(row?.status).toBe('refunded');
    expect((await as(buyer).account.credit()).balance).toBe(90_000);
    const view = await as(buyer).returns.byId({ id: returnId });
    expect(view.refund).toMatchObject({ method: 'store_credit', status: 'succeeded' });
    expect(view.refund?.creditNote).toMatch(/^CRN-/);
  }, 60_000);

  it('an exchange is prepared on receipt, then goes out (exchanged) and is delivered', async () => {
    const { returnId, orderItemId } = await asked('exchange', { size: 'S' });
    const early = await refusal(desk().moveExchange({ returnId, to: 'out_for_delivery' }));
    expect(early).toEqual({ code: 'CONFLICT', message: RETURN_TEXT.notPreparing });
    await desk().decideReturn({ returnId, decision: 'approve' });
    const received = await desk().receiveReturn({
      returnId,
      lines: [{ orderItemId, condition: 'resellable' }],
    });
    expect(received).toEqual({ status: 'received', refunds: [] });
    expect(await desk().moveExchange({ returnId, to: 'out_for_delivery' })).toEqual({
      status: 'exchanged',
      exchangeStatus: 'out_for_delivery',
    });
    expect(await desk().moveExchange({ returnId, to: 'delivered' })).toEqual({
      status: 'exchanged',
      exchangeStatus: 'delivered',
    });
  });
});

describe('who and what the desk takes', () => {
  it('a customer is refused (403) on every desk returns procedure', async () => {
    const customer = await signedInShopper(test.db, auth);
    const theirs = deskCaller(test.db, customer);
    const returnId = randomUUID();
    const calls = [
      () => theirs.returns({}),
      () => theirs.returnById({ returnId }),
      () => theirs.decideReturn({ returnId, decision: 'approve' }),
      () =>
        theirs.receiveReturn({
          returnId,
          lines: [{ orderItemId: randomUUID(), condition: 'resellable' }],
        }),
      () => theirs.moveExchange({ returnId, to: 'delivered' }),
    ];
    for (const call of calls) {
      expect(await refusal(call())).toEqual({ code: 'FORBIDDEN', message: DESK_TEXT.deskOnly });
    }
  });

  it('wrong types, NUL, a huge reason and unknown ids are refused with texts', async () => {
    const { returnId } = await asked('refund');
    const cases: [() => Promise<unknown>, string][] = [
      [() => desk().decideReturn({ returnId, decision: 'refuse' }), RETURN_TEXT.refusalNeedsReason],
      [
        () => desk().decideReturn({ returnId, decision: 'refuse', reason: 'Worn\u0000' }),
        RETURN_TEXT.badStaffReason,
      ],
      [
        () => desk().decideReturn({ returnId, decision: 'refuse', reason: 'x'.repeat(100_000) }),
        RETURN_TEXT.badStaffReason,
      ],
      [
        () => desk().decideReturn({ returnId: 'nope', decision: 'approve' } as never),
        RETURN_TEXT.returnNotFound,
      ],
      [
        () => desk().decideReturn({ returnId, decision: 'approve', handover: 'drone' } as never),
        RETURN_TEXT.badHandover,
      ],
      [() => desk().returnById({ returnId: randomUUID() }), RETURN_TEXT.returnNotFound],
      [
        () =>
          desk().receiveReturn({
            returnId,
            lines: [{ orderItemId: randomUUID(), condition: 'resellable' }],
          }),
        RETURN_TEXT.notApproved,
      ],
      [
        () =>
          desk().receiveReturn({
            returnId,
            lines: [{ orderItemId: randomUUID(), condition: 'worn' }],
          } as never),
        RETURN_TEXT.badCondition,
      ],
      [() => desk().returns({ status: 'lost' } as never), RETURN_TEXT.returnNotFound],
    ];
    for (const [call, message] of cases) {
      expect((await refusal(call())).message).toBe(message);
    }
    const [row] = await test.db.select().from(returns).where(eq(returns.id, returnId));
    expect(row?.status).toBe('requested');
  });
});
