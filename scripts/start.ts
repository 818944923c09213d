// `npm start`: local Neon endpoint (embedded PGlite unless DATABASE_URL names a PostgreSQL server),
// migrations, the demo catalogue on an empty database, then the shop in workerd through Vite.
// `--preview` (`npm run preview`) builds for production and serves that build instead.
import { createServer as createNetServer } from 'node:net';
import { createServer, preview } from 'vite';
import { adminPhone as demoAdminPhone } from '#db/seed-data.ts';
import { buildForPreview, LOCAL_WRANGLER_ENV } from '#local/build.ts';
import { runCommand } from '#local/command.ts';
import { startLocalDatabase, whatHappened } from '#local/database.ts';
import { applyFakeEnv, startLocalFakes } from '#local/fakes/index.ts';
import { applyLocalAccountSecrets } from '#local/secrets.ts';
import { LocalSetupError } from '#local/setup-error.ts';

const previewMode = process.argv.includes('--preview');
const port = Number(process.env.PORT ?? 3000);

await runCommand(async () => {
  process.env.WRANGLER_SEND_METRICS ??= 'false';
  // Request.cf (the visitor's country, colo...) comes from Cloudflare's servers; locally the
  // placeholder is enough, and fetching it offline printed a stack trace at every start.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
  await portFree(); // before the database and the build, not after
  const database = await startLocalDatabase({
    postgresUrl: process.env.DATABASE_URL,
    port: process.env.LOCAL_NEON_PORT ? Number(process.env.LOCAL_NEON_PORT) : 0,
    seed: true,
  });
  console.log(`Database: ${database.backendName}: ${whatHappened(database)}.`);
  if (database.latencyMs > 0) {
    console.log(
      `Database distance: every request held ${database.latencyMs} ms (LOCAL_DB_LATENCY_MS).`,
    );
  }
  try {
    // Built with no Worker variable in the environment (local/build.ts): they are passed below.
    if (previewMode) await buildForPreview({ devVars: true });
    // The Worker reads its variables from this process's environment (or a .dev.vars file),
    // through wrangler.toml's local environment (a preview build already is one).
    if (previewMode) Reflect.deleteProperty(process.env, 'CLOUDFLARE_ENV');
    else process.env.CLOUDFLARE_ENV = LOCAL_WRANGLER_ENV;
    process.env.DATABASE_URL = database.databaseUrl;
    applyLocalAccountSecrets(`http://localhost:${port}`);
    const fakes = await startLocalFakes();
    applyFakeEnv(fakes.env);
    // Order alerts go to the demo's admin number unless ADMIN_PHONE is set (the desk may set
    // another): the seed no longer stores one, so a configured number is never hidden.
    process.env.ADMIN_PHONE ||= demoAdminPhone;
    // Bank transfer shows the shop's account: locally a demo one, labelled so (set your own).
    process.env.BANK_TRANSFER_DETAILS ||=
      'DEMO ACCOUNT, do not pay: Demo Bank Uganda · Account name: duuka Ltd · Account number: 0000000000';
    const server = previewMode
      ? await preview({ preview: { port, strictPort: true } })
      : await createServer({ server: { port, strictPort: true } }).then((s) => s.listen());

    const url = server.resolvedUrls?.local[0] ?? `http://localhost:${port}/`;
    console.log(`\n  duuka is open at ${url}`);
    if (!previewMode) {
      console.log(`  Mail (sign-up and password links) lands at ${new URL('/dev/mailbox', url)}`);
    }
    // The fake WhatsApp's phone page, where you play the shopper (unless real WhatsApp is set).
    const whatsapp = fakes.env.WHATSAPP_BASE_URL;
    if (whatsapp && process.env.WHATSAPP_BASE_URL === whatsapp) {
      console.log(`  WhatsApp (a test phone to play the shopper): ${new URL('/phone', whatsapp)}`);
    }
    console.log('  Mobile money test numbers: 0772 000 001 pays, ...002 is declined (README)\n');
    let closing = false; // a stop can arrive twice (the terminal's and the launcher's)
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, async () => {
        if (closing) return;
        closing = true;
        await server.close();
        await fakes.close();
        await database.close();
        process.exit(0);
      });
    }
  } catch (error) {
    await database.close();
    throw portTaken(error);
  }
});

function portTakenError(): LocalSetupError {
  const command = previewMode ? 'npm run preview' : 'npm start';
  return new LocalSetupError(
    `Port ${port} is in use by another program: stop it, or choose another port, e.g. PORT=${port + 1} ${command}`,
  );
}

/** Listens on the port for a moment, as Vite will (on localhost). */
async function portFree(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(port, 'localhost', () => probe.close(() => resolve()));
  }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? portTakenError() : error;
  });
}

/** Vite's own "Port 3000 is already in use" (taken since the check), as the same one line. */
function portTaken(error: unknown): unknown {
  return error instanceof Error && /already in use/.test(error.message) ? portTakenError() : error;
}
