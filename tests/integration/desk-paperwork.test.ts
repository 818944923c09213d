// The desk's paperwork (issue 34) on a real database: the packing slip of an order (who, where,
// the number to call, the pieces with SKU and size, what the rider collects) and the accountant's
// orders file (a span of Kampala days, every order with its pieces, payments and delivery,
// formulas guarded). Staff and the owner only; a bad id or day gets a clear answer, never a 500.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '#core/desk-csv.ts';
import { ORDERS_FILE_COLUMNS, PAPERWORK_TEXT } from '#core/desk-paperwork.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { formatUGX } from '#core/money.ts';
import type { PaymentMethod } from '#core/order-rules.ts';
import { orders, profiles } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { ordersCsv, packingSlip } from '#server/http/desk-files.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import { pdfText } from '../support/pdf.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let test: TestDatabase;
let auth: Auth;
let staff: DeskMember;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  staff = await deskMember(test.db, auth, 'staff');
  shopper = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  await test.db
    .insert(profiles)
    .values({
      id: shopper.id,
      email: shopper.email,
      fullName: 'Nakato Achieng',
      phone: '+256772000951',
    })
    .onConflictDoUpdate({ target: profiles.id, set: { phone: '+256772000951' } });
});
afterAll(async () => {
  await test?.close();
});

const deps = () => ({ db: test.db, auth, ownerEmails: [] });
const headers = (cookie?: string) => new Headers(cookie ? { cookie } : {});

