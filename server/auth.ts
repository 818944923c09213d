// better-auth: email + password with verification, database sessions in HttpOnly SameSite=Lax
// cookies (Secure when the shop's URL is https), database-backed rate limiting keyed by the
// client IP from cf-connecting-ip, plus the shop's own limits per shopper (password checks) and
// per address (verification mails). Mounted at /api/auth/* (app/routes/api/auth/$.ts).
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { betterAuth } from 'better-auth/minimal';
import { twoFactor } from 'better-auth/plugins/two-factor';
import {
  fullNameProblem,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  RESET_LINK_SECONDS,
  RESET_PASSWORD_PATH,
  TEXT,
  VERIFY_CALLBACK_PATH,
} from '#core/account.ts';
import { PASSWORD_CHECK_LIMIT, VERIFICATION_MAIL_LIMIT } from '#core/limits.ts';
import { AUTH_COOKIE_PREFIX, sessionCookieIn } from '#core/settings-rules.ts';
import { isTypedLine } from '#core/text.ts';
import type { Db } from '#db/client.ts';
import {
  account,
  rateLimit,
  session,
  twoFactor as twoFactorTable,
  user,
  verification,
} from '#db/schema/index.ts';
import { ensureProfile } from './services/account-service.ts';
import { type Mailer, resetPasswordMail, verificationMail } from './services/mail-service.ts';
import {
  CLIENT_IP_HEADERS,
  countAttempt,
  rateLimit as countShopperAttempt,
  PASSWORD_CHECKS,
  type Verdict,
} from './services/rate-limit.ts';

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

/**
 * The link on the origin the shopper is browsing, when it is one the shop trusts (localhost and
 * 127.0.0.1 locally, a preview alias), so it opens where they signed up; any other Origin header
 * leaves the link on the shop's own origin.
 */
export function onShopperOrigin(
  link: string,
  request: Request | undefined,
  trusted: readonly string[],
): string {
  const origin = request?.headers.get('origin');
  if (!origin || !trusted.includes(origin)) return link;
  const url = new URL(link);
  const browsing = new URL(origin);
  url.protocol = browsing.protocol;
  url.host = browsing.host;
  return url.toString();
}

/** Verification links always land on /auth/callback (spec: Auth callback). */
function withCallback(link: string): string {
  const url = new URL(link);
  url.searchParams.set('callbackURL', VERIFY_CALLBACK_PATH);
  return url.toString();
}

/**
 * The reset link opens the shop's set-new-password screen straight away (not better-auth's
 * redirecting endpoint, whose redirect would leave the origin the shopper browses): the screen
 * sends the token with the new password, and a dead token is refused then.
 */
function resetLink(link: string, token: string): string {
  const url = new URL(RESET_PASSWORD_PATH, link);
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * The body's email when it could be an address (a counter's key): anything else (not text, a NUL,
 * which Postgres text cannot hold, or longer than any address) is left to better-auth, which
 * refuses it with 400 before any mail.
 */
function countableEmail(body: unknown): string | null {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.length <= 254 && isTypedLine(email) ? email : null;
}

/** One counter per address for every verification mail, whichever IP asks. */
const verificationMailKey = (email: string) => `verification-mail:${email.trim().toLowerCase()}`;
/** And one per address for reset mails, counted whether or not it has an account. */
const resetMailKey = (email: string) => `reset-mail:${email.trim().toLowerCase()}`;
const AUTH_PATH = '/api/auth';
const RESEND_PATH = `${AUTH_PATH}/send-verification-email`;

/** Past a limit: 429 with the screens' wait text and the X-Retry-After header they read. */
function refuseWhenOver(verdict: Verdict) {
  if (verdict.allowed) return;
  const seconds = verdict.retryAfterSeconds;
  throw new APIError(
    'TOO_MANY_REQUESTS',
    { code: 'TOO_MANY_REQUESTS', message: TEXT.tooManyAttempts(seconds) },
    { 'X-Retry-After': String(seconds) },
  );
}

