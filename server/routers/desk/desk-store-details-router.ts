// The shop's own details (issue 34): desk.storeDetails, desk.saveStoreDetails — the owner's only.
import type { TRPCRouterRecord } from '@trpc/server';
import { saveStoreDetailsInput } from '#core/desk-store-details.ts';
import { saveStoreDetails, storeDetailsRead } from '../../services/desk-store-details-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { ownerProcedure } from '../../trpc.ts';

const detailsRefusal: Refusals<never> = {};

export const storeDetailsDesk = {
  /**
   * The address, landmark, pin, hours, pickup hours, social links, TIN and WhatsApp number, where
   * each comes from, and whether the shop has WhatsApp (WHATSAPP_*: without it, shoppers see
   * nothing of the number yet).
   */
  storeDetails: ownerProcedure.query(async ({ ctx }) => ({
    ...(await storeDetailsRead(ctx.db, ctx)),
    whatsappConfigured: Boolean(ctx.sms.whatsapp),
  })),

  /** Saves the details the input names (the rest stay), with its record, in one batch. */
  saveStoreDetails: ownerProcedure.input(saveStoreDetailsInput).mutation(async ({ ctx, input }) => {
    const saved = await saveStoreDetails(ctx.db, { email: ctx.user.email }, input);
    return { changed: accepted(saved, detailsRefusal).changed };
  }),
} satisfies TRPCRouterRecord;
