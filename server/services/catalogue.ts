import { asc, desc, eq, gt } from 'drizzle-orm';
import type { Product } from '../../core/catalogue.ts';
import {
  FEATURED_MIN_PRICE_EXCLUSIVE,
  HOME_FEATURED_COUNT,
  HOME_NEW_ARRIVALS_COUNT,
} from '../../core/catalogue.ts';
import type { Db } from '../../db/client.ts';
import { categories, products } from '../../db/schema/index.ts';

/** The columns every screen needs, in the spec's product shape (§3). */
const productColumns = {
  id: products.id,
  slug: products.slug,
  productName: products.productName,
  price: products.price,
  quantity: products.quantity,
  productImage: products.productImage,
  description: products.description,
};

type ProductRow = {
  id: number;
  slug: string;
  productName: string;
  price: number;
  quantity: number;
  productImage: string | null;
  description: string | null;
};

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    slug: row.slug,
    name: row.productName,
    price: row.price,
    image_url: row.productImage,
    ...(row.description ? { description: row.description } : {}),
    quantity: row.quantity,
    stock: row.quantity,
  };
}

const newestFirst = [desc(products.createdAt), desc(products.id)];

export async function listNewest(db: Db, limit: number): Promise<Product[]> {
  const rows = await db
    .select(productColumns)
    .from(products)
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map(toProduct);
}

/** Home: Featured Collection (price over 50,000, first 8) and New Arrivals (first 8). */
export async function homeShowcase(db: Db) {
  const [featured, newArrivals] = await db.batch([
    db
      .select(productColumns)
      .from(products)
      .where(gt(products.price, FEATURED_MIN_PRICE_EXCLUSIVE))
      .orderBy(...newestFirst)
      .limit(HOME_FEATURED_COUNT),
    db
      .select(productColumns)
      .from(products)
      .orderBy(...newestFirst)
      .limit(HOME_NEW_ARRIVALS_COUNT),
  ]);
  return { featured: featured.map(toProduct), newArrivals: newArrivals.map(toProduct) };
}

export async function listCategories(db: Db) {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.name));
}

export async function findProduct(db: Db, id: number): Promise<Product | null> {
  const [row] = await db.select(productColumns).from(products).where(eq(products.id, id));
  return row ? toProduct(row) : null;
}
