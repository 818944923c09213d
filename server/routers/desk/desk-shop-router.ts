// The shop: desk.role, desk.dashboard, desk.settings, desk.saveSettings, desk.staff,
// desk.addStaff, desk.removeStaff, desk.record.
import type { TRPCRouterRecord } from '@trpc/server';
import { DESK_TEXT } from '#core/desk-roles.ts';
import {
  addStaffInput,
  OWNER_SETTINGS,
  recordInput,
  removeStaffInput,
  SHOP_TEXT,
  saveSettingsInput,
} from '#core/desk-shop.ts';
import { dashboard } from '../../services/dashboard.ts';
import { deskRecordPage } from '../../services/desk-record.ts';
import { deskSettings, saveDeskSettings } from '../../services/desk-settings.ts';
import {
  addStaff,
  deskStaff,
  removeStaff,
  type StaffRefused,
} from '../../services/staff-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, ownerProcedure } from '../../trpc.ts';

const settingsRefusal: Refusals<'owner-only'> = {
  'owner-only': ['FORBIDDEN', DESK_TEXT.ownerOnly],
};

const staffRefusal: Refusals<StaffRefused['problem'], StaffRefused> = {
  yourself: ['BAD_REQUEST', SHOP_TEXT.notYourself],
  'no-account': ['NOT_FOUND', (refused) => SHOP_TEXT.noAccount(refused.email)],
  'configured-owner': ['BAD_REQUEST', (refused) => SHOP_TEXT.configuredOwner(refused.email)],
  'not-staff': ['NOT_FOUND', (refused) => SHOP_TEXT.notStaff(refused.email)],
};

export const shopDesk = {
  /** Who is at the desk: the layout shows the owner's parts to the owner only, and the inbox
   * only where WhatsApp is set up (issue 37). */
  role: deskProcedure.query(({ ctx }) => ({
    role: ctx.role,
    email: ctx.user.email,
    whatsapp: Boolean(ctx.sms.whatsapp),
  })),

  /** The morning view: sales, orders, money waiting, top pieces, low stock, failed texts. */
  dashboard: deskProcedure.query(({ ctx }) => dashboard(ctx.db)),

  /** Each setting's value, whether the desk or the configuration gives it, and who may change it. */
  settings: deskProcedure.query(async ({ ctx }) => {
    const { values, sources } = await deskSettings(ctx.db, ctx);
    return { values, sources, ownerOnly: [...OWNER_SETTINGS], role: ctx.role };
  }),

  /** Saves what changed with its record; staff may not change the owner's settings. */
  saveSettings: deskProcedure.input(saveSettingsInput).mutation(async ({ ctx, input }) => {
    const actor = { email: ctx.user.email };
    const saved = await saveDeskSettings(ctx.db, actor, ctx.role, input);
    return { changed: accepted(saved, settingsRefusal).changed };
  }),

  /** Everyone at the desk: owners first; OPERATOR_EMAILS marked as from configuration. */
  staff: ownerProcedure.query(({ ctx }) => deskStaff(ctx.db, ctx.ownerEmails)),

  /** Gives an account a desk role (staff unless said), with its record, in one batch. */
  addStaff: ownerProcedure.input(addStaffInput).mutation(async ({ ctx, input }) => {
    const { email, role } = accepted(await addStaff(ctx.db, ctx.user, input), staffRefusal);
    return { email, role };
  }),

  /** Takes the desk role away: their next request is refused (no session cache). */
  removeStaff: ownerProcedure.input(removeStaffInput).mutation(async ({ ctx, input }) => {
    const removed = await removeStaff(ctx.db, ctx.user, ctx.ownerEmails, input);
    const { email, role } = accepted(removed, staffRefusal);
    return { email, role, removed: true };
  }),

  /** The record, newest first, a page at a time (`before`: the last id of the page before). */
  record: ownerProcedure
    .input(recordInput)
    .query(({ ctx, input }) => deskRecordPage(ctx.db, input?.before)),
} satisfies TRPCRouterRecord;
