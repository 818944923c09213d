import * as v from 'valibot';
import {
  CURRENCIES,
  LANGUAGES,
  MAX_ADDRESS_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  TEXT,
  VISIBILITIES,
} from '#core/account.ts';
import { PASSWORD_CHECK_LIMIT } from '#core/limits.ts';
import { isValidPhone, normalisePhone } from '#core/phone.ts';
import { passwordMatches, sessionUser } from '../auth.ts';
import {
  deleteAccount,
  ensureProfile,
  type Profile,
  readSettings,
  saveSettings,
  updateProfile,
} from '../services/account.ts';
import { avatarKey } from '../services/avatar.ts';
import { PASSWORD_CHECKS } from '../services/rate-limit.ts';
import { limited, protectedProcedure, publicProcedure, router, shopperError } from '../trpc.ts';

const noMarkup = (message: string) => v.regex(/^[^<>]*$/, message);

/** Empty text is stored as null (spec: account §5). */
const optionalText = (max: number, tooLong: string, markup: string) =>
  v.pipe(
    v.nullish(v.string('Must be text'), ''),
    v.trim(),
    v.maxLength(max, tooLong),
    noMarkup(markup),
    v.transform((text) => (text === '' ? null : text)),
  );

const profileInput = v.strictObject(
  {
    fullName: v.pipe(
      v.string('Full name must be text'),
      v.trim(),
      v.minLength(1, TEXT.fullNameRequired),
      v.maxLength(MAX_NAME_LENGTH, 'Full name must be at most 100 characters.'),
      noMarkup(TEXT.nameMarkup),
    ),
    phone: v.pipe(
      v.nullish(v.string('Phone must be text'), ''),
      v.trim(),
      v.maxLength(30, TEXT.invalidPhone),
      v.transform((phone) => (phone === '' ? null : normalisePhone(phone))),
      v.check((phone) => phone === null || isValidPhone(phone), TEXT.invalidPhone),
    ),
    address: optionalText(MAX_ADDRESS_LENGTH, TEXT.addressTooLong, TEXT.addressMarkup),
  },
  'Unexpected profile field',
);

const toggle = (name: string) => v.boolean(`${name} must be on or off`);
const settingsInput = v.strictObject(
  {
    notifications: v.strictObject({
      email: toggle('Email notifications'),
      push: toggle('Push notifications'),
      orderUpdates: toggle('Order updates'),
      promotions: toggle('Promotions'),
    }),
    appearance: v.strictObject({
      darkMode: toggle('Dark mode'),
      language: v.picklist(
        LANGUAGES.map((l) => l.code),
        'Please choose one of the offered languages',
      ),
      currency: v.picklist(CURRENCIES, 'Please choose one of the offered currencies'),
    }),
    privacy: v.strictObject({
      profileVisibility: v.picklist(
        VISIBILITIES.map((o) => o.value),
        'Please choose public, private or friends only',
      ),
      dataSharing: toggle('Data sharing'),
      analytics: toggle('Analytics'),
    }),
    account: v.strictObject({
      displayName: v.pipe(
        v.string('Display name must be text'),
        v.trim(),
        v.maxLength(MAX_NAME_LENGTH, 'Display name must be at most 100 characters.'),
        noMarkup('Display name cannot contain < or >.'),
      ),
      twoFactorAuth: toggle('Two-factor authentication'),
    }),
  },
  'Unexpected settings field',
);

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
  session: publicProcedure.query(async ({ ctx }) =>
    ctx.auth ? sessionUser(ctx.auth, ctx.headers) : null,
  ),

  profile: protectedProcedure.query(async ({ ctx }) => {
    try {
      return profileView(await ensureProfile(ctx.db, ctx.user));
    } catch (error) {
      console.error(error);
      return shopperError('INTERNAL_SERVER_ERROR', 'Could not fetch user profile');
    }
  }),

  updateProfile: protectedProcedure
    .input(profileInput)
    .mutation(async ({ ctx, input }) => profileView(await updateProfile(ctx.db, ctx.user, input))),

  settings: protectedProcedure.query(({ ctx }) => readSettings(ctx.db, ctx.user)),

  saveSettings: protectedProcedure
    .input(settingsInput)
    .mutation(({ ctx, input }) => saveSettings(ctx.db, ctx.user, input)),

  /** Spec: the password is re-checked ('Password is incorrect'); orders stay, detached. */
  deleteAccount: protectedProcedure
    .input(
      v.strictObject({
        password: v.pipe(
          v.string(TEXT.passwordIncorrect),
          v.minLength(1, TEXT.passwordIncorrect),
          v.maxLength(MAX_PASSWORD_LENGTH, TEXT.passwordIncorrect),
        ),
      }),
    )
    // Every attempt counts, before the check: past the limit even the right password waits.
    .use(limited(PASSWORD_CHECKS, PASSWORD_CHECK_LIMIT))
    .mutation(async ({ ctx, input }) => {
      if (!(await passwordMatches(ctx.auth, ctx.user.id, input.password))) {
        return shopperError('BAD_REQUEST', TEXT.passwordIncorrect);
      }
      await deleteAccount(ctx.db, ctx.user);
      try {
        await ctx.avatars?.delete(avatarKey(ctx.user.id));
      } catch (error) {
        console.error('Avatar removal failed after account deletion', error);
      }
      return { deleted: true };
    }),
});
