// The desk's returns (/desk/returns, issue 36): the queue, a return with its record, and the
// staff's steps (approve or refuse, receive, the exchange's delivery). Owner and staff; a
// customer gets FORBIDDEN. Each step is one statement with its desk record; the texts, the
// refunds' sending and the back-in-stock texts follow after it and never fail it.
import type { TRPCRouterRecord } from '@trpc/server';
import {
  decideReturnInput,
  deskReturnByIdInput,
  deskReturnsInput,
  moveExchangeInput,
  RETURN_TEXT,
  receiveReturnInput,
} from '#core/returns.ts';
import { textBackInStock } from '../../services/back-in-stock.ts';
import {
  type DecideProblem,
  decideReturn,
  deskReturnById,
  deskReturns,
  type MoveProblem,
  moveExchange,
  type ReceiveProblem,
  receiveReturn,
} from '../../services/desk-returns-service.ts';
import { sendRefund } from '../../services/refunds-service.ts';
import { queueReturnText } from '../../services/return-texts.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

const decideRefusals: Refusals<DecideProblem> = {
  'not-found': ['NOT_FOUND', RETURN_TEXT.returnNotFound],
  'already-decided': ['CONFLICT', RETURN_TEXT.alreadyDecided],
};

const receiveRefusals: Refusals<ReceiveProblem> = {
  'not-found': ['NOT_FOUND', RETURN_TEXT.returnNotFound],
  'not-approved': ['CONFLICT', RETURN_TEXT.notApproved],
  'condition-missing': ['BAD_REQUEST', RETURN_TEXT.conditionMissing],
  'line-not-found': ['NOT_FOUND', RETURN_TEXT.lineNotFound],
};

const moveRefusals: Refusals<MoveProblem> = {
  'not-found': ['NOT_FOUND', RETURN_TEXT.returnNotFound],
  'not-preparing': ['CONFLICT', RETURN_TEXT.notPreparing],
  'bad-move': ['CONFLICT', RETURN_TEXT.badMove],
};

/** Sizes back from 0: whoever asked is texted (decision 0040); the cron's sweep takes a miss. */
const textCameBack = (ctx: Parameters<typeof textBackInStock>[0], variantIds: number[]) =>
  textBackInStock(ctx, variantIds).catch((error: unknown) =>
    console.warn('Back-in-stock texts could not be queued', error),
  );

export const returnsDesk = {
  /** The queue: the newest 100 (of one status when asked) and how many are in each status. */
  returns: deskProcedure
    .input(deskReturnsInput)
    .query(({ ctx, input }) => deskReturns(ctx.db, input?.status)),

  returnById: deskProcedure.input(deskReturnByIdInput).query(async ({ ctx, input }) => {
    const found = await deskReturnById(ctx.db, input.returnId, ctx);
    return found ?? shopperError('NOT_FOUND', RETURN_TEXT.returnNotFound);
  }),

  /** Approve (with the handover and the pickup's fee) or refuse (with the reason she reads). */
  decideReturn: deskProcedure.input(decideReturnInput).mutation(async ({ ctx, input }) => {
    const decided = accepted(await decideReturn(ctx.db, ctx.user, input, ctx), decideRefusals);
    ctx.background(
      queueReturnText(ctx, input.returnId, decided.status === 'approved' ? 'approved' : 'refused'),
    );
    if (decided.cameBack.length > 0) ctx.background(textCameBack(ctx, decided.cameBack));
    return { status: decided.status };
  }),

  /** The pieces came back: stock, conditions, the refund started. Sent again: nothing more. */
  receiveReturn: deskProcedure.input(receiveReturnInput).mutation(async ({ ctx, input }) => {
    const received = accepted(await receiveReturn(ctx.db, ctx.user, input), receiveRefusals);
    // Sent after the answer: a provider's wait never holds the desk (sendRefund never throws).
    for (const refundId of received.toSend) ctx.background(sendRefund(ctx, refundId));
    if (received.cameBack.length > 0) ctx.background(textCameBack(ctx, received.cameBack));
    return { status: received.status, refunds: received.refunds };
  }),

  /** The exchange's own delivery: out for delivery (texted), then delivered. */
  moveExchange: deskProcedure.input(moveExchangeInput).mutation(async ({ ctx, input }) => {
    const moved = accepted(await moveExchange(ctx.db, ctx.user, input), moveRefusals);
    if (moved.moved && input.to === 'out_for_delivery') {
      ctx.background(queueReturnText(ctx, input.returnId, 'exchange-shipped'));
    }
    return { status: moved.status, exchangeStatus: moved.exchangeStatus };
  }),
} satisfies TRPCRouterRecord;
