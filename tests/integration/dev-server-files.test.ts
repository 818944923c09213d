// The dev server (`npm start`) serves the project root: it must never hand out the embedded
// database, Wrangler's state, the local Node or secrets, however the path is asked for.
// Starts the real Vite dev server with the project's config (workerd included); it writes under
// .data/ and .wrangler/, so run it under the shared lock: flock /tmp/duuka-heavy.lock npx vitest ...
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#local/free-port.ts';

const root = process.cwd();
const probe = `probe-${randomBytes(4).toString('hex')}`;
const secret = `not-for-the-browser-${probe}`;
/** One file in each place that must stay private, as paths under the project root. */
const files = [
  `.data/${probe}/global/pg_control`,
  `.wrangler/${probe}/state.txt`,
  `.tools/${probe}/tool.txt`,
  `.dev.vars.${probe}`,
  `.env.${probe}`,
];

let server: ViteDevServer;
let origin: string;

beforeAll(async () => {
  for (const file of files) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), secret);
  }
  const port = await freePort();
  server = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    server: { port, strictPort: true, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  await server.listen();
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await server?.close();
  for (const dir of [`.data/${probe}`, `.wrangler/${probe}`, `.tools/${probe}`]) {
    await rm(join(root, dir), { recursive: true, force: true });
  }
  for (const file of files.slice(3)) await rm(join(root, file), { force: true });
});

describe('the dev server', () => {
  it('refuses the database, Wrangler state, tools and secrets in every form of path', async () => {
    for (const file of files) {
      for (const path of [
        `/${file}`,
        `/${file}?raw`,
        `/${file}?import&raw`,
        `/${file}?inline`,
        `/${file}?url`,
        `/@fs${root}/${file}?raw`,
        `/${file.replace('.', '%2e')}?raw`,
      ]) {
        const res = await fetch(`${origin}${path}`);
        const body = await res.text();
        expect(body, path).not.toContain(secret);
        expect(res.status, path).toBe(403);
      }
    }
  });

  it('still serves the app’s own files', async () => {
    const res = await fetch(`${origin}/app/styles.css?raw`);
    expect(res.status).toBe(200);
  });
});
