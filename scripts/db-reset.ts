// `npm run db:reset`: moves the embedded database ($PGLITE_DIR, else .data/pglite) aside to
// <dir>-damaged-<time>, so the next `npm start` makes a fresh one (migrated and seeded). Refused
// while a running process holds the directory; nothing is deleted.
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { normalize } from 'node:path';
import { lockDataDir } from '#local/data-dir-lock.ts';
import { localDataDir } from '#local/database.ts';
import { LocalSetupError } from '#local/setup-error.ts';

const dataDir = normalize(localDataDir()).replace(/[\\/]+$/, '');
try {
  const lock = await lockDataDir(dataDir);
  try {
    if (!existsSync(dataDir)) {
      console.log(`No database at ${dataDir}: nothing to reset. npm start makes a fresh one.`);
    } else {
      const aside = `${dataDir}-damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(dataDir, aside);
      console.log(`Moved ${dataDir} to ${aside}. npm start makes a fresh database.`);
    }
  } finally {
    await lock.release();
  }
} catch (error) {
  if (!(error instanceof LocalSetupError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
