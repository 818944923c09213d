// `npm run db:seed`: the demo catalogue into an empty shop (NEON_DATABASE_URL, else the local one).
import { createDb } from '#db/client.ts';
import { seedDemoCatalogue } from '#db/seed.ts';
import { runCommand } from '#local/command.ts';
import { startLocalDatabase } from '#local/database.ts';

await runCommand(async () => {
  const remote = process.env.NEON_DATABASE_URL;
  const database = remote
    ? { db: createDb(remote), backendName: 'Neon', close: async () => {} }
    : await startLocalDatabase({ postgresUrl: process.env.DATABASE_URL });
  try {
    const seeded = await seedDemoCatalogue(database.db);
    console.log(
      seeded
        ? `${database.backendName}: demo catalogue seeded.`
        : `${database.backendName}: products exist, nothing seeded.`,
    );
  } finally {
    await database.close();
  }
});
