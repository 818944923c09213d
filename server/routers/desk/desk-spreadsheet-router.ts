// The catalogue as a spreadsheet: desk.importProducts (the export is GET /api/desk/products.csv).
import type { TRPCRouterRecord } from '@trpc/server';
import { importProductsInput } from '#core/desk-spreadsheet.ts';
import { textBackInStock } from '../../services/back-in-stock.ts';
import { type ImportRefusal, importProducts } from '../../services/desk-spreadsheet-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';

const importRefusal: Refusals<ImportRefusal['problem'], ImportRefusal> = {
  'bad-file': ['BAD_REQUEST', (refused) => refused.problems.join('\n')],
};

export const spreadsheetDesk = {
  /**
   * Creates and updates the file's products, all or none. A refused file's problems, one per
   * line, each naming its row; the page lists them.
   */
  importProducts: deskProcedure.input(importProductsInput).mutation(async ({ ctx, input }) => {
    const answer = accepted(
      await importProducts(ctx.db, { email: ctx.user.email }, input.csv, input.requestKey),
      importRefusal,
    );
    // Sizes back in stock: their waiting shoppers get their texts.
    if (answer.restocked.length > 0) ctx.background(textBackInStock(ctx, answer.restocked));
    const { ok, restocked, ...summary } = answer;
    return summary;
  }),
} satisfies TRPCRouterRecord;
