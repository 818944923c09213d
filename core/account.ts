// Account rules shared by the screens and the server (spec: storefront §5, §8, §9; account §5, §8, §9).
import * as v from 'valibot';
import { isValidPhone, normalisePhone } from './phone.ts';
import { CURRENCIES, LANGUAGES, type NotificationChannel, VISIBILITIES } from './settings-rules.ts';
import { invisibleCharacters, objectMessage, optionalText, typedLine, typedText } from './text.ts';

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
export const MIN_NAME_LENGTH = 2;
export const MAX_NAME_LENGTH = 100;
export const MAX_ADDRESS_LENGTH = 500;
export const REGISTRATION_REDIRECT_MS = 2000;
export const LOGOUT_REDIRECT_MS = 1500;
export const RESEND_NOTICE_MS = 5000;
export const SETTINGS_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;
/** Where verification links land (spec: Auth callback). */
export const VERIFY_CALLBACK_PATH = '/auth/callback?type=email';
/** Where a password-reset link lands (with ?token=…, or ?error=INVALID_TOKEN). */
export const RESET_PASSWORD_PATH = '/reset-password';
/** How long a reset link works. */
export const RESET_LINK_SECONDS = 60 * 60;
/** The name kept on orders of a customer who deleted their account. */
export const DELETED_CUSTOMER_NAME = 'Deleted customer';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp'];
export const AVATAR_ACCEPT = '.jpeg,.jpg,.png,.gif,.webp,image/jpeg,image/png,image/gif,image/webp';

export const TEXT = {
  // login
  welcomeBack: 'Welcome back!',
  verifyFirst: 'Please verify your email before logging in.',
  invalidCredentials: 'Invalid login credentials',
  loginUnexpected: 'An unexpected error occurred during login.',
  noUser: 'No user data returned after login.',
  loginFieldsRequired: 'Email and password are required',
  tooManyAttempts: (seconds: number) =>
    `Too many attempts. Please wait ${seconds} seconds and try again.`,
  resendFailed: (reason: string) => `Failed to resend confirmation: ${reason}`,
  resendUnexpected: 'An unexpected error occurred while resending confirmation',
  // registration
  registered: 'Registration successful! Please check your email to verify your account.',
  alreadyRegistered: 'User already registered. Please log in.',
  passwordTooShortRegister: 'Password must be at least 6 characters long.',
  passwordTooLong: 'Password must be at most 128 characters long.',
  invalidEmail: 'Please enter a valid email address.',
  nameLength: 'Full name must be between 2 and 100 characters.',
  nameMarkup: 'Full name cannot contain < or >.',
  registrationDatabase:
    'Registration failed due to a database error. Please try again or contact support.',
  registrationUnexpected: 'An unexpected error occurred during registration. Please try again.',
  authError: (message: string) => `Auth error: ${message}`,
  // logout
  loggedOut: 'Successfully logged out!',
  logoutFailed: (message: string) => `Logout failed: ${message}`,
  // profile
  fullNameRequired: 'Full name is required',
  profileSaved: 'Profile updated successfully!',
  emailReadOnly: 'Email address cannot be changed for security reasons',
  invalidPhone: 'Please enter a valid phone number (+256 and 9 digits, or 10 to 15 digits)',
  addressTooLong: 'Address must be at most 500 characters.',
  addressMarkup: 'Address cannot contain < or >.',
  avatarType: 'Please select a valid image file',
  avatarSize: 'Image size must be less than 2MB',
  avatarSaved: 'Profile image updated successfully!',
  avatarFailed: (reason: string) => `Failed to update profile: ${reason}`,
  notAuthenticated: 'User not authenticated',
  // deletion
  deleteConfirm: 'Are you sure you want to delete your account? This cannot be undone.',
  passwordIncorrect: 'Password is incorrect',
  deleted: 'Account deleted successfully.',
  deleteFailed: 'Failed to delete profile',
  // settings
  settingsSaved: 'Settings saved successfully!',
  settingsReset: 'Settings reset to defaults',
  settingsLoadFailed: 'Failed to load saved settings',
  settingsSyncFailed:
    'Settings saved locally but sync to server failed. Will retry when connection improves.',
  // password
  allFieldsRequired: 'All fields are required',
  newPasswordTooShort: 'New password must be at least 6 characters long',
  passwordsDiffer: 'New passwords do not match',
  samePassword: 'New password must be different from current password',
  passwordTooShortServer: 'Password must be at least 6 characters long',
  passwordUpdated: 'Password updated successfully! You may need to log in again on other devices.',
  passwordFailed: (reason: string) => `Failed to update password: ${reason}`,
  // what the profile and settings forms refuse (the shop's own texts)
  fullNameNotText: 'Full name must be text',
  fullNameTooLong: 'Full name must be at most 100 characters.',
  fullNameInvisible: invisibleCharacters('Full name'),
  phoneNotText: 'Phone must be text',
  addressNotText: 'Address must be text',
  addressInvisible: invisibleCharacters('Address'),
  unexpectedProfileField: 'Unexpected profile field',
  profileInvalid: 'Please check your profile details.',
  displayNameNotText: 'Display name must be text',
  displayNameTooLong: 'Display name must be at most 100 characters.',
  displayNameMarkup: 'Display name cannot contain < or >.',
  displayNameInvisible: invisibleCharacters('Display name'),
  onOrOff: (setting: string) => `${setting} must be on or off`,
  languageInvalid: 'Please choose one of the offered languages',
  currencyInvalid: 'Please choose one of the offered currencies',
  visibilityInvalid: 'Please choose public, private or friends only',
  channelInvalid: 'Please choose SMS or WhatsApp for order updates',
  whatsappUnavailable: 'Order updates on WhatsApp are not available in this shop.',
  unexpectedSettingsField: 'Unexpected settings field',
  settingsInvalid: 'Please check your settings.',
} as const;

