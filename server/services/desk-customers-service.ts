// The desk's customers (issue 34, decision 0076): every account of a customer and every phone
// that ordered without an account, each with their orders, what they spent (paid orders only),
// their last order and whether they take promotions. One read per page, keyset-paged.
import { sql } from 'drizzle-orm';
import { CUSTOMERS_PAGE, phoneDigits, readCursor } from '#core/desk-customers.ts';
import type { Db } from '#db/client.ts';

type Row = {
  key: string;
  account_id: string | null;
  name: string | null;
  phone: string | null;
  email: string | null;
  promotions: boolean;
  orders: number | string;
  spent: number | string;
  last_order_at: string | Date | null;
  cursor: string;
};

/** `%`, `_` and `\` matched as themselves in a LIKE pattern. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of customers, newest activity first: the last order's time (else, for an account that
 * never ordered, when it was made), then the key ('a:' and the account's id, or 'p:' and the
 * phone of orders placed without an account), both in the cursor. Searched by name, email or
 * phone in any spelling (core/desk-customers.ts phoneDigits). "Spent" adds the totals of orders
 * with a successful payment only: an order placed and never paid, or refunded, is not money.
 */
export async function deskCustomers(db: Db, input: { q?: string; cursor?: string } = {}) {
  const q = input.q?.trim() ?? '';
  const digits = q ? phoneDigits(q) : null;
  const after = input.cursor ? readCursor(input.cursor) : null;
  const paid = sql`exists (select 1 from payments pay where pay.order_id = o.id
    and pay.status = 'successful')`;
  const search = q
    ? sql`and (lower(coalesce(c.name, '')) like lower(${likeText(q)})
               or lower(coalesce(c.email, '')) like lower(${likeText(q)})
               ${digits ? sql`or coalesce(c.phone, '') like ${likeText(digits)}` : sql``})`
    : sql``;
  const page = after
    ? sql`and (c.seen_at, c.key) < (${after.at}::timestamptz, ${after.key})`
    : sql``;
  const result = await db.execute<Row>(sql`
    with c as (
      select 'a:' || u.id as key, u.id as account_id, coalesce(p.full_name, u.name) as name,
             p.phone, u.email, coalesce(s.marketing_notifications, false) as promotions,
             st.orders, st.spent, st.last_order_at,
             coalesce(st.last_order_at, u.created_at) as seen_at
      from "user" u
      left join profiles p on p.id = u.id
      left join user_settings s on s.user_id = u.id
      cross join lateral (
        select count(*)::int as orders,
               coalesce(sum(o.total) filter (where ${paid}), 0)::bigint as spent,
               max(o.created_at) as last_order_at
        from orders o where o.customer_id = u.id
      ) st
      where u.role = 'customer'
      union all
      select 'p:' || o.customer_phone, null,
             (array_agg(o.customer_name order by o.created_at desc))[1],
             o.customer_phone,
             (array_agg(o.customer_email order by o.created_at desc)
                filter (where o.customer_email is not null))[1],
             false, count(*)::int, coalesce(sum(o.total) filter (where ${paid}), 0)::bigint,
             max(o.created_at), max(o.created_at)
      from orders o
      where o.customer_id is null and o.customer_phone is not null
      group by o.customer_phone
    )
    select c.key, c.account_id, c.name, c.phone, c.email, c.promotions, c.orders, c.spent,
           c.last_order_at,
           to_char(c.seen_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '~' || c.key
             as cursor
    from c
    where true ${search} ${page}
    order by c.seen_at desc, c.key desc
    limit ${CUSTOMERS_PAGE + 1}
  `);
  const rows = result.rows.slice(0, CUSTOMERS_PAGE);
  return {
    customers: rows.map((row) => ({
      key: row.key,
      accountId: row.account_id,
      name: row.name ?? '',
      phone: row.phone,
      email: row.email,
      orders: Number(row.orders),
      spent: Number(row.spent),
      lastOrderAt: row.last_order_at === null ? null : new Date(row.last_order_at).toISOString(),
      promotions: row.promotions,
    })),
    nextCursor: result.rows.length > CUSTOMERS_PAGE ? (rows.at(-1)?.cursor ?? null) : null,
  };
}
