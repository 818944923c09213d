// The local Neon endpoint, exercised through the real driver (`neon()` and drizzle neon-http), on
// embedded PGlite and — when TEST_DATABASE_URL is set — on a throwaway PostgreSQL database.
import { errorFields, NeonDbError, neon } from '@neondatabase/serverless';
import { DrizzleQueryError, eq, inArray, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '#db/client.ts';
import { latencyFromEnv, sequentialDepth, tripsOf } from '#local/distance.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { type PgliteBackend, pgliteBackend } from '#local/neon/pglite-backend.ts';
import { postgresBackend } from '#local/neon/postgres-backend.ts';
import type { SqlBackend } from '#local/neon/sql-backend.ts';
import { freshPostgresDatabase } from '../support/postgres.ts';

const samples = pgTable('samples', {
  id: integer().primaryKey(),
  big: bigint({ mode: 'bigint' }),
  price: numeric({ precision: 12, scale: 4 }),
  active: boolean(),
  seenAt: timestamp('seen_at', { withTimezone: true }),
  meta: jsonb().$type<{ city: string; tags: string[] }>(),
  sizes: integer().array(),
  labels: text().array(),
  note: text(),
});

const stock = pgTable(
  'stock',
  {
    id: integer().primaryKey(),
    sku: text().notNull().unique('stock_sku_key'),
    quantity: integer().notNull(),
  },
  (t) => [check('stock_quantity_check', sql`${t.quantity} >= 0`)],
);

const counter = pgTable('counter', { id: integer().primaryKey(), n: integer().notNull() });

const SCHEMA = [
  `create table samples (id int primary key, big int8, price numeric(12,4), active boolean,
     seen_at timestamptz, meta jsonb, sizes int[], labels text[], note text)`,
  `create table stock (id int primary key, sku text not null constraint stock_sku_key unique,
     quantity int not null constraint stock_quantity_check check (quantity >= 0))`,
  'create table counter (id int primary key, n int not null)',
  'insert into counter values (1, 0)',
];

const UNICODE = 'Kampala — ñ 😀 ẞ';

type Target = {
  name: string;
  start(options?: {
    statementTimeout?: number;
  }): Promise<{ backend: SqlBackend; drop(): Promise<void> }>;
};

const targets: Target[] = [
  {
    name: 'PGlite',
    start: async (options) => ({ backend: await pgliteBackend(options), drop: async () => {} }),
  },
];
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  targets.push({
    name: 'PostgreSQL',
    start: async (options) => {
      const database = await freshPostgresDatabase(serverUrl, 'local_neon');
      return { backend: postgresBackend(database.url, options), drop: database.drop };
    },
  });
}

