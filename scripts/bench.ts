// `npm run bench`: catalogue queries at 100 vs 100,000 products, SSR of `/` and bundle sizes, on
// embedded PGlite and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) on a real PostgreSQL server,
// through the real Neon driver and the local endpoint: production minus the network. Loopback only.
// Prints a table and writes bench-results.json. See BENCHMARKS.md.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { preview } from 'vite';
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { buildForPreview } from '#local/build.ts';
import { freePort } from '#local/free-port.ts';
import {
  pgliteBackend,
  postgresBackend,
  type SqlBackend,
  startLocalNeon,
} from '#local/neon-endpoint.ts';
import { callerFor } from '../tests/support/trpc.ts';

const RUNS = 30;
const WARMUP = 3;
const CASE_BUDGET_MS = 4_000; // a slow case stops early (at least 5 runs)
const SSR_REQUESTS = 200; // on the demo catalogue; 40 at 100k products (slower)
const SSR_CONCURRENCY = 8;
const TERMS = { few: 'gomesi', many: 'dress', none: 'tuxedo', short: 'ki' } as const;
const SCOPES = ['all', 'name'] as const;

type Stats = { median: number; p95: number; runs: number };
const ms = (n: number) => Math.round(n * 100) / 100;

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
  return { median: ms(at(0.5)), p95: ms(at(0.95)), runs: s.length };
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
const GENERATE = `
insert into products (product_name, slug, price, quantity, description, created_at)
select name, replace(lower(name), ' ', '-') || '-' || i, 15000 + h5 % 871 * 500, h6 % 61,
  w.fits[1 + h7 % 8] || ' ' || lower(item) || ' in ' || lower(colour) || ' ' || lower(material)
    || ', ' || w.details[1 + h8 % 6] || '. Pairs with our ' || lower(w.items[1 + h9 % 19]) || '. '
    || w.care[1 + h10 % 4],
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
lateral (select colour || ' ' || material || ' ' || item as name) named`;

async function generate(backend: SqlBackend, from: number, to: number) {
  // A bulk load drops the trigram indexes and rebuilds them from their own definitions (same
  // indexes, built ~2x faster than maintained row by row), as one would for a real import.
  const bulk = to - from > 10_000;
  const { rows: indexes } = bulk
    ? await backend.query(
        `select indexname, indexdef from pg_indexes where tablename = 'products' and indexdef like '%gin_trgm_ops%'`,
        [],
      )
    : { rows: [] };
  for (const [name] of indexes) await backend.query(`drop index "${name}"`, []);
  for (let start = from; start <= to; start += 25_000) {
    await backend.query(GENERATE, [start, Math.min(to, start + 24_999)]);
  }
  for (const [, definition] of indexes) await backend.query(definition ?? '', []);
  await backend.query('vacuum analyze products', []);
  // PGlite blocks the event loop while it works: let the endpoint's keep-alive timers run now,
  // or the driver's next request may go out on a socket the server is about to close.
  await new Promise((resolve) => setTimeout(resolve, 250));
}

