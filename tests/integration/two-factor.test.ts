// Two-factor sign-in (better-auth's plugin, TOTP) on a real database: on only after a code is
// proved, asked at every new sign-in, wrong codes refused and limited, off with the password.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { authGet, authPost, signedInShopper, testAuth } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { secretOf, totpCode } from '../support/totp.ts';

let test: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

const enabled = async (id: string) =>
  (await test.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, id)))[0]?.on;

describe('two-factor sign-in', () => {
  it('turns on only after a code, then asks for one at every sign-in, and turns off with the password', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const wrongPassword = await authPost(
      auth,
      '/two-factor/enable',
      { password: 'not-it' },
      { cookie: shopper.cookie },
    );
    expect(wrongPassword.status).toBe(400);
    const started = await authPost(
      auth,
      '/two-factor/enable',
      { password: shopper.password },
      { cookie: shopper.cookie },
    );
    expect(started.status).toBe(200);
    const uri = String(started.body?.totpURI);
    expect(uri).toMatch(/^otpauth:\/\/totp\/duuka:/);
    expect((started.body?.backupCodes as string[] | undefined)?.length).toBeGreaterThanOrEqual(8);
    // Not on until a code is proved: a sign-in now needs no code.
    expect(await enabled(shopper.id)).toBe(false);
    const secret = secretOf(uri);
    const proved = await authPost(
      auth,
      '/two-factor/verify-totp',
      { code: totpCode(secret) },
      { cookie: shopper.cookie },
    );
    expect(proved.status).toBe(200);
    expect(await enabled(shopper.id)).toBe(true);

    // A new sign-in: the password alone gives no session, only the second step.
    const signIn = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body?.twoFactorRedirect).toBe(true);
    expect(signIn.cookie).not.toMatch(/duuka\.session_token=/);
    const pending = signIn.cookie;
    const wrong = await authPost(
      auth,
      '/two-factor/verify-totp',
      { code: '000000' },
      { cookie: pending },
    );
    expect(wrong.status).toBe(401);
    const right = await authPost(
      auth,
      '/two-factor/verify-totp',
      { code: totpCode(secret) },
      { cookie: pending },
    );
    expect(right.status).toBe(200);
    expect(right.cookie).toMatch(/duuka\.session_token=/);
    const session = await authGet(auth, '/api/auth/get-session', right.cookie);
    expect((session.body?.user as { email: string } | undefined)?.email).toBe(shopper.email);

    const off = await authPost(
      auth,
      '/two-factor/disable',
      { password: shopper.password },
      { cookie: right.cookie },
    );
    expect(off.status).toBe(200);
    expect(await enabled(shopper.id)).toBe(false);
    const plain = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    expect(plain.body?.twoFactorRedirect).toBeUndefined();
    expect(plain.cookie).toMatch(/duuka\.session_token=/);
  });

  it('limits code guesses', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const started = await authPost(
      auth,
      '/two-factor/enable',
      { password: shopper.password },
      { cookie: shopper.cookie },
    );
    const secret = secretOf(String(started.body?.totpURI));
    await authPost(
      auth,
      '/two-factor/verify-totp',
      { code: totpCode(secret) },
      { cookie: shopper.cookie },
    );
    const signIn = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    const ip = '198.51.100.77';
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) {
      answers.push(
        (
          await authPost(
            auth,
            '/two-factor/verify-totp',
            { code: '123456' },
            { cookie: signIn.cookie, ip },
          )
        ).status,
      );
    }
    expect(answers.slice(0, 5).every((status) => status === 401)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});
