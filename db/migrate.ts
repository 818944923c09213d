import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/neon-http/migrator';
import type { Db } from './client.ts';

export const MIGRATIONS_FOLDER = new URL('./migrations', import.meta.url).pathname;

/**
 * Applies the committed drizzle-kit migrations (from Node: dev start, tests, CI, deploys) and
 * answers how many it applied now (0: the database was up to date).
 */
export async function migrateDatabase(db: Db): Promise<number> {
  const before = await appliedMigrations(db);
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return (await appliedMigrations(db)) - before;
}

/** The migrations drizzle has recorded (none on a new database, which has no record yet). */
async function appliedMigrations(db: Db): Promise<number> {
  // Two statements: a query naming the record table fails to parse where it does not exist.
  const table = await db.execute<{ found: boolean }>(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
  );
  if (!table.rows[0]?.found) return 0;
  const counted = await db.execute<{ applied: number }>(
    sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
  );
  return Number(counted.rows[0]?.applied ?? 0);
}
