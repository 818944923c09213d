// Orders the desk takes by phone, on WhatsApp or at the counter (issue 34, decision 0076). The
// customer is found among the accounts by phone, or kept on the order by name and phone; the
// order goes through the checkout's one write (checkout-service.ts orderStatement), in a batch
// that also records it on the desk, its first note, and, for cash at the counter, the payment
// (desk-orders-service.ts paidStatement): one transaction, all or nothing.
import { asc, eq, sql } from 'drizzle-orm';
import { type CreateOrderInput, cashProblem, defaultDeskOption } from '#core/desk-phone-orders.ts';
import { orderIdHead } from '#core/order-rules.ts';
import { aboveCeiling } from '#core/payment-rules.ts';
import { nameWithVariant } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresCode } from '#db/errors.ts';
import { profiles, user } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import {
  type CheckoutRefused,
  deliveryProblem,
  firstProblem,
  optionOf,
  orderStatement,
  placedQuery,
  resolveLines,
  stockOf,
  type VariantLine,
} from './checkout-service.ts';
import { paidStatement } from './desk-orders-service.ts';
import {
  type DeskActor,
  earlierAnswerQuery,
  isRepeatedKey,
  type KeyOwner,
  recordDeskWriteWhen,
  replayOf,
} from './desk-record.ts';
import { ruleRefused } from './payment-rules-service.ts';
import { WriteGate } from './write-gate.ts';

/** Why the desk's order was not placed: the checkout's refusals, and the desk's own. */
export type DeskOrderRefused =
  | CheckoutRefused
  | Refused<'cash-at-counter-only'>
  | Refused<'order-id-taken'>;
export type DeskOrderProblem = DeskOrderRefused['problem'];

export type DeskOrderPlaced = {
  ok: true;
  orderId: string;
  /** False: this id had been placed already by this staff member (a retry); nothing changed. */
  created: boolean;
  total: number;
  /** The account the order is theirs, null: kept by name and phone on the order only. */
  customerId: string | null;
  /** Paid at once (cash at the counter). */
  paid: boolean;
};

/** The account whose profile has this phone (stored +256…), the oldest if several share it. */
export function accountByPhone(db: Db, phone: string) {
  return db
    .select({ id: profiles.id, name: profiles.fullName, email: user.email, phone: profiles.phone })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.id))
    .where(eq(profiles.phone, phone))
    .orderBy(asc(user.createdAt), asc(user.id))
    .limit(1);
}

/** The reference a counter sale's cash payment carries: 'CASH-' and the order's first 8. */
export const cashReference = (orderId: string) => `CASH-${orderIdHead(orderId).toUpperCase()}`;

/**
 * Places an order the desk takes. Round trips: one batched read (the pieces, this order id and
 * its desk record, the account by phone, the delivery option), then ONE batch: the checkout's
 * order statement (stock taken there, an oversell refused by the stock CHECK), the cash payment
 * when paid at the counter, the desk record 'order.created' (keyed by the order id: the same id
 * again, from the same staff member, answers the order; from anyone else, 409) and the note as
 * 'order.noted'. The batch's later statements write only when the order was placed in it.
 */
