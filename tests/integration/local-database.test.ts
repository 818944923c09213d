// One embedded database, one owner: the data directory's lock (a second process is refused in
// one line, a dead owner's lock is taken over), a damaged directory, and `npm run db:reset`.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir, lockFileOf } from '#local/data-dir-lock.ts';
import { type LocalDatabase, startLocalDatabase, whatHappened } from '#local/database.ts';
import { LocalSetupError } from '#local/setup-error.ts';

let dir: string;
let dataDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'duuka-data-dir-'));
  dataDir = join(dir, 'pglite');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `node <script>` (or `node -e <code>`) in the project with PGLITE_DIR set to our directory. */
function node(args: string[]): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: process.cwd(),
    env: { ...process.env, PGLITE_DIR: dataDir, DATABASE_URL: '', NEON_DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function finished(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolveExit) => child.on('exit', resolveExit));
  return { code, stdout, stderr };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}

async function selectOne(database: LocalDatabase) {
  return (await database.db.execute(sql`select 1 as one`)).rows;
}

// Each test starts the embedded database (and migrates it) up to three times and spawns node:
// 16 s alone, past the 30 s default when the whole suite shares two cores.
describe('the embedded database’s data directory', { timeout: 120_000 }, () => {
  it('has one owner: a second process stops at once with one line; the first keeps serving', async () => {
    const first = await startLocalDatabase({ pgliteDir: dataDir, migrate: false });
    try {
      const port = new URL(first.databaseUrl).port;
      const started = Date.now();
      const second = await finished(node(['scripts/db-migrate.ts'])); // npm run db:migrate
      const tookMs = Date.now() - started;
      expect(second.code).not.toBe(0);
      const line = second.stderr.split('\n').find((l) => l.includes('is in use by process'));
      expect(line).toContain(
        `The local database ${dataDir} is in use by process ${process.pid} (node `,
      );
      expect(line).toContain(`local Neon endpoint on port ${port}, since `);
      expect(line).toContain(
        'Stop that process first, or use another directory: PGLITE_DIR=.data/pglite-2 npm start',
      );
      expect(tookMs).toBeLessThan(15_000); // no PGlite was opened: only Node's start-up

      // In this process too: a second PGlite on the directory is refused.
      const again = await rejection(startLocalDatabase({ pgliteDir: dataDir, migrate: false }));
      expect(again).toBeInstanceOf(LocalSetupError);
      expect(again.message).toContain(`is in use by process ${process.pid} (this process)`);

      expect(await selectOne(first)).toEqual([{ one: 1 }]);
    } finally {
      await first.close();
    }
    expect(existsSync(lockFileOf(dataDir))).toBe(false); // released on close

    const next = await startLocalDatabase({ pgliteDir: dataDir, migrate: false });
    expect(await selectOne(next)).toEqual([{ one: 1 }]);
    await next.close();
  });

  it('takes over the lock of a process that died without releasing it', async () => {
    const owner = node([
      '--input-type=module',
      '-e',
      "import { startLocalDatabase } from '#local/database.ts';" +
        'await startLocalDatabase({ migrate: false }); console.log("serving"); setInterval(() => {}, 1000);',
    ]);
    const exited = finished(owner);
    await new Promise<void>((resolveReady, rejectReady) => {
      owner.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('serving')) resolveReady();
      });
      owner.on('exit', () => rejectReady(new Error('the owner stopped before serving')));
    });
    const lock = JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(owner.pid);
    owner.kill('SIGKILL'); // no exit handler runs: the lock file stays behind
    await exited;
    expect(existsSync(lockFileOf(dataDir))).toBe(true);

    const next = await startLocalDatabase({ pgliteDir: dataDir, migrate: false });
    try {
      const taken = JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')) as { pid: number };
      expect(taken.pid).toBe(process.pid);
      expect(await selectOne(next)).toEqual([{ one: 1 }]);
    } finally {
      await next.close();
    }
  });

  it('says in one line when the directory cannot be opened; db:reset moves it aside', async () => {
    const created = await startLocalDatabase({ pgliteDir: dataDir });
    await created.close();
    // Damage it the way PGlite then fails: its write-ahead log is gone.
    for (const file of readdirSync(join(dataDir, 'pg_wal'))) {
      if (/^[0-9A-F]{24}$/.test(file)) rmSync(join(dataDir, 'pg_wal', file));
    }

    const damaged = await rejection(startLocalDatabase({ pgliteDir: dataDir }));
    expect(damaged).toBeInstanceOf(LocalSetupError);
    expect(damaged.message).toMatch(
      new RegExp(
        `^The local database ${dataDir} could not be opened \\(RuntimeError: Aborted\\(\\).*\\)\\. ` +
          'If it is damaged, `npm run db:reset` moves it aside and starts a fresh one\\.$',
      ),
    );
    expect(damaged.message).not.toContain('\n');
    expect(existsSync(lockFileOf(dataDir))).toBe(false); // the failed start let go of it

    // Refused while a live process holds the directory.
    const held = await lockDataDir(dataDir);
    const refused = await finished(node(['scripts/db-reset.ts']));
    await held.release();
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(`^The local database ${dataDir} is in use by process ${process.pid} `),
    ]);
    expect(existsSync(dataDir)).toBe(true);

    const reset = await finished(node(['scripts/db-reset.ts']));
    expect([reset.code, reset.stderr]).toEqual([0, '']);
    const aside = readdirSync(dir).filter((name) => name.startsWith('pglite-damaged-'));
    expect(aside).toHaveLength(1);
    expect(reset.stdout).toContain(`Moved ${dataDir} to ${join(dir, aside[0] ?? '')}.`);
    expect(existsSync(dataDir)).toBe(false);

    const fresh = await startLocalDatabase({ pgliteDir: dataDir }); // created and migrated again
    try {
      const products = await fresh.db.execute(sql`select count(*)::int as n from products`);
      expect(products.rows).toEqual([{ n: 0 }]);
    } finally {
      await fresh.close();
    }
  });

  it('says what a start did: migrations applied and the demo added once, then nothing', async () => {
    const first = await startLocalDatabase({ pgliteDir: dataDir, seed: true });
    try {
      expect(first.migrationsApplied).toBeGreaterThan(10);
      expect(first.seeded).toBe(true);
      expect(whatHappened(first)).toBe(
        `${first.migrationsApplied} migrations applied, demo catalogue added`,
      );
    } finally {
      await first.close();
    }
    const again = await startLocalDatabase({ pgliteDir: dataDir, seed: true });
    try {
      expect([again.migrationsApplied, again.seeded]).toEqual([0, false]);
      expect(whatHappened(again)).toBe(
        'up to date, your catalogue kept (the demo goes only into an empty shop)',
      );
    } finally {
      await again.close();
    }
    expect(whatHappened({ migrationsApplied: 1, seeded: null })).toBe('1 migration applied');
  });
});

