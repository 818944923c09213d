import {
  couldBeProductSlug,
  productInput,
  productSlugInput,
  relatedInput,
  TEXT,
} from '#core/catalogue.ts';
import { BACK_IN_STOCK_LIMIT } from '#core/limits.ts';
import { listingInput, searchInput } from '#core/listing-input.ts';
import { notifyWhenBackInput, VARIANT_TEXT } from '#core/variants.ts';
import { askBackInStock, type BackInStockProblem } from '../services/back-in-stock.ts';
import type { Facets } from '../services/catalogue-service.ts';
import {
  exchangeRates,
  findCategory,
  findProduct,
  findProductBySlug,
  homeShowcase,
  listCategories,
  listProducts,
  relatedProducts,
  searchProducts,
  shopRows,
} from '../services/catalogue-service.ts';
import { accepted, type Refusals } from '../shopper-error.ts';
import { limited, protectedProcedure, publicProcedure, router, shopperError } from '../trpc.ts';

const backInStockRefusal: Refusals<BackInStockProblem> = {
  missing: ['NOT_FOUND', TEXT.productNotFound],
  'in-stock': ['BAD_REQUEST', VARIANT_TEXT.notInStockNow],
  'no-phone': ['BAD_REQUEST', VARIANT_TEXT.notifyNeedsPhone],
};

const noFacets: Facets = { sizes: [], colours: [], exact: true };

export const catalogueRouter = router({
  home: publicProcedure.query(({ ctx }) => homeShowcase(ctx.db)),

  shop: publicProcedure.query(({ ctx }) => shopRows(ctx.db)),

  categories: publicProcedure.query(async ({ ctx }) => {
    try {
      return await listCategories(ctx.db);
    } catch (error) {
      console.error(error);
      return shopperError('INTERNAL_SERVER_ERROR', TEXT.categoriesFailed);
    }
  }),

  /** /products, /products?category={id}, /products?group=...: the full, paginated listing,
   * filtered (`filters`) and sorted (`sort`), with the facets of its sizes and colours. */
  list: publicProcedure.input(listingInput).query(async ({ ctx, input }) => {
    const category = input.categoryId ? await findCategory(ctx.db, input.categoryId) : null;
    if (input.categoryId && !category) return shopperError('NOT_FOUND', TEXT.categoryNotFound);
    const listing = await listProducts(ctx.db, input);
    return { ...listing, category };
  }),

  search: publicProcedure.input(searchInput).query(async ({ ctx, input }) => {
    if (!input.term) {
      const none = { filters: input.filters ?? {}, sort: input.sort, facets: noFacets };
      return {
        products: [],
        total: 0,
        totalCapped: false,
        page: 1,
        pageCount: 1,
        term: '',
        suggestions: [],
        ...none,
      };
    }
    try {
      // Every search reads every field since issue 32 (`scope` is still accepted, and ignored).
      const listing = await searchProducts(ctx.db, input.term, input.page, {
        filters: input.filters,
        sort: input.sort,
      });
      return { ...listing, term: input.term };
    } catch (error) {
      console.error(error);
      return shopperError('INTERNAL_SERVER_ERROR', TEXT.searchFailed);
    }
  }),

  /** UGX per USD, EUR and GBP, for approximate prices beside UGX (null: none shown). */
  rates: publicProcedure.query(({ ctx }) => exchangeRates(ctx.db)),

  /** A product page's breadcrumb category and "You may also like"; the piece by id or slug. */
  related: publicProcedure
    .input(relatedInput)
    .query(({ ctx, input }) =>
      'slug' in input && !couldBeProductSlug(input.slug)
        ? { category: null, products: [] }
        : relatedProducts(ctx.db, input),
    ),

  product: publicProcedure.input(productInput).query(async ({ ctx, input }) => {
    const product = await findProduct(ctx.db, input.id);
    if (!product) return shopperError('NOT_FOUND', TEXT.productNotFound);
    return product;
  }),

  /** "Tell me when it's back": one request per shopper and sold-out variant. */
  notifyWhenBack: protectedProcedure
    .input(notifyWhenBackInput)
    .use(limited('back-in-stock', BACK_IN_STOCK_LIMIT))
    .mutation(async ({ ctx, input }) => {
      accepted(await askBackInStock(ctx.db, ctx.user.id, input.variantId), backInStockRefusal);
      return { asked: true as const };
    }),

  productBySlug: publicProcedure.input(productSlugInput).query(async ({ ctx, input }) => {
    const product = couldBeProductSlug(input.slug)
      ? await findProductBySlug(ctx.db, input.slug)
      : null;
    if (!product) return shopperError('NOT_FOUND', TEXT.productNotFound);
    return product;
  }),
});
