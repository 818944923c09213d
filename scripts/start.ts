// `npm start`: local Neon endpoint (embedded PGlite unless DATABASE_URL names a PostgreSQL server),
// migrations, the demo catalogue on an empty database, then the shop in workerd through Vite.
// `--preview` serves the production build instead of the dev server.
import { createBuilder, createServer, preview } from 'vite';
import { startLocalDatabase } from '#local/database.ts';
import {
  applyLocalAccountSecrets,
  restoreAccountSecrets,
  withoutAccountSecrets,
} from '#local/secrets.ts';

const previewMode = process.argv.includes('--preview');
const port = Number(process.env.PORT ?? 3000);
process.env.WRANGLER_SEND_METRICS ??= 'false';

const database = await startLocalDatabase({
  postgresUrl: process.env.DATABASE_URL,
  port: process.env.LOCAL_NEON_PORT ? Number(process.env.LOCAL_NEON_PORT) : 0,
  seed: true,
});
console.log(`Database: ${database.backendName}, migrated and seeded.`);
// The Worker reads DATABASE_URL (a declared secret) from this process's environment.
process.env.DATABASE_URL = database.databaseUrl;

// Account secrets: the caller's, else local defaults (never present during the build).
const callersSecrets = withoutAccountSecrets();
if (previewMode) await createBuilder().then((builder) => builder.buildApp()); // client and Worker
restoreAccountSecrets(callersSecrets);
applyLocalAccountSecrets(`http://localhost:${port}`);
const server = previewMode
  ? await preview({ preview: { port, strictPort: true } })
  : await createServer({ server: { port, strictPort: true } }).then((s) => s.listen());

const url = server.resolvedUrls?.local[0] ?? `http://localhost:${port}/`;
console.log(`\n  duuka is open at ${url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    await server.close();
    await database.close();
    process.exit(0);
  });
}
