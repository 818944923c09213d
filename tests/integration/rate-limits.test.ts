// Abuse limits on a real database: forms answer 429 with the spec's wait text past their limit,
// per client IP or per shopper; password checks are limited like sign-in; verification mails to
// one address are capped whatever the IP; and the shared counter is exact under concurrency.
import { count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '#core/account.ts';
import {
  CONTACT_MESSAGE_LIMIT,
  NEWSLETTER_LIMIT,
  PASSWORD_CHECK_LIMIT,
  VERIFICATION_MAIL_LIMIT,
} from '#core/limits.ts';
import {
  contactMessages,
  mailOutbox,
  newsletterSubscriptions,
  rateLimit,
  user,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { countAttempt } from '#server/services/rate-limit.ts';
import { authPost, freshIp, signedInShopper, testAuth } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { mutateOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

/** The spec's text with whatever seconds are left; returns them. */
function waitSeconds(message: string | undefined): number {
  const match = /^Too many attempts\. Please wait (\d+) seconds and try again\.$/.exec(
    message ?? '',
  );
  expect(match, `not the wait text: ${message}`).not.toBeNull();
  const seconds = Number(match?.[1]);
  expect(message).toBe(TEXT.tooManyAttempts(seconds));
  return seconds;
}

/** Ends the windows of counters whose key matches, as if their time had passed. */
async function letWindowsPass(keyPattern: string) {
  await test.db
    .update(rateLimit)
    .set({ lastRequest: sql`(extract(epoch from now()) * 1000)::bigint` })
    .where(like(rateLimit.key, keyPattern));
}

async function mailsTo(email: string) {
  const [row] = await test.db
    .select({ n: count() })
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, email));
  return row?.n ?? 0;
}

describe('contact and newsletter forms, per client IP', () => {
  it('takes 5 contact messages in 10 minutes from one IP, then answers 429 with the wait text', async () => {
    const ip = freshIp();
    const send = (from = ip) =>
      mutateOverHttp(
        test.db,
        'contact.send',
        { email: 'grace@example.ug', comment: 'Hi' },
        {
          ip: from,
        },
      );
    for (let i = 0; i < CONTACT_MESSAGE_LIMIT.max; i++) expect((await send()).status).toBe(200);

    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body.error?.data.code).toBe('TOO_MANY_REQUESTS');
    const wait = waitSeconds(refused.body.error?.message);
    expect(wait).toBeGreaterThan(CONTACT_MESSAGE_LIMIT.windowSeconds - 60);
    expect(wait).toBeLessThanOrEqual(CONTACT_MESSAGE_LIMIT.windowSeconds);
    expect(JSON.stringify(refused.body)).not.toMatch(/stack|\.ts:\d+/);

    const [stored] = await test.db.select({ n: count() }).from(contactMessages);
    expect(stored?.n).toBe(CONTACT_MESSAGE_LIMIT.max);
    // Someone else, on another address, is unaffected.
    expect((await send(freshIp())).status).toBe(200);
    // When the window has passed, the first IP may write again.
    await letWindowsPass(`contact:ip:${ip}`);
    expect((await send()).status).toBe(200);
  });

  it('takes 5 newsletter sign-ups in 10 minutes from one IP; bad addresses do not use them up', async () => {
    const ip = freshIp();
    const subscribe = (email: string, from = ip) =>
      mutateOverHttp(test.db, 'contact.subscribe', { email }, { ip: from });
    // Typos are answered with their own text and count for nothing.
    for (let i = 0; i < 8; i++) {
      const typo = await subscribe('amara@example');
      expect(typo.status).toBe(400);
      expect(typo.body.error?.message).toBe('Please enter a valid email address.');
    }
    for (let i = 0; i < NEWSLETTER_LIMIT.max; i++) {
      expect((await subscribe(`reader${i}@example.ug`)).status).toBe(200);
    }
    const refused = await subscribe('one-more@example.ug');
    expect(refused.status).toBe(429);
    waitSeconds(refused.body.error?.message);
    const stored = await test.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, 'one-more@example.ug'));
    expect(stored).toEqual([]);
    expect((await subscribe('one-more@example.ug', freshIp())).status).toBe(200);
  });

  it('counts the contact form and the newsletter apart', async () => {
    const ip = freshIp();
    for (let i = 0; i < NEWSLETTER_LIMIT.max; i++) {
      await mutateOverHttp(test.db, 'contact.subscribe', { email: `n${i}@example.ug` }, { ip });
    }
    const message = await mutateOverHttp(
      test.db,
      'contact.send',
      { email: 'grace@example.ug' },
      { ip },
    );
    expect(message.status).toBe(200);
  });
});

