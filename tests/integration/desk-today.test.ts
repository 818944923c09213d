// Today's figures tell paid from placed (issue 34, decision 0079): money in by when it came,
// orders placed and not paid, declined and expired attempts apart, for Kampala's today, week
// (from Monday) and month, at their midnight boundaries; today's status moves with the texts they
// sent; customers refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskRecords, orders, payments, smsNotifications } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { dashboard } from '#server/services/dashboard.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let test: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(async () => {
  await test?.close();
});

// Wednesday 5 March 2031, 08:00 in Kampala (05:00 UTC). Monday 3 March 00:00 in Kampala is
// 2031-03-02T21:00Z; 1 March 00:00 is 2031-02-28T21:00Z; today began at 2031-03-04T21:00Z.
const NOW = new Date('2031-03-05T05:00:00Z');

async function order(placed: string, total: number, status = 'pending', method = 'mobile_money') {
  const id = randomUUID();
  await test.db.insert(orders).values({
    id,
    customerName: `Known ${total}`,
    subtotal: total,
    deliveryFee: 0,
    total,
    paymentMethod: method,
    status,
    createdAt: new Date(placed),
  });
  return id;
}

async function payment(
  orderId: string,
  amount: number,
  status: 'successful' | 'failed' | 'expired' | 'pending',
  ended: string | null,
  network = 'mtn',
) {
  await test.db.insert(payments).values({
    id: randomUUID(),
    orderId,
    callbackSecret: randomUUID(),
    amount,
    status,
    network,
    phone: network === 'mtn' ? '+256772000001' : null,
    reason: status === 'failed' ? 'APPROVAL_REJECTED' : status === 'expired' ? 'expired' : null,
    createdAt: new Date(ended ?? '2031-03-04T21:30:00Z'),
    settledAt: ended === null ? null : new Date(ended),
  } as never);
}

