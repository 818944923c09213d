// A local endpoint that speaks Neon's SQL-over-HTTP protocol (what `neon()` from
// @neondatabase/serverless and drizzle's neon-http send), backed by embedded PGlite or a real
// PostgreSQL. The app's production driver code runs unchanged against it: point the driver's
// fetchEndpoint here (db/client.ts does that when given `localSqlEndpoint`).
//
// Modelled on Neon's proxy (proxy/src/serverless/sql_over_http.rs and json.rs): POST /sql, body
// {query, params, arrayMode?} or {queries: [...]}, one statement per query run with the extended
// protocol (unnamed statement, untyped text params, text results), batches in one transaction.

import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { PGlite, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

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

export interface SqlBackend {
  /** Runs one statement (autocommit). Throws PostgresError for errors reported by Postgres. */
  query(sql: string, params: unknown[]): Promise<QueryResult>;
  /** Runs the statements in one transaction, all or nothing; throws the first error. */
  batch(
    queries: { query: string; params: unknown[] }[],
    options: BatchOptions,
  ): Promise<QueryResult[]>;
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
// PGlite: one in-process connection, so every request runs alone on it, in arrival order.

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

/** Embedded PGlite (with pg_trgm). `dataDir` persists on disk; `loadDataDir` starts from a dump. */
export async function pgliteBackend(
  options: { dataDir?: string; loadDataDir?: Blob } = {},
): Promise<PgliteBackend> {
  // PGlite creates the data directory itself, but not its parents.
  if (options.dataDir && !options.dataDir.includes('://')) {
    await mkdir(dirname(resolve(options.dataDir)), { recursive: true });
  }
  const db = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });

  // A promise-chain mutex: each job starts when the previous one has settled.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(job: () => Promise<T>): Promise<T> => {
    const run = tail.then(job);
    tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };

  // Parse/Bind/Describe/Execute/Sync in one go, exactly as the proxy does: unnamed statement,
  // untyped (server-inferred) text parameters, text results. PGlite's own query() would serialize
  // parameters by their inferred type (a string bound to json gets JSON-encoded again) and parse
  // the results, so talk the protocol directly.
  const run = async (sql: string, params: unknown[]): Promise<Outcome> => {
    const { serialize } = protocol;
    const message = concatBytes([
      serialize.parse({ text: sql }),
      serialize.bind({ values: params.map(toPgText) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const { messages } = await db.execProtocol(message, { throwOnError: false, syncToFs: false });
    const outcome: Outcome = { status: 'I' };
    let fields: Field[] = [];
    const rows: (string | null)[][] = [];
    let tag = '';
    for (const m of messages as unknown as PgliteMessage[]) {
      if (m.name === 'rowDescription') {
        fields = (m.fields as Field[]).map(toField);
      } else if (m.name === 'dataRow') rows.push(m.fields as (string | null)[]);
      else if (m.name === 'commandComplete') tag = m.text ?? '';
      else if (m.name === 'error') outcome.error ??= toPostgresError(m);
      else if (m.name === 'readyForQuery') outcome.status = m.status ?? 'I';
    }
    if (!outcome.error) outcome.result = { fields, rows, ...parseCommandTag(tag) };
    return outcome;
  };

  const rollbackIfOpen = async (outcome: Outcome): Promise<void> => {
    // Neon drops a connection that a request left inside a transaction; PGlite is our only one.
    if (outcome.status !== 'I') await run('ROLLBACK', []);
  };

  const unwrap = (outcome: Outcome): QueryResult => {
    if (outcome.error) throw outcome.error;
    if (!outcome.result) throw new Error('PGlite returned no result');
    return outcome.result;
  };

  return {
    query: (sql, params) =>
      exclusive(async () => {
        const outcome = await run(sql, params);
        await rollbackIfOpen(outcome);
        await db.syncToFs();
        return unwrap(outcome);
      }),

    batch: (queries, batchOptions) =>
      exclusive(async () => {
        try {
          const begin = await run(startTransactionSql(batchOptions), []);
          if (begin.error) {
            await rollbackIfOpen(begin);
            throw begin.error;
          }
          const results: QueryResult[] = [];
          for (const q of queries) {
            const outcome = await run(q.query, q.params);
            if (outcome.error) {
              await run('ROLLBACK', []);
              throw outcome.error;
            }
            results.push(unwrap(outcome));
          }
          const commit = await run('COMMIT', []);
          await rollbackIfOpen(commit);
          unwrap(commit);
          return results;
        } finally {
          await db.syncToFs();
        }
      }),

    dumpDataDir: () => exclusive(() => db.dumpDataDir()),

    close: () => exclusive(() => db.close()),
  };
}

// ---------------------------------------------------------------------------------------------
// Real PostgreSQL through node-postgres: a pool, raw text values, the extended protocol always.

/** Real PostgreSQL through a `pg` pool (values stay raw text: every type parser is the identity). */
export function postgresBackend(connectionString: string): SqlBackend {
  const identity = (value: string) => value;
  const pool = new pg.Pool({
    connectionString,
    max: 20,
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

  const withClient = async <T>(job: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect().catch((error: unknown) => {
      throw toPostgresError(error) ?? error;
    });
    let broken = false;
    try {
      return await job(client);
    } catch (error) {
      const pgError = toPostgresError(error);
      broken = !pgError;
      throw pgError ?? error;
    } finally {
      // Like Neon, never reuse a connection that is broken or still inside a transaction.
      client.release(broken || client.getTransactionStatus() !== 'I');
    }
  };

  return {
    query: (sql, params) => withClient((client) => run(client, sql, params)),

    batch: (queries, options) =>
      withClient(async (client) => {
        await run(client, startTransactionSql(options), []);
        try {
          const results: QueryResult[] = [];
          for (const q of queries) results.push(await run(client, q.query, q.params));
          await run(client, 'COMMIT', []);
          return results;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),

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

function checkConnectionString(value: string | undefined): void {
  // The credentials are ignored, but the string must be one Neon would accept.
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
  if (!url.hostname) throw new HttpError(400, 'missing hostname');
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

async function handle(req: IncomingMessage, res: ServerResponse, backend: SqlBackend) {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (pathname !== '/sql') throw new HttpError(404, `no route for ${pathname}: use POST /sql`);
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    throw new HttpError(405, `method ${req.method} not allowed: use POST /sql`);
  }

  // Headers: only the exact value "true" is true (as in Neon's proxy).
  checkConnectionString(header(req, 'neon-connection-string'));
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
  let output: unknown;
  const responseHeaders: Record<string, string> = {};
  try {
    if ('queries' in payload) {
      const results = await backend.batch(payload.queries, options);
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
      const result = await backend.query(payload.query, payload.params);
      output = resultJson(result, payload.arrayMode ?? defaultArrayMode, rawOutput);
    }
  } catch (error) {
    const pgError = toPostgresError(error);
    if (pgError)
      return sendJson(res, 400, JSON.stringify(errorBody(pgError.message, pgError.fields)));
    throw error;
  }
  const body = JSON.stringify(output);
  if (Buffer.byteLength(body) > MAX_RESPONSE_BYTES) {
    throw new HttpError(507, `response is too large (max is ${MAX_RESPONSE_BYTES} bytes)`);
  }
  sendJson(res, 200, body, responseHeaders);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Serves Neon's SQL-over-HTTP protocol on loopback. Closing it leaves the backend open. */
export async function startLocalNeon(options: {
  backend: SqlBackend;
  port?: number;
  host?: string;
}): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host)) {
    throw new Error(`local-neon listens on loopback only (it ignores credentials), not ${host}`);
  }
  const server = createServer((req, res) => {
    handle(req, res, options.backend).catch((error: unknown) => {
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
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/sql`,
    port,
    close: () =>
      new Promise<void>((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}
