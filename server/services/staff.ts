// Who works at the desk (issue 22): "user".role holds 'staff' or 'owner' (core/desk.ts). Set by
// the owner on the desk and by `npm run make-operator`; OPERATOR_EMAILS act as owners whatever
// their row says. A person must have an account (signed up) before they can be given a role.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { UserRole } from '#core/desk.ts';
import type { Db } from '#db/client.ts';
import { user } from '#db/schema/index.ts';

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
