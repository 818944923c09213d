// `npm run bench`: the production Worker served locally in workerd over the real Neon driver and
// the local endpoint (production minus the network), on embedded PGlite and (with
// BENCH_DATABASE_URL or TEST_DATABASE_URL) a real PostgreSQL server, with 100, 10,000 and 100,000
// products: HTTP load (autocannon) on the pages and calls that matter, against a static file of
// the home page's size from the same server (the ceiling), with database round trips per request;
// the catalogue calls in-process with EXPLAIN at 100k; placeOrder's round trips by cart size;
// bundle sizes; INP of three taps in Chromium at 6× CPU slowdown (scripts/inp.ts). Loopback only. Prints tables, writes bench-results.json and its section of
// BENCHMARKS.md (between the bench markers). See BENCHMARKS.md.

import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { preview } from 'vite';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { buildForPreview } from '#local/build.ts';
import { memoryBucket } from '#local/fakes/r2-bucket.ts';
import { freePort } from '#local/free-port.ts';
import { shopperOverHttp } from '#local/http-shopper.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { pgliteBackend } from '#local/neon/pglite-backend.ts';
import { postgresBackend } from '#local/neon/postgres-backend.ts';
import type { SqlBackend } from '#local/neon/sql-backend.ts';
import { enterWorkingCopy } from '#local/working-copy.ts';
import { createAuth } from '#server/auth.ts';
import { createContext } from '#server/context.ts';
import { appRouter } from '#server/routers/index.ts';
import { outboxMailer } from '#server/services/mail-service.ts';
import { createCallerFactory } from '#server/trpc.ts';
import { benchOrderBook, type OrderBookBench, orderBookMarkdown } from './bench-order-book.ts';
import {
  distanceRows,
  distanceTable,
  interactiveRows,
  interactiveTable,
} from './distance-report.ts';
import { INP_RUNS, type InpRow, inpRows, inpTable } from './inp.ts';
import { pageWeights, pageWeightTable } from './page-weight.ts';

const RUNS = 30;
const WARMUP = 3;
const CASE_BUDGET_MS = 4_000; // a slow case stops early (at least 5 runs)
const FULL_SIZES = [100, 10_000, 100_000];
// BENCH_SIZES=100,1000 makes a short run (a check that the bench works): its figures are printed
// and kept in bench-results.json, but BENCHMARKS.md keeps the full run's.
const SIZES = process.env.BENCH_SIZES
  ? process.env.BENCH_SIZES.split(',').map((n) => Number(n.replaceAll('_', '')))
  : FULL_SIZES;
const FULL_RUN = SIZES.join() === FULL_SIZES.join();
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = 8;
const CART_SIZES = [1, 10, 50] as const;
/** BENCH_ONLY=distance: the distance table alone, on PGlite (the build, no load, no sizes). */
const DISTANCE_ONLY = process.env.BENCH_ONLY === 'distance';
/** BENCH_ONLY=search (issue 38): the catalogue calls alone at each size, on each backend (no
 * build, no HTTP load), with their growth and EXPLAIN at the largest size: its own section of
 * BENCHMARKS.md (between the bench-search markers). */
const SEARCH_ONLY = process.env.BENCH_ONLY === 'search';
/** BENCH_ONLY=inp: INP of the three taps alone, on PGlite (BENCH_INP_RUNS=1 for a quick check). */
const INP_ONLY = process.env.BENCH_ONLY === 'inp';
/** The checkout the bench was started in (it works in a copy of it). */
const REPO = process.cwd();
// Served from public/__bench-ceiling.html; Workers' assets answer .html paths without the extension.
const CEILING = '/__bench-ceiling';
const TERMS = { few: 'gomesi', many: 'dress', none: 'tuxedo', short: 'ki' } as const;
const SCOPES = ['all', 'name'] as const;

type Stats = { median: number; p95: number; runs: number };
const ms = (n: number) => Math.round(n * 100) / 100;

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
  return { median: ms(at(0.5)), p95: ms(at(0.95)), runs: s.length };
}

