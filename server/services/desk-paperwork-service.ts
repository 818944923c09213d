// The desk's paperwork for orders (issue 34): what a packing slip says, read in one statement, and
// the accountant's file of every order in a span of Kampala days, with its pieces, payments and
// delivery. Served by server/http/desk-files.ts to staff and the owner only.
import { sql } from 'drizzle-orm';
import type { OrderDelivery } from '#core/delivery-choice.ts';
import { isDeliveryKind } from '#core/delivery-rules.ts';
import { writeCsv } from '#core/desk-csv.ts';
import { ORDERS_FILE_COLUMNS, type PackingSlip, type SlipPiece } from '#core/desk-paperwork.ts';
import { kampalaDay, kampalaMidnight } from '#core/desk-shop.ts';
import { guardCell } from '#core/desk-spreadsheet.ts';
import { KAMPALA_OFFSET_HOURS } from '#core/kampala-time.ts';
import { paymentMethodLabel, receiptNumber, sourceLabel, statusLabel } from '#core/order-rules.ts';
import type { Db } from '#db/client.ts';

/** An instant as ISO 8601 in UTC, and as a Kampala time the accountant's spreadsheet sorts. */
const isoSql = sql`to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const kampalaStampSql = sql`to_char((o.created_at at time zone 'UTC') + make_interval(hours => ${KAMPALA_OFFSET_HOURS}), 'YYYY-MM-DD HH24:MI')`;

/** Paid: a successful payment is recorded (as the desk's list and the receipt read it). */
const paidSql = sql`exists (select 1 from payments p where p.order_id = o.id and p.status = 'successful')`;

type SlipRow = {
  id: string;
  created_at: string;
  source: string;
  customer_name: string;
  customer_phone: string | null;
  payment_method: string;
  total: string | number;
  delivery_option: string;
  delivery_kind: string;
  delivery_area: string;
  delivery_landmark: string;
  delivery_phone: string | null;
  delivery_notes: string;
  rider_name: string | null;
  rider_phone: string | null;
  paid: boolean;
  pieces: SlipPiece[];
};

/** The order's packing slip, or null for an unknown order. One statement. */
export async function packingSlipFor(db: Db, orderId: string): Promise<PackingSlip | null> {
  const { rows } = await db.execute<SlipRow>(sql`
    select o.id, ${isoSql} as created_at, o.source, o.customer_name, o.customer_phone,
           o.payment_method, o.total, o.delivery_option, o.delivery_kind, o.delivery_area,
           o.delivery_landmark, o.delivery_phone, o.delivery_notes, o.rider_name, o.rider_phone,
           ${paidSql} as paid,
           (select coalesce(json_agg(json_build_object(
                     'name', i.name, 'variant', i.variant_label, 'sku', v.sku,
                     'quantity', i.quantity) order by i.name, i.variant_label), '[]'::json)
            from order_items i left join product_variants v on v.id = i.variant_id
            where i.order_id = o.id) as pieces
    from orders o where o.id = ${orderId}::uuid`);
  const row = rows[0];
  if (!row) return null;
  const delivery: OrderDelivery = {
    option: row.delivery_option,
    kind: isDeliveryKind(row.delivery_kind) ? row.delivery_kind : 'delivery',
    area: row.delivery_area,
    landmark: row.delivery_landmark,
    phone: row.delivery_phone,
    notes: row.delivery_notes,
    riderName: row.rider_name,
    riderPhone: row.rider_phone,
  };
  return {
    orderId: row.id,
    placedAt: row.created_at,
    source: row.source,
    customerName: row.customer_name,
    phone: row.delivery_phone ?? row.customer_phone,
    delivery,
    pieces: row.pieces.map((piece) => ({ ...piece, quantity: Number(piece.quantity) })),
    paymentMethod: row.payment_method,
    total: Number(row.total),
    paid: row.paid,
  };
}

type FileRow = {
  id: string;
  placed: string;
  paid: boolean;
  source: string;
  customer_name: string;
  customer_phone: string | null;
  customer_email: string | null;
  status: string;
  payment_method: string;
  subtotal: string;
  delivery_fee: string;
  discount: string;
  total: string;
  delivery_option: string;
  delivery_area: string;
  delivery_landmark: string;
  rider_name: string | null;
  paid_amount: string;
  refunded_amount: string;
  references: string | null;
  pieces: string;
  items: string | null;
};

/**
 * Every order placed from the first day to the last (Kampala days, inclusive; either open), oldest
 * first, one row each with its pieces, payments and delivery; every cell guarded against
 * spreadsheet formulas, as the catalogue's file is.
 */
export async function ordersFile(
  db: Db,
  span: { from?: string; to?: string },
  now = new Date(),
): Promise<{ text: string; fileName: string }> {
  const from = span.from ? kampalaMidnight(span.from) : null;
  const until = span.to ? kampalaMidnight(span.to, 1) : null;
  const { rows } = await db.execute<FileRow>(sql`
    select o.id, ${kampalaStampSql} as placed, ${paidSql} as paid, o.source, o.customer_name,
           o.customer_phone, o.customer_email, o.status, o.payment_method, o.subtotal::text, o.delivery_fee::text,
           o.discount::text, o.total::text, o.delivery_option, o.delivery_area,
           o.delivery_landmark, o.rider_name,
           coalesce((select sum(coalesce(p.received_amount, p.amount)) from payments p
                     where p.order_id = o.id
                       and p.status in ('successful', 'refund_due', 'refunded')), 0)::text
             as paid_amount,
           coalesce((select sum(coalesce(p.received_amount, p.amount)) from payments p
                     where p.order_id = o.id and p.status = 'refunded'), 0)::text
             as refunded_amount,
           (select string_agg(p.transaction_id, '; ' order by p.created_at) from payments p
            where p.order_id = o.id and p.transaction_id is not null
              and p.status in ('successful', 'refund_due', 'refunded')) as references,
           (select coalesce(sum(i.quantity), 0) from order_items i where i.order_id = o.id)::text
             as pieces,
           (select string_agg(i.quantity || ' × ' || i.name
                              || case when i.variant_label <> '' then ' (' || i.variant_label || ')'
                                      else '' end
                              || ' @ ' || i.price, '; ' order by i.name, i.variant_label)
            from order_items i where i.order_id = o.id) as items
    from orders o
    where (${from}::timestamptz is null or o.created_at >= ${from}::timestamptz)
      and (${until}::timestamptz is null or o.created_at < ${until}::timestamptz)
    order by o.created_at, o.id`);
  const lines = rows.map((row) =>
    [
      row.id,
      receiptNumber(row.id),
      row.placed,
      sourceLabel(row.source),
      row.customer_name,
      row.customer_phone ?? '',
      row.customer_email ?? '',
      statusLabel(row.status),
      paymentMethodLabel(row.payment_method),
      row.paid ? 'yes' : 'no',
      row.paid_amount,
      row.references ?? '',
      row.refunded_amount,
      row.subtotal,
      row.delivery_fee,
      row.discount,
      row.total,
      row.delivery_option,
      row.delivery_area,
      row.delivery_landmark,
      row.rider_name ?? '',
      row.pieces,
      row.items ?? '',
    ].map(guardCell),
  );
  const named = [span.from ?? 'start', span.to ?? kampalaDay(now)].join('-to-');
  return {
    text: `\uFEFF${writeCsv([[...ORDERS_FILE_COLUMNS], ...lines])}`,
    fileName: `duuka-orders-${named}.csv`,
  };
}