describe('desk.dashboard: paid, placed but unpaid, declined and expired apart', () => {
  it('puts each order and attempt in its box for today, the week and the month', async () => {
    const before = await dashboard(test.db, NOW);
    expect(before.sales.today).toEqual({
      paid: { orders: 0, total: 0 },
      unpaid: { orders: 0, total: 0 },
      declined: { attempts: 0, amount: 0 },
      expired: { attempts: 0, amount: 0 },
    });

    // Paid today: placed at Kampala midnight exactly, paid at 01:00.
    const paid = await order('2031-03-04T21:00:00Z', 100_000, 'processing');
    await payment(paid, 100_000, 'successful', '2031-03-04T22:00:00Z');
    // Placed today, not paid (pending, no payment).
    await order('2031-03-05T04:00:00Z', 20_000);
    // Placed today, its mobile money declined: unpaid, and one declined attempt.
    const declined = await order('2031-03-05T03:00:00Z', 40_000);
    await payment(declined, 40_000, 'failed', '2031-03-05T03:05:00Z');
    // Placed on Monday at 00:00 (this week), its prompt expired on Monday: unpaid this week.
    const expired = await order('2031-03-02T21:00:00Z', 8_000);
    await payment(expired, 8_000, 'expired', '2031-03-02T21:10:00Z');
    // A bank transfer placed on 28 February, marked paid at midnight today: today's money, and
    // never unpaid in March.
    const bank = await order('2031-02-28T20:00:00Z', 300_000, 'processing', 'bank_transfer');
    await payment(bank, 300_000, 'successful', '2031-03-04T21:00:00Z', 'bank_transfer');
    // Paid at 23:59:59 on Tuesday: this week, not today (placed the same minute).
    const tuesday = await order('2031-03-04T20:59:00Z', 5_000, 'processing');
    await payment(tuesday, 5_000, 'successful', '2031-03-04T20:59:59Z');
    // Paid on Sunday 2 March 23:00: this month only.
    const sunday = await order('2031-03-02T20:00:00Z', 7_000, 'processing');
    await payment(sunday, 7_000, 'successful', '2031-03-02T20:00:00Z');
    // 28 February 23:59:59: in no period.
    const february = await order('2031-02-28T20:59:59Z', 9_000, 'processing');
    await payment(february, 9_000, 'successful', '2031-02-28T20:59:59Z');
    // Cancelled and unpaid: never in the figures; a payment still waiting: not paid.
    await order('2031-03-05T02:00:00Z', 60_000, 'cancelled');
    const waiting = await order('2031-03-05T02:30:00Z', 11_000);
    await payment(waiting, 11_000, 'pending', null);

    const { sales } = await dashboard(test.db, NOW);
    expect(sales.today).toEqual({
      paid: { orders: 2, total: 400_000 },
      unpaid: { orders: 3, total: 71_000 },
      declined: { attempts: 1, amount: 40_000 },
      expired: { attempts: 0, amount: 0 },
    });
    expect(sales.week).toEqual({
      paid: { orders: 3, total: 405_000 },
      unpaid: { orders: 4, total: 79_000 },
      declined: { attempts: 1, amount: 40_000 },
      expired: { attempts: 1, amount: 8_000 },
    });
    expect(sales.month).toEqual({
      paid: { orders: 4, total: 412_000 },
      unpaid: { orders: 4, total: 79_000 },
      declined: { attempts: 1, amount: 40_000 },
      expired: { attempts: 1, amount: 8_000 },
    });

    // The next morning (Thursday) the same money is the week's, no longer today's.
    const thursday = await dashboard(test.db, new Date('2031-03-06T05:00:00Z'));
    expect(thursday.sales.today).toEqual(before.sales.today);
    expect(thursday.sales.week).toEqual(sales.week);
  });

  it('lists today’s status moves with who, from → to and the text each sent', async () => {
    const staff = await deskMember(test.db, auth, 'staff', 'Moving Staff');
    const shipped = await order('2031-03-05T01:00:00Z', 90_000, 'shipped');
    const delivered = await order('2031-03-05T01:30:00Z', 50_000, 'delivered');
    const yesterday = await order('2031-03-04T10:00:00Z', 70_000, 'shipped');
    await test.db.insert(deskRecords).values([
      {
        actorEmail: staff.email,
        action: 'order.status',
        subject: 'Order',
        details: { from: 'processing', to: 'shipped' },
        orderId: shipped,
        createdAt: new Date('2031-03-05T04:10:00Z'),
      },
      {
        actorEmail: staff.email,
        action: 'order.status',
        subject: 'Order',
        details: { from: 'processing', to: 'shipped' },
        orderId: yesterday,
        createdAt: new Date('2031-03-04T20:59:00Z'),
      },
    ]);
    await test.db.insert(smsNotifications).values([
      {
        orderId: shipped,
        recipientPhone: '+256772000010',
        recipientType: 'customer',
        kind: 'shipped',
        messageContent: 'Your duuka order is on its way.',
        status: 'sent',
        createdAt: new Date('2031-03-05T04:10:01Z'),
      },
      {
        orderId: shipped,
        recipientPhone: '+256700111222',
        recipientType: 'admin',
        kind: 'shipped',
        messageContent: 'Admin copy',
        status: 'sent',
        createdAt: new Date('2031-03-05T04:10:01Z'),
      },
      // A move made before moves were recorded: known by its text alone.
      {
        orderId: delivered,
        recipientPhone: '+256772000011',
        recipientType: 'customer',
        kind: 'delivered',
        messageContent: 'Your duuka order was delivered.',
        status: 'failed',
        createdAt: new Date('2031-03-05T04:20:00Z'),
      },
      // Not a status text: not a move.
      {
        orderId: delivered,
        recipientPhone: '+256772000011',
        recipientType: 'customer',
        kind: 'order-confirmation',
        messageContent: 'Thanks',
        status: 'sent',
        createdAt: new Date('2031-03-05T04:00:00Z'),
      },
    ] as never);

    const { moves } = await dashboard(test.db, NOW);
    expect(moves).toEqual([
      {
        orderId: delivered,
        customerName: 'Known 50000',
        from: null,
        to: 'delivered',
        who: null,
        at: '2031-03-05T04:20:00.000Z',
        text: { content: 'Your duuka order was delivered.', status: 'failed' },
      },
      {
        orderId: shipped,
        customerName: 'Known 90000',
        from: 'processing',
        to: 'shipped',
        who: staff.email,
        at: '2031-03-05T04:10:00.000Z',
        text: { content: 'Your duuka order is on its way.', status: 'sent' },
      },
    ]);
  });

  it('staff and the owner read it; a customer is refused (403), a visitor asked to sign in', async () => {
    const staff = await deskMember(test.db, auth, 'staff');
    const owner = await deskMember(test.db, auth, 'owner');
    for (const person of [staff, owner]) {
      const board = await deskCaller(test.db, person).dashboard();
      expect(Object.keys(board.sales.today)).toEqual(['paid', 'unpaid', 'declined', 'expired']);
      expect(Array.isArray(board.moves)).toBe(true);
    }
    const shopper = await signedInShopper(test.db, auth);
    await expect(deskCaller(test.db, shopper).dashboard()).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(deskCaller(test.db, { cookie: '' }).dashboard()).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});
