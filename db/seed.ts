import { sql } from 'drizzle-orm';
import { slugify } from '#core/slug.ts';
import type { Db } from './client.ts';
import { categories, products, sellers, systemSettings } from './schema/index.ts';
import * as demo from './seed-data.ts';

/** Seeds the demo catalogue into an empty shop, all in one transaction. Returns whether it seeded. */
export async function seedDemoCatalogue(db: Db): Promise<boolean> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(products);
  if ((existing?.n ?? 0) > 0) return false;

  const now = Date.now();
  const day = 86_400_000;
  const productLinks = demo.products.map((p) => ({ slug: slugify(p.name), category: p.category }));
  const sellerLinks = demo.sellers.flatMap((s) =>
    s.products.map((name) => ({ seller: s.businessName, slug: slugify(name) })),
  );

  await db.batch([
    db.insert(categories).values(demo.categories.map((c) => ({ name: c.name }))),
    db.insert(products).values(
      demo.products.map((p) => ({
        productName: p.name,
        slug: slugify(p.name),
        price: p.price,
        quantity: p.quantity,
        productImage: p.image,
        description: p.description,
        createdAt: new Date(now - p.createdDaysAgo * day),
      })),
    ),
    db.execute(sql`
      insert into product_categories (product_id, category_id)
      select p.id, c.id
      from json_to_recordset(${JSON.stringify(productLinks)}::json) as l(slug text, category text)
      join products p on p.slug = l.slug
      join categories c on c.name = l.category`),
    db.insert(sellers).values(
      demo.sellers.map((s) => ({
        businessName: s.businessName,
        contactName: s.contactName,
        phone: s.phone,
      })),
    ),
    db.execute(sql`
      insert into product_sellers (seller_id, product_id)
      select s.id, p.id
      from json_to_recordset(${JSON.stringify(sellerLinks)}::json) as l(seller text, slug text)
      join sellers s on s.business_name = l.seller
      join products p on p.slug = l.slug`),
    db
      .insert(systemSettings)
      .values({ settingKey: 'admin_phone', settingValue: demo.adminPhone })
      .onConflictDoNothing(),
  ]);
  return true;
}