async function order(paymentMethod: PaymentMethod, delivery = {}) {
  const piece = await addProduct(test.db, {
    name: 'Ankara Wrap Dress',
    price: 145_000,
    options: [{ name: 'Size', values: ['M', 'L'] }],
    stock: { M: 5, L: 5 },
  });
  // A SKU as a boutique writes one (the test's own are UUIDs, wrapped in their column).
  const sku = `AWD-M-${randomUUID().slice(0, 4).toUpperCase()}`;
  await test.db.execute(
    sql`update product_variants set sku = ${sku} where id = ${Number(piece.variants.M)}`,
  );
  const placed = await placeOrder(
    test.db,
    { id: shopper.id, email: shopper.email, name: shopper.name },
    {
      orderId: randomUUID(),
      lines: [{ variantId: Number(piece.variants.M), quantity: 2 }],
      paymentMethod,
      delivery: {
        optionId: 'kampala',
        area: 'Ntinda',
        landmark: 'Capital Shoppers',
        notes: 'Blue gate',
        ...delivery,
      },
    },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return { orderId: placed.order.orderId, total: placed.order.total, sku };
}

const slip = (orderId: string, cookie?: string) =>
  packingSlip(
    deps(),
    new Request(`http://shop.test/api/desk/orders/${orderId}/packing-slip.pdf`, {
      headers: headers(cookie),
    }),
    orderId,
  );

/** The slip's words, a line break read as a space (a long text wraps in its column). */
const slipText = async (orderId: string) => {
  const response = await slip(orderId, staff.cookie);
  expect(response.status).toBe(200);
  const text = await pdfText(new Uint8Array(await response.arrayBuffer()), { mode: 'lines' });
  return text.replace(/\s+/g, ' ');
};

describe('the packing slip', () => {
  it('is for the desk only; an unknown or malformed order is 404, never a 500', async () => {
    const { orderId } = await order('cash_on_delivery');
    expect((await slip(orderId)).status).toBe(401);
    const customer = await slip(orderId, shopper.cookie);
    expect(customer.status).toBe(403);
    expect(await customer.json()).toEqual({ message: DESK_TEXT.deskOnly });
    for (const id of [randomUUID(), 'x', `${orderId}\u0000`, 'a'.repeat(10_000), "1' or '1'='1"]) {
      const response = await slip(id, staff.cookie);
      expect(response.status, id.slice(0, 40)).toBe(404);
      expect(await response.json()).toEqual({ message: PAPERWORK_TEXT.notFound });
    }
  });

  it('says who, where, the number to call, the pieces with SKU and size, and the cash to collect', async () => {
    const { orderId, total, sku } = await order('cash_on_delivery');
    const response = await slip(orderId, staff.cookie);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="duuka-packing-slip-${orderId.slice(0, 8)}.pdf"`,
    );
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()), { mode: 'lines' });
    for (const part of [
      orderId.slice(0, 8).toUpperCase(),
      'Nakato Achieng',
      '0772 000 951',
      'Ntinda, near Capital Shoppers',
      'Notes: Blue gate',
      'Ankara Wrap Dress',
      PAPERWORK_TEXT.collect,
      formatUGX(total),
      PAPERWORK_TEXT.pieces(2),
      PAPERWORK_TEXT.receivedBy.toUpperCase(),
    ]) {
      expect(text, part).toContain(part);
    }
    expect(text).toContain(sku);
    // The size bought is in its own column, beside the piece.
    expect(text).toMatch(/Ankara Wrap Dress\s+M\b/);
  });

  it('tells a paid order from one whose payment is still awaited', async () => {
    const waiting = await order('mobile_money');
    expect(await slipText(waiting.orderId)).toContain(PAPERWORK_TEXT.notPaid('Mobile Money'));
    const owner = deskCaller(test.db, staff);
    const bank = await order('bank_transfer');
    await owner.markPaid({ orderId: bank.orderId, reference: 'FT26333XK01' });
    const paid = await slipText(bank.orderId);
    expect(paid).toContain(PAPERWORK_TEXT.paidNothing);
    expect(paid).not.toContain(PAPERWORK_TEXT.collect);
  });
});

const file = (query: string, cookie?: string) =>
  ordersCsv(
    deps(),
    new Request(`http://shop.test/api/desk/orders.csv${query}`, { headers: headers(cookie) }),
    new Date('2026-11-29T10:00:00Z'),
  );

async function rows(query: string) {
  const response = await file(query, staff.cookie);
  expect(response.status).toBe(200);
  const read = readCsv(await response.text());
  if (!read.ok) throw new Error(read.problem);
  const [head, ...body] = read.rows;
  expect(head).toEqual([...ORDERS_FILE_COLUMNS]);
  const at = (name: (typeof ORDERS_FILE_COLUMNS)[number]) => ORDERS_FILE_COLUMNS.indexOf(name);
  return body.map((row) => Object.fromEntries(ORDERS_FILE_COLUMNS.map((c) => [c, row[at(c)]])));
}

describe("the accountant's orders file", () => {
  it('is for the desk only, and refuses days it cannot read', async () => {
    expect((await file('')).status).toBe(401);
    expect((await file('', shopper.cookie)).status).toBe(403);
    for (const query of [
      '?from=2026-13-01',
      '?from=2026-02-30',
      '?to=yesterday',
      '?from=2026-11-29&to=2026-11-01',
      `?from=${'9'.repeat(5000)}`,
      '?from=2026-11-01%00',
    ]) {
      const response = await file(query, staff.cookie);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ message: PAPERWORK_TEXT.badDay });
    }
  });

  it('holds the orders of the Kampala days asked for, with pieces, payments and delivery', async () => {
    // Placed at 23:30 and 00:30 Kampala time either side of 10 November's midnight.
    const before = await order('bank_transfer');
    const after = await order('cash_on_delivery');
    await test.db
      .update(orders)
      .set({ createdAt: new Date('2026-11-09T20:30:00Z') })
      .where(eq(orders.id, before.orderId));
    await test.db
      .update(orders)
      .set({ createdAt: new Date('2026-11-09T21:30:00Z') })
      .where(eq(orders.id, after.orderId));
    await deskCaller(test.db, staff).markPaid({ orderId: before.orderId, reference: 'FT26314AB' });

    const ninth = await rows('?from=2026-11-09&to=2026-11-09');
    expect(ninth.map((r) => r.Order)).toEqual([before.orderId]);
    const tenth = await rows('?from=2026-11-10&to=2026-11-10');
    expect(tenth.map((r) => r.Order)).toEqual([after.orderId]);
    expect((await rows('?to=2026-11-10')).map((r) => r.Order)).toEqual([
      before.orderId,
      after.orderId,
    ]);

    const [paid] = ninth;
    expect(paid).toMatchObject({
      Receipt: `RCP-${before.orderId.slice(0, 8)}`,
      'Placed (Kampala)': '2026-11-09 23:30',
      Source: 'Online',
      Customer: 'Nakato Achieng',
      // A leading + is guarded too: the spreadsheet shows the number as text, not a sum.
      Phone: "'+256772000951",
      Email: shopper.email,
      'Payment method': 'Bank Transfer',
      Paid: 'yes',
      'Received amount': String(before.total),
      'Payment references': 'FT26314AB',
      Total: String(before.total),
      Area: 'Ntinda',
      Landmark: 'Capital Shoppers',
      Pieces: '2',
      Items: '2 × Ankara Wrap Dress (M) @ 145000',
    });
    expect(tenth[0]).toMatchObject({
      Paid: 'no',
      'Received amount': '0',
      'Payment references': '',
    });
  });

  it('guards every cell a spreadsheet could run as a formula', async () => {
    const { orderId } = await order('cash_on_delivery', {
      area: '=HYPERLINK("http://evil.example","x")',
    });
    await test.db
      .update(orders)
      .set({ customerName: '+cmd|calc', createdAt: new Date('2026-10-01T09:00:00Z') })
      .where(eq(orders.id, orderId));
    const [row] = await rows('?from=2026-10-01&to=2026-10-01');
    expect(row?.Customer).toBe("'+cmd|calc");
    expect(row?.Area).toBe('\'=HYPERLINK("http://evil.example","x")');
  });
});