/** An error as better-auth answers it: HTTP status, its code and message. */
export type AuthFailure = { status: number; code?: string; message?: string; retryAfter?: number };

function rateLimited(failure: AuthFailure): string | null {
  return failure.status === 429 ? TEXT.tooManyAttempts(failure.retryAfter ?? 60) : null;
}

/** Login errors (spec: storefront §8, account §8). */
export function loginErrorText(failure: AuthFailure): string {
  const limited = rateLimited(failure);
  if (limited) return limited;
  if (failure.code === 'EMAIL_NOT_VERIFIED') return TEXT.verifyFirst;
  if (failure.status === 0) return TEXT.loginUnexpected;
  return TEXT.invalidCredentials;
}

/** Registration errors (spec: storefront §8). */
export function registrationErrorText(failure: AuthFailure): string {
  const limited = rateLimited(failure);
  if (limited) return limited;
  switch (failure.code) {
    case 'USER_ALREADY_EXISTS':
    case 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL':
      return TEXT.alreadyRegistered;
    case 'PASSWORD_TOO_SHORT':
      return TEXT.passwordTooShortRegister;
    case 'PASSWORD_TOO_LONG':
      return TEXT.passwordTooLong;
    case 'INVALID_EMAIL':
      return TEXT.invalidEmail;
    case 'INVALID_NAME':
      return failure.message ?? TEXT.nameLength;
    case 'FAILED_TO_CREATE_USER':
      return TEXT.registrationDatabase;
    case 'VALIDATION_ERROR': {
      // better-auth names the field: "[body.email] Invalid email address".
      const field = /^\[body\.(\w+)\]/.exec(failure.message ?? '')?.[1];
      if (field === 'email') return TEXT.invalidEmail;
      if (field === 'password') return TEXT.loginFieldsRequired;
      if (field === 'name') return TEXT.fullNameRequired;
      return TEXT.registrationUnexpected;
    }
  }
  if (failure.status === 0) return TEXT.registrationUnexpected;
  if (failure.status === 400 && failure.message) return TEXT.authError(failure.message);
  return TEXT.registrationUnexpected;
}

/** Change-password errors (spec: account §8). */
export function passwordErrorText(failure: AuthFailure): string {
  const limited = rateLimited(failure);
  if (limited) return limited;
  switch (failure.code) {
    case 'PASSWORD_TOO_SHORT':
      return TEXT.passwordTooShortServer;
    case 'PASSWORD_UNCHANGED':
      return TEXT.samePassword;
    case 'INVALID_PASSWORD':
      return TEXT.passwordFailed('Current password is incorrect');
    case 'PASSWORD_TOO_LONG':
      return TEXT.passwordFailed('Password too long');
  }
  if (failure.status === 401) return TEXT.notAuthenticated;
  return TEXT.passwordFailed(failure.message || 'Unknown error');
}

