// The catalogue: desk.products, desk.product, desk.saveProduct (drafts, publishing, archiving).
// Staff and the owner edit the catalogue; every save goes through saveProducts (decision 0043).
import type { TRPCRouterRecord } from '@trpc/server';
import {
  DESK_CATALOGUE_TEXT,
  deskProductInput,
  deskProductsInput,
  saveProductInput,
} from '#core/desk-catalogue.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { textBackInStock } from '../../services/back-in-stock.ts';
import {
  deskProduct,
  deskProducts,
  type SaveProblem,
  type SaveRefusal,
  saveProducts,
} from '../../services/desk-catalogue-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

// The save's text says what was wrong (the SKU taken, the size short): the table gives the code.
const saveRefusal: Refusals<SaveProblem, SaveRefusal> = {
  'not-found': ['NOT_FOUND', (refused) => refused.text],
  conflict: ['CONFLICT', (refused) => refused.text],
  invalid: ['BAD_REQUEST', (refused) => refused.text],
};

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
    const answer = accepted(
      await saveProducts(ctx.db, { email: ctx.user.email }, [save], {
        reason: 'saved',
        requestKey,
      }),
      saveRefusal,
    );
    const [saved] = answer.saved;
    if (!saved) return shopperError('CONFLICT', DESK_CATALOGUE_TEXT.savedAtOnce);
    // Shoppers who asked for a size back are texted after the answer.
    if (answer.restocked.length > 0) ctx.background(textBackInStock(ctx, answer.restocked));
    return saved;
  }),
} satisfies TRPCRouterRecord;
