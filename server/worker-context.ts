// Builds the tRPC context inside the Worker, from its bindings (never imported by Node tests).
// The Worker's variables are read here only, through `shopEnv()` (server/env.ts).
import { env, waitUntil } from 'cloudflare:workers';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { createDb, type Db } from '#db/client.ts';
import {
  type Auth,
  createAuth,
  defaultTrustedOrigins,
  type SessionReader,
  sessionOnce,
} from './auth.ts';
import { type Context, createContext } from './context.ts';
import { parseShopEnv, type ShopEnv } from './env.ts';
import type { AssistantConfig } from './services/chat/assistant.ts';
import { mailerFor } from './services/mail-service.ts';
import { type MobileMoney, mobileMoneyFrom } from './services/payments/providers.ts';
import { egoSms } from './services/sms/egosms.ts';
import type { SmsService } from './services/sms-service.ts';
import { cloudApi } from './services/whatsapp/cloud-api.ts';

let config: ShopEnv | undefined;
let db: Db | undefined;
let auth: Auth | undefined;
let mobileMoney: MobileMoney | undefined;
let sms: SmsService | undefined;

/**
 * The Worker's variables and secrets, checked once per isolate. Throws ConfigurationError
 * (naming each missing or invalid variable) while the configuration is wrong.
 */
export function shopEnv(): ShopEnv {
  config ??= parseShopEnv(env);
  return config;
}

export function workerDb(): Db {
  db ??= createDb(shopEnv().DATABASE_URL);
  return db;
}

export function workerAuth(): Auth {
  const config = shopEnv();
  auth ??= createAuth({
    db: workerDb(),
    secret: config.BETTER_AUTH_SECRET,
    baseURL: config.BETTER_AUTH_URL,
    trustedOrigins: config.TRUSTED_ORIGINS,
    mailer: mailerFor(config.MAIL_TRANSPORT, workerDb(), {
      apiKey: config.EMAIL_API_KEY,
      from: config.EMAIL_FROM,
    }),
    background: waitUntil,
  });
  return auth;
}

/** Where the shop's own pages are served from: writes from anywhere else are refused (0038). A
 * configuration problem leaves none, so every browser write is refused until it is fixed. */
export function workerOwnOrigins(): string[] {
  try {
    const config = shopEnv();
    // As better-auth trusts them: a loopback shop on both spellings of its host.
    return [...defaultTrustedOrigins(config.BETTER_AUTH_URL), ...config.TRUSTED_ORIGINS];
  } catch {
    return [];
  }
}

export function workerAvatars(): R2Bucket {
  return shopEnv().AVATARS;
}

/** Product photos' originals (decision 0045). */
export function workerPhotos(): R2Bucket {
  return shopEnv().PHOTOS;
}

/** Cloudflare Images, which makes shoppers' copies of the photos; null where it is not bound. */
export function workerImages(): ImagesBinding | null {
  return shopEnv().IMAGES ?? null;
}

/** The payment providers, built once per isolate so their access tokens are kept. */
export function workerMobileMoney(): MobileMoney {
  mobileMoney ??= mobileMoneyFrom(shopEnv());
  return mobileMoney;
}

/** The SMS gateway when its credentials are set (EgoSMS), WhatsApp when its are (issue 37), and
 * the admin number fallback. */
export function workerSms(): SmsService {
  const config = shopEnv();
  sms ??= {
    gateway:
      config.EGOSMS_USERNAME && config.EGOSMS_PASSWORD
        ? egoSms({
            url: config.EGOSMS_URL,
            username: config.EGOSMS_USERNAME,
            password: config.EGOSMS_PASSWORD,
            sender: config.EGOSMS_SENDER ?? 'duuka',
          })
        : null,
    whatsapp:
      config.WHATSAPP_TOKEN &&
      config.WHATSAPP_PHONE_NUMBER_ID &&
      config.WHATSAPP_APP_SECRET &&
      config.WHATSAPP_VERIFY_TOKEN
        ? {
            api: cloudApi({
              baseUrl: config.WHATSAPP_BASE_URL,
              token: config.WHATSAPP_TOKEN,
              phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
            }),
            appSecret: config.WHATSAPP_APP_SECRET,
            verifyToken: config.WHATSAPP_VERIFY_TOKEN,
          }
        : null,
    adminPhone: config.ADMIN_PHONE ?? null,
  };
  return sms;
}

/** The assistant's model settings; the key stays on the server. */
export function workerAssistant(): AssistantConfig {
  const config = shopEnv();
  return {
    apiKey: config.GOOGLE_GENERATIVE_AI_API_KEY ?? null,
    model: config.CHAT_MODEL,
    baseUrl: config.GEMINI_BASE_URL ?? null,
    contact: {
      email: config.SUPPORT_EMAIL ?? DEFAULT_SUPPORT.email,
      phone: config.SUPPORT_PHONE ?? DEFAULT_SUPPORT.phone,
    },
  };
}

/** The session of each page being rendered, shared by every procedure its loaders call. */
const pageSessions = new WeakMap<Request, SessionReader>();

/**
 * The context of one request. During SSR each procedure gets a context of its own: pass the page's
 * request, and they share its one session read.
 */
export function createWorkerContext(headers: Headers, page?: Request): Context {
  let session = page && pageSessions.get(page);
  if (!session) {
    session = sessionOnce(workerAuth(), headers);
    if (page) pageSessions.set(page, session);
  }
  return createContext({
    db: workerDb(),
    headers,
    auth: workerAuth(),
    session,
    avatars: workerAvatars(),
    photos: workerPhotos(),
    background: waitUntil,
    payments: workerMobileMoney(),
    sms: workerSms(),
    bankDetails: shopEnv().BANK_TRANSFER_DETAILS ?? null,
    ownerEmails: shopEnv().OPERATOR_EMAILS,
    assistant: workerAssistant(),
    social: shopEnv().SOCIAL_LINKS,
  });
}
