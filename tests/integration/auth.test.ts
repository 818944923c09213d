// better-auth as the shop configures it, against a real database: every error path a shopper can
// meet, read through the same mapping the screens use, ends in the spec's text.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthFailure,
  loginErrorText,
  passwordErrorText,
  RESET_TEXT,
  registrationErrorText,
  resetErrorText,
  TEXT,
} from '#core/account.ts';
import { mailOutbox, profiles, session, user } from '#db/schema/index.ts';
import { latestMail } from '#local/mailed-link.ts';
import { type Auth, createAuth } from '#server/auth.ts';
import { outboxMailer } from '#server/services/mail-service.ts';
import {
  type AuthAnswer,
  authGet,
  authPost,
  freshIp,
  signedInShopper,
  TEST_ORIGIN,
  testAuth,
} from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let test: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

const failure = (answer: AuthAnswer): AuthFailure => ({
  status: answer.status,
  code: answer.body?.code,
  message: answer.body?.message,
  retryAfter: Number(answer.headers.get('x-retry-after')) || undefined,
});

let n = 0;
const newEmail = () => `auth${++n}-${Date.now()}@example.ug`;

async function usersWithEmail(email: string) {
  const [row] = await test.db.select({ n: count() }).from(user).where(eq(user.email, email));
  return row?.n ?? 0;
}

describe('registration', () => {
  it('creates an unverified user with a profile and mails a link to /auth/callback', async () => {
    const email = newEmail();
    const answer = await authPost(auth, '/sign-up/email', {
      name: '  Grace Atim  ',
      email,
      password: 'secret1',
    });
    expect(answer.status).toBe(200);
    expect(answer.cookie).toBe(''); // no session before the email is verified
    const [created] = await test.db.select().from(user).where(eq(user.email, email));
    expect(created).toMatchObject({ name: 'Grace Atim', emailVerified: false });
    const [profile] = await test.db
      .select()
      .from(profiles)
      .where(eq(profiles.id, created?.id ?? ''));
    expect(profile).toMatchObject({ email, fullName: 'Grace Atim', phone: null, address: null });
    const mail = await latestMail(test.db, email);
    expect(mail?.subject).toBe('Verify your email for duuka');
    const link = new URL(mail?.link ?? '');
    expect(link.pathname).toBe('/api/auth/verify-email');
    expect(link.searchParams.get('callbackURL')).toBe('/auth/callback?type=email');
  });

  it.each([
    [{ password: '12345' }, 'PASSWORD_TOO_SHORT', TEXT.passwordTooShortRegister],
    [{ password: 'x'.repeat(129) }, 'PASSWORD_TOO_LONG', TEXT.passwordTooLong],
    [{ email: 'not-an-email' }, 'VALIDATION_ERROR', TEXT.invalidEmail],
    [{ email: 42 }, 'VALIDATION_ERROR', TEXT.invalidEmail],
    [{ password: undefined }, 'VALIDATION_ERROR', TEXT.loginFieldsRequired],
    [{ name: 'A' }, 'INVALID_NAME', TEXT.nameLength],
    [{ name: 'x'.repeat(101) }, 'INVALID_NAME', TEXT.nameLength],
    [{ name: '<script>alert(1)</script>' }, 'INVALID_NAME', TEXT.nameMarkup],
    [{ name: 42 }, 'INVALID_NAME', TEXT.fullNameRequired],
  ])('refuses %j with the spec text and stores nothing', async (change, code, text) => {
    const email = newEmail();
    const body = { name: 'Valid Name', email, password: 'secret1', ...change };
    const answer = await authPost(auth, '/sign-up/email', body);
    expect(answer.status).toBe(400);
    expect(answer.body?.code).toBe(code);
    expect(registrationErrorText(failure(answer))).toBe(text);
    expect(await usersWithEmail(email)).toBe(0);
    expect(await usersWithEmail(String(body.email))).toBe(0);
  });

  it('refuses a picture at sign-up (pictures go through the validated upload)', async () => {
    const email = newEmail();
    const answer = await authPost(auth, '/sign-up/email', {
      name: 'Valid Name',
      email,
      password: 'secret1',
      image: 'javascript:alert(1)',
    });
    expect(answer.status).toBe(400);
    expect(await usersWithEmail(email)).toBe(0);
  });

  it('answers a second sign-up with the same email like the first, without a second account', async () => {
    const email = newEmail();
    const first = await authPost(auth, '/sign-up/email', {
      name: 'First',
      email,
      password: 'secret1',
    });
    const again = await authPost(auth, '/sign-up/email', {
      name: 'Second',
      email,
      password: 'other-secret',
    });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200); // better-auth hides which emails have accounts
    expect(await usersWithEmail(email)).toBe(1);
    const [kept] = await test.db.select().from(user).where(eq(user.email, email));
    expect(kept?.name).toBe('First');
  });
});

