import { type NeonConfig, neon, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-http';
import * as schema from './schema/index.ts';

// The driver (1.2.0) reads its HTTP endpoint from the global neonConfig: there is no per-instance
// option. So local endpoints are registered by the connection string's host and port, and every
// other host still goes where the driver would send it (Neon). Production connection strings name
// Neon hosts and pass no localSqlEndpoint: neonConfig is then never touched.
const localEndpoints = new Map<string, string>();
let routing = false;

/** The host and port the driver hands to fetchEndpoint (it re-parses the string as http:). */
function hostAndPort(databaseUrl: string): { host: string; port: string } {
  try {
    const url = new URL(`http:${databaseUrl.slice(databaseUrl.indexOf(':') + 1)}`);
    return { host: url.hostname, port: url.port };
  } catch {
    throw new Error('createDb: the database URL is not a valid postgres:// URL');
  }
}

function routeToLocalEndpoint(host: string, port: string, endpoint: string): void {
  localEndpoints.set(`${host}:${port}`, endpoint);
  if (routing) return;
  routing = true;
  const fallback: NeonConfig['fetchEndpoint'] = neonConfig.fetchEndpoint;
  neonConfig.fetchEndpoint = (h, p, options) =>
    localEndpoints.get(`${h}:${p}`) ??
    (typeof fallback === 'function' ? fallback(h, p, options) : fallback);
}

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/**
 * The app's database: drizzle neon-http over `neon()`.
 *
 * - `createDb({ databaseUrl, localSqlEndpoint })`: queries for this connection string go to the
 *   local endpoint (the URL printed by scripts/local-neon.ts); it ignores the credentials.
 * - `createDb(url)`: Neon, unless the URL's host is loopback, e.g.
 *   postgresql://duuka:local@127.0.0.1:PORT/duuka, which means the local endpoint
 *   http://127.0.0.1:PORT/sql (a Neon URL never names a loopback host).
 *
 * Two local endpoints in one process need different host:port pairs (the last one registered wins).
 */
export function createDb(config: string | { databaseUrl: string; localSqlEndpoint?: string }) {
  const { databaseUrl, localSqlEndpoint } =
    typeof config === 'string' ? { databaseUrl: config, localSqlEndpoint: undefined } : config;
  const { host, port } = hostAndPort(databaseUrl);
  if (localSqlEndpoint) {
    routeToLocalEndpoint(host, port, localSqlEndpoint);
  } else if (LOOPBACK.test(host)) {
    if (!port) throw new Error(`createDb: a loopback database URL must name the endpoint's port`);
    routeToLocalEndpoint(host, port, `http://${host}:${port}/sql`);
  }
  return drizzle({ client: neon(databaseUrl), schema, casing: 'snake_case' });
}

export type Db = ReturnType<typeof createDb>;
