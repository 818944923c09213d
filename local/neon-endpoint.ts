// A local endpoint that speaks Neon's SQL-over-HTTP protocol (what `neon()` from
// @neondatabase/serverless and drizzle's neon-http send), backed by embedded PGlite or a real
// PostgreSQL. The app's production driver code runs unchanged against it: point the driver's
// fetchEndpoint here (db/client.ts does that when given `localSqlEndpoint`).
//
// Modelled on Neon's proxy (proxy/src/serverless/sql_over_http.rs and json.rs): POST /sql, body
// {query, params, arrayMode?} or {queries: [...]}, one statement per query run with the extended
// protocol (unnamed statement, untyped text params, text results), batches in one transaction.
// As on Neon: no session state outlives a request (the pool's reset), the connection string's
// password is checked (a random one per start), a statement whose client went away is cancelled.
// Stricter than Neon, to show mistakes locally: a 15 s statement_timeout, and a batch refuses
// COMMIT, ROLLBACK, SAVEPOINT and the like (they would break its all-or-nothing).

import { fork } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { protocol } from '@electric-sql/pglite';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { halfTrip, latencyFromEnv, TripLog } from './distance.ts';
import { LocalSetupError } from './errors.ts';

export type BatchOptions = {
  isolationLevel?: 'ReadUncommitted' | 'ReadCommitted' | 'RepeatableRead' | 'Serializable';
  readOnly?: boolean;
  deferrable?: boolean;
};

/** A result column, as in the wire protocol's RowDescription. */
export type Field = {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
};

/** One statement's result: every non-null value is Postgres' exact text output. */
export type QueryResult = {
  fields: Field[];
  rows: (string | null)[][];
  /** First word of the command tag ("SELECT", "INSERT", "CREATE"...); "" for an empty query. */
  command: string;
  /** Row count from the command tag; null when the tag has none (CREATE, BEGIN...). */
  rowCount: number | null;
};

/**
 * A database behind the endpoint. Every request runs on a connection of its own session state
 * (reset after it, as Neon's pool does), bounded by a statement timeout; `signal` aborts when the
 * HTTP client goes away, which cancels the statement.
 */
export interface SqlBackend {
  /** Runs one statement (autocommit). Throws PostgresError for errors reported by Postgres. */
  query(sql: string, params: unknown[], signal?: AbortSignal): Promise<QueryResult>;
  /** Runs the statements in one transaction, all or nothing; throws the first error. */
  batch(
    queries: { query: string; params: unknown[] }[],
    options: BatchOptions,
    signal?: AbortSignal,
  ): Promise<QueryResult[]>;
  /** Told the endpoint's connection string once it listens (PGlite records it in its lock). */
  noteEndpoint?(databaseUrl: string): Promise<void>;
  close(): Promise<void>;
}

export type PgliteBackend = SqlBackend & {
  /** A dump of the data directory, for `pgliteBackend({ loadDataDir })` (fast fresh databases). */
  dumpDataDir(): Promise<Blob>;
};

/** Only the RowDescription fields Neon sends (PGlite's and pg's objects carry more). */
function toField(f: Field): Field {
  return {
    name: f.name,
    dataTypeID: f.dataTypeID,
    tableID: f.tableID,
    columnID: f.columnID,
    dataTypeSize: f.dataTypeSize,
    dataTypeModifier: f.dataTypeModifier,
  };
}

const ERROR_FIELDS = [
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'severity',
  'where',
  'table',
  'column',
  'schema',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;
export type ErrorFields = Partial<Record<(typeof ERROR_FIELDS)[number], string>>;

/** An ErrorResponse from Postgres (sent to the client as HTTP 400 with all its fields). */
export class PostgresError extends Error {
  fields: ErrorFields;
  constructor(message: string, fields: ErrorFields) {
    super(message);
    this.name = 'PostgresError';
    this.fields = fields;
  }
}

function toPostgresError(error: unknown): PostgresError | undefined {
  if (error instanceof PostgresError) return error;
  const e = error as { message?: unknown; code?: unknown; severity?: unknown } | null;
  // pg's and PGlite's DatabaseError carry `severity` and a five-character SQLSTATE `code`.
  if (!e || typeof e.code !== 'string' || typeof e.severity !== 'string') return undefined;
  const fields: ErrorFields = {};
  const source = e as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    if (typeof source[key] === 'string') fields[key] = source[key];
  }
  return new PostgresError(String(e.message), fields);
}

// ---------------------------------------------------------------------------------------------
// Parameters: Neon accepts any JSON value and turns it into Postgres text (json_to_pg_text).

