// A fresh, migrated database for one test file, reached like production: the Neon driver over
// HTTP, through the local endpoint. PGlite by default; PostgreSQL when TEST_DATABASE_URL is set.
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { createDb, type Db } from '#db/client.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { pgliteBackend } from '#local/neon/pglite-backend.ts';
import { postgresBackend } from '#local/neon/postgres-backend.ts';
import { freshPostgresDatabase } from './postgres.ts';

export type TestDatabase = { db: Db; databaseUrl: string; close(): Promise<void> };

export async function openTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = inject('databaseTemplate');
  const fresh = serverUrl ? await freshPostgresDatabase(serverUrl, 'test', template) : undefined;
  const backend = fresh
    ? postgresBackend(fresh.url)
    : await pgliteBackend({ loadDataDir: new Blob([await readFile(template)]) });
  const endpoint = await startLocalNeon({ backend });
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
