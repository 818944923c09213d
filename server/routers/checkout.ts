// Checkout: the shopper sends what they want and how they pay — never prices or totals.
import { DELIVERY_TEXT } from '#core/delivery.ts';
import { CHECKOUT_LIMIT } from '#core/limits.ts';
import { CHECKOUT_TEXT, placeOrderInput } from '#core/orders.ts';
import { PAYMENT_RULE_TEXT } from '#core/payment-rules.ts';
import { VARIANT_TEXT } from '#core/variants.ts';
import { type CheckoutProblem, placeOrder } from '../services/checkout.ts';
import { deliveryChoices } from '../services/delivery.ts';
import { afterOrderPlaced } from '../services/order-events.ts';
import { shopSettings } from '../services/shop-settings.ts';
import {
  gatedProcedure,
  limited,
  protectedProcedure,
  publicProcedure,
  router,
  shopperError,
} from '../trpc.ts';

function refuse(problem: CheckoutProblem): never {
  switch (problem.kind) {
    case 'empty-cart':
      return shopperError('BAD_REQUEST', CHECKOUT_TEXT.emptyCart);
    case 'profile-incomplete':
      return shopperError('BAD_REQUEST', CHECKOUT_TEXT.profileIncomplete);
    case 'product-missing':
      return shopperError('NOT_FOUND', CHECKOUT_TEXT.productNotFound(problem.name));
    case 'choose-size':
      return shopperError('BAD_REQUEST', VARIANT_TEXT.chooseSize);
    case 'insufficient-stock':
      return shopperError(
        'CONFLICT',
        CHECKOUT_TEXT.insufficientStock(problem.name, problem.available),
      );
    case 'order-id-taken':
      return shopperError('CONFLICT', CHECKOUT_TEXT.orderFailed);
    case 'delivery-unavailable':
      return shopperError('CONFLICT', DELIVERY_TEXT.optionUnavailable);
    case 'cash-not-offered':
      return shopperError('BAD_REQUEST', DELIVERY_TEXT.cashNotOffered(problem.option));
    case 'over-ceiling':
      return shopperError('BAD_REQUEST', PAYMENT_RULE_TEXT.overCeiling(problem.method));
    case 'area-needed':
      return shopperError(
        'BAD_REQUEST',
        problem.courier ? DELIVERY_TEXT.townRequired : DELIVERY_TEXT.areaRequired,
      );
  }
}

export const checkoutRouter = router({
  /**
   * What the shopper may choose, in the owner's order, and the free-delivery threshold (null:
   * off). Public: the product page and the assistant promise the same.
   */
  deliveryOptions: publicProcedure.query(({ ctx }) => deliveryChoices(ctx.db)),

  /**
   * Gated (decision 0057): the session's read, the attempt's count and the reads the order needs
   * go side by side, then the one write; the receipt is saved and the texts queued after the
   * answer.
   */
  placeOrder: gatedProcedure
    .input(placeOrderInput)
    .use(limited('checkout', CHECKOUT_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const result = await placeOrder(
        ctx.db,
        ctx.user,
        {
          orderId: input.orderId,
          lines: input.items,
          paymentMethod: input.paymentMethod,
          delivery: {
            optionId: input.deliveryOptionId,
            area: input.deliveryArea,
            landmark: input.deliveryLandmark,
            phone: input.deliveryPhone,
            notes: input.deliveryNotes,
          },
        },
        { gate: ctx.gate, later: ctx.background },
      );
      if (!result.ok) return refuse(result.problem);
      // The texts are queued after the answer, off the shopper's wait: the Worker's waitUntil
      // runs the queueing to its end (it never throws); a send that fails is retried by the
      // scheduled sweep (decision 0054).
      if (result.order.created) ctx.background(afterOrderPlaced(ctx, result.order));
      return {
        orderId: result.order.orderId,
        total: result.order.total,
        deliveryFee: result.order.deliveryFee,
        created: result.order.created,
      };
    }),

  /** The shop's bank details for a transfer (null: the shop sends them), shown before an order exists. */
  bankTransfer: protectedProcedure.query(async ({ ctx }) => ({
    details: (await shopSettings(ctx.db, ctx)).bankDetails,
  })),
});