/** null → NULL; strings as is; booleans, numbers and objects as JSON; arrays as array literals. */
export function toPgText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return toPgArrayItem(value);
  return JSON.stringify(value);
}

function toPgArrayItem(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return `{${value.map((v) => toPgArrayItem(v) ?? 'NULL').join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(JSON.stringify(value));
  return JSON.stringify(value); // strings quoted and escaped, as Neon does
}

// ---------------------------------------------------------------------------------------------
// Session hygiene shared by both backends.

/** Default statement_timeout: one slow statement must not hold every request behind it. */
export const STATEMENT_TIMEOUT_MS = 15_000;

/** How long PGlite may still run a statement whose client went away before it is stopped. */
const CANCEL_GRACE_MS = 1_000;

function timeoutError(): PostgresError {
  return new PostgresError('canceling statement due to statement timeout', {
    code: '57014',
    severity: 'ERROR',
  });
}

function cancelledError(): PostgresError {
  return new PostgresError('canceling statement due to user request', {
    code: '57014',
    severity: 'ERROR',
  });
}

/** The first keyword of a statement, after leading blanks and comments ("" when none). */
function firstKeyword(sql: string): string {
  let i = 0;
  for (;;) {
    while (i < sql.length && /\s/.test(sql.charAt(i))) i++;
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      let depth = 0; // Postgres' block comments nest
      do {
        if (sql.startsWith('/*', i)) depth++;
        else if (sql.startsWith('*/', i)) depth--;
        else {
          i++;
          continue;
        }
        i += 2;
      } while (depth > 0 && i < sql.length);
    } else break;
  }
  return (/^[a-z]+(\s+transaction\b)?/i.exec(sql.slice(i))?.[0] ?? '').toUpperCase();
}

const TRANSACTION_CONTROL = new Set([
  'BEGIN',
  'START',
  'COMMIT',
  'END',
  'ROLLBACK',
  'ABORT',
  'SAVEPOINT',
  'RELEASE',
  'PREPARE TRANSACTION',
]);

/**
 * A batch is one transaction, all or nothing: a COMMIT (or ROLLBACK, SAVEPOINT...) inside it
 * would commit or undo part of it. Neon's proxy runs such a statement; refusing it here, before
 * anything runs, shows the mistake locally instead of half a batch written in production.
 */
function refuseTransactionControl(queries: { query: string }[]): void {
  queries.forEach((q, i) => {
    const keyword = firstKeyword(q.query).replace(/\s+/g, ' ');
    const word = TRANSACTION_CONTROL.has(keyword) ? keyword : keyword.split(' ')[0];
    if (!word || !TRANSACTION_CONTROL.has(word)) return;
    throw new PostgresError(
      `${word} is not allowed inside a batch (statement ${i + 1} of ${queries.length}): ` +
        'a batch runs as one transaction, all or nothing',
      { code: '2D000', severity: 'ERROR' },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// PGlite: one connection, in a process of its own; every request runs alone on it, in arrival order.

type PgliteMessage = {
  name: string;
  fields?: unknown;
  text?: string;
  status?: string;
  message?: string;
};

type Outcome = { result?: QueryResult; error?: PostgresError; status: string };

function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Splits a command tag the way Neon does: "INSERT 0 3" → INSERT, 3; "CREATE TABLE" → CREATE. */
function parseCommandTag(tag: string): { command: string; rowCount: number | null } {
  const space = tag.indexOf(' ');
  if (space < 0) return { command: tag, rowCount: null };
  const command = tag.slice(0, space);
  let rest = tag.slice(space + 1);
  if (command === 'INSERT') {
    const second = rest.indexOf(' ');
    if (second < 0) return { command, rowCount: null };
    rest = rest.slice(second + 1);
  }
  return { command, rowCount: /^\d+$/.test(rest) ? Number(rest) : null };
}

function startTransactionSql(options: BatchOptions): string {
  const modes: string[] = [];
  const levels = {
    ReadUncommitted: 'READ UNCOMMITTED',
    ReadCommitted: 'READ COMMITTED',
    RepeatableRead: 'REPEATABLE READ',
    Serializable: 'SERIALIZABLE',
  } as const;
  if (options.isolationLevel) modes.push(`ISOLATION LEVEL ${levels[options.isolationLevel]}`);
  if (options.readOnly) modes.push('READ ONLY');
  if (options.deferrable) modes.push('DEFERRABLE');
  return modes.length ? `START TRANSACTION ${modes.join(', ')}` : 'START TRANSACTION';
}

type WorkerReply = {
  id: number;
  messages?: PgliteMessage[];
  dump?: Uint8Array<ArrayBuffer>;
  error?: string;
};

type PgliteProcess = {
  call(
    request: { kind: 'exec'; message: Uint8Array } | { kind: 'dump' | 'close' },
  ): Promise<WorkerReply>;
  stop(): Promise<void>;
};

/**
 * Starts local/pglite-worker.ts on `dataDir` in a process of its own; rejects with PGlite's
 * first error line. A process, not a worker thread: ending a thread that runs WebAssembly (a
 * statement past its timeout) and starting another once crashed the whole test process with
 * SIGSEGV (nodejs/node#56312); a process is killed whole and cannot take its parent with it.
 */
function startPgliteProcess(dataDir: string, loadDataDir?: Uint8Array): Promise<PgliteProcess> {
  const child = fork(fileURLToPath(new URL('./pglite-worker.ts', import.meta.url)), [], {
    execArgv: [], // not the parent's: `node -e ...` or a test runner's flags
    serialization: 'advanced', // Uint8Arrays (a dump, protocol bytes) as they are
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Only pending requests keep this process alive (see call).
  const hold = (held: boolean) => {
    for (const handle of [child, child.channel]) {
      if (held) handle?.ref();
      else handle?.unref();
    }
  };
  hold(false);
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const pending = new Map<number, { resolve(reply: WorkerReply): void; reject(e: Error): void }>();
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
    hold(false);
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      hold(true); // this process waits for the end it asked for
      child.kill('SIGKILL');
    }
    await exited;
  };
  const handle: PgliteProcess = {
    call: (request) =>
      new Promise((resolveCall, rejectCall) => {
        const id = ++nextId;
        pending.set(id, { resolve: resolveCall, reject: rejectCall });
        hold(true);
        child.send({ id, ...request });
      }),
    stop,
  };
  return new Promise((resolveStart, rejectStart) => {
    child.on('message', (reply: WorkerReply & { kind?: string; message?: string }) => {
      if (reply.kind === 'ready') {
        hold(false);
        return resolveStart(handle);
      }
      if (reply.kind === 'failed') {
        void stop();
        return rejectStart(new Error(reply.message));
      }
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) hold(false);
      if (reply.error) waiter?.reject(new Error(reply.error));
      else waiter?.resolve(reply);
    });
    child.on('error', (error) => {
      rejectStart(error);
      failAll(error);
    });
    child.on('exit', (code, signal) => {
      const error = new Error(
        `PGlite stopped (its process ended: ${signal ?? `exit code ${code}`})`,
      );
      rejectStart(error);
      failAll(error);
    });
    hold(true); // until it is ready
    child.send({ kind: 'start', dataDir, loadDataDir });
  });
}

/**
 * Embedded PGlite (with pg_trgm) in a process of its own. `dataDir` persists on disk and is locked
 * against a second owner (local/data-dir-lock.ts); without it the database lives in a temporary
 * directory, removed on close. `loadDataDir` starts from a dump.
 *
 * PGlite ignores statement_timeout and cannot cancel a statement (it runs synchronously in
 * WebAssembly), so a statement that outlives `statementTimeout` (or whose client went away) is
 * stopped by killing that process; PGlite restarts on the same directory, where Postgres'
 * crash recovery rolls the statement's transaction back, and the queue moves on.
 */
export async function pgliteBackend(
  options: { dataDir?: string; loadDataDir?: Blob; statementTimeout?: number } = {},
): Promise<PgliteBackend> {
  const timeoutMs = options.statementTimeout ?? STATEMENT_TIMEOUT_MS;
  const lock = options.dataDir ? await lockDataDir(options.dataDir) : undefined;
  const dataDir = options.dataDir
    ? resolve(options.dataDir)
    : await mkdtemp(join(tmpdir(), 'duuka-pglite-'));
  const cleanUp = async () => {
    await lock?.release();
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  };

  let engine: Promise<PgliteProcess>;
  try {
    // PGlite creates the data directory itself, but not its parents.
    await mkdir(dirname(dataDir), { recursive: true });
    const dump = options.loadDataDir && new Uint8Array(await options.loadDataDir.arrayBuffer());
    engine = Promise.resolve(await startPgliteProcess(dataDir, dump));
  } catch (error) {
    await cleanUp();
    if (!options.dataDir) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    throw new LocalSetupError(
      `The local database ${options.dataDir} could not be opened (${cause}). ` +
        'If it is damaged, `npm run db:reset` moves it aside and starts a fresh one.',
    );
  }

  let restarts = 0;
  /** Ends the worker (and the statement in it) and starts PGlite again on the same directory. */
  const restart = (why: string) => {
    restarts++;
    const started = Date.now();
    engine = engine.then(async (old) => {
      await old.stop(); // fully stopped before another PGlite opens the directory
      return startPgliteProcess(dataDir);
    });
    engine.then(
      () => console.warn(`local-neon: ${why}; PGlite restarted in ${Date.now() - started} ms`),
      (error: unknown) => console.error(`local-neon: ${why}; PGlite did not restart:`, error),
    );
  };

  /** One protocol exchange, bounded by the statement timeout and the client's presence. */
  const exec = async (message: Uint8Array, signal?: AbortSignal): Promise<PgliteMessage[]> => {
    const worker = await engine;
    if (signal?.aborted) throw cancelledError();
    return new Promise((resolveExec, rejectExec) => {
      let grace: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = () => {
        settled = true;
        clearTimeout(timer);
        clearTimeout(grace);
        signal?.removeEventListener('abort', onAbort);
      };
      const stop = (error: Error, why: string) => {
        settle();
        restart(why);
        rejectExec(error);
      };
      const timer = setTimeout(
        () => stop(timeoutError(), `stopped a statement after ${timeoutMs} ms (statement_timeout)`),
        timeoutMs,
      );
      // A restart stalls every request for a second or so: a statement about to finish anyway
      // (most take a few milliseconds) gets a moment before it is stopped.
      const onAbort = () => {
        grace = setTimeout(
          () => stop(cancelledError(), 'stopped a statement: its client went away'),
          CANCEL_GRACE_MS,
        );
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.call({ kind: 'exec', message }).then(
        (reply) => {
          settle();
          resolveExec(reply.messages ?? []);
        },
        (error: Error) => {
          // PGlite itself failed (the worker died, or threw): start it again for what follows.
          if (!settled) stop(error, `PGlite failed (${error.message})`);
        },
      );
    });
  };

  let status = 'I'; // the connection's transaction status after the last statement
  // Parse/Bind/Describe/Execute/Sync in one go, exactly as the proxy does: unnamed statement,
  // untyped (server-inferred) text parameters, text results. PGlite's own query() would serialize
  // parameters by their inferred type (a string bound to json gets JSON-encoded again) and parse
  // the results, so talk the protocol directly.
  const run = async (sql: string, params: unknown[], signal?: AbortSignal): Promise<Outcome> => {
    const { serialize } = protocol;
    const message = concatBytes([
      serialize.parse({ text: sql }),
      serialize.bind({ values: params.map(toPgText) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const outcome: Outcome = { status: 'I' };
    let fields: Field[] = [];
    const rows: (string | null)[][] = [];
    let tag = '';
    for (const m of await exec(message, signal)) {
      if (m.name === 'rowDescription') {
        fields = (m.fields as Field[]).map(toField);
      } else if (m.name === 'dataRow') rows.push(m.fields as (string | null)[]);
      else if (m.name === 'commandComplete') tag = m.text ?? '';
      else if (m.name === 'error') outcome.error ??= toPostgresError(m);
      else if (m.name === 'readyForQuery') outcome.status = m.status ?? 'I';
    }
    status = outcome.status;
    if (!outcome.error) outcome.result = { fields, rows, ...parseCommandTag(tag) };
    return outcome;
  };

  const unwrap = (outcome: Outcome): QueryResult => {
    if (outcome.error) throw outcome.error;
    if (!outcome.result) throw new Error('PGlite returned no result');
    return outcome.result;
  };

  /**
   * What Neon's pool does between requests: no transaction, no session state (settings, prepared
   * statements, temporary tables, advisory locks, listeners) survives into the next request.
   */
  const resetSession = async () => {
    try {
      if (status !== 'I') unwrap(await run('ROLLBACK', []));
      unwrap(await run('DISCARD ALL', []));
    } catch (error) {
      restart(`could not reset the session (${String(error)})`);
    }
  };

  // A promise-chain mutex: each job starts when the previous one has settled.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(job: () => Promise<T>): Promise<T> => {
    const result = tail.then(job);
    tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };

  /** A request's work, alone on the connection; the session is reset after it. */
  const request = <T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> =>
    exclusive(async () => {
      if (signal?.aborted) throw cancelledError(); // its client left while it waited
      const before = restarts;
      try {
        return await work();
      } finally {
        if (restarts === before) await resetSession(); // a restarted PGlite starts clean
      }
    });

  return {
    query: (sql, params, signal) =>
      request(signal, async () => unwrap(await run(sql, params, signal))),

    batch: async (queries, batchOptions, signal) => {
      refuseTransactionControl(queries);
      return request(signal, async () => {
        unwrap(await run(startTransactionSql(batchOptions), [], signal));
        const results: QueryResult[] = [];
        for (const q of queries) results.push(unwrap(await run(q.query, q.params, signal)));
        unwrap(await run('COMMIT', [], signal));
        return results;
      });
    },

    dumpDataDir: () =>
      exclusive(async () => {
        const reply = await (await engine).call({ kind: 'dump' });
        return new Blob([reply.dump ?? new Uint8Array()]);
      }),

    noteEndpoint: async (databaseUrl) => lock?.noteEndpoint(databaseUrl),

    close: () =>
      exclusive(async () => {
        const worker = await engine.catch(() => undefined);
        await worker?.call({ kind: 'close' }).catch(() => undefined);
        await worker?.stop();
        await cleanUp();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Real PostgreSQL through node-postgres: a pool, raw text values, the extended protocol always.

/** Asks the server to cancel what backend `pid` runs, from a connection of its own. */
async function cancelBackend(connectionString: string, pid: number): Promise<void> {
  const canceller = new pg.Client({ connectionString });
  try {
    await canceller.connect();
    await canceller.query('select pg_cancel_backend($1)', [pid]);
  } catch (error) {
    console.warn(`local-neon: could not cancel a statement: ${(error as Error).message}`);
  } finally {
    await canceller.end().catch(() => undefined);
  }
}

/**
 * Real PostgreSQL through a `pg` pool (values stay raw text: every type parser is the identity).
 * Each connection starts with `statement_timeout`; a statement whose client went away is
 * cancelled; a connection goes back to the pool only idle and reset (DISCARD ALL).
 */
export function postgresBackend(
  connectionString: string,
  options: { statementTimeout?: number } = {},
): SqlBackend {
  const identity = (value: string) => value;
  const pool = new pg.Pool({
    connectionString,
    max: 20,
    // A startup parameter, so DISCARD ALL (RESET ALL) returns to it rather than to no limit.
    statement_timeout: options.statementTimeout ?? STATEMENT_TIMEOUT_MS,
    types: { getTypeParser: () => identity } as unknown as pg.CustomTypesConfig,
  });
  // An idle client's connection died (server restart...): the pool drops it; don't crash.
  pool.on('error', (error) => console.warn(`local-neon: idle connection error: ${error.message}`));

  const run = async (client: pg.PoolClient, sql: string, params: unknown[]) => {
    // queryMode 'extended' even without parameters, so one statement per query, as on Neon.
    const config = {
      text: sql,
      values: params.map(toPgText),
      rowMode: 'array' as const,
      queryMode: 'extended',
    };
    const res = await client.query<(string | null)[]>(config as pg.QueryArrayConfig);
    return {
      fields: res.fields.map(toField),
      rows: res.rows,
      command: res.command ?? '',
      rowCount: res.command ? res.rowCount : null,
    } satisfies QueryResult;
  };

  const withClient = async <T>(
    signal: AbortSignal | undefined,
    job: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> => {
    if (signal?.aborted) throw cancelledError();
    const client = await pool.connect().catch((error: unknown) => {
      throw toPostgresError(error) ?? error;
    });
    let cancelling: Promise<void> | undefined;
    const onAbort = () => {
      // pg keeps the backend's process id from BackendKeyData (not in its type definitions).
      const pid = (client as unknown as { processID: number }).processID;
      cancelling = cancelBackend(connectionString, pid);
    };
    let reusable = true;
    try {
      if (signal?.aborted) throw cancelledError();
      signal?.addEventListener('abort', onAbort, { once: true });
      return await job(client);
    } catch (error) {
      const pgError = toPostgresError(error);
      reusable = Boolean(pgError);
      throw pgError ?? error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // A cancel must land before the connection can serve anyone else: wait, then drop it.
      if (cancelling) await cancelling;
      // Like Neon, reuse only an idle connection, and only once its session is reset.
      reusable &&= !cancelling && client.getTransactionStatus() === 'I';
      if (reusable)
        reusable = await client.query('DISCARD ALL').then(
          () => true,
          () => false,
        );
      client.release(!reusable);
    }
  };

  return {
    query: (sql, params, signal) => withClient(signal, (client) => run(client, sql, params)),

    batch: async (queries, batchOptions, signal) => {
      refuseTransactionControl(queries);
      return withClient(signal, async (client) => {
        await run(client, startTransactionSql(batchOptions), []);
        try {
          const results: QueryResult[] = [];
          for (const q of queries) results.push(await run(client, q.query, q.params));
          await run(client, 'COMMIT', []);
          return results;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    },

    close: () => pool.end(),
  };
}

// ---------------------------------------------------------------------------------------------
// Output without Neon-Raw-Text-Output: true (json.rs): bool, int2/int4, float4/float8, json and
// arrays become JSON values; everything else (int8, numeric, dates...) stays text.

const BOOL = 16;
const INT2 = 21;
const INT4 = 23;
const FLOAT4 = 700;
const FLOAT8 = 701;
const JSON_OID = 114;
const JSONB = 3802;
/** Built-in array type OID → element type OID (a user-defined type's arrays stay text). */
const ARRAY_ELEMENT: Record<number, number> = {
  1000: BOOL,
  1005: INT2,
  1007: INT4,
  1021: FLOAT4,
  1022: FLOAT8,
  199: JSON_OID,
  3807: JSONB,
};
for (const oid of [
  1001, 1002, 1003, 1009, 1014, 1015, 1016, 1028, 1041, 1115, 1182, 1183, 1185, 1187, 1231, 1270,
  2951, 651, 791, 143, 3643, 3645,
]) {
  ARRAY_ELEMENT[oid] = 0; // text, bytea, int8, varchar, timestamps, numeric, uuid...: strings
}

function textToJson(value: string, oid: number): unknown {
  const element = ARRAY_ELEMENT[oid];
  if (element !== undefined) return parsePgArray(value, element);
  switch (oid) {
    case BOOL:
      return value === 't';
    case INT2:
    case INT4:
      return Number.parseInt(value, 10);
    case FLOAT4:
    case FLOAT8: {
      const n = Number(value);
      return Number.isFinite(n) ? n : value; // NaN and ±Infinity stay strings
    }
    case JSON_OID:
    case JSONB:
      return JSON.parse(value);
    default:
      return value;
  }
}

function parsePgArray(text: string, element: number): unknown[] {
  let s = text;
  if (s.startsWith('[')) s = s.slice(s.indexOf('=') + 1); // skip bounds like [0:1]=
  let i = 0;
  const skipSpace = () => {
    while (i < s.length && /\s/.test(s.charAt(i))) i++;
  };
  const list = (): unknown[] => {
    skipSpace();
    if (s[i] !== '{') throw new Error('unbalanced array');
    i++;
    const out: unknown[] = [];
    skipSpace();
    if (s[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      out.push(item());
      if (s[i] === ',') {
        i++;
        continue;
      }
      if (s[i] !== '}') throw new Error('unbalanced array');
      i++;
      skipSpace();
      return out;
    }
  };
  const item = (): unknown => {
    skipSpace();
    if (s[i] === '{') return list();
    if (s[i] === '"') {
      i++;
      let quoted = '';
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\') i++;
        quoted += s.charAt(i);
        i++;
      }
      if (i >= s.length) throw new Error('unbalanced quoted string');
      i++;
      skipSpace();
      return textToJson(quoted, element);
    }
    let end = i;
    while (end < s.length && s[end] !== ',' && s[end] !== '}') end++;
    const raw = s.slice(i, end).trimEnd();
    i = end;
    return raw === 'NULL' ? null : textToJson(raw, element);
  };
  return list();
}

// ---------------------------------------------------------------------------------------------
// The HTTP endpoint.

const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

type QueryData = { query: string; params: unknown[]; arrayMode?: boolean };

class HttpError extends Error {
  status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function errorBody(message: string, fields?: ErrorFields): Record<string, string | null> {
  // Neon's shape: every key present; code and severity "" when the error is not from Postgres.
  const body: Record<string, string | null> = { message };
  for (const key of ERROR_FIELDS) {
    body[key] = fields?.[key] ?? (key === 'code' || key === 'severity' ? '' : null);
  }
  return body;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'access-control-allow-origin': '*',
    ...headers,
  });
  res.end(body);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The role the local endpoint serves; its password is made per start (startLocalNeon). */
const USER = 'duuka';

function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks the connection string as Neon's proxy does, then its user and password. */
function checkConnectionString(value: string | undefined, password: string): void {
  if (!value) throw new HttpError(400, 'invalid header: neon-connection-string');
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new HttpError(400, `invalid connection string: ${(error as Error).message}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new HttpError(400, 'incorrect scheme');
  }
  if (url.pathname.replace(/^\//, '') === '') throw new HttpError(400, 'missing database name');
  if (!url.username) throw new HttpError(400, 'missing username');
  if (!url.password) {
    throw new HttpError(400, 'missing authentication credentials: required password');
  }
  if (!url.hostname) throw new HttpError(400, 'missing hostname');
  const user = decodeURIComponent(url.username);
  if (user !== USER || !sameText(decodeURIComponent(url.password), password)) {
    // Neon's proxy words it so (auth/mod.rs), with an empty code and HTTP 400.
    throw new HttpError(400, `password authentication failed for user '${user}'`);
  }
}

const ISOLATION_LEVELS = new Set([
  'ReadUncommitted',
  'ReadCommitted',
  'RepeatableRead',
  'Serializable',
]);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    // An oversized upload is still read (and dropped) to its end, so the client, still sending,
    // gets the 413 instead of a reset connection.
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => {
      if (size <= MAX_REQUEST_BYTES) resolveBody(Buffer.concat(chunks));
      else reject(new HttpError(413, `request is too large (max is ${MAX_REQUEST_BYTES} bytes)`));
    });
    req.on('error', reject);
  });
}