describe('password checks of a signed-in shopper, like sign-in', () => {
  it('answers the 6th delete-account attempt in a minute with 429, even with the right password', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const bystander = await signedInShopper(test.db, auth);
    const remove = (password: string, who = shopper) =>
      mutateOverHttp(
        test.db,
        'account.deleteAccount',
        { password },
        // Every attempt from a different IP: the limit follows the shopper, not the address.
        { auth, cookie: who.cookie, ip: freshIp() },
      );
    for (let i = 0; i < PASSWORD_CHECK_LIMIT.max; i++) {
      const wrong = await remove(`guess-${i}`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.error?.message).toBe(TEXT.passwordIncorrect);
    }
    const sixth = await remove('guess-6');
    expect(sixth.status).toBe(429);
    const wait = waitSeconds(sixth.body.error?.message);
    expect(wait).toBeLessThanOrEqual(PASSWORD_CHECK_LIMIT.windowSeconds);
    // The right password is refused too until the window passes, so a 429 tells a guesser nothing.
    const right = await remove(shopper.password);
    expect(right.status).toBe(429);
    expect(await test.db.select().from(user).where(eq(user.id, shopper.id))).toHaveLength(1);
    // Another shopper's dialog is unaffected.
    expect((await remove('not-mine', bystander)).body.error?.message).toBe(TEXT.passwordIncorrect);

    await letWindowsPass(`password-check:user:${shopper.id}`);
    const afterWait = await remove(shopper.password);
    expect(afterWait.status).toBe(200);
    expect(await test.db.select().from(user).where(eq(user.id, shopper.id))).toEqual([]);
  });

  it('counts change-password guesses with the delete dialog, per shopper whatever the IP', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const change = (currentPassword: string) =>
      authPost(
        auth,
        '/change-password',
        { currentPassword, newPassword: 'brand-new-1' },
        { cookie: shopper.cookie, ip: freshIp() },
      );
    const remove = (password: string) =>
      mutateOverHttp(
        test.db,
        'account.deleteAccount',
        { password },
        { auth, cookie: shopper.cookie, ip: freshIp() },
      );
    for (let i = 0; i < 2; i++) {
      expect((await remove(`guess-${i}`)).body.error?.message).toBe(TEXT.passwordIncorrect);
    }
    for (let i = 2; i < PASSWORD_CHECK_LIMIT.max; i++) {
      expect((await change(`guess-${i}`)).body?.code).toBe('INVALID_PASSWORD');
    }
    const sixth = await change(shopper.password);
    expect(sixth.status).toBe(429);
    const wait = Number(sixth.headers.get('x-retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(PASSWORD_CHECK_LIMIT.windowSeconds);
    expect(sixth.body?.message).toBe(TEXT.tooManyAttempts(wait));
    // The password did not change: the old one still signs in.
    const signIn = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    expect(signIn.status).toBe(200);
  });

  it("switches off better-auth's /verify-password, which the shop does not use", async () => {
    const shopper = await signedInShopper(test.db, auth);
    for (const password of ['wrong-one', shopper.password]) {
      const answer = await authPost(
        auth,
        '/verify-password',
        { password },
        { cookie: shopper.cookie },
      );
      expect(answer.status).toBe(404);
    }
  });
});