export async function createDeskOrder(
  db: Db,
  staff: { id: string; email: string },
  input: CreateOrderInput,
): Promise<DeskOrderPlaced | DeskOrderRefused> {
  if (cashProblem(input.paymentMethod, input.source)) {
    return { ok: false, problem: 'cash-at-counter-only' };
  }
  const owner: KeyOwner = { actor: staff, action: 'order.created' };
  const optionId = input.deliveryOptionId ?? defaultDeskOption(input.source);
  const asked = { optionId, area: input.deliveryArea };
  const [found, [existing], [account], [option], [earlier]] = await db.batch([
    stockOf(db, input.items),
    placedQuery(db, input.orderId),
    accountByPhone(db, input.customer.phone),
    optionOf(db, optionId),
    earlierAnswerQuery(db, input.orderId),
  ]);
  if (existing) return replayed(existing, earlier, owner, input.orderId);
  const refused = deliveryProblem(option, asked, input.paymentMethod);
  if (refused) return refused;
  const resolved = resolveLines(input.items, found);
  if (!resolved.ok) return resolved;
  const { lines } = resolved;
  const problem = firstProblem(lines, found, new Map());
  if (problem) return problem;

  const customer = {
    id: account?.id ?? null,
    name: input.customer.name,
    phone: input.customer.phone,
    email: input.customer.email || account?.email || null,
  };
  const gate = new WriteGate(db, null);
  // The later statements write only for an order placed in this very transaction (now() is the
  // transaction's start, the order's created_at its default): never for a retry's order.
  const placedNow = sql`exists (select 1 from orders o where o.id = ${input.orderId}::uuid
    and o.created_at = now())`;
  const actor: DeskActor = { email: staff.email };
  const subject = `Order ${orderIdHead(input.orderId).toUpperCase()}`;
  const paidAtOnce = input.paymentMethod === 'cash';
  const order = orderStatement(db, gate, {
    customer,
    source: input.source,
    orderId: input.orderId,
    lines,
    paymentMethod: input.paymentMethod,
    delivery: {
      optionId,
      area: input.deliveryArea?.trim() ?? '',
      landmark: '',
      phone: input.customer.phone,
      notes: '',
    },
  });
  const created = recordDeskWriteWhen(
    db,
    actor,
    {
      action: 'order.created',
      subject,
      requestKey: input.orderId,
      orderId: input.orderId,
      details: {
        orderId: input.orderId,
        source: input.source,
        paymentMethod: input.paymentMethod,
        customerId: customer.id,
        customerName: customer.name,
        customerPhone: customer.phone,
        by: staff.email,
      },
    },
    placedNow,
  );
  const noted = recordDeskWriteWhen(
    db,
    actor,
    {
      action: 'order.noted',
      subject,
      orderId: input.orderId,
      details: { orderId: input.orderId, text: input.note ?? '' },
    },
    sql`${placedNow} and ${Boolean(input.note?.trim())}::boolean`,
  );
  let written: Awaited<typeof order>['rows'][number] | undefined;
  try {
    const [placed] = paidAtOnce
      ? await db.batch([
          order,
          paidStatement(db, {
            orderId: input.orderId,
            reference: cashReference(input.orderId),
            operatorId: staff.id,
            actor,
          }),
          created,
          noted,
        ])
      : await db.batch([order, created, noted]);
    written = placed.rows[0];
  } catch (error) {
    // A retry racing its first self: the record's key is taken; answer as the first one did.
    if (isRepeatedKey(error)) return explain(db, input, lines, owner);
    // 23514: another order took the last pieces between the read and the write (the stock
    // CHECK); 23503: a piece was removed meanwhile. Nothing was written either way.
    const code = postgresCode(error);
    if (code !== PG.check && code !== PG.foreignKey) throw error;
  }
  if (!written?.order_id || written.created_at === null) {
    const total = written?.asked_total;
    const over = total == null ? null : aboveCeiling(input.paymentMethod, Number(total));
    if (over) return ruleRefused(over);
    return explain(db, input, lines, owner);
  }
  return {
    ok: true,
    orderId: written.order_id,
    created: true,
    total: Number(written.total ?? 0),
    customerId: customer.id,
    paid: paidAtOnce,
  };
}

/** The same order id again: this staff member's own desk order answers as placed; else 409. */
function replayed(
  existing: { customerId: string | null; total: number },
  earlier: Parameters<typeof replayOf>[0],
  owner: KeyOwner,
  orderId: string,
): DeskOrderPlaced | DeskOrderRefused {
  // A shopper's order, or an order of another save under this id: not this desk order.
  if (!earlier) return { ok: false, problem: 'order-id-taken' };
  // Another staff member's order under this id: refused (409, replayOf).
  const details = replayOf(earlier, owner) ?? {};
  return {
    ok: true,
    orderId,
    created: false,
    total: existing.total,
    customerId: existing.customerId,
    paid: details.paymentMethod === 'cash',
  };
}

/** A batch that placed nothing: the id was taken meanwhile, or the stock or option changed. */
async function explain(
  db: Db,
  input: CreateOrderInput,
  lines: VariantLine[],
  owner: KeyOwner,
): Promise<DeskOrderPlaced | DeskOrderRefused> {
  const optionId = input.deliveryOptionId ?? defaultDeskOption(input.source);
  const [found, [existing], [option], [earlier]] = await db.batch([
    stockOf(db, lines),
    placedQuery(db, input.orderId),
    optionOf(db, optionId),
    earlierAnswerQuery(db, input.orderId),
  ]);
  if (existing) return replayed(existing, earlier, owner, input.orderId);
  const refused = deliveryProblem(
    option,
    { optionId, area: input.deliveryArea },
    input.paymentMethod,
  );
  if (refused) return refused;
  const problem = firstProblem(lines, found, new Map());
  if (problem) return problem;
  const [first] = found;
  return {
    ok: false,
    problem: 'insufficient-stock',
    name: first ? nameWithVariant(first.name, first.label) : '',
    available: first?.stock ?? 0,
  };
}

/** The account a phone number belongs to, for the page as the staff member types it. */
export async function customerByPhone(db: Db, phone: string) {
  const [account] = await accountByPhone(db, phone);
  return account ? { name: account.name, email: account.email, phone: account.phone } : null;
}
