// Starts the local Neon endpoint over embedded PGlite (default) or a real PostgreSQL server,
// migrates it and (optionally) seeds the demo catalogue. Used by start, migrate, seed, tests, bench.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { forgetSeededAdminPhone, seedDemoCatalogue } from '#db/seed.ts';
import { runningEndpoint } from './data-dir-lock.ts';
import { latencyFromEnv } from './distance.ts';
import { startLocalNeon } from './neon/endpoint.ts';
import { pgliteBackend } from './neon/pglite-backend.ts';
import { postgresBackend } from './neon/postgres-backend.ts';

export type LocalDatabase = {
  /** What the Worker gets as DATABASE_URL: a loopback URL that names the endpoint. */
  databaseUrl: string;
  db: Db;
  backendName: string;
  /** Migrations applied by this start (0: the database was up to date, or not migrated). */
  migrationsApplied: number;
  /** The demo catalogue went in now (only ever into an empty shop); null: seeding not asked. */
  seeded: boolean | null;
  /** LOCAL_DB_LATENCY_MS: how far away the database plays (ms per request, 0: no distance). */
  latencyMs: number;
  close(): Promise<void>;
};

/** What a start did to the database, in words: "2 migrations applied, demo catalogue added". */
export function whatHappened(database: Pick<LocalDatabase, 'migrationsApplied' | 'seeded'>) {
  const n = database.migrationsApplied;
  const schema = n === 0 ? 'up to date' : `${n} migration${n === 1 ? '' : 's'} applied`;
  if (database.seeded === null) return schema;
  return database.seeded
    ? `${schema}, demo catalogue added`
    : `${schema}, your catalogue kept (the demo goes only into an empty shop)`;
}

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
    const latencyMs = latencyFromEnv(); // checked before anything starts
    // Migrated and seeded at no distance; then each request is held as far as Neon would be.
    endpoint = await startLocalNeon({ backend, port: options.port ?? 0, password, latencyMs: 0 });
    const db = createDb(endpoint.databaseUrl);
    const migrationsApplied = options.migrate !== false ? await migrateDatabase(db) : 0;
    let seeded: boolean | null = null;
    if (options.seed) {
      await forgetSeededAdminPhone(db);
      seeded = await seedDemoCatalogue(db);
    }
    endpoint.setLatency(latencyMs);
    return {
      databaseUrl: endpoint.databaseUrl,
      db,
      backendName: options.postgresUrl
        ? `PostgreSQL (${redact(options.postgresUrl)})`
        : `embedded PGlite (${pgliteDir})`,
      migrationsApplied,
      seeded,
      latencyMs,
      close,
    };
  } catch (error) {
    await close(); // releases the data directory for the next try
    throw error;
  }
}

/**
 * The local database for a one-off command (make-operator): through the running shop's endpoint
 * when `npm start` (or any process) holds the embedded database's directory, since a second
 * process may not open it; else the directory itself, migrated, as startLocalDatabase does.
 */
export async function commandDatabase(options: {
  postgresUrl?: string;
}): Promise<Pick<LocalDatabase, 'db' | 'backendName' | 'close'>> {
  const pgliteDir = localDataDir();
  const running = options.postgresUrl ? null : await runningEndpoint(pgliteDir);
  if (running) {
    const db = createDb(running.databaseUrl);
    try {
      await db.execute(sql`select 1`);
      return {
        db,
        backendName: `embedded PGlite (${pgliteDir}), through process ${running.pid}'s endpoint`,
        close: async () => {},
      };
    } catch {
      // Stopped since its lock was read: the directory is free to open (or says who has it).
    }
  }
  return startLocalDatabase({ ...options, pgliteDir });
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
