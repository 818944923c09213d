// e2e global setup: a seeded database behind the local Neon endpoint, the production build, and
// `vite preview` serving it in workerd. Tests get the shop's URL with inject('shopUrl').
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuilder, type PreviewServer, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { type LocalDatabase, startLocalDatabase } from '#local/database.ts';
import { freePort } from '#local/free-port.ts';
import { applyLocalAccountSecrets, withoutAccountSecrets } from '#local/secrets.ts';
import { freshPostgresDatabase } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    shopUrl: string;
    databaseUrl: string;
  }
}

let server: PreviewServer | undefined;
let database: LocalDatabase | undefined;
let cleanup: (() => Promise<void>) | undefined;

export async function setup(project: TestProject) {
  process.env.WRANGLER_SEND_METRICS = 'false';
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL, 'e2e');
    database = await startLocalDatabase({ postgresUrl: fresh.url, seed: true });
    cleanup = fresh.drop;
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'duuka-e2e-'));
    database = await startLocalDatabase({ pgliteDir: dir, seed: true });
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
  // Build without DATABASE_URL (a secret present at build time is frozen into dist/server/.dev.vars).
  Reflect.deleteProperty(process.env, 'DATABASE_URL');
  withoutAccountSecrets();
  // vitest runs with NODE_ENV=test, which Vite would keep for the build: import.meta.env.DEV
  // would then be true and dev-only code (e.g. /dev/mailbox) would ship. Build as production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  await (await createBuilder({ logLevel: 'warn', mode: 'production' })).buildApp();
  if (nodeEnv === undefined) Reflect.deleteProperty(process.env, 'NODE_ENV');
  else process.env.NODE_ENV = nodeEnv;
  process.env.DATABASE_URL = database.databaseUrl;
  const port = Number(process.env.E2E_PORT ?? (await freePort()));
  // Accounts: verification links point at this server; mails land in the outbox table.
  applyLocalAccountSecrets(`http://127.0.0.1:${port}`);
  server = await preview({ preview: { port, strictPort: true }, logLevel: 'warn' });
  project.provide('shopUrl', `http://127.0.0.1:${port}`);
  project.provide('databaseUrl', database.databaseUrl);
}

export async function teardown() {
  await server?.close();
  await database?.close();
  await cleanup?.();
}
