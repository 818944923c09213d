// How a service says no, and how that reaches the shopper. Every service answers
// `{ ok: true, … } | { ok: false, problem }` (`Answer`); its router turns a problem into the tRPC
// error and the text from the spec's catalogue with one table (`Refusals`) and `accepted`.
// Routers take these from server/trpc.ts with their procedures; a service that server/trpc.ts
// itself imports (the write gate) takes them from here, so neither module needs the other.
import { TRPCError } from '@trpc/server';

/** An error whose message the shopper may read: a text from the spec's catalogue. */
export class ShopperError extends TRPCError {}

export function shopperError(code: TRPCError['code'], message: string): never {
  throw new ShopperError({ code, message });
}

/**
 * A service's refusal: what went wrong, in the service's words (`'not-found'`, …). A refusal whose
 * text names something (a count, a network) carries it beside the problem: `{ …, left: 3 }`.
 */
export type Refused<Problem extends string> = { ok: false; problem: Problem };

/** A service's answer: done (with what it made), or refused with its problem. */
export type Answer<Done extends object, Problem extends string> =
  | ({ ok: true } & Done)
  | Refused<Problem>;

/**
 * A router's table: each problem a service may answer, as the tRPC code and the shopper's text.
 * The text is made from the refusal (`Refusal`, the service's refusals) when it names something.
 */
export type Refusals<
  Problem extends string,
  Refusal extends Refused<Problem> = Refused<Problem>,
> = {
  readonly [P in Problem]: readonly [
    code: TRPCError['code'],
    text: string | ((refusal: Refusal & { problem: P }) => string),
  ];
};

type RefusalIn<A> = Extract<A, { ok: false }>;

/** The answer when done; else the problem's error, from the router's table, thrown. */
export function accepted<A extends { ok: true } | Refused<string>>(
  answer: A,
  refusals: Refusals<RefusalIn<A>['problem'], RefusalIn<A>>,
): Extract<A, { ok: true }> {
  if (answer.ok) return answer as Extract<A, { ok: true }>;
  const refused = answer as RefusalIn<A>;
  const [code, text] = refusals[refused.problem as RefusalIn<A>['problem']];
  return shopperError(code, typeof text === 'string' ? text : text(refused as never));
}