/** The filtered listings and sorted searches measured (names are the bench's row labels). */
function listingJobs(
  caller: ReturnType<typeof inProcessCaller>,
): [string, () => Promise<unknown>][] {
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

async function measure(job: () => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await job();
  const samples: number[] = [];
  const started = performance.now();
  while (
    samples.length < RUNS &&
    (samples.length < 5 || performance.now() - started < CASE_BUDGET_MS)
  ) {
    const t = performance.now();
    await job();
    samples.push(performance.now() - t);
  }
  return stats(samples);
}

// Products i = from..to, from word lists; hashint4 makes the picks vary independently.
// 'Gomesi' replaces the garment for 1 product in 4,000 (the "few" term); no product is a tuxedo.
// Each product comes with its variants, as the shop sells them (decision 0039): clothes in 6 sizes
// (XS–XXL), shoes in 7 (EU 36–42), and 1 clothing or shoe piece in 4 in two colours as well;
// bags, jewellery and accessories in one size. Each variant holds 0–12 pieces (1 in 13 sold
// out); 1 product in 50 is on sale (a compare-at price on its variants).
const GENERATE = `
with made as (
insert into products (product_name, slug, price, description, kind, options, created_at)
select name, replace(lower(name), ' ', '-') || '-' || i, 15000 + h5 % 871 * 500,
  w.fits[1 + h7 % 8] || ' ' || lower(item) || ' in ' || lower(colour) || ' ' || lower(material)
    || ', ' || w.details[1 + h8 % 6] || '. Pairs with our ' || lower(w.items[1 + h9 % 19]) || '. '
    || w.care[1 + h10 % 4],
  kind,
  case when cardinality(sizes) > 0
    then jsonb_build_array(jsonb_build_object('name', 'Size', 'values', to_jsonb(sizes)))
    else '[]'::jsonb end
  || case when cardinality(two_colours) > 0
    then jsonb_build_array(jsonb_build_object('name', 'Colour', 'values', to_jsonb(two_colours)))
    else '[]'::jsonb end,
  now() - h11 % 525600 * interval '1 minute'
from generate_series($1::int, $2::int) as i,
lateral (select ${Array.from({ length: 11 }, (_, k) => `hashint4(i * 16 + ${k + 1})::bigint + 2147483648 as h${k + 1}`).join(', ')}) h,
(select
  array['Ivory','Charcoal','Saffron','Cobalt','Emerald','Terracotta','Midnight','Blush','Olive','Sand','Burgundy','Indigo','Ochre'] as colours,
  array['Linen','Silk','Kitenge','Leather','Cotton','Wool','Suede','Denim','Cashmere','Raffia','Velvet'] as materials,
  array['Wrap Dress','Maxi Dress','Blazer','Tote Bag','Sandals','Trousers','Kaftan','Shirt','Skirt','Clutch','Loafers',
        'Scarf','Jumpsuit','Cardigan','Headwrap','Earrings','Bangle','Belt','Sneakers'] as items,
  array['Tailored','Relaxed','Hand-finished','Structured','Flowing','Cropped','Oversized','Classic'] as fits,
  array['with hand-stitched seams','lined in cotton','with brass hardware','cut for Kampala evenings',
        'made in a limited run','finished by hand in Kampala'] as details,
  array['Dry clean only.','Hand wash cold.','Wipe clean with a damp cloth.','Machine wash at 30°.'] as care
) w,
lateral (select w.colours[1 + h1 % 13] as colour, w.materials[1 + h2 % 11] as material,
  case when i % 4000 = 17 then 'Gomesi' else w.items[1 + h3 % 19] end as item) pick,
lateral (select colour || ' ' || material || ' ' || item as name) named,
lateral (select case
  when item in ('Sandals', 'Loafers', 'Sneakers') then 'shoes'
  when item in ('Tote Bag', 'Clutch', 'Scarf', 'Headwrap', 'Earrings', 'Bangle', 'Belt') then 'one-size'
  else 'clothes' end as kind) kinds,
lateral (select
  case kind when 'clothes' then array['XS','S','M','L','XL','XXL']
            when 'shoes' then array['36','37','38','39','40','41','42']
            else array[]::text[] end as sizes,
  case when kind <> 'one-size' and h4 % 4 = 0
    then array[colour, w.colours[1 + (h1 % 13 + 1 + h4 / 4 % 12) % 13]]
    else array[]::text[] end as two_colours) offered
returning id, price, options, (hashint4(id * 16 + 6)::bigint + 2147483648) % 50 = 0 as on_sale
)
insert into product_variants (product_id, sku, options, label, stock, position, compare_at_price)
select m.id, 'B-' || m.id || '-' || v.position, jsonb_strip_nulls(jsonb_build_object('Size', v.size, 'Colour', v.colour)),
  concat_ws(' · ', v.size, v.colour), (hashint4(m.id * 64 + v.position)::bigint + 2147483648) % 13,
  v.position, case when m.on_sale then m.price * 5 / 4 end
from made m,
lateral (
  select s.size, c.colour, (row_number() over (order by s.n, c.n))::int - 1 as position
  from jsonb_array_elements_text(coalesce(
         (select o->'values' from jsonb_array_elements(m.options) o where o->>'name' = 'Size'),
         '[null]'::jsonb)) with ordinality as s(size, n),
       jsonb_array_elements_text(coalesce(
         (select o->'values' from jsonb_array_elements(m.options) o where o->>'name' = 'Colour'),
         '[null]'::jsonb)) with ordinality as c(colour, n)
) v`;

async function generate(backend: SqlBackend, from: number, to: number) {
  // A bulk load drops the GIN indexes (the names' and descriptions' trigrams) and rebuilds them from their own definitions (same indexes, built ~2x faster than
  // maintained row by row), as one would for a real import.
  const bulk = to - from > 10_000;
  const { rows: indexes } = bulk
    ? await backend.query(
        `select indexname, indexdef from pg_indexes
         where tablename in ('products', 'product_variants') and indexdef like '% USING gin %'`,
        [],
      )
    : { rows: [] };
  for (const [name] of indexes) await backend.query(`drop index "${name}"`, []);
  for (let start = from; start <= to; start += 25_000) {
    await backend.query(GENERATE, [start, Math.min(to, start + 24_999)]);
  }
  for (const [, definition] of indexes) await backend.query(definition ?? '', []);
  await backend.query('vacuum analyze products', []);
  await backend.query('vacuum analyze product_variants', []);
  // PGlite blocks the event loop while it works: let the endpoint's keep-alive timers run now,
  // or the driver's next request may go out on a socket the server is about to close.
  await new Promise((resolve) => setTimeout(resolve, 250));
}

/** The statements of the driver's last request, to EXPLAIN exactly what the app runs, and how
 * many requests (round trips: one query, or one batch/transaction) reached the database. */
const lastStatements: { query: string; params: unknown[] }[] = [];
const roundTrips = { count: 0 };
function recording(backend: SqlBackend): SqlBackend {
  const remember = (queries: { query: string; params: unknown[] }[]) => {
    roundTrips.count += 1;
    lastStatements.splice(0, lastStatements.length, ...queries);
  };
  return {
    query(query, params) {
      remember([{ query, params }]);
      return backend.query(query, params);
    },
    batch(queries, options) {
      remember(queries);
      return backend.batch(queries, options);
    },
    close: () => backend.close(),
  };
}

/**
 * The router called in-process, as SSR calls it, signed out: the shop's context (server/context.ts)
 * on the bench's database, with in-memory buckets and nothing else configured.
 */
function inProcessCaller(db: ReturnType<typeof createDb>) {
  const origin = 'http://bench.test';
  const secret = randomBytes(24).toString('base64url');
  const context = createContext({
    db,
    headers: new Headers(),
    auth: createAuth({ db, secret, baseURL: origin, mailer: outboxMailer(db) }),
    avatars: memoryBucket(),
    photos: memoryBucket(),
    background: (work) => void work.catch((error: unknown) => console.error(error)),
    payments: { providers: {}, callbackOrigin: origin },
    sms: { gateway: null, adminPhone: null },
    bankDetails: null,
    ownerEmails: [],
    assistant: { apiKey: null, model: 'gemini-2.5-flash', baseUrl: null, contact: DEFAULT_SUPPORT },
    social: [],
  });
  return createCallerFactory(appRouter)(context);
}

/** The measured calls, through the tRPC caller as SSR makes them. */
function catalogueJobs(db: ReturnType<typeof createDb>) {
  const caller = inProcessCaller(db);
  const jobs: [string, () => Promise<unknown>][] = [];
  for (const [kind, term] of Object.entries(TERMS)) {
    for (const scope of SCOPES) {
      jobs.push([
        `search ${scope} "${term}" (${kind})`,
        () => caller.catalogue.search({ term, scope }),
      ]);
    }
  }
  jobs.push(['shop rows', () => caller.catalogue.shop()], ['home', () => caller.catalogue.home()]);
  jobs.push(...listingJobs(caller)); // filtered listings and sorted searches (issue 21)
  return jobs;
}

async function catalogueCases(db: ReturnType<typeof createDb>) {
  const out: Record<string, Stats & { matches?: number }> = {};
  for (const [name, job] of catalogueJobs(db)) {
    const { total } = (await job()) as { total?: number }; // matches (shop rows: all products)
    out[name] = { ...(await measure(job)), matches: total };
  }
  return out;
}

/** EXPLAIN ANALYZE of every statement each call sends: top node, scans (index or not), time. */
async function explainAll(db: ReturnType<typeof createDb>, backend: SqlBackend) {
  const out: { case: string; top: string; scans: string[]; ms: number; plan: string[] }[] = [];
  const scanNode =
    /((?:Seq|Index|Index Only|Bitmap Heap|Bitmap Index) Scan)(?: Backward)? (?:on|using) (\S+)/;
  for (const [name, job] of catalogueJobs(db)) {
    await job();
    for (const [i, q] of [...lastStatements].entries()) {
      const { rows } = await backend.query(`explain (analyze) ${q.query}`, q.params);
      const plan = rows.map((r) => r[0] ?? '');
      const scans = plan.flatMap((line) => line.match(scanNode)?.slice(1).join(' ') ?? []);
      const time = plan.find((line) => line.startsWith('Execution Time'))?.match(/[\d.]+/)?.[0];
      const top = (plan[0] ?? '').replace(/\s*\(cost.*/, '').trim();
      const label =
        lastStatements.length > 1
          ? `${name.replace(/ \(.*/, '')} #${i + 1}`
          : name.replace(/ \(.*/, '');
      out.push({ case: label, top, scans, ms: Number(time ?? 0), plan });
    }
  }
  return out;
}

/** BENCH_ONLY=search: the catalogue calls at each size, and EXPLAIN at the largest. */
async function benchCatalogue(name: string, backend: SqlBackend) {
  console.log(`\n== ${name}`);
  const endpoint = await startLocalNeon({ backend: recording(backend) });
  const db = createDb(endpoint.databaseUrl);
  try {
    await migrateDatabase(db);
    await seedDemoCatalogue(db); // its categories stay: a search reads their names too
    await backend.query('truncate products restart identity cascade', []);
    const sizes: { products: number; catalogue: Awaited<ReturnType<typeof catalogueCases>> }[] = [];
    let made = 0;
    for (const size of SIZES) {
      await generate(backend, made + 1, size);
      made = size;
      console.log(`${size.toLocaleString('en')} products...`);
      sizes.push({ products: size, catalogue: await catalogueCases(db) });
    }
    return { backend: name, sizes, explain: await explainAll(db, backend) };
  } finally {
    await endpoint.close();
    await backend.close();
  }
}

type CatalogueResult = Awaited<ReturnType<typeof benchCatalogue>>;

/** The catalogue calls' table: median / p95 at each size (pieces counted at the largest), and
 * the growth from the smallest size to the largest. */
function catalogueTable(r: Pick<CatalogueResult, 'sizes'>): string[] {
  const first = r.sizes[0];
  const last = r.sizes.at(-1);
  const lines = [
    `| call | ${r.sizes.map((x) => x.products.toLocaleString('en')).join(' | ')} | pieces counted at ${last?.products.toLocaleString('en')} | × ${last?.products.toLocaleString('en')} ÷ ${first?.products.toLocaleString('en')} |`,
    `| --- | ${r.sizes.map(() => '---:').join(' | ')} | ---: | ---: |`,
  ];
  for (const call of Object.keys(first?.catalogue ?? {})) {
    const cells = r.sizes.map((x) => {
      const c = x.catalogue[call];
      return c ? `${c.median} / ${c.p95}` : '-';
    });
    const counted = last?.catalogue[call]?.matches;
    const grow = ratio(last?.catalogue[call]?.median, first?.catalogue[call]?.median);
    lines.push(
      `| ${call} | ${cells.join(' | ')} | ${counted?.toLocaleString('en') ?? '-'} | ${grow} |`,
    );
  }
  return lines;
}

/** EXPLAIN ANALYZE's one-line summary of every statement sent. */
function explainTable(explain: CatalogueResult['explain']): string[] {
  return [
    '| statement | plan | ms |',
    '| --- | --- | ---: |',
    ...explain.map((p) => `| ${p.case} | ${p.top}: ${p.scans.join(' + ')} | ${p.ms} |`),
  ];
}

/** BENCH_ONLY=search's section: each backend's growth table, its EXPLAIN summary, and the plan
 * in full of each call's slowest statement. */
function catalogueMarkdown(results: CatalogueResult[], seconds: number): string[] {
  const load = loadavg()[0]?.toFixed(1);
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds} s, ${cpus().length} cores (load average ${load} at the end), Node ${process.version}: \`BENCH_ONLY=search npm run bench\`.`,
  ];
  for (const r of results) {
    const largest = r.sizes.at(-1)?.products.toLocaleString('en');
    lines.push('', `### Catalogue calls, ${r.backend}`, '');
    lines.push('Median / p95 ms of up to 30 in-process calls:', '', ...catalogueTable(r));
    lines.push('', `EXPLAIN ANALYZE at ${largest} (inside the database):`, '');
    lines.push(...explainTable(r.explain));
    const slowest = new Map<string, CatalogueResult['explain'][number]>();
    for (const p of r.explain) {
      const call = p.case.replace(/ #\d+$/, '');
      if ((slowest.get(call)?.ms ?? -1) < p.ms) slowest.set(call, p);
    }
    lines.push(
      '',
      `<details><summary>Each call's slowest statement at ${largest}, in full</summary>`,
    );
    for (const p of slowest.values()) {
      lines.push('', `${p.case}, ${p.ms} ms:`, '', '```', ...p.plan, '```');
    }
    lines.push('', '</details>');
  }
  return lines;
}

/** BENCH_ONLY=search: PGlite, then PostgreSQL when a server is named. */
async function searchOnly() {
  const started = performance.now();
  const results = [await benchCatalogue('embedded PGlite', await pgliteBackend())];
  const onPostgres = await onServer((url, label) => benchCatalogue(label, postgresBackend(url)));
  if (onPostgres) results.push(onPostgres);
  const seconds = Math.round((performance.now() - started) / 1000);
  const section = catalogueMarkdown(results, seconds).join('\n');
  console.log(`\n${section}`);
  await writeFile('bench-results-search.json', `${JSON.stringify(results, null, 2)}\n`);
  if (!FULL_RUN) {
    console.log(`\n(a short run of ${SIZES.join(', ')} products: BENCHMARKS.md left as it was)`);
    return;
  }
  const text = await readFile('BENCHMARKS.md', 'utf8');
  const marked = /<!-- bench-search:start -->[\s\S]*<!-- bench-search:end -->/;
  const block = `<!-- bench-search:start -->\n${section}\n<!-- bench-search:end -->`;
  await writeFile(
    'BENCHMARKS.md',
    marked.test(text) ? text.replace(marked, block) : `${text.trimEnd()}\n\n${block}\n`,
  );
}

type Load = {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Database round trips per request (the endpoint's count over the run ÷ requests). */
  trips: number;
};

/** autocannon on one request for LOAD_SECONDS, CONNECTIONS at a time, after a short warm-up. */
async function hit(
  origin: string,
  request: {
    path: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<Load> {
  const options = {
    url: origin,
    connections: CONNECTIONS,
    requests: [{ method: request.method ?? 'GET', ...request }],
  };
  await autocannon({ ...options, amount: 20 }); // warm-up: the first renders compile the Worker
  const before = roundTrips.count;
  const result = await autocannon({ ...options, duration: LOAD_SECONDS });
  const requests = result.requests.total;
  return {
    rps: Math.round(result.requests.average * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    trips: requests ? Math.round(((roundTrips.count - before) / requests) * 100) / 100 : 0,
  };
}

type Sizes = Map<string, { raw: number; gzip: number }>;

/** Sizes of the build's .js files, read right after the build (others may rebuild dist later). */
async function jsSizes(dir: string): Promise<Sizes> {
  const sizes: Sizes = new Map();
  for (const file of await readdir(dir, { recursive: true })) {
    if (!file.endsWith('.js')) continue;
    const bytes = await readFile(join(dir, file));
    sizes.set(`/${file}`, { raw: bytes.length, gzip: gzipSync(bytes).length });
  }
  return sizes;
}

function total(sizes: Sizes, files: string[]) {
  const picked = files.map((f) => sizes.get(f) ?? { raw: Number.NaN, gzip: Number.NaN });
  const sum = (key: 'raw' | 'gzip') => picked.reduce((n, s) => n + s[key], 0);
  return { files: files.length, rawBytes: sum('raw'), gzipBytes: sum('gzip') };
}

/**
 * The Worker's startup (its global scope, before any request) as `wrangler check startup`
 * profiles it in workerd on this machine: the CPU it was active, median of 5 runs (ms). Cloudflare
 * measures its own at deploy; this is for before and after on one machine.
 */
async function workerStartup(): Promise<number> {
  const wrangler = join('node_modules', 'wrangler', 'bin', 'wrangler.js');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.CLOUDFLARE_ENV; // the deploy's own configuration, as `npm run deploy` reads it
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const args = [wrangler, 'check', 'startup', '--outfile', join('dist', 'startup.cpuprofile')];
    const { stdout } = await promisify(execFile)(process.execPath, args, { env });
    const active = Number(/Active:\s+([\d.]+) ms/.exec(stdout)?.[1]);
    if (!Number.isFinite(active)) throw new Error(`wrangler check startup said:\n${stdout}`);
    runs.push(active);
  }
  return runs.sort((a, b) => a - b)[2] ?? Number.NaN;
}

/** The Worker bundle, and the client JS that `/` loads (its modulepreloads and scripts). */
function bundleSizes(html: string, server: Sizes, client: Sizes) {
  const assets = new Set<string>();
  const refs = /(?:href|src)="\/assets(\/[^"]+\.js)"|import\(\s*["']\/assets(\/[^"']+\.js)["']/g;
  for (const m of html.matchAll(refs)) assets.add(m[1] ?? m[2] ?? '');
  return { worker: total(server, [...server.keys()]), clientForHome: total(client, [...assets]) };
}

/** The measured HTTP requests: SSR pages, the catalogue over tRPC, and the ceiling. */
function targets(cookie: string, slug: string) {
  const signedIn = { cookie };
  return {
    ceiling: { path: CEILING },
    '/': { path: '/' },
    // The same pages rendered every time: a cookie named like the session's skips the edge cache
    // for anonymous pages (server/http/page-cache.ts), without being a session.
    '/ (rendered, no cache)': { path: '/', headers: { cookie: 'duuka.bench=1' } },
    '/shop': { path: '/shop' },
    '/shop (rendered, no cache)': { path: '/shop', headers: { cookie: 'duuka.bench=1' } },
    '/search?q=dress': { path: '/search?q=dress' },
    '/products?size=M&inStock=1&sort=price-asc': {
      path: '/products?size=M&inStock=1&sort=price-asc',
    },
    'product page': { path: `/products/${slug}` },
    '/cart (signed in)': { path: '/cart', headers: signedIn },
    'catalogue.shop (tRPC)': { path: '/api/trpc/catalogue.shop' },
  } as const;
}

/** placeOrder over HTTP as the browser sends it, by cart size: round trips of the request itself,
 * and in all (with the texts it queues, sent after the answer). */
async function placeOrderTrips(db: ReturnType<typeof createDb>, origin: string) {
  const out: { lines: number; status: number; ms: number; trips: number; withTexts: number }[] = [];
  for (const lines of CART_SIZES) {
    const shopper = await shopperOverHttp(db, origin, {
      name: `Bench Buyer ${lines}`,
      phone: '+256772100200',
      ip: `198.18.7.${lines}`,
    });
    const stocked = await db.execute(
      sql`select id from product_variants where stock >= 5 order by id limit ${lines}`,
    );
    const items = (stocked.rows as { id: number }[]).map(({ id }) => ({
      variantId: id,
      quantity: 1,
    }));
    const before = roundTrips.count;
    const started = performance.now();
    const answer = await fetch(new URL('/api/trpc/checkout.placeOrder', origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: shopper.cookie, origin },
      body: JSON.stringify({ orderId: randomUUID(), items, paymentMethod: 'cash_on_delivery' }),
    });
    await answer.text();
    const ms = Math.round(performance.now() - started);
    const trips = roundTrips.count - before;
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the texts go out after the answer
    out.push({
      lines: items.length,
      status: answer.status,
      ms,
      trips,
      withTexts: roundTrips.count - before,
    });
  }
  return out;
}

/** `options.inp`: INP in Chromium too (once: on the first backend). */
async function benchBackend(name: string, backend: SqlBackend, options = { inp: false }) {
  console.log(`\n== ${name}`);
  const endpoint = await startLocalNeon({ backend: recording(backend) });
  const { databaseUrl } = endpoint;
  const db = createDb(databaseUrl);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server: Awaited<ReturnType<typeof preview>> | undefined;
  try {
    await migrateDatabase(db);
    await seedDemoCatalogue(db);
    // The Worker's other secrets, as `npm start` passes them (only after the build: see main).
    process.env.DATABASE_URL = databaseUrl;
    process.env.BETTER_AUTH_URL = origin;
    process.env.BETTER_AUTH_SECRET = randomBytes(32).toString('hex');
    process.env.MAIL_TRANSPORT = 'outbox';
    server = await preview({ preview: { port, strictPort: true }, logLevel: 'warn' });
    const shopper = await shopperOverHttp(db, origin, {
      name: 'Bench Shopper',
      phone: '+256772100100',
      ip: '198.18.7.200',
    });
    if (DISTANCE_ONLY) {
      // BENCH_ONLY=distance: what distance costs each page and change, on the demo catalogue.
      console.log(
        distanceTable(
          await distanceRows(origin, databaseUrl, db, shopper, 'ankara-wrap-dress'),
        ).join('\n'),
      );
      return null;
    }
    const emptyCart = () => db.execute(sql`delete from cart_items where user_id = ${shopper.id}`);
    if (INP_ONLY) {
      await writeInp(await inpRows(origin, shopper.cookie, emptyCart), INP_RUNS === 5);
      return null;
    }
    const buyers = await placeOrderTrips(db, origin);
    // What the demo catalogue's pages cost a phone and a desktop, pictures apart.
    const weights = await pageWeights(origin);
    // What distance to the database costs each page and change (LOCAL_DB_LATENCY_MS 0 and 150).
    console.log('distance to the database...');
    const distance = await distanceRows(origin, databaseUrl, db, shopper, 'ankara-wrap-dress');
    const interactive = await interactiveRows(origin, databaseUrl, shopper.cookie);
    // What three taps cost a cheap phone (Interaction to Next Paint at 6×), on the first backend.
    const inp = options.inp ? await inpRows(origin, shopper.cookie, emptyCart) : [];
    await emptyCart();

    const sizes: {
      products: number;
      catalogue: Awaited<ReturnType<typeof catalogueCases>>;
      http: Record<string, Load>;
    }[] = [];
    await backend.query('truncate products restart identity cascade', []);
    let made = 0;
    let generateSeconds = 0;
    let html = '';
    for (const size of SIZES) {
      const t = performance.now();
      await generate(backend, made + 1, size);
      generateSeconds = Math.round((performance.now() - t) / 100) / 10;
      made = size;
      // Two lines in the shopper's cart: the first size of products 1 and 2.
      await backend.query(
        `insert into cart_items (user_id, variant_id, quantity)
         select $1, min(id), 1 from product_variants where product_id in (1, 2) group by product_id
         on conflict do nothing`,
        [shopper.id],
      );
      const [variants] = (await backend.query('select count(*) from product_variants', [])).rows;
      console.log(
        `${size.toLocaleString('en')} products, ${Number(variants?.[0]).toLocaleString('en')} variants (made in ${generateSeconds} s)...`,
      );
      const catalogue = await catalogueCases(db);
      const [piece] = (await backend.query('select slug from products where id = 50', [])).rows;
      const http: Record<string, Load> = {};
      for (const [label, request] of Object.entries(targets(shopper.cookie, String(piece?.[0])))) {
        http[label] = await hit(origin, request);
        console.log(`  ${label}: ${http[label]?.rps} req/s, p50 ${http[label]?.p50} ms`);
      }
      html ||= await (await fetch(origin)).text();
      sizes.push({ products: size, catalogue, http });
    }
    const explained = await explainAll(db, backend);
    return {
      backend: name,
      generateSeconds,
      sizes,
      buyers,
      weights,
      distance,
      interactive,
      inp,
      explain: explained,
      html,
    };
  } finally {
    await server?.close();
    await endpoint.close();
    await backend.close();
  }
}

/** INP's table printed, and with `keep` written to its section of BENCHMARKS.md (between the inp
 * markers): after a run of 5 (BENCH_ONLY=inp's, or the full bench's). */
async function writeInp(rows: InpRow[], keep: boolean) {
  const section = [
    '<!-- inp:start -->',
    '## INP at 6× (`npm run bench`, scripts/inp.ts)',
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average ${loadavg()[0]?.toFixed(1)}: Chromium at 390 × 844, 2× density, touch, CPU slowed 6× (DevTools protocol); each tap a real touch tap on a fresh page after hydration, its INP the longest Event Timing entry of its interaction (under 16 ms: 16).`,
    '',
    ...inpTable(rows),
    '<!-- inp:end -->',
  ].join('\n');
  console.log(`\n${section}`);
  if (!keep) return;
  const file = join(REPO, 'BENCHMARKS.md');
  const text = await readFile(file, 'utf8');
  const marked = /<!-- inp:start -->[\s\S]*<!-- inp:end -->/;
  await writeFile(
    file,
    marked.test(text) ? text.replace(marked, section) : `${text.trimEnd()}\n\n${section}\n`,
  );
}

/** A backend's figures (null only for BENCH_ONLY=distance and inp, which print their tables). */
type Result = NonNullable<Awaited<ReturnType<typeof benchBackend>>>;
const measured = (r: Result | null): Result[] => (r ? [r] : []);
const at = (r: Result, products: number) => r.sizes.find((x) => x.products === products);
const ratio = (a?: number, b?: number) => (a && b ? Math.round((a / b) * 100) / 100 : null);

/** BENCHMARKS.md's generated section: HTTP figures, growth, catalogue calls, placeOrder, bundles. */
function markdown(
  results: Result[],
  bundles: ReturnType<typeof bundleSizes> & { startupMs: number },
  seconds: number,
) {
  const lines: string[] = [];
  const load = loadavg()[0]?.toFixed(1);
  lines.push(
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds} s, ${cpus().length} cores (load average ${load} at the end), Node ${process.version}; autocannon ${CONNECTIONS} connections × ${LOAD_SECONDS} s per row.`,
  );
  for (const r of results) {
    lines.push('', `### ${r.backend}`, '');
    lines.push(
      '| request | products | req/s | p50 ms | p99 ms | ÷ ceiling | round trips / request | non-2xx |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const label of Object.keys(r.sizes[0]?.http ?? {})) {
      for (const size of r.sizes) {
        const l = size.http[label];
        if (!l) continue;
        const ceiling = size.http.ceiling?.rps;
        lines.push(
          `| ${label} | ${size.products.toLocaleString('en')} | ${l.rps} | ${l.p50} | ${l.p99} | ${label === 'ceiling' ? '1' : ratio(l.rps, ceiling)} | ${l.trips} | ${l.non2xx + l.errors} |`,
        );
      }
    }
    lines.push('', 'Growth from 100 to 100,000 products (p50 at 100k ÷ p50 at 100):', '');
    lines.push('| request | × p50 | ÷ ceiling at 100k |', '| --- | ---: | ---: |');
    for (const label of Object.keys(r.sizes[0]?.http ?? {})) {
      if (label === 'ceiling') continue;
      const small = at(r, 100)?.http[label];
      const large = at(r, 100_000)?.http[label];
      lines.push(
        `| ${label} | ${ratio(large?.p50, small?.p50)} | ${ratio(large?.rps, at(r, 100_000)?.http.ceiling?.rps)} |`,
      );
    }
    lines.push('', 'Catalogue calls in-process (median / p95 ms of up to 30 calls):', '');
    lines.push(...catalogueTable(r));
    lines.push(
      '',
      'placeOrder over HTTP by cart size (database round trips of the request; with the texts it queues):',
      '',
    );
    lines.push(
      '| lines | status | ms | round trips | with texts |',
      '| ---: | ---: | ---: | ---: | ---: |',
    );
    for (const b of r.buyers) {
      lines.push(`| ${b.lines} | ${b.status} | ${b.ms} | ${b.trips} | ${b.withTexts} |`);
    }
    lines.push(
      '',
      'Distance to the database, demo catalogue (each request alone; the local endpoint holds every database request 0 ms, then 150 ms; trips counted at 150 ms; "in a row" is what the shopper waits for, about 150 ms each):',
      '',
      ...distanceTable(r.distance),
      '',
      ...interactiveTable(r.interactive),
    );
    lines.push('', 'EXPLAIN ANALYZE at 100k (inside the database):', '');
    lines.push(...explainTable(r.explain));
  }
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  lines.push(
    '',
    `Bundles: Worker ${bundles.worker.files} files, ${kib(bundles.worker.rawBytes)} (${kib(bundles.worker.gzipBytes)} gzip), startup ${bundles.startupMs} ms (\`wrangler check startup\`, median of 5); client JS for \`/\` ${bundles.clientForHome.files} files, ${kib(bundles.clientForHome.rawBytes)} (${kib(bundles.clientForHome.gzipBytes)} gzip).`,
  );
  const weighed = results[0];
  if (weighed) {
    lines.push(
      '',
      `Page weight, demo catalogue (${weighed.backend}; scripts/page-weight.ts: a phone is 390 × 844 at 2×, a desktop 1366 × 900 at 1×, until the network is idle):`,
      '',
      pageWeightTable(weighed.weights),
    );
  }
  return lines.join('\n');
}

/** The PostgreSQL server's throwaway database for `run`, dropped after (BENCH_DATABASE_URL or
 * TEST_DATABASE_URL), or nothing without one. */
async function onServer<T>(run: (url: string, label: string) => Promise<T>): Promise<T | null> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) return null;
  const name = `duuka_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    return (await client.query(statement).finally(() => client.end())).rows;
  };
  await admin(`create database ${name}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const [version] = await admin('show server_version');
    return await run(url.toString(), `PostgreSQL ${version?.server_version}`);
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
  }
}

