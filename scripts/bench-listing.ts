// Finding the right piece at scale (issue 21): the filtered listing and the sorted search.
//
// - `listingJobs(caller)`: the calls `npm run bench` measures in-process and EXPLAINs at 100k
//   (scripts/bench.ts adds them to its catalogue calls).
// - `generateFashionCatalogue(backend, from, to)`: products i = from..to, each with its variants
//   (clothes 6 sizes × 1–3 colours, shoes EU 36–46 × 1–2 colours, the rest one size in 1–3
//   colours; about a quarter of the variants sold out; XXL costs 5,000 more).
// - Run directly (`node scripts/run.mjs scripts/bench-listing.ts`), it builds that catalogue at
//   100 and 100,000 products on embedded PGlite and (with BENCH_DATABASE_URL or
//   TEST_DATABASE_URL) PostgreSQL, and prints the medians and EXPLAIN ANALYZE of every statement
//   the listing calls send, as JSON (bench-listing.json) and a markdown table.

import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import {
  pgliteBackend,
  postgresBackend,
  type SqlBackend,
  startLocalNeon,
} from '#local/neon-endpoint.ts';
import type { callerFor } from '../tests/support/trpc.ts';

type Caller = ReturnType<typeof callerFor>;

/** The filtered listings and sorted searches measured (names are the bench's row labels). */
export function listingJobs(caller: Caller): [string, () => Promise<unknown>][] {
  return [
    ['list (no filter)', () => caller.catalogue.list({})],
    ['list size M', () => caller.catalogue.list({ filters: { size: 'M' } })],
    [
      'list size M in stock, price-asc',
      () => caller.catalogue.list({ filters: { size: 'M', inStock: true }, sort: 'price-asc' }),
    ],
    [
      'list colour Indigo ≤ 50,000, price-desc',
      () =>
        caller.catalogue.list({
          filters: { colour: 'Indigo', maxPrice: 50_000 },
          sort: 'price-desc',
        }),
    ],
    [
      'list size 38 Ochre in stock, page 3',
      () =>
        caller.catalogue.list({
          filters: { size: '38', colour: 'Ochre', inStock: true },
          page: 3,
        }),
    ],
    [
      'list 200,000–300,000, newest',
      () => caller.catalogue.list({ filters: { minPrice: 200_000, maxPrice: 300_000 } }),
    ],
    [
      'search name "dress" price-asc',
      () => caller.catalogue.search({ term: 'dress', scope: 'name', sort: 'price-asc' }),
    ],
    [
      'search name "dress" size M in stock',
      () =>
        caller.catalogue.search({
          term: 'dress',
          scope: 'name',
          filters: { size: 'M', inStock: true },
        }),
    ],
  ];
}

const PRODUCTS = `
insert into products (product_name, slug, price, description, kind, created_at)
select name, replace(lower(name), ' ', '-') || '-' || i, 15000 + h5 % 871 * 500,
  'A ' || lower(item) || ' in ' || lower(colour) || ' ' || lower(material) || ', made in Kampala.',
  case when item_no in (1, 2, 3, 6, 7, 8, 9, 13, 14) then 'clothes'
       when item_no in (5, 11, 19) then 'shoes' else 'one-size' end,
  now() - h11 % 525600 * interval '1 minute'
from generate_series($1::int, $2::int) as i,
lateral (select ${[1, 2, 3, 5, 11]
  .map((k) => `hashint4(i * 16 + ${k})::bigint + 2147483648 as h${k}`)
  .join(', ')}) h,
(select
  array['Ivory','Charcoal','Saffron','Cobalt','Emerald','Terracotta','Midnight','Blush','Olive','Sand','Burgundy','Indigo','Ochre'] as colours,
  array['Linen','Silk','Kitenge','Leather','Cotton','Wool','Suede','Denim','Cashmere','Raffia','Velvet'] as materials,
  array['Wrap Dress','Maxi Dress','Blazer','Tote Bag','Sandals','Trousers','Kaftan','Shirt','Skirt','Clutch','Loafers',
        'Scarf','Jumpsuit','Cardigan','Headwrap','Earrings','Bangle','Belt','Sneakers'] as items
) w,
lateral (select w.colours[1 + h1 % 13] as colour, w.materials[1 + h2 % 11] as material,
  1 + h3 % 19 as item_no, w.items[1 + h3 % 19] as item) pick,
lateral (select colour || ' ' || material || ' ' || item as name) named`;