function parsePayload(body: Buffer): QueryData | { queries: QueryData[] } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new HttpError(400, `could not parse the HTTP request body: ${(error as Error).message}`);
  }
  const mismatch = new HttpError(
    400,
    'could not parse the HTTP request body: data did not match any variant of untagged enum Payload',
  );
  const queryData = (value: unknown): QueryData | undefined => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const { query, params = [], arrayMode } = value as Record<string, unknown>;
    if (typeof query !== 'string' || !Array.isArray(params)) return undefined;
    if (arrayMode !== undefined && arrayMode !== null && typeof arrayMode !== 'boolean') return;
    return { query, params, arrayMode: arrayMode ?? undefined };
  };
  const single = queryData(json);
  if (single) return single;
  const queries = (json as { queries?: unknown } | null)?.queries;
  if (!Array.isArray(queries)) throw mismatch;
  const batch = queries.map(queryData);
  if (batch.some((q) => !q)) throw mismatch;
  return { queries: batch as QueryData[] };
}

function resultJson(result: QueryResult, arrayMode: boolean, rawOutput: boolean): unknown {
  const { fields } = result;
  const value = (v: string | null, i: number) =>
    v === null || rawOutput ? v : textToJson(v, fields[i]?.dataTypeID ?? 0);
  const rows = result.rows.map((row) =>
    arrayMode
      ? row.map(value)
      : Object.fromEntries(row.map((v, i) => [fields[i]?.name ?? '', value(v, i)])),
  );
  return {
    fields: fields.map((f) => ({ ...f, format: 'text' })),
    rows,
    command: result.command,
    rowCount: result.rowCount,
    rowAsArray: arrayMode,
  };
}