describe('verification mails, per address whatever the IP', () => {
  let n = 0;
  const newEmail = () => `verify${++n}-${Date.now()}@example.ug`;
  const resend = (email: string) =>
    authPost(auth, '/send-verification-email', { email, callbackURL: '/' }, { ip: freshIp() });

  it('sends the registration mail and two resends an hour, then answers the button with 429', async () => {
    const email = newEmail();
    await authPost(auth, '/sign-up/email', { name: 'Brenda K', email, password: 'secret1' });
    for (let i = 1; i < VERIFICATION_MAIL_LIMIT.max; i++) {
      expect((await resend(email)).status).toBe(200);
    }
    expect(await mailsTo(email)).toBe(VERIFICATION_MAIL_LIMIT.max);

    const refused = await resend(email);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('x-retry-after'));
    expect(wait).toBeGreaterThan(VERIFICATION_MAIL_LIMIT.windowSeconds - 60);
    expect(wait).toBeLessThanOrEqual(VERIFICATION_MAIL_LIMIT.windowSeconds);
    expect(refused.body?.message).toBe(TEXT.tooManyAttempts(wait));
    // Signing in unverified still says to verify, but no further mail goes out this hour.
    const signIn = await authPost(auth, '/sign-in/email', { email, password: 'secret1' });
    expect(signIn.status).toBe(403);
    expect(signIn.body?.code).toBe('EMAIL_NOT_VERIFIED');
    expect(await mailsTo(email)).toBe(VERIFICATION_MAIL_LIMIT.max);

    // Another address is unaffected; after the hour this one gets mail again.
    const other = newEmail();
    await authPost(auth, '/sign-up/email', { name: 'Other P', email: other, password: 'secret1' });
    expect((await resend(other)).status).toBe(200);
    expect(await mailsTo(other)).toBe(2);
    await letWindowsPass(`verification-mail:${email}`);
    expect((await resend(email.toUpperCase())).status).toBe(200);
    expect(await mailsTo(email)).toBe(VERIFICATION_MAIL_LIMIT.max + 1);
  });

  it('caps the mails sent on unverified sign-ins the same way, without a different answer', async () => {
    const email = newEmail();
    await authPost(auth, '/sign-up/email', { name: 'Joel M', email, password: 'secret1' });
    for (let i = 0; i < 4; i++) {
      const signIn = await authPost(auth, '/sign-in/email', { email, password: 'secret1' });
      expect(signIn.status).toBe(403);
      expect(signIn.body?.code).toBe('EMAIL_NOT_VERIFIED');
    }
    expect(await mailsTo(email)).toBe(VERIFICATION_MAIL_LIMIT.max);
  });

  it('answers resends for an unknown address like a known one (nothing revealed)', async () => {
    const email = newEmail();
    const answers = [];
    for (let i = 0; i <= VERIFICATION_MAIL_LIMIT.max; i++)
      answers.push((await resend(email)).status);
    expect(answers).toEqual([200, 200, 200, 429]);
    expect(await mailsTo(email)).toBe(0);
  });
});

describe('the shared counter', () => {
  it('lets exactly max of 50 concurrent attempts through', async () => {
    const limit = { max: 7, windowSeconds: 60 };
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => countAttempt(test.db, 'race:one-key', limit)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(limit.max);
    const [row] = await test.db.select().from(rateLimit).where(eq(rateLimit.key, 'race:one-key'));
    expect(row?.count).toBe(50);
    for (const verdict of verdicts.filter((v) => !v.allowed)) {
      expect(verdict).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    }
  });

  it('starts a fresh window once the last one is over, with exactly max again under a race', async () => {
    const limit = { max: 3, windowSeconds: 600 };
    for (let i = 0; i < 5; i++) await countAttempt(test.db, 'race:window', limit);
    await letWindowsPass('race:window');
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => countAttempt(test.db, 'race:window', limit)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(limit.max);
  });
});