/** The NeonDbError behind a driver error (drizzle wraps single queries in DrizzleQueryError). */
function neonError(error: unknown): NeonDbError {
  const cause = error instanceof DrizzleQueryError ? error.cause : error;
  if (!(cause instanceof NeonDbError)) throw new Error(`not a NeonDbError: ${String(error)}`);
  return cause;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe.each(targets)('local Neon endpoint on $name', (target) => {
  let backend: SqlBackend;
  let dropDatabase: () => Promise<void> = async () => {};
  let endpoint: Awaited<ReturnType<typeof startLocalNeon>>;
  let databaseUrl: string;
  let db: Db;
  let rawSql: ReturnType<typeof neon>;

  beforeAll(async () => {
    const started = await target.start();
    backend = started.backend;
    dropDatabase = started.drop;
    endpoint = await startLocalNeon({ backend });
    databaseUrl = endpoint.databaseUrl;
    db = createDb(databaseUrl);
    rawSql = neon(databaseUrl);
    for (const statement of SCHEMA) await rawSql.query(statement);
  });

  afterAll(async () => {
    await endpoint?.close();
    await backend?.close();
    await dropDatabase();
  });

  /** POSTs to the endpoint as the driver does, returning status and parsed body. */
  async function post(body: string, headers: Record<string, string> = {}) {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      body,
      headers: {
        'Neon-Connection-String': databaseUrl,
        'Neon-Raw-Text-Output': 'true',
        'Neon-Array-Mode': 'true',
        ...headers,
      },
    });
    // biome-ignore lint/suspicious/noExplicitAny: wire JSON, checked by the assertions
    return { status: res.status, headers: res.headers, json: (await res.json()) as any };
  }

  it('round-trips values through neon() with the driver’s own parsing', async () => {
    const seenAt = new Date('2026-03-04T05:06:07.891Z');
    const [row] = (await rawSql.query(
      `select $1::int as i, 9007199254740993::int8 as big, $2::numeric as num, $3::boolean as b,
              $4::timestamptz as ts, $5::json as j, $6::jsonb as jb, $7::int[] as ia,
              $8::text[] as ta, $9::text as nothing, $10::text as words, 1.5::float8 as f`,
      [
        42,
        '12345.678900',
        true,
        seenAt,
        { a: [1, 'x'], b: null },
        { city: UNICODE },
        [1, 2, 3],
        ['a', 'b c', '"q"', null, 'NULL'],
        null,
        UNICODE,
      ],
    )) as Record<string, unknown>[];
    expect(new Date(String(row?.ts)).getTime()).toBe(seenAt.getTime());
    expect(row).toEqual({
      i: 42,
      big: '9007199254740993', // int8 stays a string unless the app parses it
      num: '12345.678900',
      b: true,
      // drizzle's neon-http driver makes timestamp/date parsers identity globally (initMappers)
      ts: '2026-03-04 05:06:07.891+00',
      j: { a: [1, 'x'], b: null },
      jb: { city: UNICODE },
      ia: [1, 2, 3],
      ta: ['a', 'b c', '"q"', null, 'NULL'],
      nothing: null,
      words: UNICODE,
      f: 1.5,
    });
  });

  it('returns Postgres’ exact text output, field metadata, command and row count', async () => {
    const raw = { getTypeParser: () => (value: string) => value };
    const result = await rawSql.query(
      `select true as b, 1.50::numeric as n, '2026-01-02 03:04:05.5'::timestamp as ts,
              '2026-01-02'::date as d, array[1,2] as a, '\\x01ff'::bytea as bytes,
              '{"b": 1, "a": [true]}'::jsonb as jb, null::text as nothing, id as sample_id
       from (select 7 as id) s`,
      [],
      { fullResults: true, arrayMode: true, types: raw as never },
    );
    expect(result.rows).toEqual([
      [
        't',
        '1.50',
        '2026-01-02 03:04:05.5',
        '2026-01-02',
        '{1,2}',
        '\\x01ff',
        '{"a": [true], "b": 1}',
        null,
        '7',
      ],
    ]);
    expect(result.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
      ['b', 16],
      ['n', 1700],
      ['ts', 1114],
      ['d', 1082],
      ['a', 1007],
      ['bytes', 17],
      ['jb', 3802],
      ['nothing', 25],
      ['sample_id', 23],
    ]);
    expect(result.command).toBe('SELECT');
    expect(result.rowCount).toBe(1);

    const inserted = await rawSql.query('insert into counter values (100, 1), (101, 2)', [], {
      fullResults: true,
    });
    expect([inserted.command, inserted.rowCount, inserted.fields]).toEqual(['INSERT', 2, []]);
    const created = await rawSql.query('create table scratch (x int)', [], { fullResults: true });
    expect([created.command, created.rowCount]).toEqual(['CREATE', null]);
    await rawSql.query('delete from counter where id >= 100');
  });

  it('round-trips a drizzle row of every column type', async () => {
    const row = {
      id: 1,
      big: 9007199254740993n,
      price: '1234.5000',
      active: false,
      seenAt: new Date('2026-11-22T10:20:30.456Z'),
      meta: { city: UNICODE, tags: ['new', 'sale'] },
      sizes: [38, 40, 42],
      labels: ['plain', 'with, comma', 'with "quotes"', 'back\\slash', UNICODE],
      note: null,
    };
    const [returned] = await db.insert(samples).values(row).returning();
    expect(returned).toEqual(row);
    const [selected] = await db.select().from(samples).where(eq(samples.id, 1));
    expect(selected).toEqual(row);
    const found = await db.query.products.findMany({ limit: 1 }).catch((e) => e);
    // the app's relational schema is wired in (the table itself does not exist here)
    expect(neonError(found).code).toBe('42P01');
  });

  it('rolls a failing batch back entirely', async () => {
    const error = await rejection(
      db.batch([
        db.insert(stock).values({ id: 10, sku: 'A', quantity: 1 }),
        db.update(counter).set({ n: sql`n + 100` }),
        db.insert(stock).values({ id: 11, sku: 'A', quantity: 1 }), // duplicate sku
        db.insert(stock).values({ id: 12, sku: 'C', quantity: 1 }),
      ]),
    );
    const cause = neonError(error);
    expect(cause.code).toBe('23505');
    expect(cause.constraint).toBe('stock_sku_key');
    expect(await db.select().from(stock)).toEqual([]);
    const [{ n }] = (await rawSql.query('select n from counter where id = 1')) as [{ n: number }];
    expect(n).toBe(0);

    const [inserted, updated] = await db.batch([
      db.insert(stock).values({ id: 10, sku: 'A', quantity: 1 }).returning(),
      db.update(stock).set({ quantity: 2 }).where(eq(stock.id, 10)).returning(),
    ]);
    expect(inserted).toEqual([{ id: 10, sku: 'A', quantity: 1 }]);
    expect(updated).toEqual([{ id: 10, sku: 'A', quantity: 2 }]);
    await db.delete(stock);
  });

  it('exposes the Postgres error code and constraint through drizzle and neon()', async () => {
    await db.insert(stock).values({ id: 1, sku: 'UNIQ', quantity: 1 });

    const duplicate = await rejection(db.insert(stock).values({ id: 2, sku: 'UNIQ', quantity: 1 }));
    expect(duplicate).toBeInstanceOf(DrizzleQueryError);
    const unique = neonError(duplicate);
    expect(unique).toMatchObject({
      code: '23505',
      constraint: 'stock_sku_key',
      table: 'stock',
      schema: 'public',
      severity: 'ERROR',
      detail: 'Key (sku)=(UNIQ) already exists.',
    });
    expect(unique.message).toBe('duplicate key value violates unique constraint "stock_sku_key"');

    const negative = neonError(await rejection(rawSql.query('update stock set quantity = -1')));
    expect(negative).toMatchObject({
      code: '23514',
      constraint: 'stock_quantity_check',
      table: 'stock',
    });

    const syntax = neonError(await rejection(rawSql.query('selec 1')));
    expect(syntax).toMatchObject({ code: '42601', position: '1', internalPosition: undefined });

    // one statement per query, as on Neon (extended protocol)
    const twoStatements = neonError(await rejection(rawSql.query('select 1; select 2')));
    expect(twoStatements.code).toBe('42601');
    await db.delete(stock);
  });

  it('passes batch isolation, read-only and deferrable options; read-only refuses writes', async () => {
    const [isolation, readOnly, deferrable] = (await rawSql.transaction(
      [
        rawSql`show transaction_isolation`,
        rawSql`show transaction_read_only`,
        rawSql`show transaction_deferrable`,
      ],
      { isolationLevel: 'Serializable', readOnly: true, deferrable: true },
    )) as [
      { transaction_isolation: string }[],
      { transaction_read_only: string }[],
      { transaction_deferrable: string }[],
    ];
    expect(isolation[0]?.transaction_isolation).toBe('serializable');
    expect(readOnly[0]?.transaction_read_only).toBe('on');
    expect(deferrable[0]?.transaction_deferrable).toBe('on');

    const [plain] = (await rawSql.transaction([rawSql`show transaction_read_only`])) as [
      { transaction_read_only: string }[],
    ];
    expect(plain[0]?.transaction_read_only).toBe('off');

    const refused = neonError(
      await rejection(
        rawSql.transaction([rawSql`insert into counter values (7, 7)`], { readOnly: true }),
      ),
    );
    expect(refused.code).toBe('25006');
    expect(await rawSql.query('select * from counter where id = 7')).toEqual([]);
  });

  it('does not carry an open transaction over to the next request', async () => {
    await rawSql.query('begin');
    // SAVEPOINT works only inside a transaction block: the next request must not be in one.
    expect(neonError(await rejection(rawSql.query('savepoint s1'))).code).toBe('25P01');
  });

  it('stays correct under 50 concurrent requests', async () => {
    const work = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? rawSql.query('select $1::int * 2 as doubled, $2::text as tag', [i, `req-${i}`])
        : db.update(counter).set({ n: sql`n + 1` }).where(eq(counter.id, 1)).returning(),
    );
    const results = await Promise.all(work);
    results.forEach((result, i) => {
      if (i % 2 === 0) expect(result).toEqual([{ doubled: i * 2, tag: `req-${i}` }]);
      else expect(result).toHaveLength(1);
    });
    const counts = results.filter((_, i) => i % 2 === 1).map((r) => (r as { n: number }[])[0]?.n);
    expect(new Set(counts).size).toBe(25); // every increment saw its own value
    const [final] = await db.select().from(counter).where(eq(counter.id, 1));
    expect(final?.n).toBe(25);
  });

  it('sells exactly 5 units to 20 concurrent buyers (CHECK quantity >= 0)', async () => {
    await db.insert(stock).values({ id: 5, sku: 'LAST-FIVE', quantity: 5 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        db
          .update(stock)
          .set({ quantity: sql`${stock.quantity} - 1` })
          .where(eq(stock.id, 5))
          .returning({ quantity: stock.quantity }),
      ),
    );
    const sold = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(sold).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const o of refused) expect(neonError(o.reason).code).toBe('23514');
    const left = sold.map((o) => o.value[0]?.quantity).sort();
    expect(left).toEqual([0, 1, 2, 3, 4]);
    const [row] = await db.select().from(stock).where(eq(stock.id, 5));
    expect(row?.quantity).toBe(0);
  });

  it('answers protocol errors like Neon (status codes, error shape)', async () => {
    const bad = await post('{"query": ');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^could not parse the HTTP request body/);
    // Every field the driver copies into a NeonDbError, present even when not from Postgres.
    expect(Object.keys(bad.json).sort()).toEqual(['message', ...errorFields].sort());
    expect((await post('{"nope": 1}')).status).toBe(400);
    expect((await post('{"query": "select 1", "params": 5}')).status).toBe(400);

    const pgError = await post(JSON.stringify({ query: 'select 1/0', params: [] }));
    expect(pgError.status).toBe(400);
    expect(pgError.json).toMatchObject({ code: '22012', message: 'division by zero', hint: null });

    const noConnection = await post('{"query":"select 1"}', { 'Neon-Connection-String': '' });
    expect(noConnection.status).toBe(400);
    const badIsolation = await post('{"queries":[]}', { 'Neon-Batch-Isolation-Level': 'Chaos' });
    expect(badIsolation.status).toBe(400);

    const big = await fetch(endpoint.url, {
      method: 'POST',
      body: JSON.stringify({ query: 'select $1::text', params: ['x'.repeat(11 * 1024 * 1024)] }),
      headers: { 'Neon-Connection-String': databaseUrl },
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { message: string }).message).toMatch(/too large/);

    expect((await fetch(endpoint.url)).status).toBe(405);
    expect((await fetch(new URL('/other', endpoint.url), { method: 'POST' })).status).toBe(404);

    // still serving after all that
    expect(await rawSql.query('select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('honours the raw-text, array-mode and batch headers on the wire', async () => {
    const query = JSON.stringify({
      query:
        'select $1::int as i, $2::boolean as b, $3::jsonb as j, $4::int[] as a, 5::int8 as big',
      params: [1, true, { k: [1] }, [1, null, 3]],
    });
    const raw = await post(query);
    expect(raw.status).toBe(200);
    expect(raw.json).toMatchObject({
      rows: [['1', 't', '{"k": [1]}', '{1,NULL,3}', '5']],
      command: 'SELECT',
      rowCount: 1,
      rowAsArray: true,
    });
    expect(raw.json.fields[0]).toEqual({
      name: 'i',
      dataTypeID: 23,
      tableID: 0,
      columnID: 0,
      dataTypeSize: 4,
      dataTypeModifier: -1,
      format: 'text',
    });

    const typed = await post(query, { 'Neon-Raw-Text-Output': 'True', 'Neon-Array-Mode': 'TRUE' });
    expect(typed.json.rows).toEqual([{ i: 1, b: true, j: { k: [1] }, a: [1, null, 3], big: '5' }]);
    expect(typed.json.rowAsArray).toBe(false);

    const batch = await post(
      JSON.stringify({
        queries: [{ query: 'select 1 as x' }, { query: 'select 2 as y', arrayMode: false }],
      }),
      { 'Neon-Batch-Read-Only': 'true', 'Neon-Batch-Isolation-Level': 'RepeatableRead' },
    );
    expect(batch.json.results.map((r: { rows: unknown }) => r.rows)).toEqual([
      [['1']],
      [{ y: '2' }],
    ]);
    expect(batch.headers.get('neon-batch-read-only')).toBe('true');
    expect(batch.headers.get('neon-batch-isolation-level')).toBe('RepeatableRead');

    const stored = await post(
      JSON.stringify({ query: 'select id from samples where id = $1', params: [1] }),
    );
    expect(stored.json.fields[0]).toMatchObject({ name: 'id', columnID: 1, dataTypeSize: 4 });
    expect(stored.json.fields[0].tableID).toBeGreaterThan(0);
  });

  it('keeps no session state from one request to the next (as Neon’s pool resets it)', async () => {
    const pid = async () =>
      ((await rawSql.query('select pg_backend_pid() as pid')) as [{ pid: number }])[0].pid;
    const before = await pid();
    const searchPath = await rawSql.query('show search_path');
    await rawSql.query('set search_path to nowhere');
    await rawSql.query('prepare shop_probe as select 1');
    await rawSql.query('create temp table basket_probe (x int)');
    await rawSql.query('select pg_advisory_lock(4242)');
    // The same connection served every request (on PostgreSQL the pool hands back the last one),
    // so what follows would see the state if it survived.
    expect(await pid()).toBe(before);

    expect(await rawSql.query('show search_path')).toEqual(searchPath);
    expect(neonError(await rejection(rawSql.query('execute shop_probe'))).code).toBe('26000');
    expect(neonError(await rejection(rawSql.query('select * from basket_probe'))).code).toBe(
      '42P01',
    );
    const locks = await rawSql.query(
      "select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 4242",
    );
    expect(locks).toEqual([{ n: 0 }]);
    if (target.name === 'PostgreSQL') {
      // RESET ALL goes back to the connection's own statement_timeout, not to none.
      await rawSql.query('set statement_timeout = 1');
      expect(await rawSql.query('show statement_timeout')).toEqual([{ statement_timeout: '15s' }]);
    }
  });

  it('refuses COMMIT, ROLLBACK and the like inside a batch, before anything runs', async () => {
    const halfCommitted = await rejection(
      db.batch([
        db.insert(stock).values({ id: 20, sku: 'BATCH-A', quantity: 1 }),
        db.execute(sql`commit`),
        db.insert(stock).values({ id: 21, sku: 'BATCH-B', quantity: 1 }),
      ]),
    );
    expect(neonError(halfCommitted)).toMatchObject({
      code: '2D000',
      message:
        'COMMIT is not allowed inside a batch (statement 2 of 3): a batch runs as one transaction, all or nothing',
    });
    expect(
      await db
        .select()
        .from(stock)
        .where(inArray(stock.id, [20, 21])),
    ).toEqual([]);

    for (const statement of [
      'rollback',
      'ROLLBACK TO SAVEPOINT s1',
      '  -- closing early\n  END',
      '/* a /* nested */ comment */ savepoint s1',
      'release savepoint s1',
      'start transaction',
      'begin',
      'abort',
      'commit and chain',
      "prepare transaction 'shop'",
    ]) {
      const refused = neonError(
        await rejection(
          rawSql.transaction([rawSql`insert into counter values (30, 1)`, rawSql.query(statement)]),
        ),
      );
      expect(refused.code, statement).toBe('2D000');
    }
    expect(await rawSql.query('select * from counter where id = 30')).toEqual([]);

    // Words that only look like transaction control run as usual.
    const [words] = (await rawSql.transaction([
      rawSql`select 'commit' as word, ${'rollback'}::text as other`,
    ])) as [{ word: string; other: string }[]];
    expect(words).toEqual([{ word: 'commit', other: 'rollback' }]);
  });

  it('refuses a wrong password or user, as Neon does, and a password from another start', async () => {
    const url = new URL(databaseUrl);
    url.password = 'guess';
    const wrong = neonError(await rejection(neon(url.toString()).query('select 1')));
    expect(wrong.message).toBe("password authentication failed for user 'duuka'");

    const refused = await post('{"query":"select 1"}', {
      'Neon-Connection-String': url.toString(),
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      message: "password authentication failed for user 'duuka'",
      code: '',
    });

    const stranger = new URL(databaseUrl);
    stranger.username = 'someone';
    const user = await post('{"query":"select 1"}', {
      'Neon-Connection-String': stranger.toString(),
    });
    expect(user.json.message).toBe("password authentication failed for user 'someone'");

    url.password = '';
    const missing = await post('{"query":"select 1"}', {
      'Neon-Connection-String': url.toString(),
    });
    expect([missing.status, missing.json.message]).toEqual([
      400,
      'missing authentication credentials: required password',
    ]);

    // Each start makes its own password: the first endpoint's URL does not open the second.
    const second = await startLocalNeon({ backend });
    try {
      expect(second.databaseUrl).not.toBe(databaseUrl);
      const other = new URL(databaseUrl);
      other.port = String(second.port);
      expect(neonError(await rejection(neon(other.toString()).query('select 1'))).message).toBe(
        "password authentication failed for user 'duuka'",
      );
      expect(await neon(second.databaseUrl).query('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await second.close();
    }
  });

  it('cancels the statement of a client that went away', async () => {
    const client = new AbortController();
    const sleeping = fetch(endpoint.url, {
      method: 'POST',
      body: JSON.stringify({ query: 'select pg_sleep(20)' }),
      headers: { 'Neon-Connection-String': databaseUrl },
      signal: client.signal,
    }).catch(() => 'aborted');
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
    client.abort();
    expect(await sleeping).toBe('aborted');

    // PGlite runs one statement at a time: this answers only once the sleep is stopped, long
    // before the 20 s sleep or the 15 s statement timeout would end it.
    const started = Date.now();
    expect(await rawSql.query('select 1 as one')).toEqual([{ one: 1 }]);
    expect(Date.now() - started).toBeLessThan(8_000);
    if (target.name === 'PostgreSQL') {
      const stillSleeping = async () =>
        (
          (await rawSql.query(
            "select count(*)::int as n from pg_stat_activity where query = 'select pg_sleep(20)' and state = 'active'",
          )) as [{ n: number }]
        )[0].n;
      const deadline = Date.now() + 5_000;
      while ((await stillSleeping()) > 0 && Date.now() < deadline) {
        await new Promise((resolveWait) => setTimeout(resolveWait, 100));
      }
      expect(await stillSleeping()).toBe(0);
    }
  });

  it('stops a statement at the statement timeout; the others are answered', async () => {
    const slow = await target.start({ statementTimeout: 1_000 });
    const slowEndpoint = await startLocalNeon({ backend: slow.backend });
    const slowSql = neon(slowEndpoint.databaseUrl);
    try {
      await slowSql.query('create table kept (id int primary key)');
      await slowSql.query('insert into kept values (1)');
      const started = Date.now();
      const sleeper = slowSql
        .query('with w as (insert into kept values (2) returning id) select pg_sleep(30) from w')
        .then(
          () => ({ error: undefined, at: Date.now() - started }),
          (error: unknown) => ({ error: neonError(error), at: Date.now() - started }),
        );
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
      const other = slowSql
        .query('select count(*)::int as n from kept')
        .then((rows) => ({ rows, at: Date.now() - started }));
      const [stopped, answered] = await Promise.all([sleeper, other]);

      expect(stopped.error).toMatchObject({
        code: '57014',
        message: 'canceling statement due to statement timeout',
      });
      expect(stopped.at).toBeLessThan(10_000);
      expect(answered.rows).toEqual([{ n: 1 }]); // the stopped statement's insert is undone
      if (target.name === 'PostgreSQL') expect(answered.at).toBeLessThan(stopped.at);
      else expect(answered.at).toBeLessThan(stopped.at + 8_000); // right after PGlite restarts

      const batch = neonError(
        await rejection(
          slowSql.transaction([slowSql`insert into kept values (3)`, slowSql`select pg_sleep(30)`]),
        ),
      );
      expect(batch.code).toBe('57014');
      expect(await slowSql.query('select id from kept order by id')).toEqual([{ id: 1 }]);
    } finally {
      await slowEndpoint.close();
      await slow.backend.close();
      await slow.drop();
    }
  });

  it('plays a distance to the database and records its trips: their count and how many ran in a row', async () => {
    const trips = tripsOf(databaseUrl);
    const sqlFor = neon(databaseUrl);
    try {
      await trips.setLatency(40);
      let mark = await trips.mark();
      const started = performance.now();
      await sqlFor.query('select 1'); // one trip
      await Promise.all([sqlFor.query('select 2'), sqlFor.query('select 3')]); // two side by side
      await sqlFor.transaction([sqlFor`select 4`, sqlFor`select 5`]); // a batch is one trip
      const elapsed = performance.now() - started;
      const seen = await trips.since(mark);
      expect([seen.count, seen.depth]).toEqual([4, 3]);
      expect(elapsed).toBeGreaterThanOrEqual(3 * 40 - 5); // three trips in a row, each held 40 ms
      for (const trip of seen.trips) expect(trip.end - trip.start).toBeGreaterThanOrEqual(39);

      await trips.setLatency(0);
      mark = await trips.mark();
      await sqlFor.query('select 6');
      expect((await trips.since(mark)).count).toBe(1);
      // The record answers only with this endpoint's password; the distance is checked.
      const url = new URL(endpoint.url);
      const stranger = await fetch(`http://${url.host}/trips?after=0`, {
        headers: { 'neon-connection-string': databaseUrl.replace(/:[^:@/]+@/, ':wrong@') },
      });
      expect(stranger.status).toBe(400);
      await expect(trips.setLatency(-1)).rejects.toThrow(/400/);
      await expect(trips.setLatency(1.5)).rejects.toThrow(/400/);
    } finally {
      await trips.setLatency(0);
    }
  });

  if (target.name === 'PGlite') {
    it('starts a fresh PGlite from a dump of this one (loadDataDir)', async () => {
      const dump = await (backend as PgliteBackend).dumpDataDir();
      const copy = await pgliteBackend({ loadDataDir: dump });
      try {
        const result = await copy.query('select n from counter where id = $1', ['1']);
        expect(result.rows).toEqual([['25']]);
        await copy.query('create extension if not exists pg_trgm', []);
        const trgm = await copy.query("select similarity('duuka', 'duka') > 0.3 as close", []);
        expect(trgm.rows).toEqual([['t']]);
      } finally {
        await copy.close();
      }
    });
  }
});

describe('distance to the database (LOCAL_DB_LATENCY_MS)', () => {
  it('reads whole milliseconds from 0 to 10,000 and names the variable otherwise', () => {
    expect(latencyFromEnv(undefined)).toBe(0);
    expect(latencyFromEnv('')).toBe(0);
    expect(latencyFromEnv('150')).toBe(150);
    for (const bad of ['-1', '1.5', 'far', '10001'])
      expect(() => latencyFromEnv(bad)).toThrow(/LOCAL_DB_LATENCY_MS/);
  });

  it('counts trips in a row: overlapping trips went out together', () => {
    expect(sequentialDepth([])).toBe(0);
    const t = (start: number, end: number) => ({ start, end });
    expect(sequentialDepth([t(0, 10), t(10, 20), t(20, 30)])).toBe(3);
    expect(sequentialDepth([t(0, 10), t(1, 11), t(12, 20)])).toBe(2);
    expect(sequentialDepth([t(0, 100), t(10, 20), t(30, 40), t(50, 60)])).toBe(3);
  });
});
