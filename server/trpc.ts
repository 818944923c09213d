import { initTRPC, StandardSchemaV1Error, TRPCError } from '@trpc/server';
import { TEXT } from '#core/account.ts';
import { DESK_TEXT, deskRoleOf } from '#core/desk.ts';
import type { Limit } from '#core/limits.ts';
import type { SocialLink } from '#core/social.ts';
import type { Db } from '#db/client.ts';
import { type Auth, type SessionReader, type SessionUser, sameShopper } from './auth.ts';
import type { AvatarStore } from './services/avatar.ts';
import type { AssistantConfig } from './services/chat/assistant.ts';
import type { MobileMoney } from './services/payments/providers.ts';
import { rateLimit } from './services/rate-limit.ts';
import type { SmsService } from './services/sms.ts';

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
  /** BANK_TRANSFER_DETAILS: the shop's bank account for transfers (null: not configured). */
  bankDetails: string | null;
  /** OPERATOR_EMAILS, lower case: the shop's owners from configuration (the desk's bootstrap). */
  operators: readonly string[];
  /** The shopping assistant's model configuration (no key: fallback answers). */
  assistant: AssistantConfig;
  /** SOCIAL_LINKS: the shop's social pages (none set: none shown). */
  social: readonly SocialLink[];
};

/** The spec's generic text for anything we did not foresee; details stay in the server log. */
export const UNEXPECTED_ERROR = 'An unexpected error occurred.';

const isDev = import.meta.env?.DEV === true;

/**
 * A refused input's message, as shoppers read it. Every schema names its own messages; should
 * one be missed, valibot's default ("... but received <the input>") would echo the input back,
 * so such a message, or any long one, becomes this short text.
 */
function inputMessage(message: string | undefined): string {
  const fallback = 'Please check what you entered and try again.';
  if (!message || message.length > 300 || /received/i.test(message)) return fallback;
  return message;
}

const t = initTRPC.context<Context>().create({
  isDev,
  // A streamed answer (the chat's reply) sends a keep-alive line during a long pause (the model
  // thinking, a tool running), so no proxy closes the connection as idle.
  jsonl: { pingMs: 10_000 },
  errorFormatter({ shape, error }) {
    const unexpected = error.code === 'INTERNAL_SERVER_ERROR' && !(error instanceof ShopperError);
    if (unexpected) console.error(error.cause ?? error);
    const invalidInput = error.cause instanceof StandardSchemaV1Error ? error.cause : null;
    let message = shape.message;
    if (invalidInput) message = inputMessage(invalidInput.issues[0]?.message);
    else if (unexpected && !isDev) message = UNEXPECTED_ERROR;
    return {
      message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

/** An error whose message the shopper may read: a text from the spec's catalogue. */
export class ShopperError extends TRPCError {}

export function shopperError(code: TRPCError['code'], message: string): never {
  throw new ShopperError({ code, message });
}

/**
 * For procedures that need a signed-in shopper: `ctx.user` is theirs, else UNAUTHORIZED.
 *
 * A query whose session cookie this isolate has read before starts at once as that shopper,
 * beside the read that checks the session, instead of after it: one database trip in a row, not
 * two. Its answer is kept only if the read names the same shopper; signed out (or revoked), the
 * answer is dropped and the call refused; someone changed (a new name, a role taken away), it
 * runs again as the shopper read. A change (a mutation) always waits for the read: nothing is
 * written for a session that has ended (decision 0054).
 */
export const protectedProcedure = t.procedure.use(async ({ ctx, type, next }) => {
  const as = (user: SessionUser) =>
    next({ ctx: { ...ctx, user } satisfies Context & { user: SessionUser } });
  const seen = type === 'query' ? ctx.session.lastSeen() : null;
  if (seen) {
    const [user, answer] = await Promise.all([ctx.session.read(), as(seen)]);
    if (!user) return shopperError('UNAUTHORIZED', 'User not authenticated');
    return sameShopper(user, seen) ? answer : as(user);
  }
  const user = await ctx.session.read();
  if (!user) return shopperError('UNAUTHORIZED', 'User not authenticated');
  return as(user);
});

/**
 * For the desk (orders, catalogue, stock, pictures): the shop's staff or its owner, else
 * FORBIDDEN. `ctx.role` is theirs; `ctx.record` names who made a desk write.
 */
export const deskProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const role = deskRoleOf(ctx.user, ctx.operators);
  if (!role) return shopperError('FORBIDDEN', DESK_TEXT.deskOnly);
  return next({ ctx: { ...ctx, role } });
});

/** For the owner's part of the desk (staff, the shop's money settings): else FORBIDDEN. */
export const ownerProcedure = deskProcedure.use(async ({ ctx, next }) => {
  if (ctx.role !== 'owner') return shopperError('FORBIDDEN', DESK_TEXT.ownerOnly);
  return next();
});

/**
 * Refuses a procedure past `limit` attempts in its window, per signed-in shopper after
 * protectedProcedure, else per client IP: 429 with the spec's text and the seconds left.
 * Put it after `.input(...)` so only well-formed attempts count.
 */
export function limited(name: string, limit: Limit) {
  return t.middleware(async ({ ctx, next }) => {
    const verdict = await rateLimit(ctx, { key: name, ...limit });
    if (!verdict.allowed) {
      return shopperError('TOO_MANY_REQUESTS', TEXT.tooManyAttempts(verdict.retryAfterSeconds));
    }
    return next();
  });
}
