// `npm run soak`: 60 s of mixed traffic against the production build in workerd, on a real
// PostgreSQL server when one is configured (SOAK_DATABASE_URL, else TEST_DATABASE_URL; embedded
// PGlite otherwise), with the outside services' fakes (SMS gateway; the assistant in fallback
// mode). Shoppers from their own addresses browse, search, sign in, add to cart, check out and
// chat; three sizes have low stock so that checkouts race for them. Then it checks what must
// hold: no 5xx, nothing oversold, every order's total equal to its items + delivery, every SMS
// sent or failed. Prints the figures and writes them into BENCHMARKS.md (between the soak
// markers). Exits 1 when a check fails. SOAK_SECONDS and SOAK_SHOPPERS change the load.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { preview } from 'vite';
import { createDb, type Db } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { buildForPreview } from '#local/build.ts';
import { startLocalFakes } from '#local/fakes/index.ts';
import { freePort } from '#local/free-port.ts';
import { SHOPPER_PASSWORD, shopperOverHttp } from '#local/http-shopper.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { pgliteBackend } from '#local/neon/pglite-backend.ts';
import { postgresBackend } from '#local/neon/postgres-backend.ts';
import { enterWorkingCopy } from '#local/working-copy.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const SHOPPERS = Number(process.env.SOAK_SHOPPERS ?? 16);
const LOW_STOCK = 3; // variants (sizes, colours)…
const LOW_STOCK_QUANTITY = 4; // …with this many left
const TERMS = ['dress', 'kitenge', 'leather', 'gomesi', 'ki', 'tuxedo'];

type Outcome = { action: string; status: number; ms: number };
const outcomes: Outcome[] = [];

