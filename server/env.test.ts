// The Worker's configuration as the desk meets it: what a working set-up gives the shop, and
// the one message that names what is missing or wrong (never a secret's value).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryBucket } from '#local/fakes/r2-bucket.ts';
import {
  BINDINGS,
  ConfigurationError,
  parseShopEnv,
  REQUIRED_VARIABLES,
  type ShopEnv,
  WORKER_VARIABLES,
} from './env.ts';

const SECRET = 'k3p8-never-print-me-k3p8-never-print-me';
const minimal = {
  DATABASE_URL: `postgresql://duuka:${SECRET}@ep-shop.neon.tech/duuka`,
  BETTER_AUTH_SECRET: SECRET,
  BETTER_AUTH_URL: 'https://duuka.ug',
  MAIL_TRANSPORT: 'outbox',
  AVATARS: memoryBucket(),
  PHOTOS: memoryBucket(),
};

/** The message for `env`, or a failure when it parses. */
function problem(env: object): string {
  try {
    parseShopEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('a working configuration', () => {
  it('gives the shop its values, with the defaults of what is not set', () => {
    const config: ShopEnv = parseShopEnv(minimal);
    expect(config.DATABASE_URL).toBe(minimal.DATABASE_URL);
    expect(config.MAIL_TRANSPORT).toBe('outbox');
    expect(config.AVATARS).toBe(minimal.AVATARS);
    expect(config.PHOTOS).toBe(minimal.PHOTOS);
    expect(config.IMAGES).toBeUndefined();
    expect(config.EGOSMS_URL).toBe('https://www.egosms.co/api/v1/plain/');
    expect(config.CHAT_MODEL).toBe('gemini-2.5-flash');
    expect(config.TRUSTED_ORIGINS).toEqual([]);
    expect(config.EGOSMS_USERNAME).toBeUndefined();
    expect(config.GOOGLE_GENERATIVE_AI_API_KEY).toBeUndefined();
    expect(config.MOMO_TARGET_ENVIRONMENT).toBeUndefined();
  });

  it('counts an empty or blank value as unset (wrangler.toml declares the local ones empty)', () => {
    const config = parseShopEnv({ ...minimal, EGOSMS_URL: '', CHAT_MODEL: '  ', EMAIL_FROM: '' });
    expect(config.EGOSMS_URL).toBe('https://www.egosms.co/api/v1/plain/');
    expect(config.CHAT_MODEL).toBe('gemini-2.5-flash');
    expect(config.EMAIL_FROM).toBeUndefined();
    expect(problem({ ...minimal, MAIL_TRANSPORT: ' ' })).toBe(
      'Configuration: MAIL_TRANSPORT is missing',
    );
  });

  it('takes every service once it is configured', () => {
    const config = parseShopEnv({
      ...minimal,
      MAIL_TRANSPORT: 'resend',
      EMAIL_API_KEY: 're_123',
      EMAIL_FROM: 'duuka <hello@duuka.ug>',
      TRUSTED_ORIGINS: 'https://preview.duuka.ug, http://127.0.0.1:9200',
      EGOSMS_URL: 'https://sandbox.egosms.co/api/v1/plain/',
      EGOSMS_USERNAME: 'duuka',
      EGOSMS_PASSWORD: SECRET,
      EGOSMS_SENDER: 'duuka',
      ADMIN_PHONE: '+256700123456',
      GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-key',
      CHAT_MODEL: 'gemini-2.5-pro',
      GEMINI_BASE_URL: 'http://127.0.0.1:9301/v1beta',
      MOMO_BASE_URL: 'https://sandbox.momodeveloper.mtn.com',
      MOMO_API_USER: 'user',
      MOMO_API_KEY: 'key',
      MOMO_SUBSCRIPTION_KEY: 'sub',
      MOMO_TARGET_ENVIRONMENT: 'sandbox',
      AIRTEL_BASE_URL: 'https://openapiuat.airtel.africa',
      AIRTEL_CLIENT_ID: 'id',
      AIRTEL_CLIENT_SECRET: 'secret',
      SUPPORT_EMAIL: 'care@duuka.ug',
      SUPPORT_PHONE: '+256312000000',
      SOCIAL_LINKS: 'https://www.instagram.com/duuka.ug , https://x.com/duuka',
    });
    expect(config.SOCIAL_LINKS).toEqual([
      { network: 'Instagram', url: 'https://www.instagram.com/duuka.ug' },
      { network: 'X', url: 'https://x.com/duuka' },
    ]);
    expect(config.TRUSTED_ORIGINS).toEqual(['https://preview.duuka.ug', 'http://127.0.0.1:9200']);
    expect(config.CHAT_MODEL).toBe('gemini-2.5-pro');
    expect(config.MOMO_TARGET_ENVIRONMENT).toBe('sandbox');
  });
});

describe('a wrong configuration names the variable', () => {
  it('names a missing required variable', () => {
    const { DATABASE_URL: _, ...withoutDatabase } = minimal;
    expect(problem(withoutDatabase)).toBe('Configuration: DATABASE_URL is missing');
    expect(problem({})).toBe(
      'Configuration: DATABASE_URL is missing; BETTER_AUTH_SECRET is missing; BETTER_AUTH_URL is missing; MAIL_TRANSPORT is missing; AVATARS is missing; PHOTOS is missing',
    );
  });

  it('says what an invalid value must be', () => {
    expect(problem({ ...minimal, MAIL_TRANSPORT: 'smtp' })).toBe(
      'Configuration: MAIL_TRANSPORT must be "outbox" or "resend" (got "smtp")',
    );
    expect(problem({ ...minimal, BETTER_AUTH_URL: 'duuka.ug' })).toBe(
      `Configuration: BETTER_AUTH_URL must be the shop's origin, like https://duuka.ug (got "duuka.ug")`,
    );
    expect(problem({ ...minimal, EGOSMS_SENDER: 'duuka fashion' })).toBe(
      'Configuration: EGOSMS_SENDER must be at most 11 characters (got "duuka fashion", 13 characters)',
    );
    expect(problem({ ...minimal, EGOSMS_URL: 'egosms.co' })).toBe(
      'Configuration: EGOSMS_URL must be an http(s) URL (got "egosms.co")',
    );
    expect(problem({ ...minimal, MOMO_TARGET_ENVIRONMENT: 'production' })).toBe(
      'Configuration: MOMO_TARGET_ENVIRONMENT must be "sandbox" or "mtnuganda" (got "production")',
    );
    expect(problem({ ...minimal, TRUSTED_ORIGINS: 'https://a.ug,preview' })).toBe(
      'Configuration: TRUSTED_ORIGINS must be origins separated by commas, like https://preview.duuka.ug (got "https://a.ug,preview")',
    );
    expect(problem({ ...minimal, ADMIN_PHONE: '0700 123456' })).toBe(
      'Configuration: ADMIN_PHONE must be a phone number in international form, e.g. +256700123456',
    );
    expect(problem({ ...minimal, SUPPORT_EMAIL: 'care at duuka' })).toBe(
      'Configuration: SUPPORT_EMAIL must be an email address (got "care at duuka")',
    );
    expect(problem({ ...minimal, SOCIAL_LINKS: 'https://instagram.com/duuka, duuka.ug' })).toBe(
      'Configuration: SOCIAL_LINKS must be https links to Instagram, Facebook, X or TikTok pages, separated by commas',
    );
    expect(problem({ ...minimal, AVATARS: 'duuka-avatars' })).toBe(
      'Configuration: AVATARS must be the R2 bucket binding ([[r2_buckets]] in wrangler.toml)',
    );
    expect(problem({ ...minimal, IMAGES: 'images' })).toBe(
      'Configuration: IMAGES must be the Images binding ([images] in wrangler.toml)',
    );
  });

  it('lists every problem at once', () => {
    expect(problem({ ...minimal, MAIL_TRANSPORT: 'smtp', DATABASE_URL: undefined })).toBe(
      'Configuration: DATABASE_URL is missing; MAIL_TRANSPORT must be "outbox" or "resend" (got "smtp")',
    );
  });

  it('never shows a secret, even a wrong one', () => {
    const shortSecret = 'short-secret-77';
    const message = problem({
      ...minimal,
      BETTER_AUTH_SECRET: shortSecret,
      DATABASE_URL: `mysql://duuka:${SECRET}@db`,
    });
    expect(message).toBe(
      'Configuration: DATABASE_URL must be a postgres:// connection string; BETTER_AUTH_SECRET must be at least 32 characters (openssl rand -base64 32)',
    );
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain(shortSecret);
  });

  it('asks for the settings a service needs together', () => {
    expect(problem({ ...minimal, MAIL_TRANSPORT: 'resend', EMAIL_FROM: 'hello@duuka.ug' })).toBe(
      'Configuration: EMAIL_API_KEY is missing (MAIL_TRANSPORT is "resend")',
    );
    expect(problem({ ...minimal, EGOSMS_USERNAME: 'duuka' })).toBe(
      'Configuration: EGOSMS_PASSWORD missing: the SMS gateway needs EGOSMS_USERNAME, EGOSMS_PASSWORD',
    );
    expect(problem({ ...minimal, AIRTEL_CLIENT_ID: 'id', AIRTEL_CLIENT_SECRET: SECRET })).toBe(
      'Configuration: AIRTEL_BASE_URL missing: Airtel Money needs AIRTEL_BASE_URL, AIRTEL_CLIENT_ID, AIRTEL_CLIENT_SECRET',
    );
  });
});

describe('wrangler.toml', () => {
  const toml = readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8');
  const list = (pattern: RegExp) =>
    [...(toml.match(pattern)?.[1] ?? '').matchAll(/"(\w+)"/g)].map((m) => m[1]);

  it('asks a deploy for exactly the required secrets, locally too', () => {
    const bindings: readonly string[] = BINDINGS;
    const secrets = REQUIRED_VARIABLES.filter((name) => !bindings.includes(name));
    expect(list(/^\[secrets\]\nrequired = \[(.*)\]$/m)).toEqual(secrets);
    expect(list(/^\[env\.local\.secrets\]\nrequired = \[(.*)\]$/m)).toEqual(secrets);
    expect(toml).toMatch(
      /binding = "AVATARS"[\s\S]*\[\[env\.local\.r2_buckets\]\]\nbinding = "AVATARS"/,
    );
    expect(toml).toMatch(
      /binding = "PHOTOS"[\s\S]*\[\[env\.local\.r2_buckets\]\]\nbinding = "PHOTOS"/,
    );
    expect(toml).toMatch(
      /^\[images\]\nbinding = "IMAGES"[\s\S]*^\[env\.local\.images\]\nbinding = "IMAGES"/m,
    );
  });

  it('lets every optional variable through to a local Worker', () => {
    const localVars = toml.match(/^\[env\.local\.vars\]\n((?:\w+ = ""\n)+)/m)?.[1] ?? '';
    const bindings: readonly string[] = BINDINGS;
    const optional = WORKER_VARIABLES.filter(
      (name) => !REQUIRED_VARIABLES.includes(name) && !bindings.includes(name),
    );
    expect([...localVars.matchAll(/^(\w+) = ""$/gm)].map((m) => m[1])).toEqual(optional);
  });
});
