// better-auth: email + password with verification, database sessions in HttpOnly SameSite=Lax
// cookies (Secure when the shop's URL is https), database-backed rate limiting keyed by the
// client IP from cf-connecting-ip. Mounted at /api/auth/* (app/routes/api/auth/$.ts).
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { betterAuth } from 'better-auth/minimal';
import {
  fullNameProblem,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  TEXT,
  VERIFY_CALLBACK_PATH,
} from '#core/account.ts';
import type { Db } from '#db/client.ts';
import { account, rateLimit, session, user, verification } from '#db/schema/index.ts';
import { ensureProfile } from './services/account.ts';
import { type Mailer, verificationMail } from './services/mail.ts';

export type AuthConfig = {
  db: Db;
  secret: string;
  /** The shop's public origin, e.g. https://duuka.ug; verification links start with it. */
  baseURL: string;
  mailer: Mailer;
  /** Origins allowed to call /api/auth besides baseURL's own. */
  trustedOrigins?: string[];
  /** Runs work after the response (the Worker's waitUntil). */
  background?: (promise: Promise<unknown>) => void;
};

/** Loopback shops trust both spellings of the host (localhost and 127.0.0.1) on their port. */
export function defaultTrustedOrigins(baseURL: string): string[] {
  const url = new URL(baseURL);
  const origins = [url.origin];
  if (url.hostname === 'localhost' || url.hostname === '127.0.0.1') {
    const port = url.port ? `:${url.port}` : '';
    origins.push(`${url.protocol}//localhost${port}`, `${url.protocol}//127.0.0.1${port}`);
  }
  return [...new Set(origins)];
}

/** Verification links always land on /auth/callback (spec: Auth callback). */
function withCallback(link: string): string {
  const url = new URL(link);
  url.searchParams.set('callbackURL', VERIFY_CALLBACK_PATH);
  return url.toString();
}

export function createAuth(config: AuthConfig) {
  const { db, mailer } = config;
  return betterAuth({
    appName: 'duuka',
    baseURL: config.baseURL,
    basePath: '/api/auth',
    secret: config.secret,
    trustedOrigins: [...defaultTrustedOrigins(config.baseURL), ...(config.trustedOrigins ?? [])],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification, rateLimit },
    }),
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user: to, url }) {
        await mailer.send(verificationMail(to, withCallback(url)));
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      // No cookie cache: a revoked session (password change, deletion) ends at once.
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 5 },
        '/get-session': false,
      },
    },
    // Profile edits, deletion and resets go through the account router, which validates them.
    disabledPaths: [
      '/update-user',
      '/change-email',
      '/delete-user',
      '/delete-user/callback',
      '/request-password-reset',
      '/reset-password',
      '/set-password',
    ],
    advanced: {
      // better-auth skips origin checks when it detects a test run; the shop checks them always.
      disableOriginCheck: false,
      cookiePrefix: 'duuka',
      ipAddress: { ipAddressHeaders: ['cf-connecting-ip'] },
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ...(config.background ? { backgroundTasks: { handler: config.background } } : {}),
    },
    databaseHooks: {
      user: {
        create: {
          // Spec: a profile row is inserted at registration.
          async after(created) {
            await ensureProfile(db, created);
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-up/email') {
          const body = (ctx.body ?? {}) as Record<string, unknown>;
          const name = typeof body.name === 'string' ? body.name : '';
          const problem = fullNameProblem(name);
          if (problem)
            throw new APIError('BAD_REQUEST', { code: 'INVALID_NAME', message: problem });
          if ('image' in body) {
            throw new APIError('BAD_REQUEST', {
              code: 'INVALID_IMAGE',
              message: 'A profile picture is added on the profile page.',
            });
          }
          return { context: { body: { ...body, name: name.trim() } } };
        }
        if (ctx.path === '/change-password') {
          const body = (ctx.body ?? {}) as Record<string, unknown>;
          if (
            typeof body.newPassword === 'string' &&
            body.newPassword.length > 0 &&
            body.newPassword === body.currentPassword
          ) {
            throw new APIError('BAD_REQUEST', {
              code: 'PASSWORD_UNCHANGED',
              message: TEXT.samePassword,
            });
          }
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type SessionUser = { id: string; name: string; email: string; image: string | null };

/** The signed-in shopper for these request headers (their session cookie), or null. */
export async function sessionUser(auth: Auth, headers: Headers): Promise<SessionUser | null> {
  const found = await auth.api.getSession({ headers });
  if (!found) return null;
  const { id, name, email, image } = found.user;
  return { id, name, email, image: image ?? null };
}

/** Checks a shopper's password against their stored credential (deletion re-checks it). */
export async function passwordMatches(auth: Auth, userId: string, password: string) {
  const context = await auth.$context;
  const credential = await context.internalAdapter.findCredentialAccount(userId);
  if (!credential?.password) return false;
  return context.password.verify({ hash: credential.password, password });
}
