// The catalogue: desk.products, desk.product, desk.saveProduct (drafts, publishing, archiving).
// Staff and the owner edit the catalogue; every save goes through saveProducts (decision 0043).
import { DESK_TEXT } from '#core/desk.ts';
import {
  DESK_CATALOGUE_TEXT,
  deskProductInput,
  deskProductsInput,
  saveProductInput,
} from '#core/desk-catalogue.ts';
import { textBackInStock } from '../../services/back-in-stock.ts';
import { deskProduct, deskProducts, saveProducts } from '../../services/desk-catalogue.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

const refusalCode = {
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  invalid: 'BAD_REQUEST',
} as const;

export const catalogueDesk = {
  /** Every product, drafts and archived ones included, newest first; searched by name or SKU. */
  products: deskProcedure
    .input(deskProductsInput)
    .query(({ ctx, input }) => deskProducts(ctx.db, input ?? {})),

  /** What the editor shows of one product. */
  product: deskProcedure.input(deskProductInput).query(async ({ ctx, input }) => {
    const product = await deskProduct(ctx.db, input.id);
    if (!product) return shopperError('NOT_FOUND', DESK_TEXT.productNotFound);
    return product;
  }),

  /** Creates (no id) or edits (an id) a product in one write; answers where it lives. */
  saveProduct: deskProcedure.input(saveProductInput).mutation(async ({ ctx, input }) => {
    const { requestKey, ...save } = input;
    const answer = await saveProducts(ctx.db, { email: ctx.user.email }, [save], {
      reason: 'saved',
      requestKey,
    });
    if (!answer.ok) return shopperError(refusalCode[answer.refusal], answer.problem);
    const [saved] = answer.saved;
    if (!saved) return shopperError('CONFLICT', DESK_CATALOGUE_TEXT.savedAtOnce);
    // Shoppers who asked for a size back are texted after the answer.
    if (answer.restocked.length > 0) ctx.background(textBackInStock(ctx, answer.restocked));
    return saved;
  }),
};
