// The catalogue as a spreadsheet: desk.importProducts (the export is GET /api/desk/products.csv).
import { importProductsInput } from '#core/desk-spreadsheet.ts';
import { textBackInStock } from '../../services/back-in-stock.ts';
import { importProducts } from '../../services/desk-spreadsheet.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

export const spreadsheetDesk = {
  /**
   * Creates and updates the file's products, all or none. A refused file's problems, one per
   * line, each naming its row; the page lists them.
   */
  importProducts: deskProcedure.input(importProductsInput).mutation(async ({ ctx, input }) => {
    const answer = await importProducts(
      ctx.db,
      { email: ctx.user.email },
      input.csv,
      input.requestKey,
    );
    if (!answer.ok) return shopperError('BAD_REQUEST', answer.problems.join('\n'));
    // Sizes back in stock: their waiting shoppers get their texts.
    if (answer.restocked.length > 0) ctx.background(textBackInStock(ctx, answer.restocked));
    const { ok, restocked, ...summary } = answer;
    return summary;
  }),
};
