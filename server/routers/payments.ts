// Mobile-money payments of the shopper's own orders: start one, read its state, or pay another
// way after it failed. Another customer's order and an unknown id are the same NOT_FOUND.

import { PAYMENT_LIMIT, PAYMENT_STATUS_LIMIT } from '#core/limits.ts';
import {
  changeMethodInput,
  PAYMENT_TEXT,
  paymentStatusInput,
  startPaymentInput,
} from '#core/mobile-money.ts';
import {
  changePaymentMethod,
  type PaymentProblem,
  paymentStatus,
  startPayment,
} from '../services/payments/service.ts';
import { limited, protectedProcedure, router, shopperError } from '../trpc.ts';

function refuse(problem: PaymentProblem): never {
  if (typeof problem === 'object') {
    return shopperError('SERVICE_UNAVAILABLE', PAYMENT_TEXT.notConfigured(problem.notConfigured));
  }
  switch (problem) {
    case 'order-not-found':
      return shopperError('NOT_FOUND', PAYMENT_TEXT.orderNotFound);
    case 'not-mobile-money':
      return shopperError('BAD_REQUEST', PAYMENT_TEXT.notMobileMoney);
    case 'already-paid':
      return shopperError('CONFLICT', PAYMENT_TEXT.alreadyPaid);
    case 'not-pending':
      return shopperError('CONFLICT', PAYMENT_TEXT.notPending);
    case 'no-number':
      return shopperError('BAD_REQUEST', PAYMENT_TEXT.invalidNumber);
    case 'unsupported-network':
      return shopperError('BAD_REQUEST', PAYMENT_TEXT.unsupportedNetwork);
  }
}

export const paymentsRouter = router({
  start: protectedProcedure
    .input(startPaymentInput)
    .use(limited('payment', PAYMENT_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const result = await startPayment(ctx, ctx.user.id, input);
      return result.ok ? result.payment : refuse(result.problem);
    }),

  status: protectedProcedure
    .input(paymentStatusInput)
    .use(limited('payment-status', PAYMENT_STATUS_LIMIT))
    .query(async ({ ctx, input }) => {
      const result = await paymentStatus(ctx, ctx.user.id, input.orderId);
      if (!result.order) return shopperError('NOT_FOUND', PAYMENT_TEXT.orderNotFound);
      return result.payment;
    }),

  changeMethod: protectedProcedure
    .input(changeMethodInput)
    .use(limited('payment', PAYMENT_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const result = await changePaymentMethod(
        ctx,
        ctx.user.id,
        input.orderId,
        input.paymentMethod,
      );
      return result.ok ? { changed: true } : refuse(result.problem);
    }),
});
