// A verified shopper made over HTTP against a running shop, as a person would: sign-up through
// better-auth, the mailed verification link (local outbox), profile details for checkout, then a
// sign-in whose session cookie is returned. For the bench and the soak (loopback only).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { profiles, user } from '#db/schema/index.ts';
import { mailedLink } from './mailed-link.ts';

export const SHOPPER_PASSWORD = 'kampala-local-2026';

/** The cookies a response sets, as a Cookie header. */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

export async function signInOverHttp(origin: string, email: string, ip: string): Promise<string> {
  const answer = await fetch(new URL('/api/auth/sign-in/email', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'cf-connecting-ip': ip },
    body: JSON.stringify({ email, password: SHOPPER_PASSWORD }),
  });
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
  return cookiesOf(answer);
}

export async function shopperOverHttp(
  db: Db,
  origin: string,
  details: { name: string; phone: string; ip: string },
): Promise<{ id: string; email: string; cookie: string }> {
  const email = `${details.name.split(' ')[0]?.toLowerCase()}-${randomUUID().slice(0, 8)}@example.ug`;
  const signUp = await fetch(new URL('/api/auth/sign-up/email', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'cf-connecting-ip': details.ip },
    body: JSON.stringify({ name: details.name, email, password: SHOPPER_PASSWORD }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  const verified = await fetch(await mailedLink(db, email), { redirect: 'manual' });
  if (verified.status >= 400) throw new Error(`verification answered ${verified.status}`);
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row) throw new Error('no user row');
  const profile = { fullName: details.name, phone: details.phone, address: 'Plot 4, Kampala Road' };
  await db
    .insert(profiles)
    .values({ id: row.id, email, ...profile })
    .onConflictDoUpdate({ target: profiles.id, set: profile });
  return { id: row.id, email, cookie: await signInOverHttp(origin, email, details.ip) };
}
