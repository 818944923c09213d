// The README's commands as a developer runs them: `npm run preview` on a fresh checkout (no dist/,
// no .data/, no .wrangler/, no .dev.vars, nothing in the environment) serves the shop. It builds
// and serves a copy of the working tree so the shared dist/ of the other browser tests is left
// alone; the copy's embedded database lives in the copy.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#local/free-port.ts';
import { WORKER_VARIABLES } from '#server/env.ts';
import { freshCopy } from '../support/fresh-copy.ts';

let copy = '';

/** A developer's shell: none of the Worker's variables, no test runner's settings. */
function developerShell(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(VITEST|NODE_ENV$|CLOUDFLARE_ENV$|PGLITE_DIR$|FORCE_COLOR$)/.test(name)) delete env[name];
  }
  for (const name of WORKER_VARIABLES) delete env[name];
  // Plain output to read the URL from: with CI set, Vite colours it (picocolors) even in a pipe.
  return { ...env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', ...extra };
}

/** Everything this file started, stopped at the end whatever happened. */
const children: ChildProcess[] = [];

type Running = { child: ChildProcess; output: () => string; url: string };

/** Starts a command in the copy, in its own process group (npm, Node, workerd stop together). */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(command, args, {
    cwd: copy,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = output.match(/(?:duuka is open at|Local:)\s+(http:\/\/\S+)/)?.[1];
      if (found) resolve(found.replace(/\/$/, '').replace('localhost', '127.0.0.1'));
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`${command} ended (${code}):\n${output}`)));
  });
  return { child, url, output: () => output };
}

async function stop(child: ChildProcess) {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timeout = new Promise((resolve) => setTimeout(resolve, 15_000, 'timeout'));
  if ((await Promise.race([exited, timeout])) === 'timeout') process.kill(-child.pid, 'SIGKILL');
}

async function get(base: string, path: string) {
  const response = await fetch(`${base}${path}`);
  return { path, status: response.status, html: await response.text() };
}

let preview: Running | undefined;
/** Another program on the debugger's usual port, as a developer's editor often is. */
let inspectorHolder: Server | undefined;

beforeAll(async () => {
  inspectorHolder = await new Promise<Server | undefined>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined)); // held already: just as good
    server.listen(9229, '127.0.0.1', () => resolve(server));
  });
  copy = await freshCopy();
  const port = await freePort();
  preview = await run('npm', ['run', 'preview'], developerShell({ PORT: String(port) }));
}, 300_000);

afterAll(async () => {
  inspectorHolder?.close();
  await Promise.allSettled(children.map(stop));
  if (copy) await rm(copy, { recursive: true, force: true });
}, 60_000);

describe('npm run preview on a fresh checkout', () => {
  it('serves the home page, the shop, a product page and the login page', async () => {
    const url = preview?.url ?? '';
    const home = await get(url, '/');
    const sitemap = await get(url, '/sitemap.xml');
    const productPath = sitemap.html.match(/<loc>[^<]*?(\/products\/[^<?]+)<\/loc>/)?.[1];
    expect(productPath, 'a product page in /sitemap.xml').toBeDefined();
    const pages = [
      home,
      await get(url, '/shop'),
      await get(url, productPath ?? '/products/x'),
      await get(url, '/login'),
    ];
    expect(pages.map(({ path, status }) => ({ path, status }))).toEqual(
      pages.map(({ path }) => ({ path, status: 200 })),
    );
    expect(home.html).toContain('Featured Collection');
  });

  it('froze none of the Worker variables into the build, and said nothing about them', () => {
    expect(existsSync(join(copy, 'dist', 'server', 'index.js'))).toBe(true);
    expect(existsSync(join(copy, 'dist', 'server', '.dev.vars'))).toBe(false);
    expect(preview?.output()).not.toMatch(/Missing required secrets|Configuration:/);
  });

  it('starts quietly: no offline Request.cf stack trace, and the test numbers beside the URL', async () => {
    // The first requests above have run: anything the runtime prints on them is out by now.
    const output = preview?.output() ?? '';
    expect(output).not.toMatch(/Request\.cf|ENOTFOUND|\bat \S+ \(/);
    expect(output).toContain('Mobile money test numbers: 0772 000 001 pays');
    // What it did to the new database, in words; no debugger port, none asked for (9229 is held).
    expect(output).toMatch(
      /Database: embedded PGlite \([^)]*\): \d+ migrations applied, demo catalogue added\./,
    );
    expect(output).not.toMatch(/inspector/i);
  });
});

describe('the same build with a wrong setting', () => {
  it('answers a 500 page with the generic text; only the log names the variable', async () => {
    if (preview) await stop(preview.child);
    // An optional variable (it must reach the Worker to be refused) with a wrong value.
    const port = await freePort();
    const wronglyConfigured = await run(
      join(copy, 'node_modules', '.bin', 'vite'),
      ['preview', '--port', String(port), '--strictPort'],
      developerShell({
        DATABASE_URL: 'postgresql://duuka:local@127.0.0.1:9/duuka',
        BETTER_AUTH_SECRET: 'duuka-local-development-secret-never-used-in-production',
        BETTER_AUTH_URL: `http://127.0.0.1:${port}`,
        MAIL_TRANSPORT: 'outbox',
        SUPPORT_EMAIL: 'care at duuka',
      }),
    );
    const home = await get(wronglyConfigured.url, '/');
    expect(home.status).toBe(500);
    expect(home.html).toContain('An unexpected error occurred.');
    expect(home.html).not.toMatch(/SUPPORT_EMAIL|Configuration/);
    await expect
      .poll(() => wronglyConfigured.output(), { timeout: 5_000 })
      .toContain('Configuration: SUPPORT_EMAIL must be an email address (got "care at duuka")');
  });
});
