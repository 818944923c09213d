// integration global setup: one migrated template database per run; each test file then starts
// from a copy of it (tests/support/test-database.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { pgliteBackend } from '#local/neon/pglite-backend.ts';
import { postgresBackend } from '#local/neon/postgres-backend.ts';
import { admin, freshPostgresDatabase } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a dump file of the migrated template. PostgreSQL: the template database's name. */
    databaseTemplate: string;
  }
}

let cleanup: () => Promise<void> = async () => {};

export async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = await freshPostgresDatabase(serverUrl, 'template');
    const backend = postgresBackend(template.url);
    await migrateThrough(backend);
    await backend.close();
    // A template must have no connections while it is copied.
    await admin(serverUrl, `alter database ${template.name} with is_template true`);
    project.provide('databaseTemplate', template.name);
    cleanup = async () => {
      await admin(serverUrl, `alter database ${template.name} with is_template false`);
      await template.drop();
    };
  } else {
    const backend = await pgliteBackend();
    await migrateThrough(backend);
    const dir = await mkdtemp(join(tmpdir(), 'duuka-template-'));
    const file = join(dir, 'template.tar.gz');
    await writeFile(file, Buffer.from(await (await backend.dumpDataDir()).arrayBuffer()));
    await backend.close();
    project.provide('databaseTemplate', file);
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
}

export async function teardown() {
  await cleanup();
}

async function migrateThrough(backend: Parameters<typeof startLocalNeon>[0]['backend']) {
  // The template is made at no distance, whatever LOCAL_DB_LATENCY_MS asks of the tests.
  const endpoint = await startLocalNeon({ backend, latencyMs: 0 });
  try {
    await migrateDatabase(createDb(endpoint.databaseUrl));
  } finally {
    await endpoint.close();
  }
}
