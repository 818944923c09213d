// A local endpoint that speaks Neon's SQL-over-HTTP protocol (what `neon()` from
// @neondatabase/serverless and drizzle's neon-http send), backed by embedded PGlite or a real
// PostgreSQL (pglite-backend.ts, postgres-backend.ts). The app's production driver code runs
// unchanged against it: point the driver's fetchEndpoint here (db/client.ts does that when given
// `localSqlEndpoint`).
//
// Modelled on Neon's proxy (proxy/src/serverless/sql_over_http.rs and json.rs): POST /sql, body
// {query, params, arrayMode?} or {queries: [...]}, one statement per query run with the extended
// protocol (unnamed statement, untyped text params, text results), batches in one transaction.
// As on Neon: no session state outlives a request (the pool's reset), the connection string's
// password is checked (a random one per start), a statement whose client went away is cancelled.
// Stricter than Neon, to show mistakes locally: a 15 s statement_timeout, and a batch refuses
// COMMIT, ROLLBACK, SAVEPOINT and the like (they would break its all-or-nothing).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { halfTrip, latencyFromEnv, TripLog } from '../distance.ts';
import { LocalSetupError } from '../setup-error.ts';
import { textToJson } from './codecs.ts';
import type { BatchOptions, QueryResult, SqlBackend } from './sql-backend.ts';
import { ERROR_FIELDS, type ErrorFields, toPostgresError } from './sql-errors.ts';

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