/** desk.orders at 100 and 100,000 orders on each backend (scripts/bench-order-book.ts). */
async function orderBookResults(): Promise<OrderBookBench[]> {
  const results = [
    await benchOrderBook(
      'embedded PGlite',
      // The 100,000 orders are one statement, longer than the endpoint's 15 s in PGlite.
      recording(await pgliteBackend({ statementTimeout: 600_000 })),
      measure,
      lastStatements,
    ),
  ];
  const onPostgres = await onServer((url, label) =>
    benchOrderBook(
      label,
      recording(postgresBackend(url, { statementTimeout: 600_000 })),
      measure,
      lastStatements,
    ),
  );
  if (onPostgres) results.push(onPostgres);
  return results;
}

/** The ceiling: a static file the size of the home page (~56 KB), served by the same Worker's
 * asset handler (public/ goes into the build's assets). */
const writeCeiling = () =>
  writeFile(join('public', `${CEILING}.html`), `<!doctype html>${'<p>duuka</p>'.repeat(4_300)}`);

async function main() {
  process.env.WRANGLER_SEND_METRICS = 'false';
  // BENCH_ONLY=orders: the order book alone (no build, no HTTP load), its figures printed and
  // written to bench-results-orders.json; BENCHMARKS.md is left as it is.
  if (process.env.BENCH_ONLY === 'orders') {
    const results = await orderBookResults();
    console.log(orderBookMarkdown(results).join('\n'));
    await writeFile('bench-results-orders.json', `${JSON.stringify(results, null, 2)}\n`);
    return;
  }
  if (SEARCH_ONLY) {
    await searchOnly();
    return;
  }
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'; // Request.cf from Cloudflare: offline here
  if (DISTANCE_ONLY || INP_ONLY) {
    const copy = await enterWorkingCopy('duuka-bench');
    try {
      await writeCeiling();
      await buildForPreview({ logLevel: 'warn' });
      await benchBackend('embedded PGlite', await pgliteBackend());
    } finally {
      await copy.leave();
    }
    return;
  }
  const started = performance.now();
  const loadStart = loadavg();
  const copy = await enterWorkingCopy('duuka-bench');
  try {
    await writeCeiling();
    console.log(`building (vite build) a copy of the working tree in ${copy.dir}...`);
    await buildForPreview({ logLevel: 'warn' }); // as `npm run preview` builds (local/build.ts)
    const built = {
      server: await jsSizes('dist/server'),
      client: await jsSizes('dist/client/assets'),
      startupMs: await workerStartup(),
    };

    const results = measured(
      await benchBackend('embedded PGlite', await pgliteBackend(), { inp: true }),
    );
    const onPostgres = await onServer(async (url, label) =>
      benchBackend(label, postgresBackend(url)),
    );
    if (onPostgres) results.push(onPostgres);

    const orderBook = await orderBookResults();
    const bundles = {
      ...bundleSizes(results[0]?.html ?? '', built.server, built.client),
      startupMs: built.startupMs,
    };
    const seconds = Math.round((performance.now() - started) / 1000);
    const section = [markdown(results, bundles, seconds), ...orderBookMarkdown(orderBook)].join(
      '\n',
    );
    console.log(`\n${section}`);
    const machine = {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      node: process.version,
      loadStart,
    };
    const json = { date: new Date().toISOString(), seconds, machine, terms: TERMS, bundles };
    const strip = ({ html, ...r }: Result) => ({ ...r, htmlBytes: html.length });
    Object.assign(json, { loadEnd: loadavg(), results: results.map(strip), orderBook });
    const file = join(copy.repo, 'BENCHMARKS.md');
    const text = await readFile(file, 'utf8');
    const marked = /<!-- bench:start -->[\s\S]*<!-- bench:end -->/;
    const block = `<!-- bench:start -->\n${section}\n<!-- bench:end -->`;
    if (FULL_RUN) {
      await writeFile(
        file,
        marked.test(text) ? text.replace(marked, block) : `${text.trimEnd()}\n\n${block}\n`,
      );
    } else {
      console.log(`\n(a short run of ${SIZES.join(', ')} products: BENCHMARKS.md left as it was)`);
    }
    await writeInp(results[0]?.inp ?? [], FULL_RUN && INP_RUNS === 5);
    await writeFile(join(copy.repo, 'bench-results.json'), `${JSON.stringify(json, null, 2)}\n`);
  } finally {
    await copy.leave();
  }
}

await main();
process.exit(0); // vite/workerd leave handles open
