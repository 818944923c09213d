import { migrate } from 'drizzle-orm/neon-http/migrator';
import type { Db } from './client.ts';

export const MIGRATIONS_FOLDER = new URL('./migrations', import.meta.url).pathname;

/** Applies the committed drizzle-kit migrations (from Node: dev start, tests, CI, deploys). */
export async function migrateDatabase(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}
