// The desk's order book in the bench (issue 34; decision 0074): desk.orders through the tRPC
// caller (the shop's createContext, signed in as the owner) at 100 and 100,000 orders, inserted
// with one generate_series statement (and one for their payments): the first page, a search by
// phone, and one chip ("to confirm"), with the ratio of their times; EXPLAIN (ANALYZE) of the first
// page's and the phone search's statements at the largest size. Run alone with
// `BENCH_ONLY=orders npm run bench` (a minute or two), or as part of the full bench.
import { randomBytes } from 'node:crypto';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { memoryBucket } from '#local/fakes/r2-bucket.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import type { SqlBackend } from '#local/neon/sql-backend.ts';
import { createAuth, type SessionUser } from '#server/auth.ts';
import { createContext } from '#server/context.ts';
import { appRouter } from '#server/routers/index.ts';
import { outboxMailer } from '#server/services/mail-service.ts';
import { createCallerFactory } from '#server/trpc.ts';

export const ORDER_SIZES = process.env.BENCH_ORDER_SIZES
  ? process.env.BENCH_ORDER_SIZES.split(',').map((n) => Number(n.replaceAll('_', '')))
  : [100, 100_000];

type Stats = { median: number; p95: number; runs: number };
type Measure = (job: () => Promise<unknown>) => Promise<Stats>;

// Orders i = from..to, one a few minutes after the other (the newest now): names, phones and
// emails vary by hash; the last 300 are the day's work (pending, processing, out), the rest
// mostly done (completed, collected, delivered) or cancelled; every way to pay and deliver.
const GENERATE_ORDERS = `
insert into orders (id, customer_name, customer_phone, customer_email, subtotal, delivery_fee, total,
                    payment_method, status, delivery_kind, delivery_option_id, delivery_option, source, created_at)
select gen_random_uuid(),
  (array['Nakato','Achieng','Okello','Namubiru','Mugisha','Atim','Ssempa','Nansubuga','Kato','Apio','Byaruhanga','Auma'])[1 + h1 % 12]
    || ' ' || (array['Mirembe','Opio','Kaggwa','Tumusiime','Akello','Lubega','Nabirye','Odongo'])[1 + h2 % 8],
  '+2567' || lpad((h3 % 100000000)::text, 8, '0'),
  'buyer' || i || '@example.ug',
  50000 + h4 % 300 * 1000, 5000, 55000 + h4 % 300 * 1000,
  (array['mobile_money','mobile_money','mobile_money','card','bank_transfer','cash_on_delivery','cash_on_delivery','cash'])[1 + h5 % 8],
  case when i > $2::int - 300
    then (array['pending','pending','processing','processing','out_for_delivery','ready_for_pickup'])[1 + h6 % 6]
    else (array['completed','completed','completed','completed','completed','collected','delivered','cancelled'])[1 + h6 % 8] end,
  (array['delivery','delivery','pickup','courier'])[1 + h7 % 4],
  (array['kampala','kampala','pickup','upcountry'])[1 + h7 % 4],
  (array['Kampala delivery','Kampala delivery','Pick up at the boutique','Upcountry by bus'])[1 + h7 % 4],
  (array['web','web','web','web','phone','whatsapp','counter'])[1 + h1 % 7],
  now() - ($2::int - i) * interval '4 minutes'
from generate_series($1::int, $2::int) as i,
lateral (select ${Array.from({ length: 7 }, (_, k) => `hashint4(i * 8 + ${k + 1})::bigint + 2147483648 as h${k + 1}`).join(', ')}) h`;

// The money that arrived: most orders but the unpaid pending ones, the cancelled and 1 bank
// transfer or cash on delivery in 3 still to confirm.
const GENERATE_PAYMENTS = `
insert into payments (id, order_id, network, amount, status, transaction_id, callback_secret, settled_at, created_at)
select gen_random_uuid(), o.id,
  case o.payment_method when 'mobile_money' then 'mtn' when 'card' then 'pesapal' else o.payment_method end,
  o.total, 'successful', 'TX' || substr(o.id::text, 1, 8), md5(o.id::text), o.created_at, o.created_at
from orders o
where o.status <> 'cancelled'
  and not exists (select 1 from payments q where q.order_id = o.id)
  and not (o.status = 'pending' and hashint4(hashtext(o.id::text)) % 2 = 0)
  and not (o.payment_method in ('bank_transfer', 'cash_on_delivery') and hashint4(hashtext(o.id::text)) % 3 = 0)`;

async function generateOrders(backend: SqlBackend, from: number, to: number) {
  const bulk = to - from > 10_000;
  const { rows: indexes } = bulk
    ? await backend.query(
        `select indexname, indexdef from pg_indexes where tablename = 'orders' and indexdef like '% USING gin %'`,
        [],
      )
    : { rows: [] };
  for (const [name] of indexes) await backend.query(`drop index "${name}"`, []);
  await backend.query(GENERATE_ORDERS, [from, to]);
  await backend.query(GENERATE_PAYMENTS, []);
  for (const [, definition] of indexes) await backend.query(definition ?? '', []);
  await backend.query('vacuum analyze orders', []);
  await backend.query('vacuum analyze payments', []);
  await new Promise((resolve) => setTimeout(resolve, 250));
}

