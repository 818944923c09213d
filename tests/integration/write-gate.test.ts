// The write gate cannot be forgotten (decisions 0057, 0072). Every procedure built on
// gatedProcedure is called here as a browser whose cookie the isolate knows, so it runs beside the
// session's read, and every statement the database receives meanwhile is read: each one that
// writes must carry the gate's condition (the request's session, live and the shopper's; the
// attempt within its limit), or the database would write for a session that has ended. A gated
// procedure added to the router without a call here fails too.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, session } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { appRouter } from '#server/routers/index.ts';
import { gatedProcedure } from '#server/trpc.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct, type TestPiece } from '../support/catalogue.ts';
import { deliveredOrder } from '../support/returns.ts';
import {
  type HeardRequest,
  openTestDatabase,
  type TestDatabase,
} from '../support/test-database.ts';
import { mutateOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
const heard: HeardRequest[] = [];
beforeAll(async () => {
  test = await openTestDatabase({ heard: (request) => heard.push(request) });
  auth = testAuth(test.db);
});
afterAll(() => test.close());

type Piece = TestPiece;
type Shopper = { id: string; name: string };

/** Each gated procedure's call: its input, for a shopper with the piece in their cart. */
const CALLS: Record<string, (piece: Piece, shopper: Shopper) => unknown> = {
  'cart.add': (piece) => ({ variantId: piece.variantId }),
  'cart.update': (piece) => ({ variantId: piece.variantId, quantity: 2 }),
  'cart.remove': (piece) => ({ variantId: piece.variantId }),
  'cart.merge': (piece) => ({ items: [{ variantId: piece.variantId, quantity: 1 }] }),
  'cart.clear': () => undefined,
  'checkout.placeOrder': (piece) => ({
    orderId: randomUUID(),
    items: [{ variantId: piece.variantId, quantity: 1 }],
    paymentMethod: 'cash_on_delivery',
  }),
  'giftCards.buy': () => ({
    orderId: randomUUID(),
    amount: 50_000,
    recipientName: 'Amina',
    recipientPhone: '0772123456',
    paymentMethod: 'bank_transfer',
  }),
  // Issue 36: a return of the piece from her order already delivered.
  'returns.request': async (piece, shopper) => {
    const order = await deliveredOrder(test.db, shopper, [{ piece, quantity: 1 }]);
    return {
      returnId: randomUUID(),
      orderId: order.orderId,
      lines: [{ orderItemId: order.items[0], quantity: 1, reason: 'too_big' }],
      resolution: 'refund',
    };
  },
};

/**
 * What a gated change leaves for after its answer (ctx.background), for what its gated write
 * placed: the order's receipt and its texts. Written by the shop, not as the shopper's change, and
 * only once the gate let the order through.
 */
const AFTER_THE_ANSWER: Record<string, readonly string[]> = {
  'checkout.placeOrder': ['receipts', 'sms_notifications'],
  'giftCards.buy': ['receipts', 'sms_notifications'],
  'returns.request': ['sms_notifications'],
};

/** The gate's own count of the attempt (its first batch's upsert, decision 0057). */
const THE_COUNT = 'rate_limit';

/** Every procedure of the shop's router built on gatedProcedure: it carries the gate's middleware. */
function gatedPaths(): string[] {
  // tRPC keeps a procedure's middlewares in its definition; gatedProcedure's own is its last.
  type Built = { _def: { middlewares: unknown[] } };
  const gate = (gatedProcedure as unknown as Built)._def.middlewares.at(-1);
  // Kept by path ('cart.add') at run time, whatever its declared type nests.
  const procedures = appRouter._def.procedures as unknown as Record<string, Built>;
  return Object.entries(procedures)
    .filter(([, procedure]) => procedure._def.middlewares.includes(gate))
    .map(([path]) => path)
    .sort();
}

/** The tables a statement writes (INSERT, UPDATE, DELETE, in a CTE or not). */
function writtenTables(query: string): string[] {
  const text = query.replace(/\s+/g, ' ').toLowerCase();
  const tables = [
    ...text.matchAll(/\binsert into "?(\w+)"?/g),
    ...text.matchAll(/\bupdate "?(\w+)"?(?: (?!set\b)\w+)? set\b/g),
    ...text.matchAll(/\bdelete from "?(\w+)"?/g),
  ].map((match) => match[1] ?? '');
  return [...new Set(tables)];
}

/** Whether the statement carries the gate's condition for this session's token. */
function carriesTheGate(statement: { query: string; params: unknown[] }, token: string): boolean {
  const text = statement.query.replace(/\s+/g, ' ');
  const live =
    /exists \(select 1 from "session" s where s\.token = \$(\d+) and s\.user_id = \$\d+ and s\.expires_at > now\(\)\)/.exec(
      text,
    );
  const counted =
    /coalesce\(\(select r\.count from rate_limit r where r\.key = \$\d+\), 0\) <= \$\d+/.test(text);
  return counted && live !== null && statement.params[Number(live[1]) - 1] === token;
}

describe('the write gate (decision 0072)', () => {
  it('every gated procedure is called here', () => {
    expect(gatedPaths()).toEqual(Object.keys(CALLS).sort());
  });

  for (const path of Object.keys(CALLS).sort()) {
    it(`${path}: every write it sends carries the session's and the limit's condition`, async () => {
      const shopper = await signedInShopper(test.db, auth);
      await test.db
        .update(profiles)
        .set({ fullName: 'Gate Keeper', phone: '+256772000977' })
        .where(eq(profiles.id, shopper.id));
      const piece = await addProduct(test.db, { name: `Gated ${path}`, price: 30_000, stock: 9 });
      // The cookie's first change waits for the session's read; the isolate knows it afterwards.
      const first = await mutateOverHttp(
        test.db,
        'cart.add',
        { variantId: piece.variantId },
        shopper,
      );
      expect(first.status).toBe(200);
      const [row] = await test.db
        .select({ token: session.token })
        .from(session)
        .where(eq(session.userId, shopper.id));
      const token = row?.token ?? '';

      const input = await CALLS[path]?.(piece, shopper);
      const from = heard.length;
      // Answers once what it left for after its answer has ended too (tests/support/trpc.ts).
      const answer = await mutateOverHttp(test.db, path, input, shopper);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const writes = heard
        .slice(from)
        .flat()
        .map((statement) => ({ ...statement, tables: writtenTables(statement.query) }))
        .filter((statement) => statement.tables.length > 0);
      const allowed = [THE_COUNT, ...(AFTER_THE_ANSWER[path] ?? [])];
      const ungated = writes.filter(
        (statement) =>
          !carriesTheGate(statement, token) &&
          !statement.tables.every((table) => allowed.includes(table)),
      );
      expect(ungated.map((statement) => statement.query)).toEqual([]);
      // The change did write, through the gate: the call above is not one that did nothing.
      expect(writes.some((statement) => carriesTheGate(statement, token))).toBe(true);
    });
  }
});
