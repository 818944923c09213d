// The shop's own details (issue 34): desk.storeDetails, desk.saveStoreDetails — the owner's only.
import type { TRPCRouterRecord } from '@trpc/server';
import { saveStoreDetailsInput } from '#core/desk-store-details.ts';
import { saveStoreDetails, storeDetailsRead } from '../../services/desk-store-details-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { ownerProcedure } from '../../trpc.ts';

const detailsRefusal: Refusals<never> = {};

export const storeDetailsDesk = {
  /** The address, landmark, pin, hours, pickup hours, social links and TIN, and where each comes from. */
  storeDetails: ownerProcedure.query(({ ctx }) => storeDetailsRead(ctx.db, ctx)),

  /** Saves the details the input names (the rest stay), with its record, in one batch. */
  saveStoreDetails: ownerProcedure.input(saveStoreDetailsInput).mutation(async ({ ctx, input }) => {
    const saved = await saveStoreDetails(ctx.db, { email: ctx.user.email }, input);
    return { changed: accepted(saved, detailsRefusal).changed };
  }),
} satisfies TRPCRouterRecord;
