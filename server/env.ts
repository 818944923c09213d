// Every Worker variable and secret, declared once: what each must look like, its default, and
// the message that names it when it is missing or wrong. Parsed once per isolate by
// server/worker-context.ts (`shopEnv()`); nothing else reads the Worker's `env` by name.
// Production sets them with `wrangler secret put NAME`; wrangler.toml lists every name (a unit
// test keeps the two in step). A value that is empty or only spaces counts as unset.
import * as v from 'valibot';
import { isValidPhone } from '#core/phone.ts';
import { type SocialLink, socialLinkOf } from '#core/social.ts';
import { WHATSAPP_DEFAULT_BASE_URL } from '#core/whatsapp.ts';

/** The Worker's configuration is missing or wrong: the message names every variable at fault. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

const quoted = (input: unknown) => JSON.stringify(input);
const isOrigin = (value: string) => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
};
const isHttpUrl = (value: string) => {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** Any text (credentials, names): never echoed back in a message. */
const text = (name: string) => v.string(`${name} must be text`);
/** An http(s) URL; not secret, so a wrong one is shown. */
const httpUrl = (name: string) =>
  v.pipe(
    text(name),
    v.check(isHttpUrl, (issue) => `${name} must be an http(s) URL (got ${quoted(issue.input)})`),
  );
const phone = (name: string) =>
  v.pipe(
    text(name),
    v.check(
      isValidPhone,
      `${name} must be a phone number in international form, e.g. +256700123456`,
    ),
  );

const hasMethods = (value: unknown, methods: string[]) =>
  typeof value === 'object' &&
  value !== null &&
  methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
/** An R2 bucket binding. */
const bucket = (name: string) =>
  v.custom<R2Bucket>(
    (value) => hasMethods(value, ['get', 'put', 'delete']),
    `${name} must be the R2 bucket binding ([[r2_buckets]] in wrangler.toml)`,
  );

/** Bindings, not variables: wrangler.toml declares them as bindings, never as vars or secrets. */
export const BINDINGS = ['AVATARS', 'PHOTOS', 'IMAGES'] as const;

