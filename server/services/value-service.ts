// The value ledger (issue 35, decision 0081): money the shop owes someone, as gift cards and
// store credit. A balance is the account's `balance`, kept by the statement that adds each entry,
// so it always equals the sum of the entries (value_entries is append-only). Spending is the
// checkout's (inside the order's one write); here: reading, granting, selling and issuing.

import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  GIFT_CARD_DELIVERY,
  giftCardHash,
  giftCardLast4,
  newGiftCardCode,
} from '#core/gift-cards.ts';
import { buildReceipt, type Receipt } from '#core/receipt.ts';
import { SMS_TEXT } from '#core/sms.ts';
import { type BuyGiftCard, type GrantCredit, giftCardItemName } from '#core/value-ledger.ts';
import type { Db } from '#db/client.ts';
import { orders, profiles, user, valueAccounts, valueEntries } from '#db/schema/index.ts';
import type { Answer } from '../shopper-error.ts';
import { type PlacedKind, placedQuery } from './checkout-service.ts';
import { type DeskActor, keyedAnswer } from './desk-record.ts';
import { saveReceipt } from './orders-service.ts';
import { deliverSms, outboxRow, type Texting } from './sms-service.ts';
import { WriteGate } from './write-gate.ts';

export type ValueEntry = {
  id: number;
  amount: number;
  balanceAfter: number;
  reason: string;
  note: string;
  orderId: string | null;
  createdAt: string;
};

const entryColumns = {
  id: valueEntries.id,
  accountId: valueEntries.accountId,
  amount: valueEntries.amount,
  balanceAfter: valueEntries.balanceAfter,
  reason: valueEntries.reason,
  note: valueEntries.note,
  orderId: valueEntries.orderId,
  createdAt: valueEntries.createdAt,
};

type EntryRow = {
  id: number;
  accountId: number;
  amount: number;
  balanceAfter: number;
  reason: string;
  note: string;
  orderId: string | null;
  createdAt: Date;
};

const entryView = (row: EntryRow): ValueEntry => ({
  id: row.id,
  amount: row.amount,
  balanceAfter: row.balanceAfter,
  reason: row.reason,
  note: row.note,
  orderId: row.orderId,
  createdAt: row.createdAt.toISOString(),
});

/** The entries of these accounts, newest first, by account. */
async function entriesOf(db: Db, accountIds: number[]): Promise<Map<number, ValueEntry[]>> {
  const byAccount = new Map<number, ValueEntry[]>();
  if (accountIds.length === 0) return byAccount;
  const rows = (await db
    .select(entryColumns)
    .from(valueEntries)
    .where(inArray(valueEntries.accountId, accountIds))
    .orderBy(desc(valueEntries.createdAt), desc(valueEntries.id))) as EntryRow[];
  for (const row of rows) {
    const list = byAccount.get(row.accountId) ?? [];
    list.push(entryView(row));
    byAccount.set(row.accountId, list);
  }
  return byAccount;
}

/**
 * The shopper's own store credit: its balance and every entry, newest first (none: 0 and no
 * entries). account.credit's answer, the contract the returns issue names too.
 */
export async function creditOf(
  db: Db,
  userId: string,
): Promise<{ balance: number; entries: ValueEntry[] }> {
  const [account] = await db
    .select({ id: valueAccounts.id, balance: valueAccounts.balance })
    .from(valueAccounts)
    .where(and(eq(valueAccounts.kind, 'store_credit'), eq(valueAccounts.userId, userId)));
  if (!account) return { balance: 0, entries: [] };
  const entries = await entriesOf(db, [account.id]);
  return { balance: account.balance, entries: entries.get(account.id) ?? [] };
}

/**
 * Store credit added, as a CTE's body (`account as (…)`) returning the account's id and balance:
 * one row of `from` gives `userId` `amount` more, her credit account made if she has none (its
 * unique index makes two racing first grants one account). The caller writes the entry beside it.
 */
export const creditedSql = (from: SQL, userId: SQL, amount: SQL) => sql`
  insert into value_accounts (kind, user_id, balance)
  select 'store_credit', ${userId}, ${amount} from ${from}
  on conflict (user_id) where kind = 'store_credit'
  do update set balance = value_accounts.balance + excluded.balance
  returning id, balance`;

export type GrantProblem = 'unknown-email';

/**
 * Staff grant a shopper store credit, with a reason: ONE statement creates her credit account if
 * she has none (its unique index makes two racing first grants one account), adds the amount to
 * the balance, writes the 'granted' entry (the staff member as actor, the reason as note) with
 * the balance it left, and records the desk write. An unknown email changes nothing.
 */
