// `node scripts/local-neon.ts`: serves Neon's SQL-over-HTTP protocol for PostgreSQL at
// $DATABASE_URL, else embedded PGlite at $PGLITE_DIR (.data/pglite), on $LOCAL_NEON_PORT (default:
// a free port), and prints the connection string to give the driver.
import { startLocalDatabase } from '#local/database.ts';

const database = await startLocalDatabase({
  postgresUrl: process.env.DATABASE_URL,
  port: Number(process.env.LOCAL_NEON_PORT ?? 0),
  migrate: false,
});
console.log(`local-neon: ${database.backendName} at ${database.databaseUrl}`);
const stop = async () => {
  await database.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
