// Stock: desk.adjustStock, desk.stockLog, desk.lowStock, desk.stockSearch.
import { DESK_TEXT } from '#core/desk.ts';
import { adjustStockInput, STOCK_TEXT, stockLogInput, stockSearchInput } from '#core/desk-stock.ts';
import { textBackInStock } from '../../services/back-in-stock.ts';
import { adjustStock, lowStock, searchStock, stockLog } from '../../services/stock.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

export const stockDesk = {
  /** Adds or takes pieces with a reason; answers the level after. */
  adjustStock: deskProcedure.input(adjustStockInput).mutation(async ({ ctx, input }) => {
    const result = await adjustStock(ctx.db, { email: ctx.user.email }, input);
    if (!result.ok) {
      if (result.why === 'missing') return shopperError('NOT_FOUND', DESK_TEXT.variantNotFound);
      if (result.why === 'key-reused') return shopperError('CONFLICT', DESK_TEXT.badRequestKey);
      return shopperError('CONFLICT', STOCK_TEXT.belowZero(result.left));
    }
    // A size back from sold out: whoever asked is texted (decision 0040). After the answer; a
    // request a failure leaves is answered by the cron's sweep.
    if (result.cameBack) {
      ctx.background(
        textBackInStock(ctx, [input.variantId]).catch((error: unknown) =>
          console.warn('Back-in-stock texts could not be queued', error),
        ),
      );
    }
    return { stock: result.stock };
  }),

  /** Every change, newest first, 50 a page (`before`: the last id of the page before). */
  stockLog: deskProcedure
    .input(stockLogInput)
    .query(({ ctx, input }) => stockLog(ctx.db, input ?? {})),

  /** Pieces at or below the owner's threshold, the emptiest first. */
  lowStock: deskProcedure.query(({ ctx }) => lowStock(ctx.db)),

  /** Variants whose piece's name or SKU holds `q`. */
  stockSearch: deskProcedure
    .input(stockSearchInput)
    .query(({ ctx, input }) => (input.q.trim() ? searchStock(ctx.db, input.q) : [])),
};