/** A shopper's session: their address and cookies, and a fetch that records each answer. */
class Visitor {
  readonly ip = `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
  readonly cookies = new Map<string, string>();
  readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  async call(action: string, path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('cf-connecting-ip', this.ip);
    headers.set('origin', this.origin);
    if (this.cookies.size) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const started = performance.now();
    const response = await fetch(new URL(path, this.origin), {
      ...init,
      headers,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    // The whole body, as a browser reads it (a stream ends only when the reply does).
    const body = await response.arrayBuffer();
    outcomes.push({ action, status: response.status, ms: performance.now() - started });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /** A tRPC call over HTTP as the browser makes it; the data, or null when refused. */
  async trpc(kind: 'query' | 'mutation', path: string, input?: unknown): Promise<unknown> {
    const response =
      kind === 'query'
        ? await this.call(
            path,
            `/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          )
        : await this.call(path, `/api/trpc/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(input ?? null),
          });
    if (!response.ok) return null;
    return ((await response.json()) as { result: { data: unknown } }).result.data;
  }

  async signIn(email: string) {
    await this.call('sign in', '/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: SHOPPER_PASSWORD }),
    });
  }
}

/** Registers and verifies a shopper through the real sign-up, with a phone for the texts. */
async function newShopper(db: Db, origin: string, n: number) {
  const visitor = new Visitor(origin);
  const { email, cookie } = await shopperOverHttp(db, origin, {
    name: `Soak Shopper ${n}`,
    phone: `+256772${String(100_000 + n).slice(-6)}`,
    ip: visitor.ip,
  });
  for (const pair of cookie.split('; ')) {
    const at = pair.indexOf('=');
    visitor.cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return { visitor, email };
}

/** What a shopper adds: one variant (a size, a colour) of a product, and its product's page. */
type Piece = { variantId: number; slug: string };

/** One shopper's minute: a random mix of what shoppers do, until the time is up. */
async function shop(
  shopper: { visitor: Visitor; email: string },
  pieces: Piece[],
  scarce: Piece[],
  until: number,
) {
  const { visitor } = shopper;
  const anyPiece = () => pieces[randomInt(pieces.length)] as Piece;
  while (performance.now() < until) {
    const roll = randomInt(100);
    if (roll < 25) {
      await visitor.call('GET /', '/');
      await visitor.call('GET /shop', '/shop');
      await visitor.call('GET product', `/products/${anyPiece().slug}`);
    } else if (roll < 40) {
      const term = TERMS[randomInt(TERMS.length)] ?? 'dress';
      await visitor.call('GET /search', `/search?q=${term}`);
    } else if (roll < 45) {
      await visitor.trpc('query', 'catalogue.shop');
    } else if (roll < 50) {
      await visitor.signIn(shopper.email);
    } else if (roll < 88) {
      // Half the time a scarce piece: checkouts race for the last ones.
      const piece = randomInt(2) === 0 ? (scarce[randomInt(scarce.length)] as Piece) : anyPiece();
      await visitor.trpc('mutation', 'cart.add', { variantId: piece.variantId });
      const cart = (await visitor.trpc('query', 'cart.get')) as {
        productsInCart: { variantId: number; quantity: number }[];
      } | null;
      if (!cart?.productsInCart.length) continue;
      const order = {
        orderId: randomUUID(),
        items: cart.productsInCart.map(({ variantId, quantity }) => ({ variantId, quantity })),
        paymentMethod: 'cash_on_delivery',
      };
      const placed = await visitor.trpc('mutation', 'checkout.placeOrder', order);
      // A refused order (sold out meanwhile) leaves the cart as it was: start again.
      if (!placed) await visitor.trpc('mutation', 'cart.clear');
    } else {
      const chat = (await visitor.trpc('mutation', 'chat.start')) as { sessionId: string } | null;
      if (!chat) continue;
      await visitor.call('chat.send', '/api/trpc/chat.send?batch=1', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'trpc-accept': 'application/jsonl' },
        body: JSON.stringify({
          0: { sessionId: chat.sessionId, text: 'Do you have a red dress?' },
        }),
      });
    }
  }
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;

async function checks(db: Db, before: Map<number, number>) {
  const rows = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)).rows as T[];
  // Per variant: what is left is what there was less what was ordered, and never below 0.
  const stock = await rows<{ id: number; stock: number; ordered: number }>(sql`
    select v.id, v.stock, coalesce(sum(i.quantity), 0)::int as ordered
    from product_variants v left join order_items i on i.variant_id = v.id
    group by v.id`);
  const oversold = stock.filter(
    (v) => v.stock < 0 || (before.get(v.id) ?? 0) - v.ordered !== v.stock,
  );
  const wrongTotals = await rows<{ id: string }>(sql`
    select o.id from orders o join order_items i on i.order_id = o.id
    group by o.id
    having o.subtotal <> sum(i.price * i.quantity)
        or o.total <> sum(i.price * i.quantity) + o.delivery_fee - o.discount
        or o.delivery_fee <> 5000`);
  const [counts] = await rows<{ orders: number; items: number }>(sql`
    select (select count(*) from orders)::int as orders, (select count(*) from order_items)::int as items`);
  const sms = await rows<{ status: string; count: number }>(sql`
    select status, count(*)::int as count from sms_notifications group by status order by status`);
  const soldOut = stock.filter((v) => v.stock === 0).length;
  return { oversold, wrongTotals, counts, sms, soldOut };
}

async function main() {
  process.env.WRANGLER_SEND_METRICS = 'false';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'; // Request.cf from Cloudflare: offline here
  const loadStart = loadavg()[0] ?? 0;
  const copy = await enterWorkingCopy('duuka-soak');
  try {
    console.log(`building (vite build) a copy of the working tree in ${copy.dir}...`);
    await buildForPreview({ logLevel: 'warn' });

    const serverUrl = process.env.SOAK_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    const name = `duuka_soak_${randomBytes(4).toString('hex')}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      return (await client.query(statement).finally(() => client.end())).rows;
    };
    let label = 'embedded PGlite';
    let backend = await (async () => {
      if (!serverUrl) return pgliteBackend();
      await admin(`create database ${name}`);
      const [version] = await admin('show server_version');
      label = `PostgreSQL ${version?.server_version}`;
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return postgresBackend(url.toString());
    })();
    const endpoint = await startLocalNeon({ backend });
    const fakes = await startLocalFakes();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    let server: Awaited<ReturnType<typeof preview>> | undefined;
    try {
      const db = createDb(endpoint.databaseUrl);
      await migrateDatabase(db);
      await seedDemoCatalogue(db);
      const pieces = (
        await db.execute(sql`
          select v.id as "variantId", p.slug
          from product_variants v join products p on p.id = v.product_id
          where v.stock > 0 order by v.id`)
      ).rows as Piece[];
      // The first sizes in stock (of the first pieces): shoppers race for the last of one size.
      const scarce = pieces.slice(0, LOW_STOCK);
      await db.execute(
        sql`update product_variants set stock = ${LOW_STOCK_QUANTITY} where id in ${sql.raw(`(${scarce.map((p) => Number(p.variantId)).join(',')})`)}`,
      );
      const before = new Map(
        (
          (await db.execute(sql`select id, stock from product_variants`)).rows as {
            id: number;
            stock: number;
          }[]
        ).map((v) => [v.id, v.stock]),
      );

      Object.assign(process.env, fakes.env, {
        DATABASE_URL: endpoint.databaseUrl,
        BETTER_AUTH_URL: origin,
        BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
        MAIL_TRANSPORT: 'outbox',
        ADMIN_PHONE: '+256759301488',
        // The assistant answers from its canned texts (no model): chat in fallback mode.
        GOOGLE_GENERATIVE_AI_API_KEY: '',
      });
      server = await preview({ preview: { port, strictPort: true }, logLevel: 'warn' });
      for (let i = 0; i < 5; i++) await fetch(origin); // the first render compiles the Worker

      const shoppers = [];
      for (let n = 1; n <= SHOPPERS; n++) shoppers.push(await newShopper(db, origin, n));
      outcomes.length = 0;
      console.log(`${SHOPPERS} shoppers, ${SECONDS} s of mixed traffic on ${label}...`);
      const started = performance.now();
      const until = started + SECONDS * 1000;
      await Promise.all(shoppers.map((s) => shop(s, pieces, scarce, until)));
      const seconds = (performance.now() - started) / 1000;

      // Texts still due go out now (the cron's sweep), then everything must be sent or failed.
      await fetch(`${origin}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const [due] = (
          await db.execute(
            sql`select count(*)::int as n from sms_notifications where status not in ('sent', 'failed')`,
          )
        ).rows as { n: number }[];
        if (!due?.n) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
        await fetch(`${origin}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
      }
      const result = await checks(db, before);
      report(label, seconds, result, loadStart);
      const failed =
        outcomes.some((o) => o.status >= 500) ||
        result.oversold.length > 0 ||
        result.wrongTotals.length > 0 ||
        result.sms.some((s) => s.status !== 'sent' && s.status !== 'failed');
      await writeSummary(label, seconds, result, loadStart, copy.repo);
      return failed ? 1 : 0;
    } finally {
      await server?.close();
      await fakes.close();
      await endpoint.close();
      await backend.close();
      backend = undefined as never;
      if (serverUrl) await admin(`drop database if exists ${name} with (force)`);
    }
  } finally {
    await copy.leave();
  }
}

