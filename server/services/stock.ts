// Stock at the desk (issue 22): what is running low. Adjustments and the log join it here.
import { and, asc, eq, lte, ne, type SQL } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { products, productVariants } from '#db/schema/index.ts';

export type LowStockRow = {
  variantId: number;
  productId: number;
  name: string;
  label: string;
  sku: string;
  stock: number;
};

/**
 * Variants of pieces not archived with `threshold` or fewer left, the emptiest first. The
 * threshold may be SQL (the dashboard reads the owner's number in the same statement).
 */
export function lowStockVariants(db: Db, threshold: number | SQL<number>, limit = 50) {
  return db
    .select({
      variantId: productVariants.id,
      productId: products.id,
      name: products.productName,
      label: productVariants.label,
      sku: productVariants.sku,
      stock: productVariants.stock,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(lte(productVariants.stock, threshold), ne(products.status, 'archived')))
    .orderBy(asc(productVariants.stock), asc(products.productName), asc(productVariants.position))
    .limit(limit);
}
