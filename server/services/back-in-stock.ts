// "Tell me when it's back" (decision 0039): a signed-in shopper asks once per sold-out variant;
// when that variant's stock returns, each asker is texted once through the SMS outbox.
import { sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';

export type BackInStockAnswer =
  | { ok: true }
  | { ok: false; why: 'missing' | 'in-stock' | 'no-phone' };

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
    with variant as (select id, stock from product_variants where id = ${variantId}),
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
  if (!row || row.stock === null) return { ok: false, why: 'missing' };
  if (Number(row.stock) > 0) return { ok: false, why: 'in-stock' };
  if (!row.phone) return { ok: false, why: 'no-phone' };
  return { ok: true };
}
