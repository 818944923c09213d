// The customer's own orders and receipts. Another customer's order and an unknown id are the same
// NOT_FOUND: nothing tells them apart.
import { ORDERS_TEXT, orderIdInput, receiptInput } from '#core/order-rules.ts';
import { creditNoteInput, REFUND_TEXT } from '#core/returns.ts';
import { textBackInStock } from '../services/back-in-stock.ts';
import { creditNote } from '../services/credit-note-service.ts';
import { deleteOrder, findOrder, listOrders, receiptFor } from '../services/orders-service.ts';
import { protectedProcedure, router, shopperError } from '../trpc.ts';

const ORDER_NOT_FOUND = 'Order not found';

export const ordersRouter = router({
  list: protectedProcedure.query(({ ctx }) => listOrders(ctx.db, ctx.user.id)),

  byId: protectedProcedure.input(orderIdInput).query(async ({ ctx, input }) => {
    const order = await findOrder(ctx.db, ctx.user.id, input.id);
    return order ?? shopperError('NOT_FOUND', ORDER_NOT_FOUND);
  }),

  /** A succeeded refund's credit note (CRN-…): the shopper's own only. */
  creditNote: protectedProcedure.input(creditNoteInput).query(async ({ ctx, input }) => {
    const note = await creditNote(ctx.db, ctx.user.id, input.refundId);
    return note ?? shopperError('NOT_FOUND', REFUND_TEXT.creditNoteNotFound);
  }),

  delete: protectedProcedure.input(orderIdInput).mutation(async ({ ctx, input }) => {
    // Deleted, or (an order the shop keeps: paid, paying, gone out) hidden from the shopper's
    // lists: either way it is gone from what they see, and the spec's success text answers.
    const gone = await deleteOrder(ctx.db, ctx.user.id, input.id);
    if (!gone.deleted && !gone.hidden) return shopperError('NOT_FOUND', ORDERS_TEXT.deleteFailed);
    // Sizes that came back: whoever asked is texted (decision 0040). Never fails the delete; a
    // request left by a failure here is answered by the cron's sweep.
    await textBackInStock(ctx, gone.awaited).catch((error: unknown) =>
      console.warn('Back-in-stock texts could not be queued', error),
    );
    return { deleted: true };
  }),

  receipt: protectedProcedure.input(receiptInput).query(async ({ ctx, input }) => {
    const receipt = await receiptFor(ctx.db, ctx.user.id, input.orderId, ctx.bankDetails);
    return receipt ?? shopperError('NOT_FOUND', ORDER_NOT_FOUND);
  }),
});
