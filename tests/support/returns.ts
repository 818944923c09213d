// Returns in tests (issue 36): a shopper's order already delivered, written straight to the
// database (as the desk would have moved it), `daysAgo` Kampala days back, with its lines and,
// when asked, its successful payment.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import type { TestPiece } from './catalogue.ts';

export type DeliveredLine = {
  piece: TestPiece;
  variantId?: number;
  label?: string;
  quantity: number;
};

export async function deliveredOrder(
  db: Db,
  shopper: { id: string; name: string },
  lines: DeliveredLine[],
  options: { daysAgo?: number; payment?: 'mtn' | 'bank_transfer'; discount?: number } = {},
): Promise<{ orderId: string; items: string[]; total: number; paymentId: string | null }> {
  const orderId = randomUUID();
  const subtotal = lines.reduce((sum, l) => sum + l.piece.price * l.quantity, 0);
  const discount = options.discount ?? 0;
  const total = subtotal + 5000 - discount;
  const rows = lines.map((l) => ({
    productId: l.piece.id,
    variantId: l.variantId ?? l.piece.variantId,
    name: l.piece.name,
    label: l.label ?? '',
    price: l.piece.price,
    quantity: l.quantity,
  }));
  const result = await db.execute<{ id: string; variant_id: number }>(sql`
    with placed as (
      insert into orders (id, customer_id, customer_name, subtotal, delivery_fee, discount, total,
                          payment_method, status, delivery_option_id, delivery_option,
                          delivery_kind, source)
      values (${orderId}::uuid, ${shopper.id}, ${shopper.name}, ${subtotal}, 5000, ${discount},
              ${total}, 'mobile_money', 'delivered', 'kampala', 'Kampala delivery', 'delivery',
              'web')
      returning id
    )
    insert into order_items (order_id, product_id, variant_id, name, variant_label, price, quantity)
    select placed.id, r."productId", r."variantId", r.name, r.label, r.price, r.quantity
    from placed, json_to_recordset(${JSON.stringify(rows)}::json)
      as r("productId" int, "variantId" int, name text, label text, price int, quantity int)
    returning id, variant_id`);
  await db.execute(sql`update orders set delivered_at = now() - make_interval(days => ${options.daysAgo ?? 1})
    where id = ${orderId}::uuid`);
  let paymentId: string | null = null;
  if (options.payment) {
    paymentId = randomUUID();
    await db.execute(sql`insert into payments (id, order_id, customer_id, network, phone, amount,
        status, transaction_id, callback_secret)
      values (${paymentId}::uuid, ${orderId}::uuid, ${shopper.id}, ${options.payment},
              '+256772000001', ${total}, 'successful', ${`T-${orderId.slice(0, 8)}`}, 'secret')`);
  }
  // The items in the order the lines were given, by their variants.
  const items = rows.map((row) => {
    const found = result.rows.find((r) => Number(r.variant_id) === row.variantId);
    return found?.id ?? '';
  });
  return { orderId, items, total, paymentId };
}

/** A piece's variant id by its label ('M'), which the test made. */
export function sizeOf(piece: TestPiece, label: string): number {
  const id = piece.variants[label];
  if (id === undefined) throw new Error(`${piece.name} has no ${label}`);
  return id;
}
