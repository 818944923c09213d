// The signed-in shopper's cart, by variant. Every answer is the whole cart, priced and stocked from the
// database now; a refused change answers the spec's toast text.

import {
  CART_TEXT,
  cartMergeInput,
  cartProductInput,
  cartQuantityInput,
  type PieceRef,
} from '#core/cart.ts';
import { CART_LIMIT } from '#core/limits.ts';
import { VARIANT_TEXT } from '#core/variants.ts';
import {
  addToCart,
  type CartAnswer,
  clearCart,
  getCart,
  mergeIntoCart,
  removeFromCart,
  setCartQuantity,
} from '../services/cart.ts';
import { gatedProcedure, limited, protectedProcedure, router, shopperError } from '../trpc.ts';

/** The piece a quantity change names, without its quantity. */
const pieceRef = (input: PieceRef & { quantity: number }): PieceRef =>
  'variantId' in input ? { variantId: input.variantId } : { productId: input.productId };

/** A change to the cart: one batch, its writes gated by the session and the limit (0057). */
const changeCart = gatedProcedure.use(limited('cart', CART_LIMIT));

function answer(result: CartAnswer, refused: (available: number, requested: number) => string) {
  if (result.ok) return result.cart;
  if (result.refusal.kind === 'product-missing')
    return shopperError('NOT_FOUND', 'Product not found');
  if (result.refusal.kind === 'choose-size') {
    return shopperError('BAD_REQUEST', VARIANT_TEXT.chooseSize);
  }
  return shopperError('BAD_REQUEST', refused(result.refusal.available, result.refusal.requested));
}

export const cartRouter = router({
  get: protectedProcedure.query(({ ctx }) => getCart(ctx.db, ctx.user.id)),

  add: changeCart
    .input(cartProductInput)
    .mutation(async ({ ctx, input }) =>
      answer(await addToCart(ctx.db, ctx.user.id, input, ctx.gate), (available) =>
        CART_TEXT.cannotAddMore(available),
      ),
    ),

  update: changeCart
    .input(cartQuantityInput)
    .mutation(async ({ ctx, input }) =>
      answer(
        await setCartQuantity(ctx.db, ctx.user.id, pieceRef(input), input.quantity, ctx.gate),
        (available, requested) => CART_TEXT.cannotSet(requested, available),
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