export async function grantCredit(
  db: Db,
  staff: DeskActor & { id: string },
  input: GrantCredit,
): Promise<Answer<{ accountId: number; balance: number }, GrantProblem>> {
  return keyedAnswer(db, input.requestKey, { actor: staff, action: 'credit.granted' }, async () => {
    const result = await db.execute<{ id: number; balance: string | number }>(sql`
        with shopper as (
          select id from "user" where lower(email) = ${input.email} limit 1
        ),
        account as (${creditedSql(sql`shopper`, sql`shopper.id`, sql`${input.amount}::bigint`)}),
        entry as (
          insert into value_entries (account_id, amount, balance_after, reason, note, actor)
          select account.id, ${input.amount}::bigint, account.balance, 'granted', ${input.reason},
                 ${staff.id}
          from account
        ),
        -- The record keeps the answer (accountId, balance): a retry under the same key fails on
        -- the record's unique key, rolling this whole statement back, and is answered from it.
        recorded as (
          insert into desk_records (actor_email, action, subject, details, request_key)
          select ${staff.email}, 'credit.granted', ${input.email},
                 jsonb_build_object('amount', ${input.amount}::bigint, 'reason', ${input.reason}::text,
                                    'accountId', account.id, 'balance', account.balance),
                 ${input.requestKey ?? null}::uuid
          from account
        )
        select id, balance from account
      `);
    const [row] = result.rows;
    if (!row) return { ok: false, problem: 'unknown-email' } as const;
    return { ok: true, accountId: Number(row.id), balance: Number(row.balance) } as const;
  });
}

export type BuyGiftCardProblem = 'profile-incomplete' | 'order-id-taken' | 'order-id-other-kind';

export type GiftCardOrder = {
  orderId: string;
  total: number;
  /** False for a retry of an order already placed: nothing changed. */
  created: boolean;
  receipt: Receipt | null;
};

type WrittenCard = {
  order_id: string | null;
  created_at: string | null;
  total: string | number | null;
  items: { id: string; name: string; price: number; quantity: number; variant: string }[] | null;
};

/**
 * A gift card bought as a piece: ONE statement writes an order like any other (so payments, the
 * desk, receipts and the books see it) with one line "Gift card for NAME" at the amount, no stock
 * and no delivery fee, its delivery "Sent by text" (kind pickup: nothing leaves the shop), and
 * the gift card's account awaiting payment (issued_at null, no code yet, balance 0). Keyed by the
 * client's order id like placeOrder: a retry answers the order; another shopper's id is refused.
 * Never through the offers: a gift card is never discounted.
 */
