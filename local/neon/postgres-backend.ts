// Real PostgreSQL through node-postgres: a pool, raw text values, the extended protocol always.

import pg from 'pg';
import { toPgText } from './codecs.ts';
import {
  type QueryResult,
  refuseTransactionControl,
  type SqlBackend,
  STATEMENT_TIMEOUT_MS,
  startTransactionSql,
  toField,
} from './sql-backend.ts';
import { cancelledError, toPostgresError } from './sql-errors.ts';

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
