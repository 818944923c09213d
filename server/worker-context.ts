// Builds the tRPC context inside the Worker, from its bindings (never imported by Node tests).
import { env, waitUntil } from 'cloudflare:workers';
import { createDb, type Db } from '#db/client.ts';
import { type Auth, createAuth } from './auth.ts';
import { mailerFor } from './services/mail.ts';
import type { Context } from './trpc.ts';

let db: Db | undefined;
let auth: Auth | undefined;

export function workerDb(): Db {
  db ??= createDb(env.DATABASE_URL);
  return db;
}

/** Optional secrets (production mail) are not in the generated Env: read them loosely. */
const optionalSecret = (name: string) =>
  (env as unknown as Record<string, string | undefined>)[name] || undefined;

export function workerAuth(): Auth {
  auth ??= createAuth({
    db: workerDb(),
    secret: env.BETTER_AUTH_SECRET,
    baseURL: env.BETTER_AUTH_URL,
    trustedOrigins: optionalSecret('TRUSTED_ORIGINS')
      ?.split(',')
      .map((o) => o.trim()),
    mailer: mailerFor(env.MAIL_TRANSPORT, workerDb(), {
      apiKey: optionalSecret('EMAIL_API_KEY'),
      from: optionalSecret('EMAIL_FROM'),
    }),
    background: waitUntil,
  });
  return auth;
}

export function createWorkerContext(headers: Headers): Context {
  return { db: workerDb(), headers, auth: workerAuth(), avatars: env.AVATARS };
}

export function workerAvatars() {
  return env.AVATARS;
}
