import { sql } from 'drizzle-orm';
import { slugify } from '#core/slug.ts';
import type { Db } from './client.ts';
import { categories, products, sellers } from './schema/index.ts';
import * as demo from './seed-data.ts';

/** Seeds the demo catalogue into an empty shop, all in one transaction. Returns whether it seeded. */
export async function seedDemoCatalogue(db: Db): Promise<boolean> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(products);
  if ((existing?.n ?? 0) > 0) return false;

  const now = Date.now();
  const day = 86_400_000;
  const productLinks = demo.products.map((p) => ({ slug: slugify(p.name), category: p.category }));
  const variants = demo.products.flatMap((p) =>
    demo.seedVariants(p).map((v, position) => ({ slug: slugify(p.name), position, ...v })),
  );
  const pictures = demo.products.flatMap((p) =>
    demo.seedPictures(p).map((picture, position) => ({
      slug: slugify(p.name),
      position,
      url: picture.url,
      alt: picture.alt,
      colour: picture.colour,
      widths: demo.PICTURE_WIDTHS,
      ...demo.PICTURE_SIZE,
    })),
  );
  const sellerLinks = demo.sellers.flatMap((s) =>
    s.products.map((name) => ({ seller: s.businessName, slug: slugify(name) })),
  );

  await db.batch([
    // Each in the shop's order (issue 34: the desk moves them): by name, as the shop listed them.
    db
      .insert(categories)
      .values(
        [...demo.categories]
          .sort((a, b) => a.name.localeCompare(b.name, 'en'))
          .map((c, index) => ({ name: c.name, position: index + 1 })),
      ),
    db.insert(products).values(
      demo.products.map((p) => ({
        productName: p.name,
        slug: slugify(p.name),
        price: p.price,
        productImage: demo.seedPictures(p)[0]?.url ?? null,
        description: p.description,
        kind: demo.seedKind(p),
        options: demo.seedOptions(p),
        createdAt: new Date(now - p.createdDaysAgo * day),
      })),
    ),
    db.execute(sql`
      insert into product_variants (product_id, sku, options, label, compare_at_price, stock, position)
      select p.id, v.sku, v.options, v.label, v."compareAtPrice", v.stock, v.position
      from json_to_recordset(${JSON.stringify(variants)}::json)
        as v(slug text, sku text, options jsonb, label text, "compareAtPrice" int, stock int, position int)
      join products p on p.slug = v.slug
      order by p.id, v.position`),
    // The stock log opens with each seeded variant's count (the shop was empty: all are seeded).
    db.execute(sql`
      insert into stock_movements (variant_id, sku, change, stock_after, reason)
      select id, sku, stock, stock, 'counted' from product_variants order by id`),
    db.execute(sql`
      insert into product_images (product_id, url, alt, colour, widths, width, height, position)
      select p.id, i.url, i.alt, i.colour, array(select json_array_elements_text(i.widths)::int),
        i.width, i.height, i.position
      from json_to_recordset(${JSON.stringify(pictures)}::json)
        as i(slug text, url text, alt text, colour text, widths json, width int, height int, position int)
      join products p on p.slug = i.slug`),
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
  ]);
  return true;
}

/**
 * The demo seed once stored its admin number in system_settings, where it hid a configured
 * ADMIN_PHONE (issue 22). A local database seeded then forgets it, unless the owner set it on
 * the desk; the local shop's ADMIN_PHONE (scripts/start.ts) gives the demo number instead.
 */
export async function forgetSeededAdminPhone(db: Db): Promise<void> {
  await db.execute(sql`
    delete from system_settings
    where setting_key = 'admin_phone' and setting_value = ${demo.adminPhone}
      and not exists (
        select 1 from desk_records
        where action = 'settings.saved' and details -> 'changed' @> '["adminPhone"]'::jsonb)`);
}