/** The statements of the driver's last request, to EXPLAIN exactly what the app runs. */
const lastStatements: { query: string; params: unknown[] }[] = [];
function recording(backend: SqlBackend): SqlBackend {
  const remember = (queries: { query: string; params: unknown[] }[]) =>
    lastStatements.splice(0, lastStatements.length, ...queries);
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

/** The measured calls, through the tRPC caller as SSR makes them. */
function catalogueJobs(db: ReturnType<typeof createDb>) {
  const caller = callerFor(db);
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

/**
 * A bounded load on one URL: `requests` requests, SSR_CONCURRENCY at a time. Failed requests are
 * counted, not fatal: after a long pause the Worker may reuse a keep-alive connection the local
 * endpoint has just closed ("Network connection lost"), a local-only artefact.
 */
async function load(url: string, requests = SSR_REQUESTS) {
  let html = '';
  let errors = 0;
  const get = async () => {
    const response = await fetch(url);
    const body = await response.text();
    if (response.status === 200) html = body;
    else errors++;
  };
  for (let i = 0; i < 10; i++) await get(); // warm-up (first render compiles the Worker)
  if (!html) throw new Error(`GET ${url} failed 10 times`);
  errors = 0;
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next++ < requests) {
      const t = performance.now();
      await get();
      samples.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: SSR_CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const requestsPerSecond = Math.round((requests / seconds) * 10) / 10;
  const htmlBytes = Buffer.byteLength(html);
  return {
    ...stats(samples),
    requestsPerSecond,
    errors,
    htmlBytes,
    htmlGzipBytes: gzipSync(html).length,
    html,
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

/** The Worker bundle, and the client JS that `/` loads (its modulepreloads and scripts). */
function bundleSizes(html: string, server: Sizes, client: Sizes) {
  const assets = new Set<string>();
  const refs = /(?:href|src)="\/assets(\/[^"]+\.js)"|import\(\s*["']\/assets(\/[^"']+\.js)["']/g;
  for (const m of html.matchAll(refs)) assets.add(m[1] ?? m[2] ?? '');
  return { worker: total(server, [...server.keys()]), clientForHome: total(client, [...assets]) };
}

async function benchBackend(name: string, backend: SqlBackend) {
  console.log(`\n== ${name}`);
  const endpoint = await startLocalNeon({ backend: recording(backend) });
  const { databaseUrl } = endpoint;
  const db = createDb(databaseUrl);
  const port = await freePort();
  let server: Awaited<ReturnType<typeof preview>> | undefined;
  try {
    await migrateDatabase(db);
    await seedDemoCatalogue(db);
    // The Worker's other secrets, as `npm start` passes them (only after the build: see main).
    process.env.DATABASE_URL = databaseUrl;
    process.env.BETTER_AUTH_URL = `http://127.0.0.1:${port}`;
    process.env.BETTER_AUTH_SECRET = randomBytes(32).toString('hex');
    process.env.MAIL_TRANSPORT = 'outbox';
    server = await preview({ preview: { port, strictPort: true }, logLevel: 'warn' });
    console.log('SSR / (demo catalogue)...');
    const ssrDemo = await load(`http://127.0.0.1:${port}/`);

    await backend.query('truncate products restart identity cascade', []);
    await generate(backend, 1, 100);
    console.log('catalogue at 100 products...');
    const small = await catalogueCases(db);
    const t = performance.now();
    await generate(backend, 101, 100_000);
    const generateSeconds = Math.round((performance.now() - t) / 100) / 10;
    console.log(`generated 100,000 products in ${generateSeconds} s; catalogue at 100k...`);
    const large = await catalogueCases(db);
    const explained = await explainAll(db, backend);
    console.log('SSR / (100k products)...');
    const ssrLarge = await load(`http://127.0.0.1:${port}/`, 40);
    const cases = Object.keys(small).map((key) => {
      const a = small[key];
      const b = large[key];
      return {
        case: key,
        at100: a,
        at100k: b,
        ratio: a && b ? Math.round((b.median / a.median) * 10) / 10 : null,
      };
    });
    return { backend: name, generateSeconds, cases, explain: explained, ssrDemo, ssrLarge };
  } finally {
    await server?.close();
    await endpoint.close();
    await backend.close();
  }
}

function printTable(result: Awaited<ReturnType<typeof benchBackend>>) {
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  const padL = (s: string | number, n: number) => String(s).padStart(n);
  console.log(`\n${result.backend} (ms: median / p95; matches at 100 → 100k)`);
  console.log(`${pad('case', 36)}${padL('100', 16)}${padL('100k', 18)}${padL('×', 8)}  matches`);
  for (const c of result.cases) {
    const cell = (s?: Stats) => (s ? `${s.median} / ${s.p95}` : '-');
    const matches =
      c.at100?.matches === undefined ? '' : `${c.at100.matches} → ${c.at100k?.matches}`;
    console.log(
      `${pad(c.case, 36)}${padL(cell(c.at100), 16)}${padL(cell(c.at100k), 18)}${padL(c.ratio ?? '-', 8)}  ${matches}`,
    );
  }
  console.log('EXPLAIN ANALYZE at 100k: top node; scans; execution time in the database');
  for (const p of result.explain) {
    console.log(
      `  ${pad(p.case, 24)} ${pad(p.top, 10)} ${pad(p.scans.join(' + '), 88)} ${p.ms} ms`,
    );
  }
  for (const [label, s] of [
    ['demo catalogue', result.ssrDemo],
    ['100k products', result.ssrLarge],
  ] as const) {
    console.log(
      `SSR / (${label}): ${s.requestsPerSecond} req/s, ${s.median} / ${s.p95} ms, ${s.errors} failed, HTML ${s.htmlBytes} B (${s.htmlGzipBytes} B gzip)`,
    );
  }
}

async function main() {
  process.env.WRANGLER_SEND_METRICS = 'false';
  const started = performance.now();
  const loadStart = loadavg();
  // Build and serve a copy of the working tree: others' builds in this checkout rewrite dist/ and
  // .wrangler/deploy (which `vite preview` reads) at any time, and ours would clobber theirs.
  const repo = process.cwd();
  const copy = await mkdtemp(join(tmpdir(), 'duuka-bench-'));
  temporary.push(copy);
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    encoding: 'utf8',
  });
  for (const file of files.split('\0').filter(Boolean)) {
    await cp(file, join(copy, file)).catch(() => undefined); // deleted but not yet staged
  }
  await symlink(join(repo, 'node_modules'), join(copy, 'node_modules'));
  execFileSync('git', ['init', '-q'], { cwd: copy }); // Tailwind's scanner honours .gitignore in a repo
  process.chdir(copy);
  console.log(`building (vite build) a copy of the working tree in ${copy}...`);
  await buildForPreview({ logLevel: 'warn' }); // as `npm run preview` builds (local/build.ts)
  const built = {
    server: await jsSizes('dist/server'),
    client: await jsSizes('dist/client/assets'),
  };

  const results = [await benchBackend('embedded PGlite', await pgliteBackend())];
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (serverUrl) {
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
      const label = `PostgreSQL ${version?.server_version}`;
      results.push(await benchBackend(label, postgresBackend(url.toString())));
    } finally {
      await admin(`drop database if exists ${name} with (force)`);
    }
  }

  const bundles = bundleSizes(results[0]?.ssrDemo.html ?? '', built.server, built.client);
  for (const r of results) printTable(r);
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `\nWorker bundle: ${bundles.worker.files} files, ${kib(bundles.worker.rawBytes)} (${kib(bundles.worker.gzipBytes)} gzip)`,
  );
  console.log(
    `Client JS for /: ${bundles.clientForHome.files} files, ${kib(bundles.clientForHome.rawBytes)} (${kib(bundles.clientForHome.gzipBytes)} gzip)`,
  );
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(
    `\ntotal ${seconds} s; load average ${loadStart[0]?.toFixed(1)} → ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores; results in bench-results.json`,
  );

  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadStart };
  const strip = ({ ssrDemo, ssrLarge, ...r }: (typeof results)[number]) => ({
    ...r,
    ssrDemo: { ...ssrDemo, html: undefined },
    ssrLarge: { ...ssrLarge, html: undefined },
  });
  const json = { date: new Date().toISOString(), seconds, machine, terms: TERMS, bundles };
  Object.assign(json, { loadEnd: loadavg(), results: results.map(strip) });
  process.chdir(repo);
  await writeFile('bench-results.json', `${JSON.stringify(json, null, 2)}\n`);
}

const temporary: string[] = [];
try {
  await main();
} finally {
  for (const dir of temporary) await rm(dir, { recursive: true, force: true });
}
process.exit(0); // vite/workerd leave handles open
