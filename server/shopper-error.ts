// The errors whose message a shopper may read (a text from the spec's catalogue). Routers take
// them from server/trpc.ts with their procedures; a service that server/trpc.ts itself imports
// (the write gate) takes them from here, so that neither module needs the other to load.
import { TRPCError } from '@trpc/server';

/** An error whose message the shopper may read: a text from the spec's catalogue. */
export class ShopperError extends TRPCError {}

export function shopperError(code: TRPCError['code'], message: string): never {
  throw new ShopperError({ code, message });
}
