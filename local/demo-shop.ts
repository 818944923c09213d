// The shop the measuring scripts weigh (`npm run audit`, scripts/audit-compare.ts): the working
// copy's production build on embedded PGlite with the demo catalogue, behind the compressing
// proxy, as Cloudflare serves it. The caller starts the Worker (`serve`), so it may restart it
// cold; `close` stops the rest.
import { randomBytes } from 'node:crypto';
import { preview } from 'vite';
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { buildForPreview } from './build.ts';
import { compressingProxy } from './compressing-proxy.ts';
import { freePort } from './free-port.ts';
import { startLocalNeon } from './neon/endpoint.ts';
import { pgliteBackend } from './neon/pglite-backend.ts';

export async function demoShop() {
  await buildForPreview({ logLevel: 'warn' });
  const backend = await pgliteBackend();
  const endpoint = await startLocalNeon({ backend });
  const db = createDb(endpoint.databaseUrl);
  await migrateDatabase(db);
  await seedDemoCatalogue(db);
  const port = await freePort();
  const proxy = await compressingProxy(`http://127.0.0.1:${port}`);
  Object.assign(process.env, {
    DATABASE_URL: endpoint.databaseUrl,
    BETTER_AUTH_URL: proxy.origin,
    BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
    MAIL_TRANSPORT: 'outbox',
  });
  return {
    db,
    endpoint,
    /** The shop's address, through the proxy. */
    origin: proxy.origin,
    serve: () => preview({ preview: { port, strictPort: true }, logLevel: 'warn' }),
    close: async () => {
      await proxy.close();
      await endpoint.close();
      await backend.close();
    },
  };
}