/** The endpoint's own record (local/distance.ts): GET /trips?after=SEQ, PUT /latency {ms}. */
async function handleTrips(req: IncomingMessage, res: ServerResponse, log: TripLog, url: URL) {
  if (url.pathname === '/trips' && req.method === 'GET') {
    const after = Number(url.searchParams.get('after') ?? 0);
    return sendJson(res, 200, JSON.stringify(log.since(Number.isFinite(after) ? after : 0)));
  }
  if (url.pathname === '/latency' && req.method === 'PUT') {
    let ms: unknown;
    try {
      ({ ms } = JSON.parse((await readBody(req)).toString()) as { ms?: unknown });
    } catch {
      throw new HttpError(400, 'latency: send {"ms": N}');
    }
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > 10_000) {
      throw new HttpError(400, 'latency: a whole number of ms from 0 to 10000');
    }
    log.latencyMs = ms;
    return sendJson(res, 200, JSON.stringify({ ms }));
  }
  throw new HttpError(405, `method ${req.method} not allowed on ${url.pathname}`);
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  backend: SqlBackend,
  password: string,
  log: TripLog,
) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const { pathname } = url;
  if (pathname === '/trips' || pathname === '/latency') {
    checkConnectionString(header(req, 'neon-connection-string'), password);
    return handleTrips(req, res, log, url);
  }
  if (pathname !== '/sql') throw new HttpError(404, `no route for ${pathname}: use POST /sql`);
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    throw new HttpError(405, `method ${req.method} not allowed: use POST /sql`);
  }

  // Headers: only the exact value "true" is true (as in Neon's proxy).
  checkConnectionString(header(req, 'neon-connection-string'), password);
  const rawOutput = header(req, 'neon-raw-text-output') === 'true';
  const defaultArrayMode = header(req, 'neon-array-mode') === 'true';
  const isolation = header(req, 'neon-batch-isolation-level');
  if (isolation !== undefined && !ISOLATION_LEVELS.has(isolation)) {
    throw new HttpError(400, 'invalid isolation level');
  }
  const options: BatchOptions = {
    isolationLevel: isolation as BatchOptions['isolationLevel'],
    readOnly: header(req, 'neon-batch-read-only') === 'true',
    deferrable: header(req, 'neon-batch-deferrable') === 'true',
  };

  const payload = parsePayload(await readBody(req));
  // The distance to the database (LOCAL_DB_LATENCY_MS): half on the way in, half on the way out.
  const ended = log.begin();
  res.on('close', ended);
  await halfTrip(log);
  // The client went away before its answer: cancel its statement (Neon's proxy does the same).
  const clientGone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) clientGone.abort();
  });
  const { signal } = clientGone;
  let output: unknown;
  const responseHeaders: Record<string, string> = {};
  try {
    if ('queries' in payload) {
      const results = await backend.batch(payload.queries, options, signal);
      output = {
        results: results.map((r, i) =>
          resultJson(r, payload.queries[i]?.arrayMode ?? defaultArrayMode, rawOutput),
        ),
      };
      if (options.readOnly) responseHeaders['neon-batch-read-only'] = 'true';
      if (options.deferrable) responseHeaders['neon-batch-deferrable'] = 'true';
      if (options.isolationLevel) {
        responseHeaders['neon-batch-isolation-level'] = options.isolationLevel;
      }
    } else {
      const result = await backend.query(payload.query, payload.params, signal);
      output = resultJson(result, payload.arrayMode ?? defaultArrayMode, rawOutput);
    }
  } catch (error) {
    const pgError = toPostgresError(error);
    if (pgError) {
      await halfTrip(log);
      return sendJson(res, 400, JSON.stringify(errorBody(pgError.message, pgError.fields)));
    }
    throw error;
  }
  await halfTrip(log);
  const body = JSON.stringify(output);
  if (Buffer.byteLength(body) > MAX_RESPONSE_BYTES) {
    throw new HttpError(507, `response is too large (max is ${MAX_RESPONSE_BYTES} bytes)`);
  }
  sendJson(res, 200, body, responseHeaders);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export type LocalNeon = {
  /** The SQL endpoint, http://127.0.0.1:PORT/sql (what neonConfig.fetchEndpoint points at). */
  url: string;
  port: number;
  /** The connection string the driver is given: user `duuka`, this endpoint's password. */
  databaseUrl: string;
  /** Changes the distance every later request is held (ms, half in and half out). */
  setLatency(ms: number): void;
  close(): Promise<void>;
};

