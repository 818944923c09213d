import { neon, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-http';
import * as schema from './schema/index.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const neonEndpoint = neonConfig.fetchEndpoint;

/** A database URL on a loopback host names the local Neon endpoint (local/neon/endpoint.ts). */
export function isLocalDatabaseUrl(databaseUrl: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(databaseUrl).hostname);
}

/**
 * The one database factory: drizzle over Neon's HTTP driver. Production URLs go to Neon
 * untouched; a loopback URL sends the same driver requests to the local endpoint instead.
 */
export function createDb(databaseUrl: string) {
  if (isLocalDatabaseUrl(databaseUrl)) {
    neonConfig.fetchEndpoint = (host, port, options) =>
      LOOPBACK_HOSTS.has(host)
        ? `http://${host}:${port}/sql`
        : typeof neonEndpoint === 'function'
          ? neonEndpoint(host, port, options)
          : neonEndpoint;
  }
  return drizzle({ client: neon(databaseUrl), schema, casing: 'snake_case' });
}

export type Db = ReturnType<typeof createDb>;
