import * as v from 'valibot';
import { findProduct, homeShowcase, listCategories } from '../services/catalogue.ts';
import { publicProcedure, router, shopperError } from '../trpc.ts';

const productId = v.pipe(
  v.number('Product id must be a number'),
  v.integer('Product id must be a whole number'),
  v.minValue(1, 'Product id must be positive'),
  v.maxValue(2_147_483_647, 'Product id is too large'),
);

export const catalogueRouter = router({
  home: publicProcedure.query(({ ctx }) => homeShowcase(ctx.db)),

  categories: publicProcedure.query(async ({ ctx }) => {
    try {
      return await listCategories(ctx.db);
    } catch (error) {
      console.error(error);
      return shopperError('INTERNAL_SERVER_ERROR', 'Failed to fetch categories');
    }
  }),

  product: publicProcedure.input(v.object({ id: productId })).query(async ({ ctx, input }) => {
    const product = await findProduct(ctx.db, input.id);
    if (!product) return shopperError('NOT_FOUND', 'Product not found');
    return product;
  }),
});
