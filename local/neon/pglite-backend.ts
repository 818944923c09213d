// PGlite: one connection, in a process of its own; every request runs alone on it, in arrival order.

import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { protocol } from '@electric-sql/pglite';
import { lockDataDir } from '../data-dir-lock.ts';
import { LocalSetupError } from '../setup-error.ts';
import { toPgText } from './codecs.ts';
import {
  type Field,
  type QueryResult,
  refuseTransactionControl,
  type SqlBackend,
  STATEMENT_TIMEOUT_MS,
  startTransactionSql,
  toField,
} from './sql-backend.ts';
import { cancelledError, type PostgresError, timeoutError, toPostgresError } from './sql-errors.ts';

export type PgliteBackend = SqlBackend & {
  /** A dump of the data directory, for `pgliteBackend({ loadDataDir })` (fast fresh databases). */
  dumpDataDir(): Promise<Blob>;
};

/** How long PGlite may still run a statement whose client went away before it is stopped. */
const CANCEL_GRACE_MS = 1_000;

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
 * Starts local/neon/pglite-worker.ts on `dataDir` in a process of its own; rejects with PGlite's
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
