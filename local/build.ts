// The production build that local runs serve with `vite preview` (`npm run preview`, the browser
// tests, the bench), made one way. Two things go wrong otherwise:
// - a Worker variable present in the environment at build time is frozen into
//   dist/server/.dev.vars, and wrangler then reads only that file: every other secret goes
//   missing and each page answers 500. The build runs with none of them set.
// - vitest runs with NODE_ENV=test, which Vite keeps for the build: import.meta.env.DEV would be
//   true and dev-only code (e.g. /dev/mailbox) would ship. It builds as production.
import { existsSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createBuilder } from 'vite';
import { WORKER_VARIABLES } from '#server/env.ts';

/** wrangler.toml's environment for local runs: it lets the optional variables through. */
export const LOCAL_WRANGLER_ENV = 'local';

/** Sets (or, for undefined, unsets) `values` while `run` runs, then puts back what was there. */
async function withEnv<T>(
  values: Record<string, string | undefined>,
  run: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (next: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(next)) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  };
  apply(values);
  try {
    return await run();
  } finally {
    apply(saved);
  }
}

/**
 * Builds dist/ (client assets and the Worker) for `vite preview`, in the current directory. With
 * `devVars`, a .dev.vars file (.dev.vars.local first) goes into the build whole, so that it
 * replaces what the process passes as it does under `npm start`; without, the build holds none
 * (the tests and the bench set every variable themselves).
 */
export async function buildForPreview(
  options: { logLevel?: 'info' | 'warn'; devVars?: boolean } = {},
) {
  const noVariables = Object.fromEntries(WORKER_VARIABLES.map((name) => [name, undefined]));
  // Wrangler would warn "Missing required secrets" about exactly that absence: errors only.
  const wranglerLog = process.env.WRANGLER_LOG ?? 'error';
  await withEnv(
    {
      ...noVariables,
      NODE_ENV: 'production',
      CLOUDFLARE_ENV: LOCAL_WRANGLER_ENV,
      WRANGLER_LOG: wranglerLog,
    },
    async () => {
      const builder = await createBuilder({ logLevel: options.logLevel, mode: 'production' });
      await builder.buildApp();
    },
  );
  // Wrangler copies only the required secrets of a .dev.vars into the build: all or nothing here.
  const frozen = join('dist', 'server', '.dev.vars');
  await rm(frozen, { force: true });
  const devVars = ['.dev.vars.local', '.dev.vars'].find((file) => existsSync(file));
  if (options.devVars && devVars) await copyFile(devVars, frozen);
}