/** Registration name rule: 2 to 100 characters after trimming; no markup. */
export function fullNameProblem(name: string, min: number = MIN_NAME_LENGTH): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return TEXT.fullNameRequired;
  if (trimmed.length < min || trimmed.length > MAX_NAME_LENGTH) return TEXT.nameLength;
  if (/[<>]/.test(trimmed)) return TEXT.nameMarkup;
  return null;
}

export function changePasswordProblem(next: string, confirmation: string, current?: string) {
  if (!next || !confirmation || current === '') return TEXT.allFieldsRequired;
  if (next.length < MIN_PASSWORD_LENGTH) return TEXT.newPasswordTooShort;
  if (next !== confirmation) return TEXT.passwordsDiffer;
  if (current !== undefined && current === next) return TEXT.samePassword;
  return null;
}

/** Texts of "Forgot password?" and the set-new-password screen (the shop's own). */
export const RESET_TEXT = {
  forgotLink: 'Forgot password?',
  title: 'Forgot your password?',
  intro: 'Enter the email you signed up with and we will send you a link to set a new password.',
  send: 'Send reset link',
  sending: 'Sending...',
  // The same words whether or not the address has an account: the page reveals nothing.
  sent: (email: string) =>
    `If an account exists for ${email}, a link to set a new password is on its way. It works for one hour.`,
  newTitle: 'Set a new password',
  newIntro:
    'Choose a new password of at least 6 characters. Every device signed in to your account will be signed out.',
  save: 'Set New Password',
  saving: 'Saving...',
  changed: 'Your password has been changed. Sign in with your new password.',
  linkInvalid: 'This link has expired or was already used. Ask for a new one below.',
  askAgain: 'Send a new link',
  backToLogin: 'Back to sign in',
  failed: (reason: string) => `Failed to reset password: ${reason}`,
} as const;

/** The set-new-password form: the change-password rules without a current password. */
export function newPasswordProblem(next: string, confirmation: string): string | null {
  if (next.length > MAX_PASSWORD_LENGTH) return TEXT.passwordTooLong;
  return changePasswordProblem(next, confirmation);
}

/** The reset's refusals: a dead link, the password rules, too many tries. */
export function resetErrorText(failure: AuthFailure): string {
  const limited = rateLimited(failure);
  if (limited) return limited;
  switch (failure.code) {
    case 'INVALID_TOKEN':
    case 'USER_NOT_FOUND':
      return RESET_TEXT.linkInvalid;
    case 'PASSWORD_TOO_SHORT':
      return TEXT.passwordTooShortServer;
    case 'PASSWORD_TOO_LONG':
      return TEXT.passwordTooLong;
  }
  return RESET_TEXT.failed(failure.message || 'Unknown error');
}

export function avatarProblem(file: { type: string; size: number }): string | null {
  if (!AVATAR_TYPES.includes(file.type.toLowerCase())) return TEXT.avatarType;
  if (file.size >= AVATAR_MAX_BYTES) return TEXT.avatarSize;
  return null;
}

/** The image type from a file's first bytes (what the server trusts, not the declared type). */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    [0x57, 0x45, 0x42, 0x50].every((b, i) => bytes[8 + i] === b)
  )
    return 'image/webp';
  return null;
}

/** Two-factor sign-in with an authenticator app (better-auth's plugin, TOTP). */
export const TWO_FACTOR_TEXT = {
  title: 'Two-factor sign-in',
  off: 'Off: your password alone signs you in.',
  on: 'On: every new sign-in asks for a code from your authenticator app.',
  turnOn: 'Turn on',
  turnOff: 'Turn off',
  passwordPrompt: 'Your password',
  scan: 'Scan this code with an authenticator app (Google Authenticator, Authy, 1Password...), or enter the key by hand, then type the 6-digit code it shows.',
  key: 'Key',
  backupCodes:
    'Keep these backup codes somewhere safe. Each signs you in once if you lose your phone.',
  turnedOn: 'Two-factor sign-in is on.',
  turnedOff: 'Two-factor sign-in is off.',
  askCode: 'Enter the 6-digit code from your authenticator app, or one of your backup codes.',
  codeLabel: 'Code',
  verify: 'Verify',
  codeFormat: 'Enter the 6 digits your app shows, or a backup code.',
  wrongCode: 'That code is not right. Check the time on your phone and try the newest code.',
  wrongPassword: 'Password is incorrect',
} as const;

