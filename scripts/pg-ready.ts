// Fails loudly when the PostgreSQL that CI tests against is unreachable (never skip silently).
import pg from 'pg';

const url = process.argv[2] ?? process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('usage: node scripts/pg-ready.ts postgres://...');
  process.exit(2);
}
for (let attempt = 1; ; attempt++) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query('select version()');
    console.log(`PostgreSQL reachable: ${rows[0].version}`);
    await client.end();
    break;
  } catch (error) {
    await client.end().catch(() => {});
    if (attempt >= 10) {
      console.error(`PostgreSQL at ${url} is unreachable: ${(error as Error).message}`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