const VARIANTS = `
insert into product_variants (product_id, sku, options, label, stock, position, price)
select p.id, 'B-' || p.id || '-' || s.n || '-' || c.n,
  case when s.size is null then jsonb_build_object('Colour', c.colour)
       else jsonb_build_object('Size', s.size, 'Colour', c.colour) end,
  concat_ws(' · ', s.size, c.colour),
  greatest(0, (hashint4(p.id * 97 + s.n::int * 13 + c.n)::bigint + 2147483648) % 16 - 4),
  c.n * 20 + s.n::int,
  case when s.size = 'XXL' then p.price + 5000 end
from products p
cross join lateral (select hashint4(p.id * 31)::bigint + 2147483648 as h) ph
cross join lateral unnest(case p.kind
    when 'clothes' then array['XS','S','M','L','XL','XXL']
    when 'shoes' then array['36','37','38','39','40','41','42','43','44','45','46']
    else array[null::text] end) with ordinality as s(size, n)
cross join lateral (
  select k + 1 as n, (array['Ivory','Charcoal','Saffron','Cobalt','Emerald','Terracotta','Midnight',
    'Blush','Olive','Sand','Burgundy','Indigo','Ochre'])[1 + (ph.h + k * 5) % 13] as colour
  from generate_series(0, (ph.h / 13 % case p.kind when 'shoes' then 2 else 3 end)::int) k
) c
where p.id between $1 and $2`;

const OPTIONS = `
update products p set options = o.options
from (
  select product_id, jsonb_agg(jsonb_build_object('name', name, 'values', vals) order by name desc) as options
  from (
    select product_id, key as name, jsonb_agg(distinct value) as vals
    from product_variants, jsonb_each(options)
    where product_id between $1 and $2
    group by 1, 2
  ) x group by 1
) o
where o.product_id = p.id`;

/** Products i = from..to with their variants (ids are the generate_series numbers). */
export async function generateFashionCatalogue(backend: SqlBackend, from: number, to: number) {
  for (let start = from; start <= to; start += 10_000) {
    const end = Math.min(to, start + 9_999);
    await backend.query(PRODUCTS, [start, end]);
    await backend.query(VARIANTS, [start, end]);
    await backend.query(OPTIONS, [start, end]);
  }
  await backend.query('vacuum analyze products', []);
  await backend.query('vacuum analyze product_variants', []);
  await new Promise((resolve) => setTimeout(resolve, 250));
}

const RUNS = 15;
async function median(job: () => Promise<unknown>) {
  for (let i = 0; i < 2; i++) await job();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < RUNS && (samples.length < 3 || performance.now() - started < 4000)) {
    const t = performance.now();
    await job();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return Math.round((samples[Math.floor(samples.length / 2)] ?? 0) * 100) / 100;
}

