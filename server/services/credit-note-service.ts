// A succeeded refund's credit note (issue 36, decision 0086): CRN- and the first 8 characters of
// the refund's id, with the order it refunds, the returned pieces, the amount, where the money
// went and its reference. The shopper reads only her own; the desk reads any.
import { sql } from 'drizzle-orm';
import { receiptNumber } from '#core/order-rules.ts';
import {
  type CreditNote,
  creditNoteNumber,
  REFUND_METHOD_LABEL,
  type RefundMethod,
} from '#core/returns.ts';
import type { Db } from '#db/client.ts';

type Row = {
  id: string;
  order_id: string;
  method: RefundMethod;
  amount: string | number;
  reference: string | null;
  settled_at: string | Date;
  customer_name: string;
  lines: CreditNote['lines'] | null;
};

/**
 * The credit note of one succeeded refund: the customer's own when `customerId` is given (her
 * refund or her order's), any for the desk (null). Null: not found, not hers, or not succeeded.
 */
export async function creditNote(
  db: Db,
  customerId: string | null,
  refundId: string,
): Promise<CreditNote | null> {
  const result = await db.execute<Row>(sql`
    select r.id, o.id as order_id, r.method, r.amount, r.reference, r.settled_at,
      o.customer_name,
      (select jsonb_agg(jsonb_build_object('name', i.name, 'variantLabel', i.variant_label,
          'quantity', l.quantity, 'price', i.price) order by i.name)
        from return_lines l join order_items i on i.id = l.order_item_id
        where l.return_id = r.return_id) as lines
    from refunds r join orders o on o.id = r.order_id
    where r.id = ${refundId}::uuid and r.status = 'succeeded'
      and (${customerId}::text is null or o.customer_id = ${customerId}
        or r.customer_id = ${customerId})
  `);
  const [row] = result.rows;
  if (!row) return null;
  return {
    refundId: row.id,
    number: creditNoteNumber(row.id),
    orderId: row.order_id,
    orderRef: receiptNumber(row.order_id),
    date: new Date(row.settled_at).toISOString(),
    customerName: row.customer_name,
    lines: (row.lines ?? []).map((line) => ({
      ...line,
      quantity: Number(line.quantity),
      price: Number(line.price),
    })),
    amount: Number(row.amount),
    method: row.method,
    methodLabel: REFUND_METHOD_LABEL[row.method],
    reference: row.reference,
  };
}
