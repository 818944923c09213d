// The desk's refunds (issue 36): a refund_due payment sent back through its provider, a failed
// refund sent again (Retry), and any refund's credit note. The shop's staff and owners; a
// customer gets FORBIDDEN. A refund paid by hand is desk.markRefunded (desk-orders-router.ts).
import type { TRPCRouterRecord } from '@trpc/server';
import {
  creditNoteInput,
  REFUND_TEXT,
  refundByIdInput,
  refundPaymentInput,
} from '#core/returns.ts';
import { creditNote } from '../../services/credit-note-service.ts';
import { type RefundProblem, refundPayment, retryRefund } from '../../services/refunds-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

const refundRefusal: Refusals<RefundProblem> = {
  'not-found': ['NOT_FOUND', REFUND_TEXT.refundNotFound],
  'by-hand': ['CONFLICT', REFUND_TEXT.byHand],
  'store-credit': ['CONFLICT', REFUND_TEXT.storeCredit],
  'not-refund-due': ['CONFLICT', REFUND_TEXT.notRefundDue],
};

export const refundsDesk = {
  /** A refund_due payment refunded through the provider that took it. */
  refundPayment: deskProcedure.input(refundPaymentInput).mutation(async ({ ctx, input }) => {
    const answer = accepted(await refundPayment(ctx, input.paymentId, ctx.user), {
      ...refundRefusal,
      'not-found': ['NOT_FOUND', REFUND_TEXT.paymentNotFound],
    });
    return { refundId: answer.refundId, status: answer.status };
  }),

  /** A failed refund sent again, as a new refund. */
  retryRefund: deskProcedure.input(refundByIdInput).mutation(async ({ ctx, input }) => {
    const answer = accepted(await retryRefund(ctx, input.refundId, ctx.user), refundRefusal);
    return { refundId: answer.refundId, status: answer.status };
  }),

  /** Any refund's credit note (the shopper reads only her own: orders.creditNote). */
  creditNote: deskProcedure.input(creditNoteInput).query(async ({ ctx, input }) => {
    const note = await creditNote(ctx.db, null, input.refundId);
    return note ?? shopperError('NOT_FOUND', REFUND_TEXT.creditNoteNotFound);
  }),
} satisfies TRPCRouterRecord;
