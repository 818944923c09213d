// Delivery on the desk (issue 23): desk.deliveryOptions (every option, retired ones too, and the
// free-delivery threshold; staff read it) and desk.saveDeliveryOptions (the owner's: delivery fees
// are money settings).
import type { TRPCRouterRecord } from '@trpc/server';
import { DESK_DELIVERY_TEXT, saveDeliveryInput } from '#core/desk-delivery.ts';
import {
  deskDeliveryChoices,
  type SaveDeliveryProblem,
  type SaveDeliveryRefused,
  saveDeliveryOptions,
} from '../../services/desk-delivery-service.ts';
import { keyedAnswer } from '../../services/desk-record.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, ownerProcedure } from '../../trpc.ts';

const saveRefusal: Refusals<SaveDeliveryProblem, SaveDeliveryRefused> = {
  'unknown-option': ['BAD_REQUEST', DESK_DELIVERY_TEXT.unknownOption],
  'none-offered': ['BAD_REQUEST', DESK_DELIVERY_TEXT.oneOffered],
  'names-shared': ['BAD_REQUEST', (refused) => DESK_DELIVERY_TEXT.namesUnique(refused.name)],
  clash: ['CONFLICT', DESK_DELIVERY_TEXT.clash],
};

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
  saveDeliveryOptions: ownerProcedure.input(saveDeliveryInput).mutation(async ({ ctx, input }) => {
    const { ok, ...saved } = accepted(
      await keyedAnswer(
        ctx.db,
        input.requestKey,
        { actor: ctx.user, action: 'delivery.saved' },
        () => saveDeliveryOptions(ctx.db, { email: ctx.user.email }, input),
      ),
      saveRefusal,
    );
    return saved;
  }),
} satisfies TRPCRouterRecord;
