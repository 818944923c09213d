// Payments of the shopper's own orders: start one, read its state, or pay another way after a
// mobile-money payment failed. A mobile-money order asks the payer's phone (service.ts); a card
// order answers Pesapal's payment page to send the shopper to (card.ts). Another customer's order
// and an unknown id are the same NOT_FOUND.

import { CARD_TEXT } from '#core/card-payments.ts';
import { DELIVERY_TEXT } from '#core/delivery.ts';
import { PAYMENT_LIMIT, PAYMENT_STATUS_LIMIT } from '#core/limits.ts';
import {
  changeMethodInput,
  PAYMENT_TEXT,
  paymentStatusInput,
  startPaymentInput,
} from '#core/mobile-money.ts';
import { PAYMENT_RULE_TEXT } from '#core/payment-rules.ts';
import {
  type CardProblem,
  cardPaymentStatusOf,
  startCardPayment,
} from '../services/payments/card.ts';
import {
  changePaymentMethod,
  orderAndPayment,
  type PaymentProblem,
  paymentStatusOf,
  startPayment,
} from '../services/payments/service.ts';
import { limited, protectedProcedure, router, shopperError } from '../trpc.ts';

function refuse(problem: PaymentProblem): never {
  if (typeof problem === 'object') {
    if ('notConfigured' in problem) {
      return shopperError('SERVICE_UNAVAILABLE', PAYMENT_TEXT.notConfigured(problem.notConfigured));
    }
    // The checkout's own rule (core/payment-rules.ts), with its texts.
    return shopperError(
      'BAD_REQUEST',
      problem.kind === 'cash-not-offered'
        ? DELIVERY_TEXT.cashNotOffered(problem.option)
        : PAYMENT_RULE_TEXT.overCeiling(problem.method),
    );
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

function refuseCard(problem: CardProblem): never {
  switch (problem) {
    case 'not-configured':
      return shopperError('SERVICE_UNAVAILABLE', CARD_TEXT.notConfigured);
    case 'unavailable':
      return shopperError('SERVICE_UNAVAILABLE', CARD_TEXT.reasons.unavailable);
    // Neither mobile money nor card (bank transfer, cash): as before card payments existed.
    case 'not-card':
      return refuse('not-mobile-money');
    default:
      return refuse(problem);
  }
}

export const paymentsRouter = router({
  start: protectedProcedure
    .input(startPaymentInput)
    .use(limited('payment', PAYMENT_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const result = await startPayment(ctx, ctx.user.id, input);
      if (result.ok) return result.payment;
      if (result.problem !== 'not-mobile-money') return refuse(result.problem);
      // A card order (the phone, if given, means nothing here): Pesapal's page.
      const card = await startCardPayment(ctx, ctx.user.id, { orderId: input.orderId });
      return card.ok ? card.payment : refuseCard(card.problem);
    }),

  status: protectedProcedure
    .input(paymentStatusInput)
    .use(limited('payment-status', PAYMENT_STATUS_LIMIT))
    .query(async ({ ctx, input }) => {
      // One read of the order and its payment, then the card's or mobile money's answer (card
      // first: mobile money's status read would expire a card attempt after 5 minutes).
      const found = await orderAndPayment(ctx.db, ctx.user.id, input.orderId);
      const card = await cardPaymentStatusOf(ctx, found);
      const result = 'notCard' in card ? await paymentStatusOf(ctx, found) : card;
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
