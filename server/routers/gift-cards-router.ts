// Gift cards sold as a piece (issue 35): the shopper buys one like an order, then pays for it as
// after checkout; the card is issued and texted when the payment is confirmed (order-events.ts).

import { CHECKOUT_LIMIT } from '#core/limits.ts';
import { CHECKOUT_TEXT } from '#core/order-rules.ts';
import { buyGiftCardInput, GIFT_CARD_TEXT } from '#core/value-ledger.ts';
import { afterOrderPlaced } from '../services/order-events.ts';
import { type BuyGiftCardProblem, buyGiftCard } from '../services/value-service.ts';
import { accepted, type Refusals } from '../shopper-error.ts';
import { gatedProcedure, limited, router } from '../trpc.ts';

const buyRefusals: Refusals<BuyGiftCardProblem> = {
  'profile-incomplete': ['BAD_REQUEST', CHECKOUT_TEXT.profileIncomplete],
  'order-id-taken': ['CONFLICT', GIFT_CARD_TEXT.failed],
  'order-id-other-kind': ['CONFLICT', CHECKOUT_TEXT.orderIdOtherKind],
};

export const giftCardsRouter = router({
  /**
   * Gated (decision 0057) and counted with the checkout's attempts: one write places the order
   * and the card awaiting payment; the same order id again answers the order placed.
   */
  buy: gatedProcedure
    .input(buyGiftCardInput)
    .use(limited('checkout', CHECKOUT_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const { order } = accepted(
        await buyGiftCard(ctx.db, ctx.user, input, { gate: ctx.gate, later: ctx.background }),
        buyRefusals,
      );
      if (order.created) {
        ctx.background(
          afterOrderPlaced(ctx, {
            orderId: order.orderId,
            created: true,
            total: order.total,
            deliveryFee: 0,
            receipt: order.receipt,
          }),
        );
      }
      return { orderId: order.orderId, total: order.total, created: order.created };
    }),
});
