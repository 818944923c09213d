// The signed-in shopper's cart, by variant. Every answer is the whole cart, priced and stocked from the
// database now; a refused change answers the spec's toast text.

import { cartLinkPiecesInput } from '#core/cart-link.ts';
import {
  CART_TEXT,
  type Cart,
  cartAddInput,
  cartMergeInput,
  cartProductInput,
  cartQuantityInput,
  type PieceRef,
} from '#core/cart-rules.ts';
import { CART_LIMIT } from '#core/limits.ts';
import { VARIANT_TEXT } from '#core/variants.ts';
import {
  addToCart,
  type CartAnswer,
  type CartProblem,
  clearCart,
  getCart,
  linkPieces,
  mergeIntoCart,
  removeFromCart,
  setCartQuantity,
} from '../services/cart-service.ts';
import { accepted, type Refusals } from '../shopper-error.ts';
import { gatedProcedure, limited, protectedProcedure, publicProcedure, router } from '../trpc.ts';

/** The piece a quantity change names, without its quantity. */
const pieceRef = (input: PieceRef & { quantity: number }): PieceRef =>
  'variantId' in input ? { variantId: input.variantId } : { productId: input.productId };

/** A change to the cart: one batch, its writes gated by the session and the limit (0057). */
const changeCart = gatedProcedure.use(limited('cart', CART_LIMIT));

/**
 * The cart, or the refusal's tRPC code and toast. Past the stock, the text is the change's own
 * (`tooMany`), from what the line may hold and what it held.
 */
function changed(answer: CartAnswer, tooMany: (available: number, inCart: number) => string): Cart {
  const refusals: Refusals<CartProblem, Extract<CartAnswer, { ok: false }>> = {
    'product-missing': ['NOT_FOUND', 'Product not found'],
    'choose-size': ['BAD_REQUEST', VARIANT_TEXT.chooseSize],
    'stock-limit': ['BAD_REQUEST', (refused) => tooMany(refused.available, refused.inCart)],
  };
  return accepted(answer, refusals).cart;
}

export const cartRouter = router({
  get: protectedProcedure.query(({ ctx }) => getCart(ctx.db, ctx.user.id)),

  /**
   * A cart link's pieces (issue 37), on sale now with their stock and price: for a visitor too,
   * whose cart is in her browser. Adding them goes through `add` (or the visitor's cart rules).
   */
  linkPieces: publicProcedure
    .input(cartLinkPiecesInput)
    .query(({ ctx, input }) => linkPieces(ctx.db, input.variantIds)),

  add: changeCart.input(cartAddInput).mutation(async ({ ctx, input }) => {
    const { quantity, ...piece } = input;
    return changed(
      await addToCart(ctx.db, ctx.user.id, piece, quantity, ctx.gate),
      // The cart rules' texts (core/cart-rules.ts): one more, or more of a line already there, is
      // "cannot add more"; N of a new line names the N.
      (available, inCart) =>
        quantity === 1 || inCart > 0
          ? CART_TEXT.cannotAddMore(available)
          : CART_TEXT.cannotAdd(quantity, available),
    );
  }),

  update: changeCart
    .input(cartQuantityInput)
    .mutation(async ({ ctx, input }) =>
      changed(
        await setCartQuantity(ctx.db, ctx.user.id, pieceRef(input), input.quantity, ctx.gate),
        (available) => CART_TEXT.cannotSet(input.quantity, available),
      ),
    ),

  remove: changeCart
    .input(cartProductInput)
    .mutation(({ ctx, input }) => removeFromCart(ctx.db, ctx.user.id, input, ctx.gate)),

  clear: changeCart.mutation(({ ctx }) => clearCart(ctx.db, ctx.user.id, ctx.gate)),

  merge: changeCart
    .input(cartMergeInput)
    .mutation(({ ctx, input }) => mergeIntoCart(ctx.db, ctx.user.id, input.items, ctx.gate)),
});
