// The desk's order book (issue 34; decision 0074) on a real database (PGlite; PostgreSQL with
// TEST_DATABASE_URL): pages of 50 by cursor over 140+ orders (no order twice, none missed while
// new orders arrive), every filter and queue against a brute-force reading of the same orders,
// Kampala days at midnight, the search by either reference, the receipt's RCP- form, a phone in
// three spellings, a name and an email; the chips' counts against a brute-force count; customers
// refused; hostile input answered 400, never 500.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_KINDS } from '#core/delivery-rules.ts';
import { canMarkPaid } from '#core/desk-money.ts';
import {
  COUNT_CAP,
  chipCount,
  DESK_ORDER_BOOK_TEXT,
  ORDER_BOOK_METHODS,
  ORDER_BOOK_PAGE,
  ORDER_QUEUES,
  type OrderBookQuery,
  type OrderQueue,
} from '#core/desk-order-book.ts';
import { ORDER_STATUSES } from '#core/order-rules.ts';
import { orders, payments } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let staff: DeskMember;
let customer: Awaited<ReturnType<typeof signedInShopper>>;

/** What the test knows of each order it made: the brute force reads these. */
type Made = {
  id: string;
  customerName: string;
  customerPhone: string | null;
  customerEmail: string | null;
  deliveryPhone: string | null;
  status: string;
  paymentMethod: string;
  deliveryKind: string;
  deliveryOptionId: string;
  createdAt: Date;
  paid: boolean;
};
const made: Made[] = [];

const NETWORK: Record<string, string> = {
  mobile_money: 'mtn',
  card: 'pesapal',
  bank_transfer: 'bank_transfer',
  cash_on_delivery: 'cash_on_delivery',
  cash: 'cash',
};
const OPTION: Record<string, string> = {
  delivery: 'kampala',
  pickup: 'pickup',
  courier: 'upcountry',
};

async function insertOrders(rows: Made[]) {
  await test.db.insert(orders).values(
    rows.map((row) => ({
      id: row.id,
      customerName: row.customerName,
      customerPhone: row.customerPhone,
      customerEmail: row.customerEmail,
      deliveryPhone: row.deliveryPhone,
      subtotal: 100_000,
      deliveryFee: 5_000,
      total: 105_000,
      paymentMethod: row.paymentMethod,
      status: row.status,
      deliveryKind: row.deliveryKind,
      deliveryOptionId: row.deliveryOptionId,
      createdAt: row.createdAt,
    })),
  );
  const paid = rows.filter((row) => row.paid);
  if (paid.length > 0) {
    await test.db.insert(payments).values(
      paid.map((row) => ({
        id: randomUUID(),
        orderId: row.id,
        network: NETWORK[row.paymentMethod] ?? 'mtn',
        amount: 105_000,
        status: 'successful',
        transactionId: `TX-${row.id.slice(0, 6)}`,
        callbackSecret: randomUUID(),
      })),
    );
  }
  made.push(...rows);
}

const BASE = Date.parse('2026-11-20T09:00:00Z');

function fixture(i: number, over: Partial<Made> = {}): Made {
  const kind = DELIVERY_KINDS[i % 3] ?? 'delivery';
  return {
    id: randomUUID(),
    customerName: `Buyer ${i}`,
    customerPhone: `+2567010${String(i).padStart(5, '0')}`,
    customerEmail: `buyer${i}@example.ug`,
    deliveryPhone: null,
    status: ORDER_STATUSES[i % ORDER_STATUSES.length] ?? 'pending',
    paymentMethod: ORDER_BOOK_METHODS[(i * 7) % ORDER_BOOK_METHODS.length] ?? 'mobile_money',
    deliveryKind: kind,
    deliveryOptionId: OPTION[kind] ?? 'kampala',
    // Two orders share each instant: the id decides between them, and the cursor must too.
    createdAt: new Date(BASE - Math.floor(i / 2) * 37 * 60_000),
    paid: i % 4 === 0 || i % 11 === 0,
    ...over,
  };
}

// ——— The brute force: the definitions, read again in plain code over what the test made ———

const QUEUE: Record<OrderQueue, (o: Made) => boolean> = {
  to_pack: (o) =>
    ['pending', 'processing'].includes(o.status) &&
    (o.paid || o.paymentMethod === 'cash_on_delivery'),
  awaiting_payment: (o) =>
    o.status === 'pending' && ['mobile_money', 'card'].includes(o.paymentMethod) && !o.paid,
  to_confirm: (o) => !o.paid && canMarkPaid(o),
};

const KAMPALA = 3 * 3_600_000;
const kampalaDayOf = (at: Date) => new Date(at.getTime() + KAMPALA).toISOString().slice(0, 10);

function searchTextOf(o: Made) {
  return [o.id, o.customerName, o.customerPhone ?? '', o.deliveryPhone ?? '', o.customerEmail ?? '']
    .join(' ')
    .toLowerCase();
}