describe('verification and login', () => {
  it('refuses an unverified login with the spec text and mails a fresh link', async () => {
    const email = newEmail();
    await authPost(auth, '/sign-up/email', { name: 'Daniel S', email, password: 'secret1' });
    const answer = await authPost(auth, '/sign-in/email', { email, password: 'secret1' });
    expect(answer.status).toBe(403);
    expect(answer.body?.code).toBe('EMAIL_NOT_VERIFIED');
    expect(answer.cookie).toBe('');
    expect(loginErrorText(failure(answer))).toBe('Please verify your email before logging in.');
    const [mails] = await test.db
      .select({ n: count() })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, email));
    expect(mails?.n).toBe(2);
  });

  it('verifies through the mailed link, lands on /auth/callback, then logs in', async () => {
    const email = newEmail();
    await authPost(auth, '/sign-up/email', { name: 'Amara N', email, password: 'secret1' });
    const link = (await latestMail(test.db, email))?.link ?? '';
    const visit = await authGet(auth, link);
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('/auth/callback?type=email');
    const [verified] = await test.db.select().from(user).where(eq(user.email, email));
    expect(verified?.emailVerified).toBe(true);
    const login = await authPost(auth, '/sign-in/email', { email, password: 'secret1' });
    expect(login.status).toBe(200);
    expect(login.body?.user).toMatchObject({ email, name: 'Amara N' });
    expect(login.cookie).toMatch(/^duuka\.session_token=/);
  });

  it('sends a tampered link back to the callback with an error', async () => {
    const email = newEmail();
    await authPost(auth, '/sign-up/email', { name: 'Amara N', email, password: 'secret1' });
    const link = new URL((await latestMail(test.db, email))?.link ?? '');
    link.searchParams.set('token', `${link.searchParams.get('token')}x`);
    const visit = await authGet(auth, link.toString());
    expect(visit.headers.get('location')).toMatch(/^\/auth\/callback\?type=email&error=/);
    const [still] = await test.db.select().from(user).where(eq(user.email, email));
    expect(still?.emailVerified).toBe(false);
  });

  it('answers a wrong password and an unknown email alike: Invalid login credentials', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const wrong = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: 'not-the-password',
    });
    const unknown = await authPost(auth, '/sign-in/email', {
      email: 'nobody@example.ug',
      password: 'whatever1',
    });
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.body?.code).toBe('INVALID_EMAIL_OR_PASSWORD');
      expect(loginErrorText(failure(answer))).toBe('Invalid login credentials');
    }
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, Secure on an https shop', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const plain = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    const cookie = plain.headers.getSetCookie().find((c) => c.startsWith('duuka.session_token='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);

    const production = createAuth({
      db: test.db,
      secret: 'test-secret-test-secret-test-secret-0123',
      baseURL: 'https://duuka.example',
      mailer: outboxMailer(test.db),
    });
    const response = await production.handler(
      new Request('https://duuka.example/api/auth/sign-in/email', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: 'https://duuka.example',
          'cf-connecting-ip': freshIp(),
        },
        body: JSON.stringify({ email: shopper.email, password: shopper.password }),
      }),
    );
    expect(response.status).toBe(200);
    const secure = response.headers.getSetCookie().find((c) => c.includes('session_token='));
    expect(secure).toMatch(/^__Secure-duuka\.session_token=/);
    expect(secure).toMatch(/; Secure/i);
    expect(secure).toMatch(/HttpOnly/i);
  });

  it('refuses a sign-in posted from an untrusted origin', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const response = await auth.handler(
      new Request('http://shop.test/api/auth/sign-in/email', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: 'https://evil.example',
          cookie: shopper.cookie,
          'cf-connecting-ip': freshIp(),
        },
        body: JSON.stringify({ email: shopper.email, password: shopper.password }),
      }),
    );
    expect(response.status).toBe(403);
  });

  it('signs out: the session row goes and the cookie no longer reads a session', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const out = await authPost(auth, '/sign-out', {}, { cookie: shopper.cookie });
    expect(out.status).toBe(200);
    const rows = await test.db.select().from(session).where(eq(session.userId, shopper.id));
    expect(rows).toEqual([]);
    const after = await auth.api.getSession({ headers: new Headers({ cookie: shopper.cookie }) });
    expect(after).toBeNull();
  });

  it('keeps profile edits and deletion out of better-auth (the account router validates them)', async () => {
    const shopper = await signedInShopper(test.db, auth);
    for (const path of ['/update-user', '/delete-user', '/change-email']) {
      const answer = await authPost(
        auth,
        path,
        { name: '<script>x</script>', newEmail: 'x@example.ug' },
        { cookie: shopper.cookie },
      );
      expect(answer.status, path).toBe(404);
    }
    const [unchanged] = await test.db.select().from(user).where(eq(user.id, shopper.id));
    expect(unchanged?.name).toBe(shopper.name);
  });
});

