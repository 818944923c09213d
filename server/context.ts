// The request context: what every procedure and service is given (decision 0066). Built in one
// place, `createContext`, from the Worker's bindings (server/worker-context.ts) or from a test's or
// the bench's parts, so the shape they get is the same. Services take only the parts they use
// (`Pick<Context, 'db' | 'sms'>`), and so never import the routers' server/trpc.ts.
import type { SocialLink } from '#core/social.ts';
import type { Db } from '#db/client.ts';
import { type Auth, type SessionReader, sessionOnce } from './auth.ts';
import type { AvatarStore } from './services/avatar-service.ts';
import type { AssistantConfig } from './services/chat/assistant.ts';
import type { MobileMoney } from './services/payments/providers.ts';
import type { SmsService } from './services/sms-service.ts';

export type Context = {
  db: Db;
  headers: Headers;
  /** better-auth, for what it does beyond reading the session (password checks). */
  auth: Auth;
  /** The signed-in shopper from the request's cookie, read once per request (sessionOnce). */
  session: SessionReader;
  /** Profile pictures (the Worker's R2 bucket; tests pass local/fakes' in-memory bucket). */
  avatars: AvatarStore;
  /** Product photos' originals (the Worker's PHOTOS bucket; tests pass an in-memory one). */
  photos: AvatarStore;
  /**
   * Work that must finish after the answer is sent (the Worker's `waitUntil`): SMS delivery,
   * payment follow-ups. Never awaited by the request; each job catches its own errors.
   */
  background: (work: Promise<unknown>) => void;
  /** The mobile-money providers configured (MTN MoMo, Airtel Money) and the callback origin. */
  payments: MobileMoney;
  /** The SMS gateway (null: not configured) and the admin number fallback. */
  sms: SmsService;
  /**
   * BANK_TRANSFER_DETAILS: the shop's bank account for transfers (null: not configured), under
   * what the owner sets on the desk. The one place they are read from.
   */
  bankDetails: string | null;
  /** OPERATOR_EMAILS, lower case: the shop's owners from configuration (the desk's bootstrap). */
  ownerEmails: readonly string[];
  /** The shopping assistant's model configuration (no key: fallback answers). */
  assistant: AssistantConfig;
  /** SOCIAL_LINKS: the shop's social pages (none set: none shown). */
  social: readonly SocialLink[];
};

/**
 * What a context is made of. `session` is the request's cookie read once (sessionOnce) unless
 * another reader is given: the Worker's page shares one among its procedures, a test's caller
 * reads at every call.
 */
export type ContextParts = Omit<Context, 'session'> & { session?: SessionReader };

/** The context of one request (or of one test's caller, or the bench's). */
export function createContext(parts: ContextParts): Context {
  return { ...parts, session: parts.session ?? sessionOnce(parts.auth, parts.headers) };
}
