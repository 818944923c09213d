// Who works at the desk (issue 22): "user".role holds 'staff' or 'owner' (core/desk-roles.ts). Set by
// the owner on the desk and by `npm run make-operator`; OPERATOR_EMAILS act as owners whatever
// their row says. A person must have an account (signed up) before they can be given a role.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type DeskRole, isDeskRole, type UserRole } from '#core/desk-roles.ts';
import type { Db } from '#db/client.ts';
import { user } from '#db/schema/index.ts';
import type { Refused } from '../shopper-error.ts';
import { type DeskActor, type KeyOwner, keyedAnswer, recordDeskWrite } from './desk-record.ts';

/** The role a person's account now has, or null when no account has that email. */
export function setRoleQuery(db: Db, email: string, role: UserRole) {
  return db
    .update(user)
    .set({ role, updatedAt: new Date() })
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .returning({ id: user.id, email: user.email, name: user.name, role: user.role });
}

export async function setRole(db: Db, email: string, role: UserRole) {
  const [changed] = await setRoleQuery(db, email, role);
  return changed ?? null;
}

/** Everyone with a desk role in the database, owners first. */
export function staffMembers(db: Db) {
  return db
    .select({ id: user.id, email: user.email, name: user.name, role: user.role })
    .from(user)
    .where(and(inArray(user.role, ['owner', 'staff'])))
    .orderBy(sql`${user.role} = 'staff'`, asc(user.email));
}

/** Someone at the desk as the owner's staff list shows them. */
export type StaffMember = {
  email: string;
  name: string | null;
  role: DeskRole;
  /** An owner by the shop's configuration (OPERATOR_EMAILS): removed there, not on the desk. */
  fromConfiguration: boolean;
};

/**
 * Everyone at the desk: owners first. `owners` (the configuration's owner emails, lower case) are
 * owners whatever their row says, and listed even before they have signed up.
 */
export async function deskStaff(db: Db, owners: readonly string[]): Promise<StaffMember[]> {
  const members = (await staffMembers(db)).map((member) => ({
    email: member.email,
    name: member.name as string | null,
    role: member.role as DeskRole,
    fromConfiguration: owners.includes(member.email.toLowerCase()),
  }));
  for (const email of owners) {
    const found = members.find((member) => member.email.toLowerCase() === email);
    if (found) found.role = 'owner';
    else members.unshift({ email, name: null, role: 'owner', fromConfiguration: true });
  }
  return members.sort(
    (a, b) =>
      Number(b.role === 'owner') - Number(a.role === 'owner') ||
      Number(b.fromConfiguration) - Number(a.fromConfiguration) ||
      a.email.localeCompare(b.email),
  );
}

/** Why a staff change was refused; the text names the email. */
export type StaffRefused = Refused<'yourself' | 'no-account' | 'configured-owner' | 'not-staff'> & {
  email: string;
};

/** A staff change's key belongs to its owner, its action and the person it was about. */
const staffKeyOwner = (actor: DeskActor, action: string, email: string): KeyOwner => ({
  actor,
  action,
  about: (details) => String(details.email).toLowerCase() === email,
});

function accountRole(db: Db, email: string) {
  return db
    .select({ email: user.email, role: user.role })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email))
    .limit(1);
}

/** Gives an account (`email`, lower case) a desk role, with its record, in one batch. */
export function addStaff(
  db: Db,
  actor: DeskActor,
  input: { email: string; role: DeskRole; requestKey?: string },
): Promise<{ ok: true; email: string; role: DeskRole } | StaffRefused> {
  const { email, role, requestKey } = input;
  return keyedAnswer(db, requestKey, staffKeyOwner(actor, 'staff.added', email), async () => {
    if (email === actor.email.toLowerCase()) return { ok: false, problem: 'yourself', email };
    const [account] = await accountRole(db, email);
    if (!account) return { ok: false, problem: 'no-account', email };
    const [[changed]] = await db.batch([
      setRoleQuery(db, email, role),
      recordDeskWrite(db, actor, {
        action: 'staff.added',
        subject: account.email,
        details: { email: account.email, role },
        requestKey,
      }),
    ]);
    return { ok: true, email: changed?.email ?? account.email, role };
  });
}

/**
 * Takes the desk role away (`email`, lower case): their next request is refused (no session
 * cache). The configuration's `owners` are removed there, never here.
 */
export function removeStaff(
  db: Db,
  actor: DeskActor,
  owners: readonly string[],
  input: { email: string; requestKey?: string },
): Promise<{ ok: true; email: string; role: DeskRole; removed: true } | StaffRefused> {
  const { email, requestKey } = input;
  return keyedAnswer(db, requestKey, staffKeyOwner(actor, 'staff.removed', email), async () => {
    if (email === actor.email.toLowerCase()) return { ok: false, problem: 'yourself', email };
    if (owners.includes(email)) return { ok: false, problem: 'configured-owner', email };
    const [account] = await accountRole(db, email);
    if (!account || !isDeskRole(account.role)) return { ok: false, problem: 'not-staff', email };
    // The answer is what the record keeps: a retry with the same key reads it back.
    const answer = { email: account.email, role: account.role, removed: true as const };
    await db.batch([
      setRoleQuery(db, email, 'customer'),
      recordDeskWrite(db, actor, {
        action: 'staff.removed',
        subject: account.email,
        details: answer,
        requestKey,
      }),
    ]);
    return { ok: true, ...answer };
  });
}
