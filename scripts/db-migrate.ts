// `npm run db:migrate`: applies db/migrations through the Neon driver. With NEON_DATABASE_URL set
// it migrates that (remote Neon) database; otherwise the local database `npm start` uses.
import { createDb } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { runCommand } from '#local/command.ts';
import { startLocalDatabase, whatHappened } from '#local/database.ts';

await runCommand(async () => {
  if (process.env.NEON_DATABASE_URL) {
    const applied = await migrateDatabase(createDb(process.env.NEON_DATABASE_URL));
    console.log(`Neon database: ${whatHappened({ migrationsApplied: applied, seeded: null })}.`);
  } else {
    const database = await startLocalDatabase({ postgresUrl: process.env.DATABASE_URL });
    console.log(`${database.backendName}: ${whatHappened(database)}.`);
    await database.close();
  }
});
