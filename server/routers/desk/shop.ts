// The shop: desk.role, desk.dashboard, desk.settings, desk.saveSettings, desk.staff,
// desk.addStaff, desk.removeStaff, desk.record.
import { deskProcedure } from '../../trpc.ts';

export const shopDesk = {
  /** Who is at the desk: the layout shows the owner's parts to the owner only. */
  role: deskProcedure.query(({ ctx }) => ({ role: ctx.role, email: ctx.user.email })),
};