function matchesShared(o: Made, input: OrderBookQuery, term?: string) {
  if (term !== undefined && !searchTextOf(o).includes(term)) return false;
  if (input.paid !== undefined && o.paid !== input.paid) return false;
  if (input.method && o.paymentMethod !== input.method) return false;
  if (input.delivery) {
    const byKind = (DELIVERY_KINDS as readonly string[]).includes(input.delivery);
    if ((byKind ? o.deliveryKind : o.deliveryOptionId) !== input.delivery) return false;
  }
  if (input.from && kampalaDayOf(o.createdAt) < input.from) return false;
  if (input.to && kampalaDayOf(o.createdAt) > input.to) return false;
  return true;
}

/** The orders the book should list for the input, newest first (created_at, then id). */
function expected(input: OrderBookQuery, term?: string) {
  return made
    .filter(
      (o) =>
        matchesShared(o, input, term) &&
        (!input.status || o.status === input.status) &&
        (!input.queue || QUEUE[input.queue](o)),
    )
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((o) => o.id);
}

const desk = () => deskCaller(test.db, staff);

/** Every page of the book for the input, asserting each page's size and that no order repeats. */
async function everyPage(input: OrderBookQuery) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await desk().orders({ ...input, ...(cursor ? { cursor } : {}) });
    ids.push(...answer.orders.map((o) => o.id));
    if (answer.nextCursor === null) break;
    expect(answer.orders).toHaveLength(ORDER_BOOK_PAGE);
    cursor = answer.nextCursor;
  }
  expect(new Set(ids).size).toBe(ids.length);
  return ids;
}

const NAKATO = {
  name: 'Nakato Achieng',
  phone: '+256772123456',
  email: 'nakato.achieng@example.ug',
};
let nakato: Made;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  staff = await deskMember(test.db, auth, 'staff');
  customer = await signedInShopper(test.db, auth, { name: 'Curious Customer' });
  await insertOrders(Array.from({ length: 140 }, (_, i) => fixture(i)));
  nakato = fixture(500, {
    customerName: NAKATO.name,
    customerPhone: NAKATO.phone,
    customerEmail: NAKATO.email,
    deliveryPhone: '0772123456',
    status: 'pending',
    paymentMethod: 'bank_transfer',
    paid: false,
    createdAt: new Date(BASE - 3 * 86_400_000 - 11_000),
  });
  // Either side of a Kampala midnight: 23:59:59.999 on 10 November, and 00:00 on 11 November.
  await insertOrders([
    nakato,
    fixture(600, { createdAt: new Date('2026-11-10T20:59:59.999Z') }),
    fixture(601, { createdAt: new Date('2026-11-10T21:00:00.000Z') }),
  ]);
}, 120_000);
afterAll(async () => {
  await test?.close();
});

