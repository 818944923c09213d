import * as v from 'valibot';
import { SEARCH_TERM_MAX, SHOP_GROUPS, type ShopGroup } from '#core/catalogue.ts';
import {
  findCategory,
  findProduct,
  findProductBySlug,
  homeShowcase,
  listCategories,
  listProducts,
  searchProducts,
  shopRows,
} from '../services/catalogue.ts';
import { publicProcedure, router, shopperError } from '../trpc.ts';

const MAX_ID = 2_147_483_647;
const id = (what: string) =>
  v.pipe(
    v.number(`${what} id must be a number`),
    v.integer(`${what} id must be a whole number`),
    v.minValue(1, `${what} id must be positive`),
    v.maxValue(MAX_ID, `${what} id is too large`),
  );
const page = v.optional(
  v.pipe(
    v.number('Page must be a number'),
    v.integer('Page must be a whole number'),
    v.minValue(1, 'Page must be 1 or more'),
    v.maxValue(10_000, 'Page is too large'),
  ),
  1,
);
const group = v.picklist(Object.keys(SHOP_GROUPS) as ShopGroup[], 'Unknown product group');

/** Search failures the shopper sees: the spec's text. */
const SEARCH_ERROR = 'An error occurred while searching.';

export const catalogueRouter = router({
  home: publicProcedure.query(({ ctx }) => homeShowcase(ctx.db)),

  shop: publicProcedure.query(({ ctx }) => shopRows(ctx.db)),

  categories: publicProcedure.query(async ({ ctx }) => {
    try {
      return await listCategories(ctx.db);
    } catch (error) {
      console.error(error);
      return shopperError('INTERNAL_SERVER_ERROR', 'Failed to fetch categories');
    }
  }),

  /** /products, /products?category={id}, /products?group=...: the full, paginated listing. */
  list: publicProcedure
    .input(v.object({ categoryId: v.optional(id('Category')), group: v.optional(group), page }))
    .query(async ({ ctx, input }) => {
      const category = input.categoryId ? await findCategory(ctx.db, input.categoryId) : null;
      if (input.categoryId && !category) return shopperError('NOT_FOUND', 'Category not found');
      const listing = await listProducts(ctx.db, input);
      return { ...listing, category };
    }),

  search: publicProcedure
    .input(
      v.object({
        term: v.pipe(
          v.string(SEARCH_ERROR),
          v.maxLength(
            SEARCH_TERM_MAX,
            `Search terms can be at most ${SEARCH_TERM_MAX} characters.`,
          ),
          v.trim(),
        ),
        scope: v.optional(v.picklist(['all', 'name'], SEARCH_ERROR), 'all'),
        page,
      }),
    )
    .query(async ({ ctx, input }) => {
      if (!input.term) return { products: [], total: 0, page: 1, pageCount: 1, term: '' };
      try {
        const listing = await searchProducts(ctx.db, input.term, input.scope, input.page);
        return { ...listing, term: input.term };
      } catch (error) {
        console.error(error);
        return shopperError('INTERNAL_SERVER_ERROR', SEARCH_ERROR);
      }
    }),

  product: publicProcedure.input(v.object({ id: id('Product') })).query(async ({ ctx, input }) => {
    const product = await findProduct(ctx.db, input.id);
    if (!product) return shopperError('NOT_FOUND', 'Product not found');
    return product;
  }),

  productBySlug: publicProcedure
    .input(
      v.object({
        slug: v.pipe(v.string('Product not found'), v.maxLength(200, 'Product not found')),
      }),
    )
    .query(async ({ ctx, input }) => {
      const product = await findProductBySlug(ctx.db, input.slug);
      if (!product) return shopperError('NOT_FOUND', 'Product not found');
      return product;
    }),
});
