// e2e global setup: a seeded database behind the local Neon endpoint, the production build, and
// `vite preview` serving it in workerd. Tests get the shop's URL with inject('shopUrl').
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PreviewServer, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { buildForPreview } from '#local/build.ts';
import { type LocalDatabase, startLocalDatabase } from '#local/database.ts';
import { type LocalFakes, startLocalFakes } from '#local/fakes/index.ts';
import { freePort } from '#local/free-port.ts';
import { localAccountSecrets } from '#local/secrets.ts';
import { WORKER_VARIABLES } from '#server/env.ts';
import { freshPostgresDatabase } from './postgres.ts';

/** The social pages the browser tests' shop is configured with. */
const SOCIAL_LINKS = 'https://www.instagram.com/duuka.ug, https://www.tiktok.com/@duuka.ug';
/** The shop's bank account for transfers, as an operator would configure it. */
const BANK_TRANSFER_DETAILS =
  'Stanbic Bank Uganda, Kampala Road branch · Account name: duuka Ltd · Account number: 9030012345678 · Swift: SBICUGKX';

declare module 'vitest' {
  export interface ProvidedContext {
    shopUrl: string;
    databaseUrl: string;
    /** The outside services' fakes: the Worker variables pointing at them (base URLs). */
    fakeEnv: Record<string, string>;
  }
}

let server: PreviewServer | undefined;
let database: LocalDatabase | undefined;
let fakes: LocalFakes | undefined;
let cleanup: (() => Promise<void>) | undefined;

export async function setup(project: TestProject) {
  process.env.WRANGLER_SEND_METRICS = 'false';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL, 'e2e');
    database = await startLocalDatabase({ postgresUrl: fresh.url, seed: true });
    cleanup = fresh.drop;
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'duuka-e2e-'));
    database = await startLocalDatabase({ pgliteDir: dir, seed: true });
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
  // The build `npm run preview` makes (no Worker variable frozen in, production mode).
  await buildForPreview({ logLevel: 'warn' });
  const port = Number(process.env.E2E_PORT ?? (await freePort()));
  // Only the test's own Worker variables, whatever the shell has: verification links point at
  // this server; mails land in the outbox table.
  for (const name of WORKER_VARIABLES) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, localAccountSecrets(`http://127.0.0.1:${port}`));
  process.env.DATABASE_URL = database.databaseUrl;
  fakes = await startLocalFakes();
  Object.assign(process.env, fakes.env);
  // The operator's desk opens for this address (tests/support/shoppers.ts OPERATOR_EMAIL).
  process.env.OPERATOR_EMAILS = 'operator@example.ug';
  // The shop's social pages, as an operator would configure them (tests/e2e/about-contact.test.ts).
  process.env.SOCIAL_LINKS = SOCIAL_LINKS;
  process.env.BANK_TRANSFER_DETAILS = BANK_TRANSFER_DETAILS;
  // Tests change the catalogue and read it back at once: no edge cache for anonymous pages here
  // (server/http/page-cache.test.ts covers it; the bench and the soak run with it on).
  process.env.PAGE_CACHE_SECONDS = '0';
  server = await preview({ preview: { port, strictPort: true }, logLevel: 'warn' });
  project.provide('shopUrl', `http://127.0.0.1:${port}`);
  project.provide('databaseUrl', database.databaseUrl);
  project.provide('fakeEnv', fakes.env);
}

export async function teardown() {
  await server?.close();
  await fakes?.close();
  await database?.close();
  await cleanup?.();
}
