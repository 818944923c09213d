// `npm run db:check`: refuses (exit 1, one line) when the database is behind the code's migrations,
// so a deploy never runs new code on an old schema. NEON_DATABASE_URL for Neon; otherwise
// DATABASE_URL (a PostgreSQL server through the local endpoint) or the local database.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '#db/client.ts';
import { MIGRATIONS_FOLDER } from '#db/migrate.ts';
import { runCommand } from '#local/command.ts';
import { startLocalDatabase } from '#local/database.ts';
import { LocalSetupError } from '#local/setup-error.ts';

type Journal = { entries: { tag: string; when: number }[] };

/** The committed migrations not yet applied to `db`, by tag (empty: up to date). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const journal = JSON.parse(
    await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  let applied = 0;
  try {
    const result = await db.execute<{ last: string | null }>(
      sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
    );
    applied = Number(result.rows[0]?.last ?? 0);
  } catch {
    applied = 0; // no migrations table: nothing applied
  }
  return journal.entries.filter((entry) => entry.when > applied).map((entry) => entry.tag);
}

if (import.meta.main) {
  await runCommand(async () => {
    const remote = process.env.NEON_DATABASE_URL;
    const database = remote
      ? { db: createDb(remote), close: async () => {} }
      : await startLocalDatabase({ postgresUrl: process.env.DATABASE_URL, migrate: false });
    try {
      const pending = await pendingMigrations(database.db);
      if (pending.length > 0) {
        throw new LocalSetupError(
          `The database is behind the code: ${pending.length} migration(s) not applied (${pending.join(', ')}). Run npm run db:migrate first.`,
        );
      }
      console.log('Database schema is up to date with the code.');
    } finally {
      await database.close();
    }
  });
}