export async function buyGiftCard(
  db: Db,
  customer: { id: string; email: string },
  input: BuyGiftCard,
  options: { gate?: WriteGate; later?: (work: Promise<unknown>) => void } = {},
): Promise<Answer<{ order: GiftCardOrder }, BuyGiftCardProblem>> {
  const { gate = new WriteGate(db, null), later } = options;
  const [[existing], [profile]] = await gate.batch([
    placedQuery(db, input.orderId),
    db.select().from(profiles).where(eq(profiles.id, customer.id)),
  ]);
  if (existing) return replayed(existing, customer.id, input.orderId);
  if (!profile?.fullName.trim() || !profile.phone) {
    return { ok: false, problem: 'profile-incomplete' };
  }
  const itemName = giftCardItemName(input.recipientName);
  const result = await db.execute<WrittenCard>(sql`
    with placed as (
      insert into orders (id, customer_id, customer_name, subtotal, delivery_fee, discount, total,
                          payment_method, status, delivery_option_id, delivery_option,
                          delivery_kind, delivery_phone, source, customer_phone, customer_email)
      select ${input.orderId}::uuid, ${customer.id}, ${profile.fullName}, ${input.amount}::bigint,
             0, 0, ${input.amount}::bigint, ${input.paymentMethod}, 'pending', null,
             ${GIFT_CARD_DELIVERY}, 'pickup', ${input.recipientPhone}, 'web', ${profile.phone},
             ${customer.email}
      where ${gate.allows()}
      on conflict (id) do nothing
      returning id, created_at, total
    ),
    items as (
      insert into order_items (order_id, product_id, variant_id, name, variant_label, price, quantity)
      select placed.id, null, null, ${itemName}, '', ${input.amount}::bigint, 1 from placed
      returning id, name, variant_label, price, quantity
    ),
    card as (
      insert into value_accounts (kind, order_id, amount, recipient_name, recipient_phone, message)
      select 'gift_card', placed.id, ${input.amount}::bigint, ${input.recipientName},
             ${input.recipientPhone}, ${input.message || null}
      from placed
    )
    select placed.id as order_id, placed.created_at, placed.total,
           (select json_agg(json_build_object('id', id, 'name', name, 'price', price,
                                              'quantity', quantity, 'variant', variant_label))
            from items) as items
    from (select 1) one left join placed on true
  `);
  const [written] = result.rows;
  if (!written?.order_id || !written.created_at || !written.items) {
    // The id was taken between the read and the write (a double submit): answer as a retry.
    // Else the gate held it back: the shopper's other attempts used up her limit meanwhile (429).
    const [again] = await placedQuery(db, input.orderId);
    if (again) return replayed(again, customer.id, input.orderId);
    await gate.refuseIfHeld();
    return { ok: false, problem: 'order-id-taken' };
  }
  const receipt = buildReceipt(
    {
      id: written.order_id,
      createdAt: written.created_at,
      paymentMethod: input.paymentMethod,
      total: Number(written.total ?? input.amount),
      deliveryFee: 0,
      discount: 0,
      customerName: profile.fullName,
      items: written.items,
      delivery: {
        option: GIFT_CARD_DELIVERY,
        kind: 'pickup',
        area: '',
        landmark: '',
        phone: input.recipientPhone,
        notes: '',
      },
    },
    profile,
  );
  // As the checkout: a receipt that fails to save is rebuilt when first read.
  const saving = saveReceipt(db, customer.id, receipt).catch((error: unknown) => {
    console.warn('Receipt could not be saved; it will be rebuilt from the order', error);
  });
  if (later) later(saving);
  else await saving;
  return {
    ok: true,
    order: {
      orderId: written.order_id,
      total: Number(written.total ?? input.amount),
      created: true,
      receipt,
    },
  };
}

/** The same order id again: her own gift card's order answers as placed; any other is refused. */
function replayed(
  existing: { customerId: string | null; total: number; kind: PlacedKind },
  customerId: string,
  orderId: string,
): Answer<{ order: GiftCardOrder }, BuyGiftCardProblem> {
  if (existing.customerId !== customerId) return { ok: false, problem: 'order-id-taken' };
  if (existing.kind !== 'gift-card') return { ok: false, problem: 'order-id-other-kind' };
  return { ok: true, order: { orderId, total: existing.total, created: false, receipt: null } };
}

/**
 * Issues the gift cards an order bought, once its payment is confirmed (order-events.ts
 * afterPaymentReceived: every way an order is paid passes there). Each card still unissued of a
 * paid order gets a new code in ONE statement: issued_at set only where it is null (so a late
 * second confirmation issues nothing), the code's hash and last 4 kept, the balance and the
 * 'issued' entry, the order completed (nothing is left to do for it: it was "delivered" by the
 * text), and the recipient's text queued. The plain code is only in that text. Answers how many
 * were issued now.
 */
export async function issueGiftCards(ctx: Texting, orderId: string): Promise<number> {
  const cards = await ctx.db
    .select({
      id: valueAccounts.id,
      amount: valueAccounts.amount,
      phone: valueAccounts.recipientPhone,
      message: valueAccounts.message,
      from: orders.customerName,
    })
    .from(valueAccounts)
    .innerJoin(orders, eq(orders.id, valueAccounts.orderId))
    .where(
      and(
        eq(valueAccounts.orderId, orderId),
        eq(valueAccounts.kind, 'gift_card'),
        sql`${valueAccounts.issuedAt} is null`,
        sql`exists (select 1 from payments p where p.order_id = ${orders.id} and p.status = 'successful')`,
      ),
    );
  const texts: string[] = [];
  for (const card of cards) {
    const amount = card.amount ?? 0;
    if (amount <= 0) continue;
    const code = newGiftCardCode();
    const row = outboxRow({
      orderId,
      phone: card.phone,
      recipientType: 'customer',
      kind: 'gift-card',
      message: SMS_TEXT.giftCard({
        from: card.from.split(/\s+/)[0] || card.from,
        amount,
        code,
        message: card.message,
      }),
    });
    const result = await ctx.db.execute<{ id: string | null; status: string | null }>(sql`
      with issued as (
        update value_accounts
        set issued_at = now(), code_hash = ${await giftCardHash(code)},
            code_last4 = ${giftCardLast4(code)}, balance = amount
        where id = ${card.id} and issued_at is null and kind = 'gift_card'
        returning id, balance, order_id
      ),
      entry as (
        insert into value_entries (account_id, amount, balance_after, reason, order_id)
        select id, balance, balance, 'issued', order_id from issued
      ),
      completed as (
        update orders set status = 'completed'
        where id in (select order_id from issued) and status = 'processing'
      ),
      texted as (
        insert into sms_notifications (order_id, recipient_phone, recipient_type, kind,
                                       message_content, status, error_message)
        select issued.order_id, ${row.recipientPhone}, ${row.recipientType}, ${row.kind},
               ${row.messageContent}, ${row.status}, ${row.errorMessage}
        from issued
        on conflict do nothing
        returning id, status
      )
      select (select count(*) from issued) as issued, texted.id, texted.status
      from (select 1) one left join texted on true
    `);
    for (const written of result.rows) {
      if (written.id && written.status === 'pending') texts.push(written.id);
    }
  }
  if (texts.length > 0) {
    await deliverSms(ctx, texts);
  }
  return texts.length;
}

