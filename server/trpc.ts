import { initTRPC, StandardSchemaV1Error } from '@trpc/server';
import { TEXT } from '#core/account.ts';
import { DESK_TEXT, deskRoleOf } from '#core/desk-roles.ts';
import type { Limit } from '#core/limits.ts';
import { type SessionUser, sameShopper } from './auth.ts';
import type { Context } from './context.ts';
import { attemptSubject, rateLimit, type Verdict } from './services/rate-limit.ts';
import { WriteGate } from './services/write-gate.ts';
import { ShopperError, shopperError } from './shopper-error.ts';

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

export { ShopperError, shopperError };

/**
 * Runs `run` as the shopper this request's session names, else refuses it (UNAUTHORIZED).
 *
 * `ahead`: when this isolate has read the request's session cookie before, `run` starts at once
 * as the shopper it was, beside the read that checks the session, instead of after it: one
 * database trip in a row, not two. Signed out (or revoked), the answer is dropped and the call
 * refused. `kept` says whether the answer stands for the shopper read; else it runs again as
 * them (decisions 0054, 0057).
 */
async function signedIn<R>(
  ctx: Context,
  ahead: boolean,
  kept: (read: SessionUser, seen: SessionUser) => boolean,
  run: (user: SessionUser, seen: boolean) => Promise<R>,
): Promise<R> {
  const seen = ahead ? ctx.session.lastSeen() : null;
  if (seen) {
    const [user, answer] = await Promise.all([ctx.session.read(), run(seen, true)]);
    if (!user) return shopperError('UNAUTHORIZED', 'User not authenticated');
    return kept(user, seen) ? answer : run(user, false);
  }
  const user = await ctx.session.read();
  if (!user) return shopperError('UNAUTHORIZED', 'User not authenticated');
  return run(user, false);
}

/**
 * For procedures that need a signed-in shopper: `ctx.user` is theirs, else UNAUTHORIZED.
 *
 * A query starts beside the session's read when its cookie is known (`signedIn`); its answer is
 * kept only if the read names the same shopper (a new name, a role taken away: it runs again as
 * the shopper read). A change (a mutation) waits for the read: nothing is written for a session
 * that has ended (decision 0054). Changes that write through a gate do not wait: gatedProcedure.
 */
export const protectedProcedure = t.procedure.use(({ ctx, type, next }) =>
  signedIn(ctx, type === 'query', sameShopper, (user) =>
    next({ ctx: { ...ctx, user } satisfies Context & { user: SessionUser } }),
  ),
);

/**
 * For a shopper's changes whose every write carries `ctx.gate.allows()` and goes through
 * `ctx.gate.batch` (server/services/write-gate.ts): they start beside the session's read when
 * its cookie is known, and the database refuses each write unless that session is still live and
 * the shopper's; `limited` counts the attempt in the change's first batch. One trip in a row for
 * a change of one batch (decision 0057). Its answer stands when the read names the same shopper:
 * the gate made its writes theirs. A write without the condition would write for an ended
 * session: tests/integration/write-gate.test.ts reads every statement each gated procedure sends
 * and fails on one (decision 0072).
 */
export const gatedProcedure = t.procedure.use(({ ctx, next }) =>
  signedIn(
    ctx,
    true,
    (read, seen) => read.id === seen.id,
    (user, seen) => {
      const token = seen ? ctx.session.token : null;
      const gate = new WriteGate(ctx.db, token ? { token, userId: user.id } : null);
      return next({ ctx: { ...ctx, user, gate } });
    },
  ),
);

/**
 * For the desk (orders, catalogue, stock, pictures): the shop's staff or its owner, else
 * FORBIDDEN. `ctx.role` is theirs; `ctx.record` names who made a desk write.
 */
export const deskProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const role = deskRoleOf(ctx.user, ctx.ownerEmails);
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
 * Put it after `.input(...)` so only well-formed attempts count. Behind gatedProcedure the
 * attempt is counted in the change's first batch (the gate refuses it there), or, when the
 * change sent nothing to the database, after it.
 */
export function limited(name: string, limit: Limit) {
  const refused = (verdict: Verdict) =>
    verdict.allowed ? null : TEXT.tooManyAttempts(verdict.retryAfterSeconds);
  return t.middleware(async ({ ctx, next }) => {
    const gate = 'gate' in ctx && ctx.gate instanceof WriteGate ? ctx.gate : null;
    if (!gate) {
      const tooMany = refused(await rateLimit(ctx, { key: name, ...limit }));
      return tooMany ? shopperError('TOO_MANY_REQUESTS', tooMany) : next();
    }
    gate.countWith(`${name}:${attemptSubject(ctx)}`, limit);
    const answer = await next();
    if (!gate.uncounted()) return answer;
    const tooMany = refused(await rateLimit(ctx, { key: name, ...limit }));
    return tooMany ? shopperError('TOO_MANY_REQUESTS', tooMany) : answer;
  });
}
