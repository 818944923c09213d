// A throwaway database on the PostgreSQL server named by TEST_DATABASE_URL, so runs never collide.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function freshPostgresDatabase(
  serverUrl: string,
  label: string,
  template?: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `duuka_${label}_${randomBytes(4).toString('hex')}`;
  await admin(serverUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

export async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
