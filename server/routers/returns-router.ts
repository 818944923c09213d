// A shopper's returns and exchanges (issue 36, decision 0086): what an order allows, the request
// (one gated write, as checkout's), and her returns. Another shopper's order or return answers
// as not found.
import { RETURN_LIMIT } from '#core/limits.ts';
import {
  RETURN_TEXT,
  returnByIdInput,
  returnOptionsInput,
  returnRequestInput,
} from '#core/returns.ts';
import { queueReturnText } from '../services/return-texts.ts';
import {
  findReturn,
  listReturns,
  type RequestProblem,
  type RequestRefused,
  requestReturn,
  returnOptions,
} from '../services/returns-service.ts';
import { accepted, type Refusals } from '../shopper-error.ts';
import { gatedProcedure, limited, protectedProcedure, router, shopperError } from '../trpc.ts';

/** Each guard the request can fail, as its tRPC code and RETURN_TEXT's words. */
export const requestRefusals: Refusals<RequestProblem, RequestRefused> = {
  'order-not-found': ['NOT_FOUND', RETURN_TEXT.orderNotFound],
  'return-id-taken': ['CONFLICT', RETURN_TEXT.replayMismatch],
  'not-delivered': ['BAD_REQUEST', RETURN_TEXT.notDelivered],
  'window-closed': ['BAD_REQUEST', (refused) => RETURN_TEXT.windowClosed(refused.last)],
  'exchange-window-closed': [
    'BAD_REQUEST',
    (refused) => RETURN_TEXT.exchangeWindowClosed(refused.last),
  ],
  'line-not-found': ['NOT_FOUND', RETURN_TEXT.lineNotFound],
  'not-returnable': ['BAD_REQUEST', (refused) => RETURN_TEXT.notReturnable(refused.name)],
  'too-many': ['CONFLICT', (refused) => RETURN_TEXT.tooMany(refused.name, refused.left)],
  'exchange-not-found': ['NOT_FOUND', RETURN_TEXT.exchangeNotFound],
  'exchange-too-dear': ['BAD_REQUEST', (refused) => RETURN_TEXT.exchangeTooDear(refused.name)],
  'sold-out': ['CONFLICT', (refused) => RETURN_TEXT.soldOut(refused.label, refused.left)],
  'bad-photo': ['BAD_REQUEST', RETURN_TEXT.badPhoto],
};

export const returnsRouter = router({
  /** What the order allows: its windows, each line's pieces left and the exchange choices. */
  options: protectedProcedure.input(returnOptionsInput).query(async ({ ctx, input }) => {
    const answer = await returnOptions(ctx.db, ctx.user.id, input.orderId, ctx);
    return answer.ok ? answer.options : shopperError('NOT_FOUND', RETURN_TEXT.orderNotFound);
  }),

  /**
   * Gated (decision 0057): the reads beside the session's, then ONE write; the same return id
   * again answers the first answer. The text is queued after the answer.
   */
  request: gatedProcedure
    .input(returnRequestInput)
    .use(limited('returns', RETURN_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const made = accepted(
        await requestReturn(ctx.db, ctx.user.id, input, { gate: ctx.gate }),
        requestRefusals,
      );
      if (made.created) ctx.background(queueReturnText(ctx, made.returnId, 'requested'));
      return { returnId: made.returnId, status: made.status };
    }),

  list: protectedProcedure.query(async ({ ctx }) => ({
    returns: await listReturns(ctx.db, ctx.user.id),
  })),

  byId: protectedProcedure.input(returnByIdInput).query(async ({ ctx, input }) => {
    const found = await findReturn(ctx.db, ctx.user.id, input.id, ctx);
    return found ?? shopperError('NOT_FOUND', RETURN_TEXT.returnNotFound);
  }),
});
