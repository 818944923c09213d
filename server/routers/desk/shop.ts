// The shop: desk.role, desk.dashboard, desk.settings, desk.saveSettings, desk.staff,
// desk.addStaff, desk.removeStaff, desk.record.

import { eq, sql } from 'drizzle-orm';
import { DESK_TEXT } from '#core/desk.ts';
import {
  addStaffInput,
  kampalaDay,
  OWNER_SETTINGS,
  RECORD_PAGE,
  recordInput,
  removeStaffInput,
  SHOP_TEXT,
  saveSettingsInput,
} from '#core/desk-shop.ts';
import type { Db } from '#db/client.ts';
import { user } from '#db/schema/index.ts';
import { bumpCatalogueVersion } from '../../services/catalogue-version.ts';
import { dashboard } from '../../services/dashboard.ts';
import {
  type DeskActor,
  deskRecordsNewest,
  type KeyOwner,
  keyedSave,
  recordDeskWrite,
} from '../../services/desk-record.ts';
import {
  changedSettings,
  type SettingName,
  settingsFrom,
  settingsQuery,
  settingsWrites,
} from '../../services/shop-settings.ts';
import { setRoleQuery, staffMembers } from '../../services/staff.ts';
import { deskProcedure, ownerProcedure, shopperError } from '../../trpc.ts';

const isOwnerSetting = (name: SettingName) => (OWNER_SETTINGS as readonly string[]).includes(name);

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

export const shopDesk = {
  /** Who is at the desk: the layout shows the owner's parts to the owner only. */
  role: deskProcedure.query(({ ctx }) => ({ role: ctx.role, email: ctx.user.email })),

  /** The morning view: sales, orders, money waiting, top pieces, low stock, failed texts. */
  dashboard: deskProcedure.query(({ ctx }) => dashboard(ctx.db)),

  /** Each setting's value, whether the desk or the configuration gives it, and who may change it. */
  settings: deskProcedure.query(async ({ ctx }) => {
    const { values, sources } = settingsFrom(await settingsQuery(ctx.db), ctx);
    return { values, sources, ownerOnly: [...OWNER_SETTINGS], role: ctx.role };
  }),

  /**
   * Saves what changed, in one batch with its record (the names changed, never the values) and
   * the catalogue version (the contact and the prices' approximations show on cached pages).
   * Staff may change the support contact and the low-stock threshold; the owner, everything.
   */
  saveSettings: deskProcedure.input(saveSettingsInput).mutation(async ({ ctx, input }) => {
    const { requestKey, ...change } = input;
    const owner = { actor: ctx.user, action: 'settings.saved' };
    return keyedSave(ctx.db, requestKey, owner, async () => {
      const changed = await changedSettings(ctx.db, change);
      if (ctx.role !== 'owner' && changed.some(isOwnerSetting)) {
        return shopperError('FORBIDDEN', DESK_TEXT.ownerOnly);
      }
      const actor: DeskActor = { email: ctx.user.email };
      await ctx.db.batch([
        recordDeskWrite(ctx.db, actor, {
          action: 'settings.saved',
          subject: 'Shop settings',
          details: { changed },
          requestKey,
        }),
        bumpCatalogueVersion(ctx.db),
        ...settingsWrites(ctx.db, changed, change, kampalaDay(new Date())),
      ]);
      return { changed };
    });
  }),

  /** Everyone at the desk: owners first; OPERATOR_EMAILS marked as from configuration. */
  staff: ownerProcedure.query(async ({ ctx }) => {
    const members = (await staffMembers(ctx.db)).map((member) => ({
      email: member.email,
      name: member.name as string | null,
      role: member.role as 'owner' | 'staff',
      fromConfiguration: ctx.ownerEmails.includes(member.email.toLowerCase()),
    }));
    for (const email of ctx.ownerEmails) {
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
  }),

  /** Gives an account a desk role (staff unless said), with its record, in one batch. */
  addStaff: ownerProcedure.input(addStaffInput).mutation(async ({ ctx, input }) =>
    keyedSave(
      ctx.db,
      input.requestKey,
      staffKeyOwner(ctx.user, 'staff.added', input.email),
      async () => {
        if (input.email === ctx.user.email.toLowerCase()) {
          return shopperError('BAD_REQUEST', SHOP_TEXT.notYourself);
        }
        const [account] = await accountRole(ctx.db, input.email);
        if (!account) return shopperError('NOT_FOUND', SHOP_TEXT.noAccount(input.email));
        const [[changed]] = await ctx.db.batch([
          setRoleQuery(ctx.db, input.email, input.role),
          recordDeskWrite(ctx.db, ctx.user, {
            action: 'staff.added',
            subject: account.email,
            details: { email: account.email, role: input.role },
            requestKey: input.requestKey,
          }),
        ]);
        return { email: changed?.email ?? account.email, role: input.role };
      },
    ),
  ),

  /** Takes the desk role away: their next request is refused (no session cache). */
  removeStaff: ownerProcedure.input(removeStaffInput).mutation(async ({ ctx, input }) =>
    keyedSave(
      ctx.db,
      input.requestKey,
      staffKeyOwner(ctx.user, 'staff.removed', input.email),
      async () => {
        if (input.email === ctx.user.email.toLowerCase()) {
          return shopperError('BAD_REQUEST', SHOP_TEXT.notYourself);
        }
        if (ctx.ownerEmails.includes(input.email)) {
          return shopperError('BAD_REQUEST', SHOP_TEXT.configuredOwner(input.email));
        }
        const [account] = await accountRole(ctx.db, input.email);
        if (!account || (account.role !== 'staff' && account.role !== 'owner')) {
          return shopperError('NOT_FOUND', SHOP_TEXT.notStaff(input.email));
        }
        // The answer is what the record keeps: a retry with the same key reads it back.
        const answer = { email: account.email, role: account.role, removed: true };
        await ctx.db.batch([
          setRoleQuery(ctx.db, input.email, 'customer'),
          recordDeskWrite(ctx.db, ctx.user, {
            action: 'staff.removed',
            subject: account.email,
            details: answer,
            requestKey: input.requestKey,
          }),
        ]);
        return answer;
      },
    ),
  ),

  /** The record, newest first, a page at a time (`before`: the last id of the page before). */
  record: ownerProcedure.input(recordInput).query(async ({ ctx, input }) => {
    const rows = await deskRecordsNewest(ctx.db, RECORD_PAGE + 1, input?.before);
    const page = rows.slice(0, RECORD_PAGE).map((row) => ({
      ...row,
      createdAt: new Date(row.createdAt).toISOString(),
    }));
    return { records: page, next: rows.length > RECORD_PAGE ? (page.at(-1)?.id ?? null) : null };
  }),
};
