// Who may use the desk (issue 22): roles on the account ("user".role), OPERATOR_EMAILS as owners,
// customers refused. The role comes with the session: taking it away ends the desk at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '#core/desk-roles.ts';
import type { Auth } from '#server/auth.ts';
import { setRole } from '#server/services/staff-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { deskCaller, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';

let test: TestDatabase;
let auth: Auth;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(async () => {
  await test?.close();
});

describe('desk roles', () => {
  it('refuses a customer, lets staff and the owner in', async () => {
    const customer = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
    await expect(deskCaller(test.db, customer).role()).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: DESK_TEXT.deskOnly,
    });
    const staff = await deskMember(test.db, auth, 'staff');
    expect(await deskCaller(test.db, staff).role()).toEqual({
      role: 'staff',
      email: staff.email,
      whatsapp: false,
    });
    const owner = await deskMember(test.db, auth, 'owner');
    expect(await deskCaller(test.db, owner).role()).toEqual({
      role: 'owner',
      email: owner.email,
      whatsapp: false,
    });
  });

  it('treats OPERATOR_EMAILS as owners, whatever their account says', async () => {
    const bootstrap = await signedInShopper(test.db, auth, { name: 'Olivia Operator' });
    const desk = deskCaller(test.db, bootstrap, {
      ownerEmails: [bootstrap.email.toUpperCase().toLowerCase()],
    });
    expect(await desk.role()).toEqual({
      role: 'owner',
      email: bootstrap.email,
      whatsapp: false,
    });
  });

  it('ends the desk at once when the role is taken away', async () => {
    const staff = await deskMember(test.db, auth, 'staff');
    expect((await deskCaller(test.db, staff).role()).role).toBe('staff');
    await setRole(test.db, staff.email, 'customer');
    await expect(deskCaller(test.db, staff).role()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
