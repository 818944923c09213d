// Payments of the shopper's own orders: start one, read its state, or pay another way after a
// mobile-money payment failed. A mobile-money order asks the payer's phone (service.ts); a card
// order answers Pesapal's payment page to send the shopper to (card.ts). Another customer's order
// and an unknown id are the same NOT_FOUND.

import { CARD_TEXT } from '#core/card-payments.ts';
import { DELIVERY_TEXT } from '#core/delivery-rules.ts';
import { PAYMENT_LIMIT, PAYMENT_STATUS_LIMIT } from '#core/limits.ts';
import {
  changeMethodInput,
  PAYMENT_TEXT,
  paymentStatusInput,
  startPaymentInput,
} from '#core/mobile-money.ts';
import { PAYMENT_RULE_TEXT } from '#core/payment-rules.ts';
import type { RuleRefused } from '../services/payment-rules-service.ts';
import {
  type CardRefused,
  cardPaymentStatusOf,
  startCardPayment,
} from '../services/payments/card.ts';
import {
  changePaymentMethod,
  orderAndPayment,
  type PaymentRefused,
  paymentStatusOf,
  startPayment,
} from '../services/payments/service.ts';
import { accepted, type Refusals, type Refused } from '../shopper-error.ts';
import { limited, protectedProcedure, router, shopperError } from '../trpc.ts';

/** What both ways of paying refuse alike, the checkout's own rule (core/payment-rules.ts) too. */
type Shared = Refused<'order-not-found' | 'already-paid' | 'not-pending'> | RuleRefused;
const sharedRefusal: Refusals<Shared['problem'], Shared> = {
  'order-not-found': ['NOT_FOUND', PAYMENT_TEXT.orderNotFound],
  'already-paid': ['CONFLICT', PAYMENT_TEXT.alreadyPaid],
  'not-pending': ['CONFLICT', PAYMENT_TEXT.notPending],
  'cash-not-offered': ['BAD_REQUEST', (refused) => DELIVERY_TEXT.cashNotOffered(refused.option)],
  'over-ceiling': ['BAD_REQUEST', (refused) => PAYMENT_RULE_TEXT.overCeiling(refused.method)],
};

const paymentRefusal: Refusals<PaymentRefused['problem'], PaymentRefused> = {
  ...sharedRefusal,
  'not-mobile-money': ['BAD_REQUEST', PAYMENT_TEXT.notMobileMoney],
  'no-number': ['BAD_REQUEST', PAYMENT_TEXT.invalidNumber],
  'unsupported-network': ['BAD_REQUEST', PAYMENT_TEXT.unsupportedNetwork],
  'not-configured': [
    'SERVICE_UNAVAILABLE',
    (refused) => PAYMENT_TEXT.notConfigured(refused.network),
  ],
};

const cardRefusal: Refusals<CardRefused['problem'], CardRefused> = {
  ...sharedRefusal,
  // Neither mobile money nor card (bank transfer, cash): as before card payments existed.
  'not-card': ['BAD_REQUEST', PAYMENT_TEXT.notMobileMoney],
  'not-configured': ['SERVICE_UNAVAILABLE', CARD_TEXT.notConfigured],
  unavailable: ['SERVICE_UNAVAILABLE', CARD_TEXT.reasons.unavailable],
};

export const paymentsRouter = router({
  start: protectedProcedure
    .input(startPaymentInput)
    .use(limited('payment', PAYMENT_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const result = await startPayment(ctx, ctx.user.id, input);
      if (result.ok || result.problem !== 'not-mobile-money') {
        return accepted(result, paymentRefusal).payment;
      }
      // A card order (the phone, if given, means nothing here): Pesapal's page.
      const card = await startCardPayment(ctx, ctx.user.id, { orderId: input.orderId });
      return accepted(card, cardRefusal).payment;
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
      accepted(
        await changePaymentMethod(ctx, ctx.user.id, input.orderId, input.paymentMethod),
        paymentRefusal,
      );
      return { changed: true };
    }),
});