async function run(name: string, backend: SqlBackend, sizes: number[]) {
  const last: { query: string; params: unknown[] }[] = [];
  const recording: SqlBackend = {
    query(query, params) {
      last.splice(0, last.length, { query, params });
      return backend.query(query, params);
    },
    batch(queries, options) {
      last.splice(0, last.length, ...queries);
      return backend.batch(queries, options);
    },
    close: () => backend.close(),
  };
  const endpoint = await startLocalNeon({ backend: recording });
  const db = createDb(endpoint.databaseUrl);
  const { callerFor } = await import('../tests/support/trpc.ts');
  const caller = callerFor(db);
  const out: {
    products: number;
    variants: number;
    calls: Record<string, { ms: number; total: number }>;
    explain: { case: string; ms: number; plan: string[] }[];
  }[] = [];
  try {
    await migrateDatabase(db);
    let made = 0;
    for (const size of sizes) {
      const t = performance.now();
      await generateFashionCatalogue(backend, made + 1, size);
      made = size;
      const [[variants]] = [
        (await backend.query('select count(*) from product_variants', [])).rows,
      ];
      console.log(
        `${name}: ${size} products, ${variants?.[0]} variants (made in ${Math.round(performance.now() - t)} ms)`,
      );
      const calls: Record<string, { ms: number; total: number }> = {};
      const explain: { case: string; ms: number; plan: string[] }[] = [];
      for (const [label, job] of listingJobs(caller)) {
        const { total } = (await job()) as { total: number };
        calls[label] = { ms: await median(job), total };
        await job();
        for (const [i, q] of [...last].entries()) {
          const { rows } = await backend.query(`explain (analyze, buffers) ${q.query}`, q.params);
          const plan = rows.map((r) => String(r[0] ?? ''));
          const time = plan.find((l) => l.startsWith('Execution Time'))?.match(/[\d.]+/)?.[0];
          explain.push({ case: `${label} #${i + 1}`, ms: Number(time ?? 0), plan });
        }
        console.log(`  ${label}: ${calls[label].ms} ms (${total} pieces)`);
      }
      out.push({ products: size, variants: Number(variants?.[0]), calls, explain });
    }
  } finally {
    await endpoint.close();
    await backend.close();
  }
  return { backend: name, sizes: out };
}

async function main() {
  const sizes = (process.env.LISTING_SIZES ?? '100,100000').split(',').map(Number);
  const results = [];
  if (process.env.LISTING_BACKENDS !== 'postgres') {
    results.push(
      await run('embedded PGlite', await pgliteBackend({ statementTimeout: 120_000 }), sizes),
    );
  }
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (serverUrl && process.env.LISTING_BACKENDS !== 'pglite') {
    const keep = process.env.LISTING_KEEP; // a database name to leave behind, for EXPLAIN by hand
    const dbName = keep ?? `duuka_listing_${randomBytes(4).toString('hex')}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      return (await client.query(statement).finally(() => client.end())).rows;
    };
    await admin(`drop database if exists ${dbName} with (force)`);
    await admin(`create database ${dbName}`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${dbName}`;
      const [version] = await admin('show server_version');
      results.push(
        await run(`PostgreSQL ${version?.server_version}`, postgresBackend(url.toString()), sizes),
      );
    } finally {
      if (!keep) await admin(`drop database if exists ${dbName} with (force)`);
    }
  }
  const file = process.env.LISTING_OUT ?? 'bench-listing.json';
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  for (const r of results) {
    console.log(`\n### ${r.backend}\n`);
    const small = r.sizes[0];
    const large = r.sizes.at(-1);
    console.log(
      `| call | ${r.sizes.map((s) => `${s.products.toLocaleString('en')} ms`).join(' | ')} | growth | pieces at ${large?.products.toLocaleString('en')} |`,
    );
    console.log(`| --- | ${r.sizes.map(() => '---:').join(' | ')} | ---: | ---: |`);
    for (const label of Object.keys(small?.calls ?? {})) {
      const a = small?.calls[label]?.ms ?? 0;
      const b = large?.calls[label]?.ms ?? 0;
      console.log(
        `| ${label} | ${r.sizes.map((s) => s.calls[label]?.ms).join(' | ')} | ×${Math.round((b / a) * 100) / 100} | ${large?.calls[label]?.total} |`,
      );
    }
    console.log(`\nEXPLAIN ANALYZE at ${large?.products.toLocaleString('en')}:\n`);
    const scan =
      /((?:Seq|Index|Index Only|Bitmap Heap|Bitmap Index) Scan)(?: Backward)? (?:on|using) (\S+)/;
    for (const e of large?.explain ?? []) {
      const scans = [...new Set(e.plan.flatMap((l) => l.match(scan)?.slice(1).join(' ') ?? []))];
      console.log(`| ${e.case} | ${scans.join(' + ')} | ${e.ms} |`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
  process.exit(0);
}
