// One order on the desk (issue 34, decision 0075): desk.order (its page, in one trip) and
// desk.addOrderNote (a private note, kept in the order's desk record). Staff and owners; a
// customer gets FORBIDDEN. The status moves, Mark paid and the refunds the page makes are the
// order procedures of desk-orders-router.ts, each recorded with the order's id.
import type { TRPCRouterRecord } from '@trpc/server';
import {
  addOrderNoteInput,
  DESK_ORDER_TEXT,
  deskOrderInput,
  NOTE_ACTION,
} from '#core/desk-order.ts';
import { addOrderNote, deskOrder } from '../../services/desk-order-service.ts';
import { keyedAnswer } from '../../services/desk-record.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

const noteRefusal: Refusals<'not-found'> = {
  'not-found': ['NOT_FOUND', DESK_ORDER_TEXT.notFound],
};

export const orderDesk = {
  /** Everything the order's page shows: the order, its pieces, customer, delivery, payments,
   * texts, record and notes. */
  order: deskProcedure.input(deskOrderInput).query(async ({ ctx, input }) => {
    const order = await deskOrder(ctx.db, input.id);
    return order ?? shopperError('NOT_FOUND', DESK_ORDER_TEXT.notFound);
  }),

  /** A private note on the order, recorded once under its request key. */
  addOrderNote: deskProcedure.input(addOrderNoteInput).mutation(async ({ ctx, input }) => {
    const { ok, ...note } = accepted(
      await keyedAnswer(
        ctx.db,
        input.requestKey,
        {
          actor: ctx.user,
          action: NOTE_ACTION,
          about: (details) => details.orderId === input.orderId,
        },
        () => addOrderNote(ctx.db, ctx.user, input),
      ),
      noteRefusal,
    );
    return note;
  }),
} satisfies TRPCRouterRecord;
