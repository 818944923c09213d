// One embedded database, one owner: a lock file beside the PGlite data directory, like
// PostgreSQL's postmaster.pid. Two processes writing one data directory corrupt it, so a second
// process stops at once and says who holds it; a lock left by a process that died is taken over.
// The owner records its local Neon endpoint's connection string there (the file is readable by
// its user only, like ~/.pgpass), so a command such as make-operator goes through the running
// shop's endpoint instead of opening the directory a second time (decision 0061).
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { LocalSetupError } from './setup-error.ts';

type Owner = {
  pid: number;
  command: string;
  startedAt: string;
  port?: number;
  /** The owner's local Neon endpoint, with its password: only this user can read the file. */
  databaseUrl?: string;
};

export type DataDirLock = {
  /**
   * Records the local Neon endpoint's connection string: a refused process says where the owner
   * listens, and a command can go through it (runningEndpoint).
   */
  noteEndpoint(databaseUrl: string): Promise<void>;
  release(): Promise<void>;
};

/** Lock files this process holds (a second open in the same process is refused too). */
const held = new Set<string>();

export function lockFileOf(dataDir: string): string {
  return `${resolve(dataDir)}.lock`;
}

/** Takes the lock on `dataDir` or throws LocalSetupError naming the process that holds it. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockFile = lockFileOf(dataDir);
  await mkdir(dirname(lockFile), { recursive: true }); // .data/ on a fresh clone
  const owner: Owner = {
    pid: process.pid,
    command: currentCommand(),
    startedAt: new Date().toISOString(),
  };
  await writeAtomically(lockFile, owner, true, dataDir);
  held.add(lockFile);
  const releaseOnExit = () => removeIfOurs(lockFile);
  process.on('exit', releaseOnExit);
  return {
    async noteEndpoint(databaseUrl) {
      owner.port = Number(new URL(databaseUrl).port);
      owner.databaseUrl = databaseUrl;
      await writeAtomically(lockFile, owner, false, dataDir);
    },
    async release() {
      process.off('exit', releaseOnExit);
      removeIfOurs(lockFile);
    },
  };
}

/** Creates (`create`) or replaces the lock file; its content is complete from the first instant. */
async function writeAtomically(
  lockFile: string,
  owner: Owner,
  create: boolean,
  dataDir: string,
): Promise<void> {
  const draft = `${lockFile}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  try {
    if (!create) return await rename(draft, lockFile);
    // link() fails with EEXIST when the lock exists: atomic, like open(O_CREAT | O_EXCL).
    for (let attempt = 0; ; attempt++) {
      try {
        return await link(draft, lockFile);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
      }
      const holder = await readOwner(lockFile);
      if (holder && isHeld(holder, lockFile)) throw inUse(dataDir, holder);
      // A stale lock (its process is gone): take it over, as PostgreSQL does with postmaster.pid
      // (and with its narrow race: two processes taking over the same stale lock at once).
      await unlink(lockFile).catch(() => undefined);
    }
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/**
 * The endpoint of the process that holds `dataDir` now (`npm start`, say), or null when none
 * does, or its owner recorded none (it is still starting), or the holder is this process.
 */
export async function runningEndpoint(
  dataDir: string,
): Promise<{ databaseUrl: string; pid: number } | null> {
  const lockFile = lockFileOf(dataDir);
  const owner = await readOwner(lockFile);
  if (!owner?.databaseUrl || owner.pid === process.pid || !isHeld(owner, lockFile)) return null;
  return { databaseUrl: owner.databaseUrl, pid: owner.pid };
}

async function readOwner(lockFile: string): Promise<Owner | undefined> {
  try {
    const owner = JSON.parse(await readFile(lockFile, 'utf8')) as Owner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined; // gone meanwhile, or not ours to read: treated as stale
  }
}

/** Whether the lock's process still runs (our own pid: only if this process took the lock). */
function isHeld(owner: Owner, lockFile: string): boolean {
  if (owner.pid === process.pid) return held.has(lockFile);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

function removeIfOurs(lockFile: string): void {
  held.delete(lockFile);
  try {
    const owner = JSON.parse(readFileSync(lockFile, 'utf8')) as Owner;
    if (owner.pid === process.pid) unlinkSync(lockFile);
  } catch {
    // already gone
  }
}

function inUse(dataDir: string, owner: Owner): LocalSetupError {
  const where = owner.port ? `, local Neon endpoint on port ${owner.port}` : '';
  const since = new Date(owner.startedAt).toLocaleString();
  const self = owner.pid === process.pid ? ' (this process)' : '';
  return new LocalSetupError(
    `The local database ${dataDir} is in use by process ${owner.pid}${self} (${owner.command}${where}, since ${since}). ` +
      `Stop that process first, or use another directory: PGLITE_DIR=.data/pglite-2 npm start`,
  );
}

function currentCommand(): string {
  const [, script = '', ...args] = process.argv; // `node -e` has no script
  const shown = ['node', relative(process.cwd(), script), ...args].join(' ').trim();
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}