export function createAuth(config: AuthConfig) {
  const { db, mailer } = config;
  const trusted = [...defaultTrustedOrigins(config.baseURL), ...(config.trustedOrigins ?? [])];
  return betterAuth({
    appName: 'duuka',
    baseURL: config.baseURL,
    basePath: AUTH_PATH,
    secret: config.secret,
    trustedOrigins: trusted,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification, rateLimit, twoFactor: twoFactorTable },
    }),
    telemetry: { enabled: false },
    // The desk role ("user".role, core/desk-roles.ts) comes with the session's user: no extra read.
    // Never set through better-auth (input: false): only the owner's desk and make-operator.
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'customer', input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // "Forgot password?": a link by mail, valid an hour, once; setting the new password signs
      // out every session of the account (a thief's too). The request answers the same words
      // whether or not the address has an account (better-auth's own reply).
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user: to, url, token }, request) {
        await mailer.send(
          resetPasswordMail(to, resetLink(onShopperOrigin(url, request, trusted), token)),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user: to, url }, request) {
        // The resend button's request was counted, and refused past the cap, in hooks.before.
        // Registration and unverified sign-ins count here; past the cap the mail is skipped
        // quietly: the sign-in still answers "verify first", as it would for anyone.
        const resend = request && new URL(request.url).pathname === RESEND_PATH;
        if (!resend) {
          const key = verificationMailKey(to.email);
          if (!(await countAttempt(db, key, VERIFICATION_MAIL_LIMIT)).allowed) return;
        }
        await mailer.send(
          verificationMail(to, withCallback(onShopperOrigin(url, request, trusted))),
        );
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
        '/sign-in/email': {
          window: PASSWORD_CHECK_LIMIT.windowSeconds,
          max: PASSWORD_CHECK_LIMIT.max,
        },
        '/get-session': false,
        // Codes: a handful of tries a minute per address (the plugin also locks after misses).
        '/two-factor/verify-totp': { window: 60, max: 5 },
        '/two-factor/verify-backup-code': { window: 60, max: 5 },
        '/two-factor/enable': { window: 60, max: 5 },
        '/two-factor/disable': { window: 60, max: 5 },
        // A reset token is 24 random characters: guessing is hopeless, and slowed all the same.
        '/reset-password': { window: 60, max: 10 },
      },
    },
    // Profile edits and deletion go through the account router, which validates them.
    disabledPaths: [
      '/update-user',
      '/change-email',
      '/delete-user',
      '/delete-user/callback',
      '/set-password',
      // A password oracle the shop does not need: the delete dialog checks through the router.
      '/verify-password',
    ],
    advanced: {
      // better-auth skips origin checks when it detects a test run; the shop checks them always.
      disableOriginCheck: false,
      cookiePrefix: AUTH_COOKIE_PREFIX,
      ipAddress: CLIENT_IP_HEADERS,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // The session is read with its user in one statement (db/schema/accounts-tables.ts' relations).
      database: { joins: true },
      ...(config.background ? { backgroundTasks: { handler: config.background } } : {}),
    },
    // Two-factor sign-in with an authenticator app (TOTP): on only after the shopper proves a
    // code (no skipping verification), asked at every new sign-in, off with the password.
    plugins: [twoFactor({ issuer: 'duuka', skipVerificationOnEnable: false })],
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
          // Password guesses share one counter per shopper with the delete-account dialog.
          const signedIn = await getSessionFromCtx(ctx);
          if (signedIn) {
            const attempt = { db, headers: ctx.headers ?? new Headers(), user: signedIn.user };
            refuseWhenOver(
              await countShopperAttempt(attempt, { key: PASSWORD_CHECKS, ...PASSWORD_CHECK_LIMIT }),
            );
          }
        }
        if (ctx.path === '/request-password-reset') {
          // Counted for any address, known or not, like the verification mail.
          const email = countableEmail(ctx.body);
          if (email) {
            refuseWhenOver(await countAttempt(db, resetMailKey(email), VERIFICATION_MAIL_LIMIT));
          }
        }
        if (ctx.path === '/send-verification-email') {
          // Counted for any address, known or not, so the answer reveals nothing.
          const email = countableEmail(ctx.body);
          if (email) {
            refuseWhenOver(
              await countAttempt(db, verificationMailKey(email), VERIFICATION_MAIL_LIMIT),
            );
          }
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type SessionUser = {
  id: string;
  name: string;
  email: string;
  image: string | null;
  /** Two-factor sign-in is on (better-auth's plugin). */
  twoFactor: boolean;
  /** "user".role: 'customer', or a desk role (deskRoleOf in core/desk-roles.ts adds OPERATOR_EMAILS). */
  role: string;
};

/**
 * A request's session: `read()` reads it at most once however many procedures ask (an SSR page's
 * loaders, an HTTP batch's calls), in one statement with its user. `lastSeen()` is who this
 * session cookie was last read as in this isolate, with no database trip: a query may start as
 * them beside the read, and its answer is kept only if the read agrees (decision 0054).
 */
export type SessionReader = {
  read: () => Promise<SessionUser | null>;
  lastSeen: () => SessionUser | null;
  /** The session's token in the request's cookie (unsigned: only a gate's condition uses it). */
  token: string | null;
};

/** The token in a session cookie's value: better-auth signs it as `<token>.<signature>`. */
function tokenIn(cookie: string | null): string | null {
  if (!cookie) return null;
  try {
    return decodeURIComponent(cookie).split('.')[0] || null;
  } catch {
    return null; // a malformed escape: no session a gate could match
  }
}

/** Who each session cookie was last read as, in this isolate: a bounded memory, newest last. */
const lastReadAs = new Map<string, SessionUser>();
const REMEMBERED_SESSIONS = 1_000;

function remember(cookie: string | null, user: SessionUser | null): void {
  if (!cookie) return;
  lastReadAs.delete(cookie);
  if (!user) return;
  lastReadAs.set(cookie, user);
  if (lastReadAs.size > REMEMBERED_SESSIONS) {
    const oldest = lastReadAs.keys().next().value;
    if (oldest !== undefined) lastReadAs.delete(oldest);
  }
}

/**
 * The request's session reader. Every request reads the session row again (no cookie cache), so
 * a revoked session ends at once (decisions 0007, 0054); only who it was is remembered.
 */
export function sessionOnce(auth: Auth, headers: Headers): SessionReader {
  const cookie = sessionCookieIn(headers.get('cookie'));
  let read: Promise<SessionUser | null> | undefined;
  return {
    read: () => {
      read ??= sessionUser(auth, headers).then((user) => {
        remember(cookie, user);
        return user;
      });
      return read;
    },
    lastSeen: () => (cookie ? (lastReadAs.get(cookie) ?? null) : null),
    token: tokenIn(cookie),
  };
}

/** Whether two reads of a session name the same shopper, with the same name, role and all. */
export function sameShopper(a: SessionUser, b: SessionUser): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.email === b.email &&
    a.image === b.image &&
    a.twoFactor === b.twoFactor &&
    a.role === b.role
  );
}

/** The signed-in shopper for these request headers (their session cookie), or null. */
export async function sessionUser(auth: Auth, headers: Headers): Promise<SessionUser | null> {
  const found = await auth.api.getSession({ headers });
  if (!found) return null;
  const { id, name, email, image } = found.user;
  const extra = found.user as { twoFactorEnabled?: boolean | null; role?: string | null };
  const twoFactor = extra.twoFactorEnabled === true;
  return { id, name, email, image: image ?? null, twoFactor, role: extra.role ?? 'customer' };
}

/** Checks a shopper's password against their stored credential (deletion re-checks it). */
export async function passwordMatches(auth: Auth, userId: string, password: string) {
  const context = await auth.$context;
  const credential = await context.internalAdapter.findCredentialAccount(userId);
  if (!credential?.password) return false;
  return context.password.verify({ hash: credential.password, password });
}