/**
 * Serves Neon's SQL-over-HTTP protocol on loopback. Requests must carry `password` (a random one
 * per start unless given) in their connection string. Closing it leaves the backend open.
 */
export async function startLocalNeon(options: {
  backend: SqlBackend;
  port?: number;
  host?: string;
  password?: string;
  /** Milliseconds each request is held (half in, half out); default LOCAL_DB_LATENCY_MS, else 0. */
  latencyMs?: number;
}): Promise<LocalNeon> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host)) {
    throw new Error(`local-neon listens on loopback only, not ${host}`);
  }
  const password = options.password ?? randomBytes(18).toString('base64url');
  const log = new TripLog(options.latencyMs ?? latencyFromEnv());
  const server = createServer((req, res) => {
    handle(req, res, options.backend, password, log).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (status === 500) console.error('local-neon:', error);
      if (res.headersSent) return void res.destroy();
      sendJson(res, status, JSON.stringify(errorBody(message)));
    });
  });
  // Keep idle connections open longer than clients (workerd, undici) keep them, so a client never
  // reuses a socket this server has just closed ("fetch failed" after a long PGlite job).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 70_000;
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') return reject(error);
      reject(
        new LocalSetupError(
          `Port ${options.port} for the local Neon endpoint is in use: set LOCAL_NEON_PORT to a free port, or leave it unset for any free port.`,
        ),
      );
    });
    server.listen(options.port ?? 0, host, () => {
      server.removeAllListeners('error');
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const databaseUrl = `postgresql://${USER}:${encodeURIComponent(password)}@${urlHost}:${port}/${USER}`;
  await options.backend.noteEndpoint?.(databaseUrl);
  return {
    url: `http://${urlHost}:${port}/sql`,
    port,
    databaseUrl,
    setLatency: (ms) => {
      log.latencyMs = ms;
    },
    close: () =>
      new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}
