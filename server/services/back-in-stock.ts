// "Tell me when it's back" (decision 0039): a signed-in shopper asks once per sold-out variant;
// when that variant's stock returns, each asker is texted once through the SMS outbox.
import { sql } from 'drizzle-orm';
import { SMS_TEXT } from '#core/sms.ts';
import type { Db } from '#db/client.ts';
import type { Context } from '../context.ts';
import type { Answer } from '../shopper-error.ts';
import { pOnSale } from './catalogue-service.ts';
import { deliverLater, outboxRow, type TextingLater } from './sms-service.ts';

/** What texting askers takes: the texts, and the shop's origin for the piece's link. */
type BackInStockParts = TextingLater & Pick<Context, 'payments'>;

export type BackInStockProblem = 'missing' | 'in-stock' | 'no-phone';
export type BackInStockAnswer = Answer<object, BackInStockProblem>;

/**
 * Records the request in one statement (a second ask of the same variant changes nothing). Only
 * a sold-out variant can be asked for, by a shopper with a phone to text.
 */
export async function askBackInStock(
  db: Db,
  userId: string,
  variantId: number,
): Promise<BackInStockAnswer> {
  const result = await db.execute<{ stock: number | null; phone: string | null; asked: number }>(
    sql`
    with variant as (
      select v.id, v.stock from product_variants v join products p on p.id = v.product_id
      where v.id = ${variantId} and ${pOnSale}
    ),
    shopper as (select phone from profiles where id = ${userId}),
    asked as (
      insert into back_in_stock_requests (user_id, variant_id)
      select ${userId}, variant.id from variant, shopper
      where variant.stock = 0 and coalesce(shopper.phone, '') <> ''
      on conflict (user_id, variant_id) do update set created_at = back_in_stock_requests.created_at
      returning variant_id
    )
    select (select stock from variant) as stock, (select phone from shopper) as phone,
           (select count(*)::int from asked) as asked`,
  );
  const row = result.rows[0];
  if (!row || row.stock === null) return { ok: false, problem: 'missing' };
  if (Number(row.stock) > 0) return { ok: false, problem: 'in-stock' };
  if (!row.phone) return { ok: false, problem: 'no-phone' };
  return { ok: true };
}

/** Requests answered per call at most (the cron's sweep takes the rest a minute later). */
const BATCH = 500;

type Waiting = {
  user_id: string;
  variant_id: number | string;
  phone: string | null;
  name: string;
  slug: string;
  label: string;
};

/**
 * Texts every shopper waiting for one of these variants (or, with none given, for any variant)
 * that is in stock now, and ends their requests (decision 0040). Called where stock comes back:
 * an order deleted while pending (the orders router), the desk's stock changes, and the cron's
 * sweep for a request made in the instant the stock returned.
 *
 * One read finds the waiting requests and writes each text. Then ONE statement deletes those
 * requests, where the variant is still in stock, and inserts an outbox row for exactly the
 * requests it deleted: a request is answered by one statement only (a racing one finds it gone
 * and writes nothing), and if the insert fails the delete rolls back with it, so a text is never
 * written twice and never lost. A shopper without a usable number gets a `failed` row saying so.
 * Delivery follows in the background, as for every text. Answers how many requests were ended.
 */
export async function textBackInStock(
  ctx: BackInStockParts,
  variantIds?: readonly number[],
): Promise<number> {
  if (variantIds && variantIds.length === 0) return 0;
  const only = variantIds
    ? sql`and r.variant_id = any(${sql.param([...new Set(variantIds)])}::int[])`
    : sql``;
  const waiting = await ctx.db.execute<Waiting>(sql`
    select r.user_id, r.variant_id, pr.phone, p.product_name as name, p.slug, v.label
    from back_in_stock_requests r
    join product_variants v on v.id = r.variant_id
    join products p on p.id = v.product_id
    left join profiles pr on pr.id = r.user_id
    where v.stock > 0 and ${pOnSale} ${only}
    order by r.created_at, r.user_id
    limit ${BATCH}`);
  if (waiting.rows.length === 0) return 0;
  const shop = ctx.payments.callbackOrigin.replace(/\/+$/, '');
  const texts = waiting.rows.map((row) => {
    const variantId = Number(row.variant_id);
    const text = outboxRow({
      orderId: null,
      phone: row.phone,
      recipientType: 'customer',
      kind: 'back-in-stock',
      message: SMS_TEXT.backInStock({
        name: row.name,
        label: row.label,
        link: `${shop}/products/${encodeURIComponent(row.slug)}?variant=${variantId}`,
        shop,
      }),
    });
    return {
      user_id: row.user_id,
      variant_id: variantId,
      recipient_phone: text.recipientPhone,
      message_content: text.messageContent,
      status: text.status,
      error_message: text.errorMessage,
    };
  });
  const written = await ctx.db.execute<{ id: string; status: string }>(sql`
    with wanted as (
      select * from json_to_recordset(${JSON.stringify(texts)}::json)
        as w(user_id text, variant_id int, recipient_phone text, message_content text,
             status text, error_message text)
    ),
    done as (
      delete from back_in_stock_requests r
      using wanted w, product_variants v
      where r.user_id = w.user_id and r.variant_id = w.variant_id
        and v.id = r.variant_id and v.stock > 0
      returning r.user_id, r.variant_id
    )
    insert into sms_notifications (recipient_phone, recipient_type, kind, message_content, status,
                                   error_message)
    select w.recipient_phone, 'customer', 'back-in-stock', w.message_content, w.status,
           w.error_message
    from done join wanted w on w.user_id = done.user_id and w.variant_id = done.variant_id
    returning id, status`);
  deliverLater(
    ctx,
    written.rows.filter((row) => row.status === 'pending').map((row) => row.id),
  );
  return written.rows.length;
}

/** The cron's sweep: requests for variants in stock that no restock answered (made meanwhile). */
export const sweepBackInStock = (ctx: BackInStockParts) => textBackInStock(ctx);
