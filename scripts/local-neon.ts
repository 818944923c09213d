// `node scripts/local-neon.ts`: serves Neon's SQL-over-HTTP protocol for PostgreSQL at
// $DATABASE_URL, else embedded PGlite at .data/pglite, on $LOCAL_NEON_PORT (default: a free port).
import { pgliteBackend, postgresBackend, startLocalNeon } from '#local/neon-endpoint.ts';

const databaseUrl = process.env.DATABASE_URL;
const backend = databaseUrl
  ? postgresBackend(databaseUrl)
  : await pgliteBackend({ dataDir: '.data/pglite' });
const server = await startLocalNeon({ backend, port: Number(process.env.LOCAL_NEON_PORT ?? 0) });
console.log(
  `local-neon: ${databaseUrl ? 'PostgreSQL at DATABASE_URL' : 'PGlite at .data/pglite'} on ${server.url}`,
);
const stop = async () => {
  await server.close();
  await backend.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
