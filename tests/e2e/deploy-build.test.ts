// `npm run deploy` as far as it can go here: the production build of a fresh copy, then
// `wrangler deploy --dry-run` on it (everything but the upload), so a config or bundle that
// Cloudflare would refuse fails here first.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKER_VARIABLES } from '#server/env.ts';
import { freshCopy } from '../support/fresh-copy.ts';

const run = promisify(execFile);
let copy = '';
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('the production build', () => {
  it('passes wrangler deploy --dry-run with its bindings, cron and previews', async () => {
    copy = await freshCopy();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      NO_COLOR: '1',
    };
    for (const name of [...WORKER_VARIABLES, 'CLOUDFLARE_ENV', 'NODE_ENV']) delete env[name];
    for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
    await run('npm', ['run', 'build'], { cwd: copy, env, timeout: 240_000 });
    const { stdout, stderr } = await run(
      'node',
      ['scripts/run.mjs', 'wrangler', 'deploy', '--dry-run', '--outdir', 'dist/dry-run'],
      { cwd: copy, env, timeout: 120_000 },
    );
    const output = `${stdout}${stderr}`;
    expect(output).toMatch(/--dry-run: exiting now/);
    expect(output).toMatch(/env\.AVATARS \(duuka-avatars\)/);
    expect(output).not.toMatch(/duuka-avatars-preview/);
  }, 400_000);
});
