// Accounts in integration tests: the real better-auth configuration on the test database, with
// the outbox mailer, driven over HTTP-shaped requests like a browser (cookies, client IP).
import type { Db } from '#db/client.ts';
import { latestMail } from '#local/mailed-link.ts';
import { type Auth, createAuth } from '#server/auth.ts';
import { outboxMailer } from '#server/services/mail-service.ts';

export const TEST_ORIGIN = 'http://shop.test';

export function testAuth(db: Db): Auth {
  return createAuth({
    db,
    secret: 'test-secret-test-secret-test-secret-0123',
    baseURL: TEST_ORIGIN,
    mailer: outboxMailer(db),
  });
}

let ipCounter = 0;
/** A fresh client IP, so rate limits of one test never touch another. */
export function freshIp(): string {
  ipCounter += 1;
  return `203.0.113.${ipCounter % 250}`;
}

export type AuthAnswer = {
  status: number;
  body: { code?: string; message?: string; [key: string]: unknown } | null;
  cookie: string;
  headers: Headers;
};

/** POST /api/auth/<path> as the browser does (JSON, same-origin, client IP from Cloudflare). */
export async function authPost(
  auth: Auth,
  path: string,
  body: unknown,
  options: { cookie?: string; ip?: string } = {},
): Promise<AuthAnswer> {
  const headers = new Headers({
    'content-type': 'application/json',
    origin: TEST_ORIGIN,
    'cf-connecting-ip': options.ip ?? freshIp(),
  });
  if (options.cookie) headers.set('cookie', options.cookie);
  const response = await auth.handler(
    new Request(`${TEST_ORIGIN}/api/auth${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    }),
  );
  return answer(response);
}

export async function authGet(auth: Auth, url: string, cookie?: string): Promise<AuthAnswer> {
  const headers = new Headers({ 'cf-connecting-ip': freshIp() });
  if (cookie) headers.set('cookie', cookie);
  return answer(await auth.handler(new Request(new URL(url, TEST_ORIGIN), { headers })));
}

async function answer(response: Response): Promise<AuthAnswer> {
  const text = await response.text();
  let body: AuthAnswer['body'] = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text };
  }
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c?.endsWith('='))
    .join('; ');
  return { status: response.status, body, cookie, headers: response.headers };
}

let accountCounter = 0;
/** Registers, verifies through the mailed link and signs in: a shopper's session cookie. */
export async function signedInShopper(
  db: Db,
  auth: Auth,
  options: { name?: string; password?: string } = {},
) {
  accountCounter += 1;
  const email = `shopper${accountCounter}-${Date.now()}@example.ug`;
  const password = options.password ?? 'kampala-2026';
  const name = options.name ?? `Shopper ${accountCounter}`;
  const signUp = await authPost(auth, '/sign-up/email', { name, email, password });
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(signUp.body)}`);
  const mail = await latestMail(db, email);
  if (!mail?.link) throw new Error('no verification mail');
  const verified = await authGet(auth, mail.link);
  if (verified.status >= 400) throw new Error(`verification failed: ${verified.status}`);
  const signIn = await authPost(auth, '/sign-in/email', { email, password });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(signIn.body)}`);
  const user = signIn.body?.user as { id: string };
  return { email, password, name, id: user.id, cookie: signIn.cookie };
}
