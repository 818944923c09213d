// Stock: desk.adjustStock, desk.stockLog, desk.lowStock, desk.stockSearch.
import type { TRPCRouterRecord } from '@trpc/server';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { adjustStockInput, STOCK_TEXT, stockLogInput, stockSearchInput } from '#core/desk-stock.ts';
import { textBackInStock } from '../../services/back-in-stock.ts';
import {
  type AdjustRefusal,
  adjustStock,
  lowStock,
  searchStock,
  stockLog,
} from '../../services/stock-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';

const adjustRefusal: Refusals<AdjustRefusal['problem'], AdjustRefusal> = {
  missing: ['NOT_FOUND', DESK_TEXT.variantNotFound],
  'key-reused': ['CONFLICT', DESK_TEXT.badRequestKey],
  'below-zero': ['CONFLICT', (refused) => STOCK_TEXT.belowZero(refused.left)],
};

export const stockDesk = {
  /** Adds or takes pieces with a reason; answers the level after. */
  adjustStock: deskProcedure.input(adjustStockInput).mutation(async ({ ctx, input }) => {
    const result = accepted(
      await adjustStock(ctx.db, { email: ctx.user.email }, input),
      adjustRefusal,
    );
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
} satisfies TRPCRouterRecord;
