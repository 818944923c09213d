// A fresh, migrated database for one test file, reached like production: the Neon driver over
// HTTP, through the local endpoint. PGlite by default; PostgreSQL when TEST_DATABASE_URL is set.
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { createDb, type Db } from '#db/client.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { pgliteBackend } from '#local/neon/pglite-backend.ts';
import { postgresBackend } from '#local/neon/postgres-backend.ts';
import type { SqlBackend } from '#local/neon/sql-backend.ts';
import { freshPostgresDatabase } from './postgres.ts';

export type TestDatabase = { db: Db; databaseUrl: string; close(): Promise<void> };

/** One request the database received: its statements (a batch's, in order, or one). */
export type HeardRequest = { query: string; params: unknown[] }[];

/** `heard`: told every request the database receives, as it arrives (what a test checks SQL by). */
export async function openTestDatabase(
  options: { heard?: (request: HeardRequest) => void } = {},
): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = inject('databaseTemplate');
  const fresh = serverUrl ? await freshPostgresDatabase(serverUrl, 'test', template) : undefined;
  const backend = fresh
    ? postgresBackend(fresh.url)
    : await pgliteBackend({ loadDataDir: new Blob([await readFile(template)]) });
  const { heard } = options;
  const endpoint = await startLocalNeon({ backend: heard ? hearing(backend, heard) : backend });
  const { databaseUrl } = endpoint;
  return {
    db: createDb(databaseUrl),
    databaseUrl,
    async close() {
      await endpoint.close();
      await backend.close();
      await fresh?.drop();
    },
  };
}

/** The backend, telling `heard` of each request before running it. */
function hearing(backend: SqlBackend, heard: (request: HeardRequest) => void): SqlBackend {
  return {
    query(query, params, signal) {
      heard([{ query, params }]);
      return backend.query(query, params, signal);
    },
    batch(queries, options, signal) {
      heard(queries);
      return backend.batch(queries, options, signal);
    },
    noteEndpoint: backend.noteEndpoint?.bind(backend),
    close: () => backend.close(),
  };
}

/**
 * The database, running `meanwhile` once its first batch has answered: what another request does
 * between a change's read and its write, made to happen there on PGlite too.
 */
export function betweenReadAndWrite(db: Db, meanwhile: () => Promise<unknown>): Db {
  let waiting = true;
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key !== 'batch') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (waiting) {
          waiting = false;
          await meanwhile();
        }
        return answer;
      };
    },
  });
}