describe('rate limit', () => {
  it('lets 5 sign-ins a minute through from one IP and answers the 6th with 429', async () => {
    const ip = freshIp();
    const attempt = () =>
      authPost(auth, '/sign-in/email', { email: 'guess@example.ug', password: 'guess123' }, { ip });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    const sixth = await attempt();
    expect(sixth.status).toBe(429);
    const wait = Number(sixth.headers.get('x-retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(loginErrorText(failure(sixth))).toBe(
      `Too many attempts. Please wait ${wait} seconds and try again.`,
    );
    // Another shopper's IP is unaffected.
    const other = await authPost(
      auth,
      '/sign-in/email',
      { email: 'guess@example.ug', password: 'guess123' },
      { ip: freshIp() },
    );
    expect(other.status).toBe(401);
  });
});

describe('change password', () => {
  it('maps each refusal to the spec text', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const change = (body: object) =>
      authPost(auth, '/change-password', body, { cookie: shopper.cookie });
    const wrongCurrent = await change({ currentPassword: 'nope-nope', newPassword: 'fresh-pass' });
    expect(passwordErrorText(failure(wrongCurrent))).toBe(
      'Failed to update password: Current password is incorrect',
    );
    const same = await change({ currentPassword: shopper.password, newPassword: shopper.password });
    expect(passwordErrorText(failure(same))).toBe(
      'New password must be different from current password',
    );
    const short = await change({ currentPassword: shopper.password, newPassword: '12345' });
    expect(passwordErrorText(failure(short))).toBe('Password must be at least 6 characters long');
    const anonymous = await authPost(auth, '/change-password', {
      currentPassword: shopper.password,
      newPassword: 'fresh-pass',
    });
    expect(passwordErrorText(failure(anonymous))).toBe('User not authenticated');
  });

  it('changes it, signs other sessions out and the new password logs in', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const otherDevice = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    const changed = await authPost(
      auth,
      '/change-password',
      { currentPassword: shopper.password, newPassword: 'brand-new-1', revokeOtherSessions: true },
      { cookie: shopper.cookie },
    );
    expect(changed.status).toBe(200);
    const elsewhere = await auth.api.getSession({
      headers: new Headers({ cookie: otherDevice.cookie }),
    });
    expect(elsewhere).toBeNull();
    const here = await auth.api.getSession({ headers: new Headers({ cookie: changed.cookie }) });
    expect(here?.user.id).toBe(shopper.id);
    const oldLogin = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: 'brand-new-1',
    });
    expect(newLogin.status).toBe(200);
  });
});

describe('forgot password', () => {
  const ask = (email: unknown, ip?: string) =>
    authPost(auth, '/request-password-reset', { email }, ip ? { ip } : {});

  it('mails a link to the set-new-password screen; it sets the password once and signs every session out', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const otherDevice = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    const asked = await ask(shopper.email);
    expect(asked.status).toBe(200);
    const mail = await latestMail(test.db, shopper.email);
    expect(mail?.subject).toBe('Set a new password for duuka');
    const link = new URL(mail?.link ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_ORIGIN}/reset-password`);
    const token = link.searchParams.get('token') ?? '';
    expect(token).toMatch(/^\w{24}$/);
    expect(mail?.text).toContain(link.toString());

    const short = await authPost(auth, '/reset-password', { token, newPassword: '12345' });
    expect(resetErrorText(failure(short))).toBe(TEXT.passwordTooShortServer);
    const reset = await authPost(auth, '/reset-password', { token, newPassword: 'new-kampala-7' });
    expect(reset.status).toBe(200);
    for (const cookie of [shopper.cookie, otherDevice.cookie]) {
      expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    }
    const again = await authPost(auth, '/reset-password', { token, newPassword: 'other-pass-8' });
    expect(resetErrorText(failure(again))).toBe(RESET_TEXT.linkInvalid);
    const old = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    expect(old.status).toBe(401);
    const fresh = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: 'new-kampala-7',
    });
    expect(fresh.status).toBe(200);
  });

  it('answers the same whether or not the address has an account, and mails only the account', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const nobody = newEmail();
    const known = await ask(shopper.email);
    const unknown = await ask(nobody);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(await latestMail(test.db, nobody)).toBeUndefined();
  });

  it('is limited like the verification mail, per address, known or not', async () => {
    for (const email of [(await signedInShopper(test.db, auth)).email, newEmail()]) {
      for (let i = 0; i < 3; i++) expect((await ask(email)).status).toBe(200);
      const over = await ask(email);
      expect(over.status).toBe(429);
      expect(resetErrorText(failure(over))).toMatch(/^Too many attempts\. Please wait \d+ seconds/);
    }
  });

  it('refuses a made-up token, and bad input, with plain texts', async () => {
    const made = await authPost(auth, '/reset-password', {
      token: 'a'.repeat(24),
      newPassword: 'whatever-9',
    });
    expect(resetErrorText(failure(made))).toBe(RESET_TEXT.linkInvalid);
    for (const email of [42, 'not-an-email', 'x'.repeat(10_000), 'a\u0000@b.ug']) {
      expect((await ask(email)).status).toBe(400);
      const resend = await authPost(auth, '/send-verification-email', { email });
      expect(resend.status).toBe(400);
    }
  });
});
