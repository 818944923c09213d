// A verified shopper for browser tests: registered over HTTP against the shop under test, verified
// through the mailed link, with the profile details checkout needs.
import { randomInt, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';

import type { Db } from '#db/client.ts';
import { profiles, user } from '#db/schema/index.ts';
import { mailedLink } from '#local/mailed-link.ts';
import { timed } from './profile.ts';
import { shop } from './shop.ts';

export const SHOPPER_PASSWORD = 'kampala-2026';
export type Shopper = { email: string; name: string; id: string };

/** Each registration from its own client address, so the sign-up limits of one never touch another. */
export const anyClientIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

/** The browser tests' operator (OPERATOR_EMAILS of the test server, tests/support/shop-server.ts). */
export const OPERATOR_EMAIL = 'operator@example.ug';

/** The operator's account: registered by the first browser test that needs it, then reused. */
export async function deskOwner(db: Db): Promise<Shopper> {
  const [row] = await db.select().from(user).where(eq(user.email, OPERATOR_EMAIL));
  if (row) return { email: row.email, name: row.name, id: row.id };
  return verifiedShopper(db, 'Olivia Operator', { email: OPERATOR_EMAIL });
}

export function verifiedShopper(
  db: Db,
  name: string,
  profile: { phone?: string | null; address?: string | null; email?: string } = {},
): Promise<Shopper> {
  return timed('sign-up', () => signUp(db, name, profile));
}

async function signUp(
  db: Db,
  name: string,
  profile: { phone?: string | null; address?: string | null; email?: string },
): Promise<Shopper> {
  const email =
    profile.email ?? `${name.split(' ')[0]?.toLowerCase()}-${randomUUID().slice(0, 8)}@example.ug`;
  const shopUrl = shop().url;
  const signUp = await fetch(new URL('/api/auth/sign-up/email', shopUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: shopUrl,
      'cf-connecting-ip': anyClientIp(),
    },
    body: JSON.stringify({ name, email, password: SHOPPER_PASSWORD }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  const verified = await fetch(await mailedLink(db, email), { redirect: 'manual' });
  if (verified.status >= 400) throw new Error(`verification answered ${verified.status}`);
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row) throw new Error('no user row');
  const details = {
    fullName: name,
    phone: profile.phone ?? null,
    address: profile.address ?? null,
  };
  await db
    .insert(profiles)
    .values({ id: row.id, email, ...details })
    .onConflictDoUpdate({ target: profiles.id, set: details });
  return { email, name, id: row.id };
}

/** Signs a browser page's context in as the shopper (the session cookie lands in the context). */
export async function signIn(page: Page, shopper: Shopper): Promise<void> {
  const answer = await timed('sign-in', () =>
    page.request.post('/api/auth/sign-in/email', {
      data: { email: shopper.email, password: SHOPPER_PASSWORD },
      headers: { origin: shop().url, 'cf-connecting-ip': anyClientIp() },
    }),
  );
  if (answer.status() !== 200) throw new Error(`sign-in answered ${answer.status()}`);
}

/** The shopper's session cookie, signed in over HTTP from a fresh client address. */
export async function sessionCookie(shopper: Shopper): Promise<string> {
  const shopUrl = shop().url;
  const answer = await fetch(new URL('/api/auth/sign-in/email', shopUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: shopUrl,
      'cf-connecting-ip': anyClientIp(),
    },
    body: JSON.stringify({ email: shopper.email, password: SHOPPER_PASSWORD }),
  });
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
  return answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
