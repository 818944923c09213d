// The desk's people in integration tests: a signed-in account given a desk role the way the shop
// gives it (server/services/staff-service.ts, as make-operator and the owner's desk do).
import { setTimeout as after } from 'node:timers/promises';
import type { DeskRole } from '#core/desk-roles.ts';
import type { Db } from '#db/client.ts';
import type { Auth } from '#server/auth.ts';
import { setRole } from '#server/services/staff-service.ts';
import { signedInShopper } from './accounts.ts';
import { callerFor } from './trpc.ts';

export type DeskMember = Awaited<ReturnType<typeof signedInShopper>> & { role: DeskRole };

/** A registered, verified, signed-in person with this desk role in the database. */
export async function deskMember(
  db: Db,
  auth: Auth,
  role: DeskRole,
  name?: string,
): Promise<DeskMember> {
  const person = await signedInShopper(db, auth, {
    name: name ?? (role === 'owner' ? 'Olive Owner' : 'Sam Staff'),
  });
  await setRole(db, person.email, role);
  return { ...person, role };
}

/** The desk's procedures as this person calls them (their session cookie). */
export function deskCaller(
  db: Db,
  person: { cookie: string },
  extras: Parameters<typeof callerFor>[2] = {},
) {
  return callerFor(db, new Headers({ cookie: person.cookie }), extras).desk;
}

/**
 * The same desk save sent twice: at once, and again `ms` later, while the first may still be
 * being written (a double tap on a slow link). Both answers, in order.
 */
export function sentTwice<T>(save: () => Promise<T>, ms: number): Promise<[T, T]> {
  return Promise.all([save(), after(ms).then(save)]);
}
