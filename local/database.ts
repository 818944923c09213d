// Starts the local Neon endpoint over embedded PGlite (default) or a real PostgreSQL server,
// migrates it and (optionally) seeds the demo catalogue. Used by start, migrate, seed, tests, bench.
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { forgetSeededAdminPhone, seedDemoCatalogue } from '#db/seed.ts';
import { pgliteBackend, postgresBackend, startLocalNeon } from './neon-endpoint.ts';

export type LocalDatabase = {
  /** What the Worker gets as DATABASE_URL: a loopback URL that names the endpoint. */
  databaseUrl: string;
  db: Db;
  backendName: string;
  close(): Promise<void>;
};

/** The embedded database's directory: $PGLITE_DIR, else .data/pglite (relative to the project). */
export function localDataDir(): string {
  return process.env.PGLITE_DIR || '.data/pglite';
}

/**
 * Throws LocalSetupError (one line for the developer) when the data directory is in use by
 * another process, cannot be opened, or LOCAL_NEON_PORT is taken.
 */
export async function startLocalDatabase(options: {
  postgresUrl?: string;
  pgliteDir?: string;
  port?: number;
  migrate?: boolean;
  seed?: boolean;
}): Promise<LocalDatabase> {
  const pgliteDir = options.pgliteDir ?? localDataDir();
  const backend = options.postgresUrl
    ? postgresBackend(options.postgresUrl)
    : await pgliteBackend({ dataDir: pgliteDir });
  let endpoint: Awaited<ReturnType<typeof startLocalNeon>> | undefined;
  const close = async () => {
    await endpoint?.close();
    await backend.close();
  };
  try {
    // A new password per start: only this process's Worker (given databaseUrl) gets in.
    const password = randomBytes(18).toString('base64url');
    endpoint = await startLocalNeon({ backend, port: options.port ?? 0, password });
    const db = createDb(endpoint.databaseUrl);
    if (options.migrate !== false) await migrateDatabase(db);
    if (options.seed) {
      await forgetSeededAdminPhone(db);
      await seedDemoCatalogue(db);
    }
    return {
      databaseUrl: endpoint.databaseUrl,
      db,
      backendName: options.postgresUrl
        ? `PostgreSQL (${redact(options.postgresUrl)})`
        : `embedded PGlite (${pgliteDir})`,
      close,
    };
  } catch (error) {
    await close(); // releases the data directory for the next try
    throw error;
  }
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
