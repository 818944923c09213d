// Checkout: the shopper sends what they want and how they pay — never prices or totals.
import { DELIVERY_TEXT } from '#core/delivery-rules.ts';
import { CHECKOUT_LIMIT, CHECKOUT_PREVIEW_LIMIT } from '#core/limits.ts';
import { OFFER_TEXT } from '#core/offers.ts';
import { CHECKOUT_TEXT, placeOrderInput, previewInput } from '#core/order-rules.ts';
import { PAYMENT_RULE_TEXT } from '#core/payment-rules.ts';
import { VARIANT_TEXT } from '#core/variants.ts';
import {
  type CheckoutProblem,
  type CheckoutRefused,
  placeOrder,
  previewCheckout,
} from '../services/checkout-service.ts';
import { deliveryChoices } from '../services/delivery-service.ts';
import { afterOrderPlaced } from '../services/order-events.ts';
import { shopSettings } from '../services/shop-settings.ts';
import { accepted, type Refusals } from '../shopper-error.ts';
import { gatedProcedure, limited, protectedProcedure, publicProcedure, router } from '../trpc.ts';

/** Each problem as its tRPC code and the spec's text, made from what the refusal names. */
export const checkoutRefusals: Refusals<CheckoutProblem, CheckoutRefused> = {
  'empty-cart': ['BAD_REQUEST', CHECKOUT_TEXT.emptyCart],
  'profile-incomplete': ['BAD_REQUEST', CHECKOUT_TEXT.profileIncomplete],
  'product-missing': ['NOT_FOUND', (refused) => CHECKOUT_TEXT.productNotFound(refused.name)],
  'choose-size': ['BAD_REQUEST', VARIANT_TEXT.chooseSize],
  'insufficient-stock': [
    'CONFLICT',
    (refused) => CHECKOUT_TEXT.insufficientStock(refused.name, refused.available),
  ],
  'order-id-taken': ['CONFLICT', CHECKOUT_TEXT.orderFailed],
  'order-id-other-kind': ['CONFLICT', CHECKOUT_TEXT.orderIdOtherKind],
  'delivery-unavailable': ['CONFLICT', DELIVERY_TEXT.optionUnavailable],
  'cash-not-offered': ['BAD_REQUEST', (refused) => DELIVERY_TEXT.cashNotOffered(refused.option)],
  'over-ceiling': ['BAD_REQUEST', (refused) => PAYMENT_RULE_TEXT.overCeiling(refused.method)],
  'area-needed': [
    'BAD_REQUEST',
    (refused) => (refused.courier ? DELIVERY_TEXT.townRequired : DELIVERY_TEXT.areaRequired),
  ],
  // Issue 35: the texts are OFFER_TEXT's, made by the service with the code as she typed it.
  'offer-refused': ['BAD_REQUEST', (refused) => refused.message],
  'offer-lost': ['CONFLICT', (refused) => refused.message],
  'offers-changed': ['CONFLICT', OFFER_TEXT.changed],
  'balance-changed': ['CONFLICT', OFFER_TEXT.balanceChanged],
};

export const checkoutRouter = router({
  /**
   * What the shopper may choose, in the owner's order, and the free-delivery threshold (null:
   * off). Public: the product page and the assistant promise the same.
   */
  deliveryOptions: publicProcedure.query(({ ctx }) => deliveryChoices(ctx.db)),

  /**
   * The totals the shop would charge (issue 35): offers, gift cards, credit. Open to visitors
   * (the cart is shown signed out): they have no credit, and per-shopper offers ask them to sign
   * in. It starts as the shopper this cookie was last read as, beside the session's read, and
   * runs again only if the read names someone else (decision 0054's way for queries).
   */
  preview: publicProcedure
    .input(previewInput)
    .use(limited('checkout-preview', CHECKOUT_PREVIEW_LIMIT))
    .query(async ({ ctx, input }) => {
      const seen = ctx.session.lastSeen()?.id ?? null;
      const [user, answer] = await Promise.all([
        ctx.session.read(),
        previewCheckout(ctx.db, seen, input),
      ]);
      const id = user?.id ?? null;
      return id === seen ? answer : previewCheckout(ctx.db, id, input);
    }),

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
          codes: input.codes,
          useCredit: input.useCredit,
        },
        { gate: ctx.gate, later: ctx.background },
      );
      const { order } = accepted(result, checkoutRefusals);
      // The texts are queued after the answer, off the shopper's wait: the Worker's waitUntil
      // runs the queueing to its end (it never throws); a send that fails is retried by the
      // scheduled sweep (decision 0054).
      if (order.created) ctx.background(afterOrderPlaced(ctx, order));
      return {
        orderId: order.orderId,
        total: order.total,
        deliveryFee: order.deliveryFee,
        created: order.created,
      };
    }),

  /** The shop's bank details for a transfer (null: the shop sends them), shown before an order exists. */
  bankTransfer: protectedProcedure.query(async ({ ctx }) => ({
    details: (await shopSettings(ctx.db, ctx)).bankDetails,
  })),
});