const schema = v.object({
  // Database and accounts (required everywhere).
  /** Neon's connection string; a loopback host means the local Neon endpoint. */
  DATABASE_URL: v.pipe(
    text('DATABASE_URL'),
    v.regex(/^postgres(ql)?:\/\/./, 'DATABASE_URL must be a postgres:// connection string'),
  ),
  /** Signs sessions and verification links. */
  BETTER_AUTH_SECRET: v.pipe(
    text('BETTER_AUTH_SECRET'),
    v.minLength(32, 'BETTER_AUTH_SECRET must be at least 32 characters (openssl rand -base64 32)'),
  ),
  /**
   * The shop's public origin (https://duuka.ug): verification links, and the address payment
   * providers call back (no separate PUBLIC_ORIGIN).
   */
  BETTER_AUTH_URL: v.pipe(
    text('BETTER_AUTH_URL'),
    v.check(
      isOrigin,
      (issue) =>
        `BETTER_AUTH_URL must be the shop's origin, like https://duuka.ug (got ${quoted(issue.input)})`,
    ),
  ),
  /** Extra origins allowed to call /api/auth, comma-separated. */
  TRUSTED_ORIGINS: v.optional(
    v.pipe(
      text('TRUSTED_ORIGINS'),
      v.transform((list) =>
        list
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
      v.check(
        (origins) => origins.every(isOrigin),
        (issue) =>
          `TRUSTED_ORIGINS must be origins separated by commas, like https://preview.duuka.ug (got ${quoted(issue.input.join(','))})`,
      ),
    ),
    '',
  ),

  // Mail.
  MAIL_TRANSPORT: v.picklist(
    ['outbox', 'resend'],
    (issue) => `MAIL_TRANSPORT must be "outbox" or "resend" (got ${quoted(issue.input)})`,
  ),
  /** Resend's API key (MAIL_TRANSPORT=resend). */
  EMAIL_API_KEY: v.optional(text('EMAIL_API_KEY')),
  /** The sender, e.g. `duuka <hello@duuka.ug>` (MAIL_TRANSPORT=resend). */
  EMAIL_FROM: v.optional(
    v.pipe(
      text('EMAIL_FROM'),
      v.includes('@', (issue) => `EMAIL_FROM must contain an address (got ${quoted(issue.input)})`),
    ),
  ),

  /** Profile pictures: the R2 bucket binding. */
  AVATARS: bucket('AVATARS'),
  /** Product photos uploaded at the desk (the originals): the R2 bucket binding. */
  PHOTOS: bucket('PHOTOS'),
  /** Cloudflare Images, which resizes photos for shoppers; absent: originals are served. */
  IMAGES: v.optional(
    v.custom<ImagesBinding>(
      (value) => hasMethods(value, ['input', 'info']),
      'IMAGES must be the Images binding ([images] in wrangler.toml)',
    ),
  ),

  // SMS gateway (EgoSMS plain-text API).
  EGOSMS_URL: v.optional(httpUrl('EGOSMS_URL'), 'https://www.egosms.co/api/v1/plain/'),
  EGOSMS_USERNAME: v.optional(text('EGOSMS_USERNAME')),
  EGOSMS_PASSWORD: v.optional(text('EGOSMS_PASSWORD')),
  EGOSMS_SENDER: v.optional(
    v.pipe(
      text('EGOSMS_SENDER'),
      v.maxLength(
        11,
        (issue) =>
          `EGOSMS_SENDER must be at most 11 characters (got ${quoted(issue.input)}, ${issue.received} characters)`,
      ),
    ),
  ),
  /** Where order alerts for the shop go. */
  ADMIN_PHONE: v.optional(phone('ADMIN_PHONE')),

  // WhatsApp through Meta's Cloud API (issue 37, docs/whatsapp.md): all four or none; with none,
  // nothing of WhatsApp shows and order updates go by SMS.
  /** A system user's permanent access token (Business settings → System users). */
  WHATSAPP_TOKEN: v.optional(text('WHATSAPP_TOKEN')),
  /** The sending number's id (WhatsApp → API setup), not the number itself. */
  WHATSAPP_PHONE_NUMBER_ID: v.optional(
    v.pipe(
      text('WHATSAPP_PHONE_NUMBER_ID'),
      v.regex(/^\d{6,20}$/, 'WHATSAPP_PHONE_NUMBER_ID must be the number id Meta shows (digits)'),
    ),
  ),
  /** The app's secret: every webhook's X-Hub-Signature-256 is checked with it. */
  WHATSAPP_APP_SECRET: v.optional(text('WHATSAPP_APP_SECRET')),
  /** What the shop answers Meta's webhook verification with (any text the owner picks). */
  WHATSAPP_VERIFY_TOKEN: v.optional(text('WHATSAPP_VERIFY_TOKEN')),
  WHATSAPP_BASE_URL: v.optional(httpUrl('WHATSAPP_BASE_URL'), WHATSAPP_DEFAULT_BASE_URL),

  // Shopping assistant (Gemini through the AI SDK).
  GOOGLE_GENERATIVE_AI_API_KEY: v.optional(text('GOOGLE_GENERATIVE_AI_API_KEY')),
  CHAT_MODEL: v.optional(text('CHAT_MODEL'), 'gemini-2.5-flash'),
  /** Another endpoint for the model's API (a local fake, a proxy). */
  GEMINI_BASE_URL: v.optional(httpUrl('GEMINI_BASE_URL')),

  // Mobile money: MTN MoMo Collection.
  MOMO_BASE_URL: v.optional(httpUrl('MOMO_BASE_URL')),
  MOMO_API_USER: v.optional(text('MOMO_API_USER')),
  MOMO_API_KEY: v.optional(text('MOMO_API_KEY')),
  MOMO_SUBSCRIPTION_KEY: v.optional(text('MOMO_SUBSCRIPTION_KEY')),
  MOMO_TARGET_ENVIRONMENT: v.optional(
    v.picklist(
      ['sandbox', 'mtnuganda'],
      (issue) =>
        `MOMO_TARGET_ENVIRONMENT must be "sandbox" or "mtnuganda" (got ${quoted(issue.input)})`,
    ),
  ),
  // Refunds through MTN MoMo Disbursement (issue 36): its own product subscription and API user;
  // the collection's MOMO_BASE_URL and MOMO_TARGET_ENVIRONMENT.
  MOMO_DISBURSEMENT_API_USER: v.optional(text('MOMO_DISBURSEMENT_API_USER')),
  MOMO_DISBURSEMENT_API_KEY: v.optional(text('MOMO_DISBURSEMENT_API_KEY')),
  MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: v.optional(text('MOMO_DISBURSEMENT_SUBSCRIPTION_KEY')),
  // Mobile money: Airtel Money.
  AIRTEL_BASE_URL: v.optional(httpUrl('AIRTEL_BASE_URL')),
  AIRTEL_CLIENT_ID: v.optional(text('AIRTEL_CLIENT_ID')),
  AIRTEL_CLIENT_SECRET: v.optional(text('AIRTEL_CLIENT_SECRET')),
  /** The RSA public key from Airtel's portal (PEM or base64): turns on v2 message signing. */
  AIRTEL_PUBLIC_KEY: v.optional(text('AIRTEL_PUBLIC_KEY')),
  /** The secret Airtel signs its callbacks' `hash` with: set it and unsigned callbacks are ignored. */
  AIRTEL_CALLBACK_SECRET: v.optional(text('AIRTEL_CALLBACK_SECRET')),
  /**
   * How `x-key` (the AES key and IV) is padded under Airtel's RSA key: "pkcs1" (PKCS#1 v1.5, the
   * default) or "oaep" (OAEP with SHA-1). Public clients disagree (decision 0062); the desk's
   * Money view says which to try when Airtel refuses the signature.
   */
  AIRTEL_RSA_PADDING: v.optional(
    v.picklist(
      ['oaep', 'pkcs1'],
      (issue) => `AIRTEL_RSA_PADDING must be "oaep" or "pkcs1" (got ${quoted(issue.input)})`,
    ),
  ),

  /** The 4-digit PIN of the shop's Airtel disbursement wallet: turns on refunds through Airtel. */
  AIRTEL_DISBURSEMENT_PIN: v.optional(
    v.pipe(
      text('AIRTEL_DISBURSEMENT_PIN'),
      v.regex(/^\d{4}$/, 'AIRTEL_DISBURSEMENT_PIN must be the 4 digits of the disbursement PIN'),
    ),
  ),

  // Card payments: Pesapal API 3.0 (hosted payment page; cards and Pesapal's mobile money).
  PESAPAL_BASE_URL: v.optional(httpUrl('PESAPAL_BASE_URL'), 'https://pay.pesapal.com/v3'),
  PESAPAL_CONSUMER_KEY: v.optional(text('PESAPAL_CONSUMER_KEY')),
  PESAPAL_CONSUMER_SECRET: v.optional(text('PESAPAL_CONSUMER_SECRET')),
  /** The IPN id registered for {BETTER_AUTH_URL}/api/payments/pesapal/ipn; else registered once. */
  PESAPAL_IPN_ID: v.optional(text('PESAPAL_IPN_ID')),

  /** The shop's bank account for transfers, shown with the order's reference (free text). */
  BANK_TRANSFER_DETAILS: v.optional(
    v.pipe(
      text('BANK_TRANSFER_DETAILS'),
      v.maxLength(500, 'BANK_TRANSFER_DETAILS must be at most 500 characters'),
    ),
  ),

  // Shown to shoppers as the shop's contact.
  SUPPORT_EMAIL: v.optional(
    v.pipe(
      text('SUPPORT_EMAIL'),
      v.email((issue) => `SUPPORT_EMAIL must be an email address (got ${quoted(issue.input)})`),
    ),
  ),
  SUPPORT_PHONE: v.optional(phone('SUPPORT_PHONE')),

  /** The shop's owners at the desk (/desk), whatever their account says (core/desk-roles.ts):
   * sign-in emails, comma-separated. More staff are added on the desk or by make-operator. */
  OPERATOR_EMAILS: v.optional(
    v.pipe(
      text('OPERATOR_EMAILS'),
      v.transform((list) =>
        list
          .split(',')
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      ),
      v.check(
        (emails) => emails.every((email) => /^[^\s@,]+@[^\s@,]+$/.test(email)),
        'OPERATOR_EMAILS must be email addresses separated by commas',
      ),
    ),
    '',
  ),

  /** How long anonymous catalogue pages are served from the edge cache; 0 turns it off. */
  PAGE_CACHE_SECONDS: v.optional(
    v.pipe(
      text('PAGE_CACHE_SECONDS'),
      v.regex(/^\d{1,5}$/, 'PAGE_CACHE_SECONDS must be a whole number of seconds, e.g. 60'),
      v.transform(Number),
    ),
    '60',
  ),

  /** The shop's social pages, shown in the footer and on /contact: https links, comma-separated. */
  SOCIAL_LINKS: v.optional(
    v.pipe(
      text('SOCIAL_LINKS'),
      v.transform((list) =>
        list
          .split(',')
          .map((address) => address.trim())
          .filter(Boolean),
      ),
      v.check(
        (addresses) => addresses.every((address) => socialLinkOf(address) !== null),
        'SOCIAL_LINKS must be https links to Instagram, Facebook, X or TikTok pages, separated by commas',
      ),
      v.transform((addresses) => addresses.map((address) => socialLinkOf(address) as SocialLink)),
    ),
    '',
  ),
});

/** The Worker's configuration, checked: what the shop reads instead of `env`. */
export type ShopEnv = v.InferOutput<typeof schema>;

/** Every variable's name, in wrangler.toml's order. */
export const WORKER_VARIABLES = Object.keys(schema.entries) as (keyof ShopEnv)[];

/** Names that must always be set (the rest are optional or have a default). */
export const REQUIRED_VARIABLES = WORKER_VARIABLES.filter(
  (name) => schema.entries[name].type !== 'optional',
);

/** Settings that only work together: when one is set, all must be. */
const TOGETHER: { service: string; names: (keyof ShopEnv)[] }[] = [
  { service: 'the SMS gateway', names: ['EGOSMS_USERNAME', 'EGOSMS_PASSWORD'] },
  {
    service: 'MTN MoMo',
    names: [
      'MOMO_BASE_URL',
      'MOMO_API_USER',
      'MOMO_API_KEY',
      'MOMO_SUBSCRIPTION_KEY',
      'MOMO_TARGET_ENVIRONMENT',
    ],
  },
  {
    service: 'MTN MoMo Disbursement',
    names: [
      'MOMO_DISBURSEMENT_API_USER',
      'MOMO_DISBURSEMENT_API_KEY',
      'MOMO_DISBURSEMENT_SUBSCRIPTION_KEY',
    ],
  },
  {
    service: 'Airtel Money',
    names: ['AIRTEL_BASE_URL', 'AIRTEL_CLIENT_ID', 'AIRTEL_CLIENT_SECRET'],
  },
  { service: 'Pesapal', names: ['PESAPAL_CONSUMER_KEY', 'PESAPAL_CONSUMER_SECRET'] },
  {
    service: 'WhatsApp',
    names: [
      'WHATSAPP_TOKEN',
      'WHATSAPP_PHONE_NUMBER_ID',
      'WHATSAPP_APP_SECRET',
      'WHATSAPP_VERIFY_TOKEN',
    ],
  },
];

function incomplete(config: ShopEnv): string[] {
  const problems: string[] = [];
  if (config.MAIL_TRANSPORT === 'resend') {
    for (const name of ['EMAIL_API_KEY', 'EMAIL_FROM'] as const) {
      if (!config[name]) problems.push(`${name} is missing (MAIL_TRANSPORT is "resend")`);
    }
  }
  for (const { service, names } of TOGETHER) {
    const missing = names.filter((name) => config[name] === undefined);
    if (missing.length > 0 && missing.length < names.length) {
      problems.push(`${missing.join(', ')} missing: ${service} needs ${names.join(', ')}`);
    }
  }
  return problems;
}

/**
 * Checks the Worker's `env` (or any object holding its variables) and returns the typed
 * configuration; throws ConfigurationError naming each missing or invalid variable. Secret
 * values are never part of the message.
 */
export function parseShopEnv(env: object): ShopEnv {
  const given: Record<string, unknown> = {};
  for (const name of WORKER_VARIABLES) {
    const value = (env as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.trim() === '') continue;
    given[name] = typeof value === 'string' ? value.trim() : value;
  }
  const result = v.safeParse(schema, given, { abortPipeEarly: true });
  const problems = result.success
    ? incomplete(result.output)
    : result.issues.map((issue) => {
        const name = v.getDotPath(issue);
        return issue.input === undefined ? `${name} is missing` : issue.message;
      });
  if (problems.length > 0) throw new ConfigurationError(`Configuration: ${problems.join('; ')}`);
  return result.output as ShopEnv;
}