/**
 * The scheduled sweep's share (server/scheduled.ts): gift cards of paid orders still unissued,
 * because the work after a payment's confirmation was cut short, are issued now (once, as ever).
 */
export async function sweepGiftCards(ctx: Texting, batch = 50): Promise<number> {
  const waiting = await ctx.db
    .selectDistinct({ orderId: valueAccounts.orderId })
    .from(valueAccounts)
    .where(
      and(
        eq(valueAccounts.kind, 'gift_card'),
        sql`${valueAccounts.issuedAt} is null`,
        sql`exists (select 1 from payments p where p.order_id = ${valueAccounts.orderId} and p.status = 'successful')`,
      ),
    )
    .limit(batch);
  let issued = 0;
  for (const { orderId } of waiting) {
    if (orderId) issued += await issueGiftCards(ctx, orderId);
  }
  return issued;
}

export type DeskGiftCard = {
  id: number;
  last4: string | null;
  recipientName: string | null;
  recipientPhone: string | null;
  amount: number;
  balance: number;
  issuedAt: string | null;
  orderId: string | null;
  buyer: string | null;
  entries: ValueEntry[];
};

export type DeskCreditAccount = {
  id: number;
  shopper: string;
  email: string | null;
  balance: number;
  entries: ValueEntry[];
};

/** The desk's gift cards and credit accounts, newest first, each with every entry. */
export async function deskValueAccounts(
  db: Db,
  limit = 200,
): Promise<{ giftCards: DeskGiftCard[]; credit: DeskCreditAccount[] }> {
  const [cards, credit] = await db.batch([
    db
      .select({
        id: valueAccounts.id,
        last4: valueAccounts.codeLast4,
        recipientName: valueAccounts.recipientName,
        recipientPhone: valueAccounts.recipientPhone,
        amount: valueAccounts.amount,
        balance: valueAccounts.balance,
        issuedAt: valueAccounts.issuedAt,
        orderId: valueAccounts.orderId,
        buyer: orders.customerName,
      })
      .from(valueAccounts)
      .leftJoin(orders, eq(orders.id, valueAccounts.orderId))
      .where(eq(valueAccounts.kind, 'gift_card'))
      .orderBy(desc(valueAccounts.createdAt), desc(valueAccounts.id))
      .limit(limit),
    db
      .select({
        id: valueAccounts.id,
        name: user.name,
        email: user.email,
        balance: valueAccounts.balance,
      })
      .from(valueAccounts)
      .leftJoin(user, eq(user.id, valueAccounts.userId))
      .where(eq(valueAccounts.kind, 'store_credit'))
      .orderBy(desc(valueAccounts.createdAt), desc(valueAccounts.id))
      .limit(limit),
  ]);
  const entries = await entriesOf(db, [...cards.map((c) => c.id), ...credit.map((c) => c.id)]);
  return {
    giftCards: cards.map((c) => ({
      ...c,
      amount: c.amount ?? 0,
      issuedAt: c.issuedAt?.toISOString() ?? null,
      entries: entries.get(c.id) ?? [],
    })),
    credit: credit.map((c) => ({
      id: c.id,
      shopper: c.name ?? c.email ?? '(account deleted)',
      email: c.email,
      balance: c.balance,
      entries: entries.get(c.id) ?? [],
    })),
  };
}
