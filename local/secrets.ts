// The Worker's account and mail secrets for local runs (`npm start`, the browser tests): values
// that only make sense on this machine. Set after any build, so none is frozen into dist/.
export const ACCOUNT_SECRET_NAMES = ['BETTER_AUTH_SECRET', 'BETTER_AUTH_URL', 'MAIL_TRANSPORT'];

export function applyLocalAccountSecrets(origin: string): void {
  process.env.BETTER_AUTH_SECRET ??= 'duuka-local-development-secret-never-used-in-production';
  process.env.BETTER_AUTH_URL ??= origin;
  process.env.MAIL_TRANSPORT ??= 'outbox';
}

/** Before a build: the build would copy these into dist/server/.dev.vars. */
export function withoutAccountSecrets(): Record<string, string | undefined> {
  const saved: Record<string, string | undefined> = {};
  for (const name of ACCOUNT_SECRET_NAMES) {
    saved[name] = process.env[name];
    Reflect.deleteProperty(process.env, name);
  }
  return saved;
}

export function restoreAccountSecrets(saved: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(saved))
    if (value !== undefined) process.env[name] = value;
}
