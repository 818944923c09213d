// Starts the local Neon endpoint over embedded PGlite (default) or a real PostgreSQL server,
// migrates it and (optionally) seeds the demo catalogue. Used by start, migrate, seed, tests, bench.
import { createDb, type Db } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { pgliteBackend, postgresBackend, startLocalNeon } from './neon-endpoint.ts';

export type LocalDatabase = {
  /** What the Worker gets as DATABASE_URL: a loopback URL that names the endpoint. */
  databaseUrl: string;
  db: Db;
  backendName: string;
  close(): Promise<void>;
};

export async function startLocalDatabase(options: {
  postgresUrl?: string;
  pgliteDir?: string;
  port?: number;
  migrate?: boolean;
  seed?: boolean;
}): Promise<LocalDatabase> {
  const backend = options.postgresUrl
    ? postgresBackend(options.postgresUrl)
    : await pgliteBackend({ dataDir: options.pgliteDir ?? '.data/pglite' });
  const endpoint = await startLocalNeon({ backend, port: options.port ?? 0 });
  const databaseUrl = `postgresql://duuka:local@127.0.0.1:${endpoint.port}/duuka`;
  const db = createDb(databaseUrl);
  if (options.migrate !== false) await migrateDatabase(db);
  if (options.seed) await seedDemoCatalogue(db);
  return {
    databaseUrl,
    db,
    backendName: options.postgresUrl
      ? `PostgreSQL (${redact(options.postgresUrl)})`
      : 'embedded PGlite',
    async close() {
      await endpoint.close();
      await backend.close();
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