describe('npm run make-operator beside a running shop', { timeout: 120_000 }, () => {
  const email = 'amina.owner@example.ug';
  const roleIn = async (database: LocalDatabase) =>
    (await database.db.execute(sql`select role from "user" where email = ${email}`)).rows;

  it('gives the role through the running shop’s endpoint, then on the directory itself', async () => {
    // As `npm start` does: the directory held, migrated, its endpoint serving.
    const shop = await startLocalDatabase({ pgliteDir: dataDir });
    try {
      await shop.db.execute(sql`
        insert into "user" (id, name, email, email_verified)
        values ('amina', 'Amina Nansubuga', ${email}, true)`);
      const made = await finished(node(['scripts/make-operator.ts', email, '--owner']));
      expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
      expect(made.stdout).toContain(`${email} is now an owner at the desk`);
      expect(await roleIn(shop)).toEqual([{ role: 'owner' }]);
      // It went through the endpoint the lock names, which only this user may read.
      const lock = JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')) as {
        databaseUrl?: string;
      };
      expect(lock.databaseUrl).toBe(shop.databaseUrl);
      expect(statSync(lockFileOf(dataDir)).mode & 0o077).toBe(0);
    } finally {
      await shop.close();
    }

    // Nothing runs: the command opens the directory itself, and lets it go.
    const removed = await finished(node(['scripts/make-operator.ts', email, '--remove']));
    expect({ code: removed.code, stderr: removed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
    const after = await startLocalDatabase({ pgliteDir: dataDir, migrate: false });
    try {
      expect(await roleIn(after)).toEqual([{ role: 'customer' }]);
    } finally {
      await after.close();
    }
  });
});