type Result = Awaited<ReturnType<typeof checks>>;

function byAction() {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) groups.set(o.action, [...(groups.get(o.action) ?? []), o]);
  return [...groups].map(([action, list]) => {
    const ms = list.map((o) => o.ms).sort((a, b) => a - b);
    const statuses = new Map<number, number>();
    for (const o of list) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    return {
      action,
      count: list.length,
      p50: Math.round(percentile(ms, 0.5)),
      p99: Math.round(percentile(ms, 0.99)),
      statuses: [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' '),
    };
  });
}

function report(label: string, seconds: number, r: Result, loadStart: number) {
  const fiveHundreds = outcomes.filter((o) => o.status >= 500).length;
  console.log(
    `\n${outcomes.length} requests in ${seconds.toFixed(1)} s (${(outcomes.length / seconds).toFixed(1)} req/s) on ${label}; load average ${loadStart.toFixed(1)} → ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
  );
  for (const row of byAction()) {
    console.log(
      `  ${row.action.padEnd(20)} ${String(row.count).padStart(6)}  p50 ${row.p50} ms  p99 ${row.p99} ms  ${row.statuses}`,
    );
  }
  console.log(`5xx: ${fiveHundreds}`);
  console.log(
    `orders: ${r.counts?.orders} (${r.counts?.items} items); variants sold out: ${r.soldOut}; oversold: ${r.oversold.length}`,
  );
  console.log(`orders whose total is not items + delivery: ${r.wrongTotals.length}`);
  console.log(`SMS: ${r.sms.map((s) => `${s.status} ${s.count}`).join(', ') || 'none'}`);
}

/** The figures, as a section of BENCHMARKS.md between the soak markers. */
async function writeSummary(
  label: string,
  seconds: number,
  r: Result,
  loadStart: number,
  repo: string,
) {
  const rows = byAction()
    .map((a) => `| ${a.action} | ${a.count} | ${a.p50} | ${a.p99} | ${a.statuses} |`)
    .join('\n');
  const section = `<!-- soak:start -->
## Load and soak (\`npm run soak\`)

${new Date().toISOString().slice(0, 10)}: ${SHOPPERS} shoppers for ${seconds.toFixed(0)} s against the production build in workerd on
${label}, ${LOW_STOCK} sizes with ${LOW_STOCK_QUANTITY} left; ${cpus().length} cores, load average ${loadStart.toFixed(1)} → ${loadavg()[0]?.toFixed(1)}.
${outcomes.length} requests (${(outcomes.length / seconds).toFixed(1)}/s).

| what | requests | p50 ms | p99 ms | answers |
| --- | ---: | ---: | ---: | --- |
${rows}

- 5xx: **${outcomes.filter((o) => o.status >= 500).length}**
- orders: ${r.counts?.orders} (${r.counts?.items} lines); variants sold out: ${r.soldOut}; **oversold: ${r.oversold.length}**
- orders whose total ≠ items + delivery: **${r.wrongTotals.length}**
- SMS rows: ${r.sms.map((s) => `${s.status} ${s.count}`).join(', ') || 'none'}
<!-- soak:end -->`;
  const file = `${repo}/BENCHMARKS.md`;
  const text = await readFile(file, 'utf8');
  const marked = /<!-- soak:start -->[\s\S]*<!-- soak:end -->/;
  await writeFile(
    file,
    marked.test(text) ? text.replace(marked, section) : `${text.trimEnd()}\n\n${section}\n`,
  );
}

process.exit(await main());
