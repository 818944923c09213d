// The Worker's account and mail secrets for local runs (`npm start`, `npm run preview`, the browser
// tests): values that only make sense on this machine. Applied after any build (local/build.ts
// builds with none of them set, so none is frozen into dist/).
export function localAccountSecrets(origin: string) {
  return {
    BETTER_AUTH_SECRET: 'duuka-local-development-secret-never-used-in-production',
    BETTER_AUTH_URL: origin,
    MAIL_TRANSPORT: 'outbox',
  };
}

/** For `npm start` and `npm run preview`: the caller's own values win. */
export function applyLocalAccountSecrets(origin: string): void {
  for (const [name, value] of Object.entries(localAccountSecrets(origin))) {
    process.env[name] ??= value;
  }
}