// What the profile form, the settings screen and the deletion dialog send; the account
// procedures check the same schemas.
const noMarkup = (message: string) => v.regex(/^[^<>]*$/, message);

export const profileInput = v.strictObject(
  {
    fullName: v.pipe(
      typedText({
        notText: TEXT.fullNameNotText,
        max: MAX_NAME_LENGTH,
        tooLong: TEXT.fullNameTooLong,
        invisible: TEXT.fullNameInvisible,
      }),
      v.minLength(1, TEXT.fullNameRequired),
      noMarkup(TEXT.nameMarkup),
    ),
    // Empty phone or address is stored as null (spec: account §5).
    phone: v.pipe(
      v.nullish(v.string(TEXT.phoneNotText), ''),
      v.trim(),
      v.maxLength(30, TEXT.invalidPhone),
      typedLine(TEXT.invalidPhone),
      v.transform((phone) => (phone === '' ? null : normalisePhone(phone))),
      v.check((phone) => phone === null || isValidPhone(phone), TEXT.invalidPhone),
    ),
    address: optionalText(
      v.pipe(
        typedText({
          notText: TEXT.addressNotText,
          max: MAX_ADDRESS_LENGTH,
          tooLong: TEXT.addressTooLong,
          invisible: TEXT.addressInvisible,
          lines: true,
        }),
        noMarkup(TEXT.addressMarkup),
      ),
    ),
  },
  objectMessage(TEXT.unexpectedProfileField, TEXT.profileInvalid),
);

/** Where order updates may go (issue 37): texts, or WhatsApp where the shop has it. */
export const NOTIFICATION_CHANNELS = [
  'sms',
  'whatsapp',
] as const satisfies readonly NotificationChannel[];

const settingsGroup = <TEntries extends v.ObjectEntries>(entries: TEntries) =>
  v.strictObject(entries, objectMessage(TEXT.unexpectedSettingsField, TEXT.settingsInvalid));
const toggle = (setting: string) => v.boolean(TEXT.onOrOff(setting));

export const settingsInput = settingsGroup({
  notifications: settingsGroup({
    email: toggle('Email notifications'),
    push: toggle('Push notifications'),
    orderUpdates: toggle('Order updates'),
    promotions: toggle('Promotions'),
    // Absent (a client from before issue 37): what is stored stays.
    channel: v.optional(v.picklist(NOTIFICATION_CHANNELS, TEXT.channelInvalid)),
  }),
  appearance: settingsGroup({
    darkMode: v.nullable(toggle('Dark mode')),
    language: v.picklist(
      LANGUAGES.map((l) => l.code),
      TEXT.languageInvalid,
    ),
    currency: v.picklist(CURRENCIES, TEXT.currencyInvalid),
    // Absent (a client from before issue 38): what is stored stays.
    lessData: v.optional(toggle('Use less data')),
  }),
  privacy: settingsGroup({
    profileVisibility: v.picklist(
      VISIBILITIES.map((o) => o.value),
      TEXT.visibilityInvalid,
    ),
    dataSharing: toggle('Data sharing'),
    analytics: toggle('Analytics'),
  }),
  account: settingsGroup({
    displayName: v.pipe(
      typedText({
        notText: TEXT.displayNameNotText,
        max: MAX_NAME_LENGTH,
        tooLong: TEXT.displayNameTooLong,
        invisible: TEXT.displayNameInvisible,
      }),
      noMarkup(TEXT.displayNameMarkup),
    ),
    twoFactorAuth: toggle('Two-factor authentication'),
  }),
});

/** What account.saveSettings takes: the settings, their order updates' channel and "Use less
 * data" optional. */
export type SettingsInput = v.InferOutput<typeof settingsInput>;

/** Spec: the password is re-checked; anything that cannot be it is simply incorrect. */
export const deleteAccountInput = v.strictObject(
  {
    password: v.pipe(
      v.string(TEXT.passwordIncorrect),
      v.minLength(1, TEXT.passwordIncorrect),
      v.maxLength(MAX_PASSWORD_LENGTH, TEXT.passwordIncorrect),
    ),
  },
  TEXT.passwordIncorrect,
);
