// `npm run make-operator -- email [--owner] [--remove]`: gives an account a desk role (staff, or
// owner with --owner), or takes it away (--remove), on NEON_DATABASE_URL or else the local
// database: through the running shop's endpoint while `npm start` holds it, else opened here.
// The person signs up first; OPERATOR_EMAILS act as owners without this.
import { createDb } from '#db/client.ts';
import { runCommand } from '#local/command.ts';
import { commandDatabase } from '#local/database.ts';
import { LocalSetupError } from '#local/setup-error.ts';
import { setRole } from '#server/services/staff-service.ts';

const USAGE = 'Usage: npm run make-operator -- email [--owner] [--remove]';

await runCommand(async () => {
  const args = process.argv.slice(2);
  const emails = args.filter((arg) => !arg.startsWith('--'));
  const unknown = args.filter(
    (arg) => arg.startsWith('--') && arg !== '--owner' && arg !== '--remove',
  );
  const [email] = emails;
  if (!email || emails.length > 1 || unknown.length > 0 || !email.includes('@')) {
    throw new LocalSetupError(USAGE);
  }
  if (args.includes('--owner') && args.includes('--remove')) throw new LocalSetupError(USAGE);
  const role = args.includes('--remove')
    ? 'customer'
    : args.includes('--owner')
      ? 'owner'
      : 'staff';
  const remote = process.env.NEON_DATABASE_URL;
  const database = remote
    ? { db: createDb(remote), backendName: 'Neon', close: async () => {} }
    : await commandDatabase({ postgresUrl: process.env.DATABASE_URL });
  try {
    const changed = await setRole(database.db, email, role);
    if (!changed) {
      throw new LocalSetupError(
        `No account has the email ${email}. Ask them to sign up on the shop first, then run this again.`,
      );
    }
    console.log(
      role === 'customer'
        ? `${changed.email} no longer works at the desk.`
        : `${changed.email} is now ${role === 'owner' ? 'an owner' : 'staff'} at the desk (/desk).`,
    );
  } finally {
    await database.close();
  }
});