/** The router in-process as the owner (their email among the owners), as SSR calls it. */
function ownerCaller(db: ReturnType<typeof createDb>) {
  const origin = 'http://bench.test';
  const owner: SessionUser = {
    id: 'bench-owner',
    name: 'Bench Owner',
    email: 'owner@bench.test',
    image: null,
    twoFactor: false,
    role: 'owner',
  };
  const context = createContext({
    db,
    headers: new Headers(),
    auth: createAuth({
      db,
      secret: randomBytes(24).toString('base64url'),
      baseURL: origin,
      mailer: outboxMailer(db),
    }),
    session: { read: async () => owner, lastSeen: () => owner, token: null },
    avatars: memoryBucket(),
    photos: memoryBucket(),
    background: (work) => void work.catch((error: unknown) => console.error(error)),
    payments: { providers: {}, callbackOrigin: origin },
    sms: { gateway: null, adminPhone: null },
    bankDetails: null,
    ownerEmails: [owner.email],
    assistant: { apiKey: null, model: 'gemini-2.5-flash', baseUrl: null, contact: DEFAULT_SUPPORT },
    social: [],
  });
  return createCallerFactory(appRouter)(context);
}

/** 'Statement: top node: scans' lines and the plan, for BENCHMARKS.md. */
export type Explained = { case: string; ms: number; plan: string[] };

export type OrderBookBench = {
  backend: string;
  sizes: {
    orders: number;
    generateSeconds: number;
    calls: Record<string, Stats & { rows: number }>;
  }[];
  explain: Explained[];
};

/**
 * The order book on one backend: its own database (the bench's `recording` backend, so the
 * statements the call sent can be EXPLAINed), every size in turn, then EXPLAIN at the largest.
 */
export async function benchOrderBook(
  name: string,
  backend: SqlBackend,
  measure: Measure,
  lastStatements: { query: string; params: unknown[] }[],
): Promise<OrderBookBench> {
  console.log(`\n== order book, ${name}`);
  const endpoint = await startLocalNeon({ backend });
  const db = createDb(endpoint.databaseUrl);
  try {
    await migrateDatabase(db);
    const caller = ownerCaller(db);
    const sizes: OrderBookBench['sizes'] = [];
    let made = 0;
    let phone = '';
    const jobs = (): [string, () => Promise<{ orders: unknown[] }>][] => [
      ['first page', () => caller.desk.orders()],
      ['search by phone', () => caller.desk.orders({ q: phone })],
      ['chip "to confirm"', () => caller.desk.orders({ queue: 'to_confirm' })],
    ];
    for (const size of ORDER_SIZES) {
      const t = performance.now();
      await generateOrders(backend, made + 1, size);
      const generateSeconds = Math.round((performance.now() - t) / 100) / 10;
      made = size;
      // A customer from the middle of the book, typed as a person types it: 0772 123 456.
      const { rows } = await backend.query(
        'select customer_phone from orders order by created_at, id offset $1 limit 1',
        [Math.floor(size / 2)],
      );
      const local = `0${String(rows[0]?.[0] ?? '').slice(4)}`;
      phone = `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`;
      const calls: OrderBookBench['sizes'][number]['calls'] = {};
      for (const [label, job] of jobs()) {
        const answer = await job();
        calls[label] = { ...(await measure(job)), rows: answer.orders.length };
        console.log(
          `  ${size.toLocaleString('en')} orders, ${label}: median ${calls[label]?.median} ms`,
        );
      }
      sizes.push({ orders: made, generateSeconds, calls });
    }
    const explain: Explained[] = [];
    for (const [label, job] of jobs().slice(0, 2)) {
      await job();
      const statements = [...lastStatements];
      for (const [i, q] of statements.entries()) {
        const { rows } = await backend.query(`explain (analyze) ${q.query}`, q.params);
        const plan = rows.map((r) => String(r[0] ?? ''));
        const time = plan.find((line) => line.startsWith('Execution Time'))?.match(/[\d.]+/)?.[0];
        explain.push({
          case: `${label} #${i + 1} (${i === 0 ? 'rows' : 'counts'})`,
          ms: Number(time ?? 0),
          plan,
        });
      }
    }
    return { backend: name, sizes, explain };
  } finally {
    await endpoint.close();
    await backend.close();
  }
}

/** BENCHMARKS.md's lines for the order book. */
export function orderBookMarkdown(results: OrderBookBench[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const first = r.sizes[0];
    const last = r.sizes.at(-1);
    lines.push('', `### desk.orders, ${r.backend}`, '');
    lines.push(
      `Median / p95 ms of up to 30 in-process calls (rows answered); × is the median at ${last?.orders.toLocaleString('en')} ÷ at ${first?.orders.toLocaleString('en')} (target ≤ 3):`,
      '',
      `| call | ${r.sizes.map((s) => `${s.orders.toLocaleString('en')} orders`).join(' | ')} | × |`,
      `| --- | ${r.sizes.map(() => '---:').join(' | ')} | ---: |`,
    );
    for (const call of Object.keys(first?.calls ?? {})) {
      const cells = r.sizes.map((s) => {
        const c = s.calls[call];
        return c ? `${c.median} / ${c.p95} (${c.rows})` : '-';
      });
      const a = first?.calls[call]?.median;
      const b = last?.calls[call]?.median;
      lines.push(
        `| ${call} | ${cells.join(' | ')} | ${a && b ? Math.round((b / a) * 100) / 100 : '-'} |`,
      );
    }
    lines.push('', `EXPLAIN (ANALYZE) at ${last?.orders.toLocaleString('en')} orders:`);
    for (const e of r.explain) {
      lines.push('', `${e.case}, ${e.ms} ms:`, '', '```', ...e.plan, '```');
    }
  }
  return lines;
}
