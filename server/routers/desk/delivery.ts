// Delivery on the desk (issue 23): desk.deliveryOptions (every option, retired ones too, and the
// free-delivery threshold; staff read it) and desk.saveDeliveryOptions (the owner's: delivery fees
// are money settings).
import type { TRPCRouterRecord } from '@trpc/server';
import { DESK_DELIVERY_TEXT, saveDeliveryInput } from '#core/desk-delivery.ts';
import {
  deskDeliveryChoices,
  isOptionClash,
  type SaveDeliveryAnswer,
  saveDeliveryOptions,
} from '../../services/desk-delivery.ts';
import { keyedSave } from '../../services/desk-record.ts';
import { deskProcedure, ownerProcedure, shopperError } from '../../trpc.ts';

export const deliveryDesk = {
  /** Every option in the owner's order (retired ones marked), and the threshold (null: off). */
  deliveryOptions: deskProcedure.query(async ({ ctx }) => ({
    ...(await deskDeliveryChoices(ctx.db)),
    role: ctx.role,
  })),

  /**
   * Saves the options and the threshold in one batch with the record and the catalogue's
   * version; the same request key again answers the first save.
   */
  saveDeliveryOptions: ownerProcedure.input(saveDeliveryInput).mutation(async ({ ctx, input }) =>
    keyedSave<SaveDeliveryAnswer>(
      ctx.db,
      input.requestKey,
      { actor: ctx.user, action: 'delivery.saved' },
      async () => {
        try {
          const saved = await saveDeliveryOptions(ctx.db, { email: ctx.user.email }, input);
          if (!saved.ok) return shopperError(saved.problem.code, saved.problem.text);
          return saved.answer;
        } catch (error) {
          if (isOptionClash(error)) return shopperError('CONFLICT', DESK_DELIVERY_TEXT.clash);
          throw error;
        }
      },
    ),
  ),
} satisfies TRPCRouterRecord;
