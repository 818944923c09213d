import { deleteAccountInput, profileInput, settingsInput, TEXT } from '#core/account.ts';
import { PASSWORD_CHECK_LIMIT, WHATSAPP_CODE_LIMIT, WHATSAPP_VERIFY_LIMIT } from '#core/limits.ts';
import { verifyWhatsAppInput } from '#core/whatsapp.ts';
import { passwordMatches } from '../auth.ts';
import {
  deleteAccount,
  type Profile,
  readProfile,
  readSettings,
  saveSettings,
  updateProfile,
} from '../services/account-service.ts';
import { avatarKey } from '../services/avatar-service.ts';
import { PASSWORD_CHECKS } from '../services/rate-limit.ts';
import { creditOf } from '../services/value-service.ts';
import {
  sendVerificationCode,
  verifyWhatsAppCode,
  whatsAppVerification,
} from '../services/whatsapp-verification.ts';
import { limited, protectedProcedure, publicProcedure, router, shopperError } from '../trpc.ts';

function profileView(profile: Profile) {
  return {
    id: profile.id,
    email: profile.email,
    full_name: profile.fullName,
    avatar_url: profile.avatarUrl,
    phone: profile.phone,
    address: profile.address,
    created_at: profile.createdAt.toISOString(),
    updated_at: profile.updatedAt.toISOString(),
  };
}

export const accountRouter = router({
  /** Who is signed in (null for a visitor): the header, side menu and guards read this. */
  session: publicProcedure.query(({ ctx }) => ctx.session.read()),

  profile: protectedProcedure.query(async ({ ctx }) => {
    try {
      return profileView(await readProfile(ctx.db, ctx.user));
    } catch (error) {
      console.error(error);
      return shopperError('INTERNAL_SERVER_ERROR', 'Could not fetch user profile');
    }
  }),

  updateProfile: protectedProcedure
    .input(profileInput)
    .mutation(async ({ ctx, input }) => profileView(await updateProfile(ctx.db, ctx.user, input))),

  /** The shopper's own store credit: its balance and every entry, newest first (issue 35). */
  credit: protectedProcedure.query(({ ctx }) => creditOf(ctx.db, ctx.user.id)),

  settings: protectedProcedure.query(({ ctx }) => readSettings(ctx.db, ctx.user)),

  /** Her number on WhatsApp (issue 37): whether the shop has WhatsApp, and whether it is verified. */
  whatsapp: protectedProcedure.query(({ ctx }) => whatsAppVerification(ctx, ctx.user.id)),

  /** Sends a 6-digit code to her profile number on WhatsApp (3 an hour: each is paid for). */
  sendWhatsAppCode: protectedProcedure
    .use(limited('whatsapp-code', WHATSAPP_CODE_LIMIT))
    .mutation(async ({ ctx }) => {
      const sent = await sendVerificationCode(ctx, ctx.user.id);
      return sent.ok ? sent : shopperError('BAD_REQUEST', sent.message);
    }),

  /** The code she got: right, her number is verified on WhatsApp (the assistant may read her
   * orders there). */
  verifyWhatsApp: protectedProcedure
    .input(verifyWhatsAppInput)
    .use(limited('whatsapp-verify', WHATSAPP_VERIFY_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const checked = await verifyWhatsAppCode(ctx, ctx.user.id, input.code);
      return checked.ok ? checked : shopperError('BAD_REQUEST', checked.message);
    }),

  /** Order updates on WhatsApp only where the shop has WhatsApp (issue 37). */
  saveSettings: protectedProcedure.input(settingsInput).mutation(({ ctx, input }) => {
    if (input.notifications.channel === 'whatsapp' && !ctx.sms.whatsapp) {
      return shopperError('BAD_REQUEST', TEXT.whatsappUnavailable);
    }
    return saveSettings(ctx.db, ctx.user, input);
  }),

  /** Spec: the password is re-checked ('Password is incorrect'); orders stay, detached. */
  deleteAccount: protectedProcedure
    .input(deleteAccountInput)
    // Every attempt counts, before the check: past the limit even the right password waits.
    .use(limited(PASSWORD_CHECKS, PASSWORD_CHECK_LIMIT))
    .mutation(async ({ ctx, input }) => {
      if (!(await passwordMatches(ctx.auth, ctx.user.id, input.password))) {
        return shopperError('BAD_REQUEST', TEXT.passwordIncorrect);
      }
      await deleteAccount(ctx.db, ctx.user);
      try {
        await ctx.avatars.delete(avatarKey(ctx.user.id));
      } catch (error) {
        console.error('Avatar removal failed after account deletion', error);
      }
      return { deleted: true };
    }),
});
