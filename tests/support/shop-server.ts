// Browser tests' global setup: a seeded database behind the local Neon endpoint, the production
// build, and `vite preview` serving it in workerd, once per worker. Tests reach theirs with shop().
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildForPreview } from '#local/build.ts';
import { chromiumLaunch } from '#local/chromium.ts';
import { type LocalDatabase, startLocalDatabase } from '#local/database.ts';
import { type LocalFakes, startLocalFakes } from '#local/fakes/index.ts';
import { freePort } from '#local/free-port.ts';
import { localAccountSecrets } from '#local/secrets.ts';
import { WORKER_VARIABLES } from '#server/env.ts';
import { freshPostgresDatabase } from './postgres.ts';
import type { Shop } from './shop.ts';

/** The social pages the browser tests' shop is configured with. */
const SOCIAL_LINKS = 'https://www.instagram.com/duuka.ug, https://www.tiktok.com/@duuka.ug';
/** The shop's bank account for transfers, as the desk would configure it. */
const BANK_TRANSFER_DETAILS =
  'Stanbic Bank Uganda, Kampala Road branch · Account name: duuka Ltd · Account number: 9030012345678 · Swift: SBICUGKX';

/**
 * A shop per browser-test worker (the e2e project's maxWorkers, vitest.config.ts): each its own
 * seeded database, fakes and server, all on the one production build. Tests reach theirs with
 * shop() (./shop.ts).
 */
export async function setup(project: TestProject) {
  process.env.WRANGLER_SEND_METRICS = 'false';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
  // Only the tests' own Worker variables, whatever the shell has (the fakes read it too).
  for (const name of WORKER_VARIABLES) Reflect.deleteProperty(process.env, name);
  const stops: (() => Promise<unknown>)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    // The build `npm run preview` makes (no Worker variable frozen in, production mode).
    await buildForPreview({ logLevel: 'warn' });
    // The browser, found (and the npm one unpacked) once here, before the workers want it.
    await chromiumLaunch();
    const shops: Shop[] = [];
    for (let index = 0; index < project.config.maxWorkers; index++) {
      shops.push(await startShop(index, stops));
    }
    project.provide('shops', shops);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** One shop: its database, the fakes, and a preview server with the Worker's variables. */
async function startShop(index: number, stops: (() => Promise<unknown>)[]): Promise<Shop> {
  let database: LocalDatabase;
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL, 'e2e');
    stops.push(fresh.drop);
    database = await startLocalDatabase({ postgresUrl: fresh.url, seed: true });
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'duuka-e2e-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    database = await startLocalDatabase({ pgliteDir: dir, seed: true });
  }
  stops.push(() => database.close());
  // E2E_PORT for the first shop, the next port for the second...
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) + index : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fakes: LocalFakes = await startLocalFakes({ shopOrigin: url });
  stops.push(() => fakes.close());
  const server = await servePreview(port, {
    ...localAccountSecrets(url), // verification links point at this server; mails land in the outbox table
    DATABASE_URL: database.databaseUrl,
    ...fakes.env,
    // The operator's desk opens for this address (tests/support/shoppers.ts OPERATOR_EMAIL).
    OPERATOR_EMAILS: 'operator@example.ug',
    // The shop's social pages, as the desk would configure them (about-contact.test.ts).
    SOCIAL_LINKS,
    BANK_TRANSFER_DETAILS,
    // Tests change the catalogue and read it back at once: no edge cache for anonymous pages
    // here (server/http/page-cache.test.ts covers it; the bench and the soak run with it on).
    PAGE_CACHE_SECONDS: '0',
  });
  stops.push(server.stop);
  return { url, databaseUrl: database.databaseUrl, fakeEnv: fakes.env };
}

/**
 * `vite preview` of the build in its own process, with exactly these Worker variables (none of
 * the shell's): two previews in one process share their variables, the last one's winning.
 */
async function servePreview(port: number, variables: Record<string, string>) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...variables, NO_COLOR: '1' };
  for (const name of WORKER_VARIABLES) if (!(name in variables)) delete env[name];
  const vite = fileURLToPath(new URL('../../node_modules/vite/bin/vite.js', import.meta.url));
  const child = spawn(process.execPath, [vite, 'preview', '--port', String(port), '--strictPort'], {
    env,
    detached: true, // its own process group: Node and workerd stop together
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`:${port}`)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`vite preview ended (${code}):\n${output}`)));
  });
  const stop = async () => {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  return { stop };
}