describe('paging', () => {
  it('pages 50 at a time, newest first, with no order twice and none missed', async () => {
    const ids = await everyPage({});
    expect(ids).toHaveLength(made.length);
    expect(ids).toEqual(expected({}));
    const first = await desk().orders();
    expect(first.orders).toHaveLength(ORDER_BOOK_PAGE);
    expect(first.nextCursor).toEqual(expect.any(String));
    // The rows keep the old list's fields and add where the order came from and whom to call.
    expect(first.orders[0]).toMatchObject({
      id: expect.any(String),
      customerName: expect.any(String),
      total: 105_000,
      source: 'web',
      customerPhone: expect.stringMatching(/^\+256/),
      customerEmail: expect.stringContaining('@'),
      deliveryOption: expect.any(String),
      items: 0,
      pieces: [],
      paid: expect.any(Boolean),
      canMarkPaid: expect.any(Boolean),
    });
  });

  it('keeps its place while new orders arrive: they land before the first page', async () => {
    const first = await desk().orders();
    const arriving = [0, 1, 2].map((i) => fixture(700 + i, { createdAt: new Date() }));
    await insertOrders(arriving);
    const seen = first.orders.map((o) => o.id);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await desk().orders({ cursor });
      seen.push(...page.orders.map((o) => o.id));
      cursor = page.nextCursor;
    }
    const before = made.filter((o) => !arriving.includes(o)).map((o) => o.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set(before));
    const again = await desk().orders();
    expect(again.orders.slice(0, 3).map((o) => o.id)).toEqual(
      arriving
        .toSorted((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
        .map((o) => o.id),
    );
  });
});

describe('filters and queues, against a brute-force reading', () => {
  const cases: [string, OrderBookQuery][] = [
    ...ORDER_STATUSES.map((status): [string, OrderBookQuery] => [`status ${status}`, { status }]),
    ...ORDER_QUEUES.map((queue): [string, OrderBookQuery] => [`queue ${queue}`, { queue }]),
    ['paid', { paid: true }],
    ['not paid', { paid: false }],
    ...ORDER_BOOK_METHODS.map((method): [string, OrderBookQuery] => [
      `method ${method}`,
      { method },
    ]),
    ...DELIVERY_KINDS.map((delivery): [string, OrderBookQuery] => [
      `delivery ${delivery}`,
      { delivery },
    ]),
    ['delivery option upcountry', { delivery: 'upcountry' }],
    ['a span of days', { from: '2026-11-17', to: '2026-11-19' }],
    [
      'cash on delivery, to pack, not paid',
      { method: 'cash_on_delivery', queue: 'to_pack', paid: false },
    ],
    [
      'processing by pickup from the 18th',
      { status: 'processing', delivery: 'pickup', from: '2026-11-18' },
    ],
  ];
  for (const [name, input] of cases) {
    it(name, async () => {
      const want = expected(input);
      expect(want.length).toBeGreaterThan(0);
      expect(await everyPage(input)).toEqual(want);
    });
  }

  it('has a queue for each kind of work, and they are not empty', () => {
    for (const queue of ORDER_QUEUES) expect(expected({ queue }).length).toBeGreaterThan(2);
  });

  it('reads Kampala days from midnight to midnight', async () => {
    const [late, early] = made.filter((o) => o.customerName.match(/^Buyer 60[01]$/));
    const day11 = await everyPage({ from: '2026-11-11', to: '2026-11-11' });
    expect(day11).toContain(early?.id);
    expect(day11).not.toContain(late?.id);
    const day10 = await everyPage({ from: '2026-11-10', to: '2026-11-10' });
    expect(day10).toEqual([late?.id]);
    expect(await everyPage({ to: '2026-11-10' })).toEqual([late?.id]);
    expect(await everyPage({ from: '2026-11-11' })).not.toContain(late?.id);
  });
});

describe('search', () => {
  const found = async (q: string) => (await everyPage({ q })).sort();
  it('finds an order by either 8-character reference, the receipt’s RCP- form and #', async () => {
    const head = nakato.id.slice(0, 8);
    const tail = nakato.id.slice(-8);
    for (const q of [
      head,
      tail,
      head.toUpperCase(),
      `RCP-${head.toUpperCase()}`,
      `#${head}`,
      ` ${tail} `,
    ]) {
      expect(await found(q), q).toEqual([nakato.id]);
    }
  });

  it('finds a phone typed three ways', async () => {
    for (const q of ['0772 123456', '772123456', '+256 772 123456', '+256772123456']) {
      expect(await found(q), q).toEqual([nakato.id]);
    }
  });

  it('finds names and emails by any part, in any case', async () => {
    for (const q of ['nakato', 'ACHIENG', 'Nakato Ach', 'nakato.achieng@', 'achieng@example.ug']) {
      expect(await found(q), q).toEqual([nakato.id]);
    }
    // "buyer 1" is Buyer 1, 10–19, 100–139: the brute force agrees.
    expect(await found('Buyer 1')).toEqual(expected({}, 'buyer 1').sort());
  });

  it('takes % and _ as themselves, and answers nothing found plainly', async () => {
    expect(await found('%')).toEqual([]);
    expect(await found('buyer_1')).toEqual([]);
    expect(await found('no such customer')).toEqual([]);
  });

  it('combines a search with the chips and filters', async () => {
    const input = { q: 'Buyer 1', status: 'pending' } as const;
    expect(await everyPage(input)).toEqual(expected(input, 'buyer 1'));
  });
});

describe('the chips’ counts', () => {
  const brute = (input: OrderBookQuery, term?: string) => {
    const base = made.filter((o) => matchesShared(o, input, term));
    const counted: Record<string, number> = {
      all: base.length,
      ...Object.fromEntries(ORDER_QUEUES.map((q) => [q, base.filter(QUEUE[q]).length])),
      ...Object.fromEntries(
        ORDER_STATUSES.map((s) => [s, base.filter((o) => o.status === s).length]),
      ),
    };
    // Counting stops at the cap (the book has more orders than that).
    return Object.fromEntries(
      Object.entries(counted).map(([key, n]) => [key, Math.min(n, COUNT_CAP)]),
    );
  };

  it('counts every status and queue as a brute force does', async () => {
    expect((await desk().orders()).counts).toEqual(brute({}));
  });

  it('counts within the other filters and the search (not the chip itself)', async () => {
    for (const input of [
      { method: 'cash_on_delivery' },
      { paid: false, delivery: 'pickup' },
      { from: '2026-11-18' },
    ] as OrderBookQuery[]) {
      // The chip chosen changes the list, not the counts.
      expect((await desk().orders({ ...input, queue: 'to_pack' })).counts).toEqual(brute(input));
    }
    expect((await desk().orders({ q: 'Buyer 1' })).counts).toEqual(brute({}, 'buyer 1'));
    expect((await desk().orders({ q: '0772 123456' })).counts).toMatchObject({
      all: 1,
      pending: 1,
      to_confirm: 1,
      to_pack: 0,
    });
  });

  it('stops counting at the cap, and says so', async () => {
    // More old orders than the cap, in one statement, none of them a queue's.
    await test.db.execute(sql`
      insert into orders (id, customer_name, subtotal, delivery_fee, total, payment_method, status, created_at)
      select gen_random_uuid(), 'Archive ' || i, 1000, 0, 1000, 'card', 'completed',
             timestamptz '2025-01-01' + i * interval '1 minute'
      from generate_series(1, ${COUNT_CAP + 5}) as i`);
    const { counts } = await desk().orders();
    expect(counts.completed).toBe(COUNT_CAP);
    expect(counts.all).toBe(COUNT_CAP);
    expect(chipCount(counts.completed)).toBe(`${COUNT_CAP}+`);
    expect(counts.to_confirm).toBe(brute({}).to_confirm);
    expect(chipCount(42)).toBe('42');
  });
});

describe('who may read it, and what it refuses', () => {
  it('refuses customers (403) and the signed-out (401)', async () => {
    const asCustomer = callerFor(test.db, new Headers({ cookie: customer.cookie })).desk;
    await expect(asCustomer.orders()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(asCustomer.orders({ q: NAKATO.phone })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(callerFor(test.db).desk.orders()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const operator = callerFor(test.db, new Headers({ cookie: customer.cookie })).operator;
    await expect(operator.orders()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('keeps the old name, operator.orders, for the same book', async () => {
    const operator = callerFor(test.db, new Headers({ cookie: staff.cookie })).operator;
    expect((await operator.orders({ q: nakato.id.slice(-8) })).orders.map((o) => o.id)).toEqual([
      nakato.id,
    ]);
  });

  it('answers hostile input with 400 and a plain text, never 500', async () => {
    const { nextCursor } = await desk().orders();
    const good = String(nextCursor);
    const flipped = `${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`;
    const forged = btoa('2026-13-45T99:00:00.000000Z|00000000-0000-0000-0000-000000000000');
    const cases: [unknown, string][] = [
      [{ q: 'x'.repeat(100_000) }, DESK_ORDER_BOOK_TEXT.badSearch],
      [{ q: 'nak\u0000ato' }, DESK_ORDER_BOOK_TEXT.badSearch],
      [{ q: 1e21 }, DESK_ORDER_BOOK_TEXT.badSearch],
      [{ cursor: 'not a cursor' }, DESK_ORDER_BOOK_TEXT.badCursor],
      [{ cursor: flipped }, DESK_ORDER_BOOK_TEXT.badCursor],
      [{ cursor: `${good}=` }, DESK_ORDER_BOOK_TEXT.badCursor],
      [{ cursor: forged }, DESK_ORDER_BOOK_TEXT.badCursor],
      [{ cursor: 1e21 }, DESK_ORDER_BOOK_TEXT.badCursor],
      [{ cursor: 'x'.repeat(10_000) }, DESK_ORDER_BOOK_TEXT.badCursor],
      [{ status: "pending' or 1=1" }, DESK_ORDER_BOOK_TEXT.badStatus],
      [{ queue: 'everything' }, DESK_ORDER_BOOK_TEXT.badQueue],
      [{ paid: 'yes' }, DESK_ORDER_BOOK_TEXT.badPaid],
      [{ method: 'bitcoin' }, DESK_ORDER_BOOK_TEXT.badMethod],
      [{ delivery: 'Kampala; drop table orders' }, DESK_ORDER_BOOK_TEXT.badDelivery],
      [{ from: '2026-02-31' }, DESK_ORDER_BOOK_TEXT.badDay],
      [{ from: 1e21 }, DESK_ORDER_BOOK_TEXT.badDay],
      [{ from: '2026-11-20', to: '2026-11-01' }, DESK_ORDER_BOOK_TEXT.badDay],
      [{ offset: 50 }, DESK_ORDER_BOOK_TEXT.badFilters],
      ['everything', DESK_ORDER_BOOK_TEXT.badFilters],
    ];
    for (const [input, text] of cases) {
      const answer = await queryOverHttp(test.db, 'desk.orders', input, { cookie: staff.cookie });
      expect(answer.status, JSON.stringify(input).slice(0, 80)).toBe(400);
      expect(answer.body.error?.message, JSON.stringify(input).slice(0, 80)).toBe(text);
    }
    // The good cursor still reads.
    const next = await queryOverHttp(
      test.db,
      'desk.orders',
      { cursor: good },
      { cookie: staff.cookie },
    );
    expect(next.status).toBe(200);
  });
});
