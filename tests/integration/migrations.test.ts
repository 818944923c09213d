// A migration must carry a shop that already trades: customers, orders, receipts, payments, carts
// and stock. Each test builds the database as it was before a migration (the committed
// migrations up to it), fills it with a working shop's data, applies the rest, and reads every
// row back. PGlite by default; PostgreSQL when TEST_DATABASE_URL is set.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/neon-http/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '#db/client.ts';
import { MIGRATIONS_FOLDER, migrateDatabase } from '#db/migrate.ts';
import { startLocalNeon } from '#local/neon/endpoint.ts';
import { pgliteBackend } from '#local/neon/pglite-backend.ts';
import { postgresBackend } from '#local/neon/postgres-backend.ts';
import type { SqlBackend } from '#local/neon/sql-backend.ts';
import { freshPostgresDatabase } from '../support/postgres.ts';

type Journal = { entries: { idx: number; tag: string }[] };

let backend: SqlBackend;
let endpoint: Awaited<ReturnType<typeof startLocalNeon>>;
let dropDatabase: (() => Promise<void>) | undefined;
let db: Db;
const folders: string[] = [];

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const fresh = await freshPostgresDatabase(serverUrl, 'migration');
    backend = postgresBackend(fresh.url);
    dropDatabase = fresh.drop;
  } else {
    backend = await pgliteBackend();
  }
  endpoint = await startLocalNeon({ backend });
  db = createDb(endpoint.databaseUrl);
});
afterAll(async () => {
  await endpoint?.close();
  await backend?.close();
  await dropDatabase?.();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

// The tests run in order on one database: each migration's test starts from the shop the one
// before it left, adds what the old shape could hold, and applies the next migration.

/** Applies the committed migrations before `tag` only: the database as the last release left it. */
async function migrateUpTo(tag: string) {
  const folder = await mkdtemp(join(tmpdir(), 'duuka-migrations-'));
  folders.push(folder);
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as Journal;
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(at, `migration ${tag} is committed`).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalFile, JSON.stringify(journal));
  await migrate(db, { migrationsFolder: folder });
}

const rows = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)).rows as T[];

describe('0010_money: bigint money and payments for card, bank transfer and cash', () => {
  it('keeps every customer, order, item, receipt, payment, cart and stock figure', async () => {
    await migrateUpTo('0010_money');

    // A shop as it traded before: a customer with a cart, a paid mobile-money order with its
    // receipt and payment, an expired payment of another order, and stock.
    await db.execute(sql`
      insert into "user" (id, name, email, email_verified)
      values ('nakato', 'Nakato Achieng', 'nakato@example.ug', true)
    `);
    await db.execute(sql`
      insert into profiles (id, email, full_name, phone, address)
      values ('nakato', 'nakato@example.ug', 'Nakato Achieng', '+256772000001', 'Plot 4, Kampala Road')
    `);
    await db.execute(sql`
      insert into products (product_name, slug, price, quantity)
      values ('Kitenge wrap dress', 'kitenge-wrap-dress', 145000, 7),
             ('Gold hoop earrings', 'gold-hoop-earrings', 2147483647, 1)
    `);
    const [dress, hoops] = await rows<{ id: number }>(sql`select id from products order by id`);
    await db.execute(sql`
      insert into cart_items (user_id, product_id, quantity) values ('nakato', ${hoops?.id}, 1)
    `);
    const paid = '5d4c1f0e-0000-4000-8000-000000000001';
    const waiting = '5d4c1f0e-0000-4000-8000-000000000002';
    await db.execute(sql`
      insert into orders (id, customer_id, customer_name, subtotal, delivery_fee, total,
                          payment_method, status)
      values (${paid}::uuid, 'nakato', 'Nakato Achieng', 290000, 5000, 295000, 'mobile_money', 'processing'),
             (${waiting}::uuid, 'nakato', 'Nakato Achieng', 145000, 5000, 150000, 'mobile_money', 'pending')
    `);
    await db.execute(sql`
      insert into order_items (order_id, product_id, name, price, quantity)
      values (${paid}::uuid, ${dress?.id}, 'Kitenge wrap dress', 145000, 2),
             (${waiting}::uuid, ${dress?.id}, 'Kitenge wrap dress', 145000, 1)
    `);
    await db.execute(sql`
      insert into receipts (receipt_number, order_id, customer_id, subtotal, delivery_fee,
                            total_amount, payment_method, transaction_id, receipt_data)
      values ('RCP-5D4C1F0E', ${paid}::uuid, 'nakato', 290000, 5000, 295000, 'Mobile Money',
              'MP240601.1234.A56789', '{"total": 295000}'::jsonb)
    `);
    await db.execute(sql`
      insert into payments (id, order_id, customer_id, network, phone, amount, status,
                            transaction_id, callback_secret, settled_at)
      values ('6e5d2a1b-0000-4000-8000-000000000001'::uuid, ${paid}::uuid, 'nakato', 'mtn',
              '+256772000001', 295000, 'successful', 'MP240601.1234.A56789', 'secret-1', now()),
             ('6e5d2a1b-0000-4000-8000-000000000002'::uuid, ${waiting}::uuid, 'nakato', 'airtel',
              '+256752000001', 150000, 'expired', null, 'secret-2', now())
    `);

    await migrateUpTo('0011_variants');

    expect(
      await rows(sql`
        select o.id, o.subtotal, o.delivery_fee, o.total, o.status, o.payment_method,
               (select json_agg(json_build_object('price', price, 'quantity', quantity))
                  from order_items i where i.order_id = o.id) as items
        from orders o order by o.total desc
      `),
    ).toEqual([
      {
        id: paid,
        subtotal: '290000',
        delivery_fee: '5000',
        total: '295000',
        status: 'processing',
        payment_method: 'mobile_money',
        items: [{ price: 145000, quantity: 2 }],
      },
      {
        id: waiting,
        subtotal: '145000',
        delivery_fee: '5000',
        total: '150000',
        status: 'pending',
        payment_method: 'mobile_money',
        items: [{ price: 145000, quantity: 1 }],
      },
    ]);
    expect(
      await rows(sql`
        select receipt_number, total_amount, transaction_id, receipt_data from receipts
      `),
    ).toEqual([
      {
        receipt_number: 'RCP-5D4C1F0E',
        total_amount: '295000',
        transaction_id: 'MP240601.1234.A56789',
        receipt_data: { total: 295000 },
      },
    ]);
    expect(
      await rows(sql`
        select network, phone, amount, status, transaction_id, provider_reference, refunded_at
        from payments order by amount desc
      `),
    ).toEqual([
      {
        network: 'mtn',
        phone: '+256772000001',
        amount: '295000',
        status: 'successful',
        transaction_id: 'MP240601.1234.A56789',
        provider_reference: null,
        refunded_at: null,
      },
      {
        network: 'airtel',
        phone: '+256752000001',
        amount: '150000',
        status: 'expired',
        transaction_id: null,
        provider_reference: null,
        refunded_at: null,
      },
    ]);
    expect(await rows(sql`select product_name, price, quantity from products order by id`)).toEqual(
      [
        { product_name: 'Kitenge wrap dress', price: 145000, quantity: 7 },
        { product_name: 'Gold hoop earrings', price: 2147483647, quantity: 1 },
      ],
    );
    expect(await rows(sql`select user_id, quantity from cart_items`)).toEqual([
      { user_id: 'nakato', quantity: 1 },
    ]);

    // What the new shape is for: a total past 2,147,483,647 UGX and a card payment.
    await db.execute(sql`
      update orders set subtotal = 3000000000, total = 3000005000 where id = ${waiting}::uuid
    `);
    await db.execute(sql`
      insert into payments (id, order_id, customer_id, network, amount, callback_secret,
                            provider_reference)
      values ('6e5d2a1b-0000-4000-8000-000000000003'::uuid, ${waiting}::uuid, 'nakato', 'pesapal',
              3000005000, 'secret-3', 'b945e4af-80a5-4ec1-8706-e03f8332fb04')
    `);
    expect(await rows(sql`select total from orders where id = ${waiting}::uuid`)).toEqual([
      { total: '3000005000' },
    ]);
    // The guards still hold: an unknown state or provider is refused by the database itself.
    await expect(
      db.execute(sql`update payments set status = 'lost' where network = 'pesapal'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update payments set network = 'paypal' where network = 'pesapal'`),
    ).rejects.toThrow();
  });
});

describe('0011_variants: every product becomes one variant carrying its stock', () => {
  it('keeps every order, item, receipt, cart and stock figure, and the totals', async () => {
    // The shop the 0010 test left (two products, a cart line, two orders and a receipt), plus a
    // sold-out piece with a picture, another cart and an item whose product was removed.
    await db.execute(sql`
      insert into products (product_name, slug, price, quantity, product_image, description)
      values ('Bark cloth clutch', 'bark-cloth-clutch', 89000, 0, '/images/clutch.svg', 'Bark cloth')
    `);
    await db.execute(sql`
      insert into "user" (id, name, email, email_verified)
      values ('okello', 'Okello Peter', 'okello@example.ug', true)
    `);
    await db.execute(sql`
      insert into cart_items (user_id, product_id, quantity)
      select 'okello', id, 2 from products where slug = 'kitenge-wrap-dress'
    `);
    await db.execute(sql`
      insert into order_items (order_id, product_id, name, price, quantity)
      select id, null, 'A piece no longer sold', 1000, 1 from orders where status = 'pending'
    `);
    const before = {
      products: await rows(sql`select id, product_name, price, quantity from products order by id`),
      carts: await rows(sql`select user_id, product_id, quantity from cart_items order by user_id`),
      items: await rows(
        sql`select order_id, product_id, name, price, quantity from order_items order by order_id, name`,
      ),
      totals: await rows(
        sql`select o.id, o.total, (select sum(price * quantity) from order_items i where i.order_id = o.id) as items
            from orders o order by o.id`,
      ),
      receipts: await rows(sql`select receipt_number, total_amount, receipt_data from receipts`),
    };

    await migrateUpTo('0013_desk');

    // Stock now lives in variants: one per product, with the product's id, carrying its stock.
    expect(
      await rows(sql`
        select p.id, p.product_name, p.price, v.stock as quantity
        from products p join product_variants v on v.product_id = p.id order by p.id`),
    ).toEqual(before.products);
    expect(
      await rows(sql`
        select count(*)::int as variants, count(*) filter (where v.id = v.product_id)::int as same_id,
               count(*) filter (where v.label = '' and v.options = '{}'::jsonb)::int as plain
        from product_variants v`),
    ).toEqual([{ variants: 3, same_id: 3, plain: 3 }]);
    expect(await rows(sql`select kind, options from products group by kind, options`)).toEqual([
      { kind: 'one-size', options: [] },
    ]);
    // Carts and order items point at the same pieces.
    expect(
      await rows(sql`
        select c.user_id, v.product_id, c.quantity
        from cart_items c join product_variants v on v.id = c.variant_id order by c.user_id`),
    ).toEqual(before.carts);
    expect(
      await rows(sql`
        select order_id, product_id, name, price, quantity from order_items
        where variant_id is not distinct from product_id order by order_id, name`),
    ).toEqual(before.items);
    expect(
      await rows(sql`
        select o.id, o.total, (select sum(price * quantity) from order_items i where i.order_id = o.id) as items
        from orders o order by o.id`),
    ).toEqual(before.totals);
    expect(
      await rows(sql`select receipt_number, total_amount, receipt_data from receipts`),
    ).toEqual(before.receipts);
    // The picture a product had is its first picture.
    expect(await rows(sql`select product_id, url, alt, position from product_images`)).toEqual([
      {
        product_id: Number((before.products[2] as { id: number }).id),
        url: '/images/clutch.svg',
        alt: 'Bark cloth clutch',
        position: 0,
      },
    ]);

    // New variants are numbered after the moved ones, and the stock guard still holds.
    await db.execute(sql`
      insert into product_variants (product_id, sku, options, label, stock)
      select id, 'DK-NEW-M', '{"Size":"M"}', 'M', 3 from products where slug = 'bark-cloth-clutch'
    `);
    expect(
      await rows(
        sql`select id > (select max(product_id) from product_variants) as after from product_variants where sku = 'DK-NEW-M'`,
      ),
    ).toEqual([{ after: true }]);
    await expect(
      db.execute(sql`update product_variants set stock = stock - 4 where sku = 'DK-NEW-M'`),
    ).rejects.toThrow();
  });
});

describe('0013_desk: products get a status, the stock log opens, roles are checked', () => {
  it('keeps every product on sale, every order and stock figure, and opens the log at the stock', async () => {
    // The shop as 0011/0012 left it (the test above), with a sized piece selling two sizes.
    await db.execute(sql`
      insert into product_variants (product_id, sku, options, label, stock)
      select id, 'DK-NEW-L', '{"Size":"L"}', 'L', 0 from products where slug = 'bark-cloth-clutch'
    `);
    const before = {
      products: await rows(sql`select id, slug, price from products order by id`),
      stock: await rows(sql`select id, sku, stock from product_variants order by id`),
      orders: await rows(sql`select id, total, status from orders order by id`),
      items: await rows(
        sql`select order_id, variant_id, name, quantity from order_items order by order_id, name`,
      ),
      users: await rows(sql`select id, email from "user" order by id`),
    };
    expect(before.orders.length).toBeGreaterThan(0);

    await migrateUpTo('0014_delivery');

    expect(await rows(sql`select id, slug, price from products order by id`)).toEqual(
      before.products,
    );
    expect(await rows(sql`select distinct status from products`)).toEqual([
      { status: 'published' },
    ]);
    expect(await rows(sql`select id, sku, stock from product_variants order by id`)).toEqual(
      before.stock,
    );
    expect(await rows(sql`select id, total, status from orders order by id`)).toEqual(
      before.orders,
    );
    expect(
      await rows(
        sql`select order_id, variant_id, name, quantity from order_items order by order_id, name`,
      ),
    ).toEqual(before.items);
    // Everyone is a customer until the desk or make-operator says otherwise.
    expect(
      await rows(sql`select id, email from "user" where role = 'customer' order by id`),
    ).toEqual(before.users);
    // One opening row per variant, at its stock: each variant's stock is the sum of its log.
    expect(
      await rows(sql`
        select variant_id as id, sku, sum(change)::int as stock, count(*)::int as rows,
               bool_and(reason = 'counted' and stock_after = change) as opening
        from stock_movements group by variant_id, sku order by variant_id`),
    ).toEqual(before.stock.map((v) => ({ ...(v as object), rows: 1, opening: true })));
    // The new guards hold.
    await expect(db.execute(sql`update products set status = 'hidden'`)).rejects.toThrow();
    await expect(db.execute(sql`update "user" set role = 'admin'`)).rejects.toThrow();
  });
});

describe('0014_delivery: delivery options, and every earlier order delivered in Kampala', () => {
  it('keeps every customer, order, total, receipt and stock figure; old orders become Kampala delivery', async () => {
    // The shop the 0013 test left (two customers, a processing and a pending order, a receipt,
    // stock), plus orders in every other status the old shape knew, one with its receipt.
    const ids = {
      shipped: '5d4c1f0e-0000-4000-8000-000000000003',
      delivered: '5d4c1f0e-0000-4000-8000-000000000004',
      completed: '5d4c1f0e-0000-4000-8000-000000000005',
      cancelled: '5d4c1f0e-0000-4000-8000-000000000006',
    };
    await db.execute(sql`
      insert into orders (id, customer_id, customer_name, subtotal, delivery_fee, total,
                          payment_method, status)
      values (${ids.shipped}::uuid, 'okello', 'Okello Peter', 89000, 5000, 94000, 'card', 'shipped'),
             (${ids.delivered}::uuid, 'nakato', 'Nakato Achieng', 145000, 5000, 150000,
              'cash_on_delivery', 'delivered'),
             (${ids.completed}::uuid, 'okello', 'Okello Peter', 290000, 5000, 295000,
              'bank_transfer', 'completed'),
             (${ids.cancelled}::uuid, 'nakato', 'Nakato Achieng', 145000, 5000, 150000,
              'mobile_money', 'cancelled')
    `);
    await db.execute(sql`
      insert into order_items (order_id, product_id, variant_id, name, price, quantity)
      select o.id, v.product_id, v.id, p.product_name, p.price, 1
      from orders o cross join lateral (
        select * from product_variants order by id limit 1
      ) v join products p on p.id = v.product_id
      where o.id in (${ids.shipped}::uuid, ${ids.delivered}::uuid, ${ids.completed}::uuid,
                     ${ids.cancelled}::uuid)
    `);
    await db.execute(sql`
      insert into receipts (receipt_number, order_id, customer_id, subtotal, delivery_fee,
                            total_amount, payment_method, transaction_id, receipt_data)
      values ('RCP-5D4C1F0E-5', ${ids.completed}::uuid, 'okello', 290000, 5000, 295000,
              'Bank Transfer', 'FT2406011234', '{"total": 295000}'::jsonb)
    `);
    const before = {
      users: await rows(sql`select id, email from "user" order by id`),
      orders: await rows(sql`
        select id, customer_id, subtotal, delivery_fee, total, status, payment_method
        from orders order by id`),
      items: await rows(sql`
        select order_id, variant_id, name, price, quantity from order_items
        order by order_id, name`),
      receipts: await rows(sql`
        select receipt_number, order_id, delivery_fee, total_amount, receipt_data
        from receipts order by receipt_number`),
      stock: await rows(sql`select id, sku, stock from product_variants order by id`),
    };
    expect(new Set(before.orders.map((o) => (o as { status: string }).status))).toEqual(
      new Set(['pending', 'processing', 'shipped', 'delivered', 'completed', 'cancelled']),
    );

    await migrateUpTo('0015_photo_sizes');

    expect(await rows(sql`select id, email from "user" order by id`)).toEqual(before.users);
    expect(
      await rows(sql`
        select id, customer_id, subtotal, delivery_fee, total, status, payment_method
        from orders order by id`),
    ).toEqual(before.orders);
    expect(
      await rows(sql`
        select order_id, variant_id, name, price, quantity from order_items
        order by order_id, name`),
    ).toEqual(before.items);
    expect(
      await rows(sql`
        select receipt_number, order_id, delivery_fee, total_amount, receipt_data
        from receipts order by receipt_number`),
    ).toEqual(before.receipts);
    expect(await rows(sql`select id, sku, stock from product_variants order by id`)).toEqual(
      before.stock,
    );
    // Every earlier order was Kampala delivery at the spec's fee, with no address of its own.
    expect(
      await rows(sql`
        select delivery_option_id, delivery_option, delivery_kind, delivery_area,
               delivery_landmark, delivery_phone, delivery_notes, rider_name, rider_phone,
               count(*)::int as orders, bool_and(total = subtotal + delivery_fee) as totals
        from orders
        group by 1, 2, 3, 4, 5, 6, 7, 8, 9`),
    ).toEqual([
      {
        delivery_option_id: 'kampala',
        delivery_option: 'Kampala delivery',
        delivery_kind: 'delivery',
        delivery_area: '',
        delivery_landmark: '',
        delivery_phone: null,
        delivery_notes: '',
        rider_name: null,
        rider_phone: null,
        orders: before.orders.length,
        totals: true,
      },
    ]);
    // The three defaults: the spec's Kampala fee, free pickup, upcountry without cash.
    expect(
      await rows(sql`
        select id, kind, name, fee, min_days, max_days, cash_on_delivery, active, position
        from delivery_options order by position`),
    ).toEqual([
      {
        id: 'kampala',
        kind: 'delivery',
        name: 'Kampala delivery',
        fee: 5000,
        min_days: 1,
        max_days: 3,
        cash_on_delivery: true,
        active: true,
        position: 1,
      },
      {
        id: 'pickup',
        kind: 'pickup',
        name: 'Pick up at the boutique',
        fee: 0,
        min_days: 0,
        max_days: 1,
        cash_on_delivery: true,
        active: true,
        position: 2,
      },
      {
        id: 'upcountry',
        kind: 'courier',
        name: 'Upcountry by bus courier',
        fee: 15000,
        min_days: 3,
        max_days: 5,
        cash_on_delivery: false,
        active: true,
        position: 3,
      },
    ]);
    // The free-delivery threshold is off: no setting row.
    expect(
      await rows(sql`select * from system_settings where setting_key = 'free_delivery_over'`),
    ).toEqual([]);
    // The new statuses are accepted; anything else is refused by the database itself.
    await db.execute(sql`
      update orders set status = 'ready_for_pickup' where id = ${ids.shipped}::uuid
    `);
    await db.execute(sql`
      update orders set status = 'out_for_delivery' where id = ${ids.delivered}::uuid
    `);
    await db.execute(sql`update orders set status = 'collected' where id = ${ids.shipped}::uuid`);
    await expect(
      db.execute(sql`update orders set status = 'teleported' where id = ${ids.shipped}::uuid`),
    ).rejects.toThrow();
    expect(await rows(sql`select status from orders where id = ${ids.shipped}::uuid`)).toEqual([
      { status: 'collected' },
    ]);
    await expect(
      db.execute(sql`update orders set delivery_kind = 'drone' where id = ${ids.shipped}::uuid`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update delivery_options set fee = -1 where id = 'kampala'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update delivery_options set kind = 'drone' where id = 'kampala'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update delivery_options set min_days = 4 where id = 'kampala'`),
    ).rejects.toThrow();
  });
});

describe('0015_photo_sizes: photos get their size; earlier ones have none', () => {
  it('keeps every customer, order, stock figure and photo; old photos have no size', async () => {
    // The shop the 0014 test left, with a product's photos as the old shape held them: a demo
    // picture and an uploaded one, no size.
    await db.execute(sql`
      insert into product_images (product_id, url, alt, colour, widths, position)
      select id, '/images/products/old/piece.jpg', 'Old piece', null, '{400,800,1200}', 0
      from products order by id limit 1
    `);
    await db.execute(sql`
      insert into product_images (product_id, url, alt, colour, widths, position)
      select id, '/photos/products/' || id || '/5d4c1f0e-0000-4000-8000-000000000010.jpg',
             'Old upload', 'Indigo', '{400,800,1200}', 1
      from products order by id limit 1
    `);
    const read = {
      users: sql`select id, email from "user" order by id`,
      orders: sql`select id, customer_id, subtotal, delivery_fee, total, status, payment_method
                  from orders order by id`,
      items: sql`select order_id, variant_id, name, price, quantity from order_items
                 order by order_id, name`,
      stock: sql`select id, sku, stock from product_variants order by id`,
      photos: sql`select id, product_id, url, alt, colour, widths, position
                  from product_images order by id`,
    };
    const before = {
      users: await rows(read.users),
      orders: await rows(read.orders),
      items: await rows(read.items),
      stock: await rows(read.stock),
      photos: await rows(read.photos),
    };
    expect(before.orders.length).toBeGreaterThan(0);
    expect(before.photos.length).toBeGreaterThanOrEqual(2);

    await migrateUpTo('0016_hidden_orders');

    for (const [name, query] of Object.entries(read)) {
      expect({ name, rows: await rows(query) }).toEqual({
        name,
        rows: before[name as keyof typeof before],
      });
    }
    expect(
      await rows(sql`select count(*)::int as photos from product_images
                     where width is null and height is null`),
    ).toEqual([{ photos: before.photos.length }]);
    // A new photo has both sides, above zero; a size is never half given.
    const [first] = before.photos as { id: number }[];
    await db.execute(sql`update product_images set width = 800, height = 1200
                         where id = ${first?.id}`);
    for (const [width, height] of [
      [800, null],
      [0, 1200],
      [800, -1],
    ]) {
      await expect(
        db.execute(sql`update product_images set width = ${width}, height = ${height}
                       where id = ${first?.id}`),
      ).rejects.toThrow();
    }
    expect(
      await rows(sql`select width, height from product_images where id = ${first?.id}`),
    ).toEqual([{ width: 800, height: 1200 }]);
  });
});

describe('0016_hidden_orders: an order a shopper deleted can be kept for the shop', () => {
  it('keeps every order, payment, receipt, text and stock figure; every order still shown to its shopper', async () => {
    // The shop the 0014 test left (orders in every status, receipts, a paid order, stock), with
    // the cash and the text of the delivered one: the kind of order a shopper's delete now keeps.
    const delivered = '5d4c1f0e-0000-4000-8000-000000000004';
    await db.execute(sql`
      insert into payments (id, order_id, customer_id, network, phone, amount, status,
                            transaction_id, callback_secret)
      select '5d4c1f0e-0000-4000-8000-0000000000a1'::uuid, o.id, o.customer_id,
             'cash_on_delivery', null, o.total, 'successful', 'RIDER-0001', 'migration-secret'
      from orders o where o.id = ${delivered}::uuid
    `);
    await db.execute(sql`
      insert into sms_notifications (order_id, recipient_phone, recipient_type, kind,
                                     message_content, status)
      values (${delivered}::uuid, '+256772000001', 'customer', 'delivered',
              'duuka: your order was delivered', 'sent')
    `);
    const read = async () => ({
      users: await rows(sql`select id, email from "user" order by id`),
      orders: await rows(sql`
        select id, customer_id, subtotal, delivery_fee, total, status, payment_method,
               delivery_option_id, created_at
        from orders order by id`),
      items: await rows(sql`
        select order_id, variant_id, name, price, quantity from order_items
        order by order_id, name`),
      receipts: await rows(sql`
        select receipt_number, order_id, total_amount, receipt_data from receipts
        order by receipt_number`),
      payments: await rows(sql`
        select id, order_id, amount, status, transaction_id from payments order by id`),
      texts: await rows(sql`
        select order_id, kind, message_content, status from sms_notifications
        order by order_id, kind`),
      stock: await rows(sql`select id, sku, stock from product_variants order by id`),
    });
    const before = await read();
    expect(before.orders.length).toBeGreaterThan(5);
    expect(before.payments.length).toBeGreaterThan(1);

    await migrateUpTo('0017_search_text');

    expect(await read()).toEqual(before);
    // No order was deleted by a shopper before: every one is still in its shopper's lists.
    expect(
      await rows(
        sql`select count(*)::int as hidden from orders where hidden_by_shopper_at is not null`,
      ),
    ).toEqual([{ hidden: 0 }]);
    await db.execute(
      sql`update orders set hidden_by_shopper_at = now() where id = ${delivered}::uuid`,
    );
    expect(
      await rows(
        sql`select count(*)::int as hidden from orders where hidden_by_shopper_at is not null`,
      ),
    ).toEqual([{ hidden: 1 }]);
  });
});

describe('0017_search_text: the search reads one kept, indexed text per product', () => {
  it('keeps every product, variant, order and stock figure, and fills every product’s text', async () => {
    // The shop the 0014 test left, plus a piece in sizes and colours with a description.
    await db.execute(sql`
      insert into products (product_name, slug, price, description, kind, options)
      values ('Nakato Wrap', 'nakato-wrap', 145000, 'Soft COTTON, tied at the waist.', 'clothes',
              '[{"name":"Size","values":["S","M"]},{"name":"Colour","values":["Red","Indigo"]}]')
    `);
    await db.execute(sql`
      insert into product_variants (product_id, sku, options, label, stock)
      select id, 'NW-M-RED', '{"Size":"M","Colour":"Red"}', 'M · Red', 3
      from products where slug = 'nakato-wrap'
    `);
    const before = {
      products: await rows(sql`
        select id, slug, product_name, price, description, options, status from products
        order by id`),
      stock: await rows(sql`select id, sku, stock from product_variants order by id`),
      orders: await rows(sql`select id, total, status from orders order by id`),
      items: await rows(sql`
        select order_id, variant_id, name, price, quantity from order_items
        order by order_id, name`),
    };
    expect(before.products.length).toBeGreaterThan(1);

    await migrateUpTo('0018_order_book');

    expect(
      await rows(sql`
        select id, slug, product_name, price, description, options, status from products
        order by id`),
    ).toEqual(before.products);
    expect(await rows(sql`select id, sku, stock from product_variants order by id`)).toEqual(
      before.stock,
    );
    expect(await rows(sql`select id, total, status from orders order by id`)).toEqual(
      before.orders,
    );
    expect(
      await rows(sql`
        select order_id, variant_id, name, price, quantity from order_items
        order by order_id, name`),
    ).toEqual(before.items);
    // Every product's text: its name, description and option values, lower-cased.
    const texts = await rows<{ slug: string; search_text: string }>(
      sql`select slug, search_text from products order by id`,
    );
    expect(texts).toHaveLength(before.products.length);
    for (const { search_text } of texts) expect(search_text).toBe(search_text.toLowerCase());
    const wrap = texts.find((t) => t.slug === 'nakato-wrap')?.search_text ?? '';
    for (const word of ['nakato wrap', 'soft cotton', '"s"', '"m"', '"red"', '"indigo"']) {
      expect(wrap).toContain(word);
    }
    // Kept by Postgres from now on: an edit changes it, and it is searched through its index.
    await db.execute(
      sql`update products set description = 'Now in LINEN' where slug = 'nakato-wrap'`,
    );
    expect(
      await rows(sql`select slug from products where search_text like '%now in linen%'`),
    ).toEqual([{ slug: 'nakato-wrap' }]);
    expect(
      await rows(sql`select indexname from pg_indexes
                     where tablename = 'products' and indexname like '%trgm%' order by 1`),
    ).toEqual([{ indexname: 'products_name_trgm_idx' }, { indexname: 'products_search_trgm_idx' }]);
  });
});

describe('0018_order_book: the desk searches, pages and enters orders', () => {
  it('keeps every order, payment, record and category; fills what the desk searches and calls', async () => {
    // The shop the tests before left (two customers with orders in every status, payments,
    // receipts), plus a desk record and a category.
    await db.execute(sql`
      insert into desk_records (actor_email, action, subject, details)
      values ('owner@example.ug', 'product.saved', 'Nakato Wrap', '{}')
    `);
    await db.execute(sql`insert into categories (name) values ('Tops'), ('Dresses')`);
    const read = async () => ({
      orders: await rows(sql`
        select id, customer_id, customer_name, subtotal, delivery_fee, discount, total, status,
               payment_method, delivery_phone, created_at
        from orders order by id`),
      items: await rows(sql`
        select order_id, variant_id, name, price, quantity from order_items order by order_id, name`),
      payments: await rows(
        sql`select id, order_id, amount, status, network from payments order by id`,
      ),
      receipts: await rows(sql`select receipt_number, total_amount from receipts order by 1`),
      records: await rows(
        sql`select id, actor_email, action, subject from desk_records order by id`,
      ),
      stock: await rows(sql`select id, sku, stock from product_variants order by id`),
    });
    const before = await read();
    expect(before.orders.length).toBeGreaterThan(5);

    await migrateUpTo('0019_offers');

    expect(await read()).toEqual(before);
    // Every order came from the site; its customer's phone and email are the profile's.
    const orders = await rows<{
      customer_id: string | null;
      source: string;
      customer_phone: string | null;
      customer_email: string | null;
      search_text: string;
      id: string;
    }>(
      sql`select id, customer_id, source, customer_phone, customer_email, search_text from orders`,
    );
    const nakato = orders.filter((o) => o.customer_id === 'nakato');
    expect(nakato.length).toBeGreaterThan(1);
    for (const order of orders) expect(order.source).toBe('web');
    for (const order of nakato) {
      expect(order.customer_phone).toBe('+256772000001');
      expect(order.customer_email).toBe('nakato@example.ug');
      // Both 8-character references, the phone and the email are in what the search reads.
      for (const part of [order.id.slice(0, 8), order.id.slice(-8), '772000001', 'nakato@']) {
        expect(order.search_text).toContain(part);
      }
    }
    // The categories keep the order they were shown in (by name); the hero its three slides.
    expect(await rows(sql`select name, position from categories order by position`)).toEqual(
      (await rows<{ name: string }>(sql`select name from categories order by name`)).map(
        ({ name }, at) => ({ name, position: at + 1 }),
      ),
    );
    expect(await rows(sql`select title, link_url from home_slides order by position`)).toEqual([
      { title: 'New Collection', link_url: '/shop' },
      { title: 'Premium Quality', link_url: '/shop' },
      { title: 'Limited Edition', link_url: '/shop' },
    ]);
    // A counter sale is an order the shop can now hold; another source is refused.
    await expect(
      db.execute(sql`update orders set source = 'instagram' where customer_id = 'nakato'`),
    ).rejects.toThrow();
  });
});

describe('0019_offers: offers, gift cards and credit on a shop with orders', () => {
  it('keeps every figure, leaves receipts at their 0 discount, and makes the welcome code real', async () => {
    const read = async () => ({
      orders: await rows(sql`
        select id, customer_id, subtotal, delivery_fee, discount, total, status, payment_method
        from orders order by id`),
      items: await rows(sql`
        select order_id, variant_id, name, price, quantity from order_items order by order_id, name`),
      payments: await rows(sql`select id, order_id, amount, status from payments order by id`),
      receipts: await rows(sql`
        select receipt_number, subtotal, discount_amount, total_amount,
               receipt_data->'discount' as discount
        from receipts order by 1`),
      stock: await rows(sql`select id, sku, stock from product_variants order by id`),
      texts: await rows(sql`select id, kind, status from sms_notifications order by id`),
    });
    const before = await read();
    expect(before.orders.length).toBeGreaterThan(5);
    expect(before.receipts.length).toBeGreaterThan(0);

    await migrateUpTo('0020_returns');

    expect(await read()).toEqual(before);
    for (const receipt of before.receipts as { discount_amount: unknown; discount: unknown }[]) {
      expect(Number(receipt.discount_amount)).toBe(0);
      expect(receipt.discount ?? 0).toBe(0);
    }
    // No order spent credit; every order's total is still its items and fee less its discount.
    expect(
      await rows(sql`select count(*)::int as n from orders
                     where credit <> 0 or total <> subtotal + delivery_fee - discount`),
    ).toEqual([{ n: 0 }]);
    expect(await rows(sql`select count(*)::int as n from orders`)).toEqual([
      { n: before.orders.length },
    ]);
    expect(
      await rows(sql`select code, kind, value, per_shopper_limit, first_order_only, used
                     from promotions`),
    ).toEqual([
      {
        code: 'KARIBU10',
        kind: 'percent',
        value: 10,
        per_shopper_limit: 1,
        first_order_only: true,
        used: 0,
      },
    ]);
    // The ledger refuses a change to an entry, and a cancelled order gives its use back once.
    const [order] = await rows<{ id: string }>(
      sql`select id from orders where status = 'pending' order by id limit 1`,
    );
    if (!order) throw new Error('the shop before has a pending order');
    await db.execute(sql`
      insert into order_offers (order_id, promotion_id, code, name, amount, shopper, use_number)
      select ${order.id}::uuid, id, code, name, 1000, 'nakato', 1 from promotions`);
    await db.execute(sql`update promotions set used = 1`);
    await db.execute(
      sql`insert into value_accounts (kind, user_id, balance) values ('store_credit', 'nakato', 4000)`,
    );
    await db.execute(sql`
      insert into value_entries (account_id, amount, balance_after, reason)
      select id, 5000, 5000, 'granted' from value_accounts`);
    await db.execute(sql`
      insert into value_entries (account_id, amount, balance_after, reason, order_id)
      select id, -1000, 4000, 'spent', ${order.id}::uuid from value_accounts`);
    await expect(db.execute(sql`update value_entries set amount = 1`)).rejects.toThrow();
    await expect(db.execute(sql`delete from value_entries`)).rejects.toThrow();
    await db.execute(sql`update orders set status = 'cancelled' where id = ${order.id}::uuid`);
    await db.execute(sql`delete from orders where id = ${order.id}::uuid`);
    expect(await rows(sql`select used from promotions`)).toEqual([{ used: 0 }]);
    expect(await rows(sql`select balance::int from value_accounts`)).toEqual([{ balance: 5000 }]);
    expect(
      await rows(
        sql`select amount::int, balance_after::int, reason from value_entries order by id`,
      ),
    ).toEqual([
      { amount: 5000, balance_after: 5000, reason: 'granted' },
      { amount: -1000, balance_after: 4000, reason: 'spent' },
      { amount: 1000, balance_after: 5000, reason: 'given_back' },
    ]);
  });
});

describe('0020_returns: returns, exchanges and refunds on a shop that has sold', () => {
  it('keeps every figure, dates each delivered order, and makes hand-recorded refunds refunds', async () => {
    // The shop before, plus what 0020 reads: a delivered order the desk moved (its record), a
    // delivered order with no record, a refund due and one the desk recorded by hand.
    const delivered = await rows<{ id: string; created_at: string }>(sql`
      update orders set status = 'delivered'
      where id in (select id from orders where status not in ('cancelled', 'delivered')
                   order by id limit 2)
      returning id, created_at`);
    expect(delivered).toHaveLength(2);
    const [moved, unrecorded] = delivered as [
      { id: string; created_at: string },
      { id: string; created_at: string },
    ];
    await db.execute(sql`
      insert into desk_records (actor_email, action, subject, details, order_id, created_at)
      values ('owner@example.ug', 'order.status', 'Order', '{"from":"shipped","to":"delivered"}',
              ${moved.id}::uuid, '2026-11-20T10:00:00Z')`);
    await db.execute(sql`insert into "user" (id, name, email, email_verified, role)
      values ('owner-0020', 'Owner', 'owner0020@example.ug', true, 'owner')
      on conflict do nothing`);
    const settled = await rows<{ id: string; status: string }>(sql`
      select id, status from payments where status = 'successful' order by id limit 2`);
    expect(settled).toHaveLength(2);
    const [due, refunded] = settled as unknown as [{ id: string }, { id: string }];
    await db.execute(sql`update payments set status = 'refund_due' where id = ${due.id}::uuid`);
    await db.execute(sql`update payments set status = 'refunded', refund_reference = 'MP2611.1',
        refunded_at = '2026-11-21T09:00:00Z', confirmed_by = 'owner-0020'
      where id = ${refunded.id}::uuid`);
    const read = async () => ({
      orders: await rows(sql`
        select id, customer_id, subtotal, delivery_fee, discount, credit, total, status
        from orders order by id`),
      items: await rows(sql`
        select id, order_id, variant_id, price, quantity from order_items order by id`),
      payments: await rows(sql`
        select id, order_id, amount, status, refund_reference from payments order by id`),
      receipts: await rows(sql`select receipt_number, total_amount from receipts order by 1`),
      stock: await rows(sql`select id, sku, stock from product_variants order by id`),
      movements: await rows(
        sql`select id, change, stock_after, reason from stock_movements order by id`,
      ),
    });
    const before = await read();

    await migrateUpTo('0021_whatsapp');

    expect(await read()).toEqual(before);
    // Nothing is in a return yet; every piece can be returned until the desk says otherwise.
    expect(await rows(sql`select count(*)::int as n from order_items where returned <> 0`)).toEqual(
      [{ n: 0 }],
    );
    expect(await rows(sql`select count(*)::int as n from products where not returnable`)).toEqual([
      { n: 0 },
    ]);
    // The windows count from the desk's move, else from when the order was placed.
    const dates = await rows<{ id: string; delivered_at: string | null; status: string }>(
      sql`select id, status, delivered_at::text from orders`,
    );
    for (const order of dates) {
      const done = ['delivered', 'collected', 'completed'].includes(order.status);
      expect(order.delivered_at === null, order.id).toBe(!done);
    }
    const at = (id: string) => rows(sql`select delivered_at from orders where id = ${id}::uuid`);
    expect(new Date(((await at(moved.id))[0] as { delivered_at: string }).delivered_at)).toEqual(
      new Date('2026-11-20T10:00:00Z'),
    );
    expect(
      new Date(((await at(unrecorded.id))[0] as { delivered_at: string }).delivered_at),
    ).toEqual(new Date(unrecorded.created_at));
    // The refund recorded by hand is a succeeded refund with its reference; the one due waits.
    expect(
      await rows(sql`select payment_id, method, amount::int, status, reference, actor_email
                     from refunds`),
    ).toEqual([
      {
        payment_id: refunded.id,
        method: expect.any(String),
        amount: expect.any(Number),
        status: 'succeeded',
        reference: 'MP2611.1',
        actor_email: 'owner0020@example.ug',
      },
    ]);
    // A second live refund for that payment is refused; an order moved to delivered is dated.
    await expect(
      db.execute(sql`insert into refunds (payment_id, method, amount)
                     values (${refunded.id}::uuid, 'mtn', 1000)`),
    ).rejects.toThrow();
    const [pending] = await rows<{ id: string }>(
      sql`select id from orders where delivered_at is null order by id limit 1`,
    );
    if (!pending) throw new Error('the shop before has an order not delivered');
    await db.execute(sql`update orders set status = 'collected' where id = ${pending.id}::uuid`);
    expect((await at(pending.id))[0]).toEqual({ delivered_at: expect.anything() });
    // A piece is never in returns more times than it was bought.
    await expect(
      db.execute(sql`update order_items set returned = quantity + 1
                     where id = (select id from order_items limit 1)`),
    ).rejects.toThrow();
  });
});

describe('0021_whatsapp: the order updates channel on a shop that has texted', () => {
  it('keeps every text and setting, every shopper on SMS, and refuses a channel it does not know', async () => {
    // The shop before: its texts (one sent, one failed) and its shoppers' settings.
    const [order] = await rows<{ id: string }>(sql`select id from orders order by id limit 1`);
    if (!order) throw new Error('the shop before has orders');
    await db.execute(sql`
      insert into sms_notifications (order_id, recipient_phone, recipient_type, kind,
        message_content, status, sent_at)
      values (${order.id}::uuid, '+256700000021', 'customer', 'shipped', 'duuka: on its way',
              'sent', '2026-11-22T08:00:00Z'),
             (${order.id}::uuid, '+256700000021', 'customer', 'delivered', 'duuka: delivered',
              'failed', null)
      on conflict do nothing`);
    const [shopper] = await rows<{ id: string }>(sql`select id from "user" order by id limit 1`);
    if (!shopper) throw new Error('the shop before has accounts');
    await db.execute(sql`insert into user_settings (user_id, order_updates)
      values (${shopper.id}, false) on conflict (user_id) do update set order_updates = false`);
    const read = async () => ({
      texts: await rows(sql`
        select id, order_id, recipient_phone, kind, message_content, status, sent_at
        from sms_notifications order by id`),
      settings: await rows(sql`
        select user_id, order_updates, marketing_notifications from user_settings order by 1`),
    });
    const before = await read();
    expect(before.texts.length).toBeGreaterThanOrEqual(2);

    await migrateUpTo('0022_less_data');

    expect(await read()).toEqual(before);
    expect(await rows(sql`select distinct channel from sms_notifications`)).toEqual([
      { channel: 'sms' },
    ]);
    expect(await rows(sql`select distinct notification_channel from user_settings`)).toEqual([
      { notification_channel: 'sms' },
    ]);
    await expect(
      db.execute(sql`update user_settings set notification_channel = 'telegram'
                     where user_id = ${shopper.id}`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update sms_notifications set whatsapp_status = 'seen'
                     where id = (select id from sms_notifications limit 1)`),
    ).rejects.toThrow();
    // An inbound message is kept once by Meta's id.
    const inbound = sql`insert into whatsapp_messages (wamid, phone, direction, type, body, status)
      values ('wamid.0021', '+256700000021', 'in', 'text', 'Hello', 'received')`;
    await db.execute(inbound);
    await expect(db.execute(inbound)).rejects.toThrow();
  });
});

describe('0022_less_data: "Use less data" on a shop whose shoppers have settings', () => {
  it('keeps every setting, leaves every shopper on full pictures, and refuses an empty one', async () => {
    // The shop before: shoppers with settings, one in dark mode with WhatsApp updates.
    const shoppers = await rows<{ id: string }>(sql`select id from "user" order by id`);
    if (shoppers.length === 0) throw new Error('the shop before has accounts');
    for (const shopper of shoppers) {
      await db.execute(sql`insert into user_settings (user_id) values (${shopper.id})
        on conflict (user_id) do nothing`);
    }
    const [first] = shoppers;
    await db.execute(sql`update user_settings set dark_mode = true, notification_channel = 'whatsapp'
      where user_id = ${first?.id}`);
    const read = () => rows(sql`select * from user_settings order by user_id`);
    const before = await read();

    await migrateUpTo('0023_search');

    const after = await rows<Record<string, unknown>>(
      sql`select * from user_settings order by user_id`,
    );
    expect(after.map(({ less_data: _, ...rest }) => rest)).toEqual(before);
    expect(after.map((row) => row.less_data)).toEqual(before.map(() => false));
    // A shopper turns it on; a setting that is not on or off is refused.
    await db.execute(sql`update user_settings set less_data = true where user_id = ${first?.id}`);
    expect(
      await rows(sql`select less_data from user_settings where user_id = ${first?.id}`),
    ).toEqual([{ less_data: true }]);
    await expect(
      db.execute(sql`update user_settings set less_data = null where user_id = ${first?.id}`),
    ).rejects.toThrow();
  });
});

describe('0023_search: a size and a colour together, and the pieces on sale, read from indexes', () => {
  it('keeps every piece and variant, and a filtered listing finds the same pieces', async () => {
    // The shop before: a piece in sizes and colours, some sold out.
    await db.execute(sql`
      insert into products (product_name, slug, price, kind, options)
      values ('Achieng Shift', 'achieng-shift', 98000, 'clothes',
              '[{"name":"Size","values":["S","M"]},{"name":"Colour","values":["Ochre","Sand"]}]')`);
    await db.execute(sql`
      insert into product_variants (product_id, sku, options, label, stock)
      select p.id, 'AS-' || v.size || '-' || v.colour,
        jsonb_build_object('Size', v.size, 'Colour', v.colour), v.size || ' · ' || v.colour, v.stock
      from products p,
        (values ('S', 'Ochre', 0), ('M', 'Ochre', 4), ('M', 'Sand', 2)) as v(size, colour, stock)
      where p.slug = 'achieng-shift'`);
    const read = async () => ({
      products: await rows(sql`select id, slug, price, status from products order by id`),
      variants: await rows(sql`
        select id, product_id, sku, size, colour, stock from product_variants order by id`),
    });
    const inOchreM = sql`
      select p.slug from products p
      where exists (select 1 from product_variants v where v.product_id = p.id
                    and v.size = 'M' and v.colour = 'Ochre' and v.stock > 0)
      order by p.id`;
    const before = await read();
    const foundBefore = await rows(inOchreM);
    expect(foundBefore).toContainEqual({ slug: 'achieng-shift' });

    await migrateDatabase(db);

    expect(await read()).toEqual(before);
    expect(await rows(inOchreM)).toEqual(foundBefore);
    const indexes = await rows<{ indexname: string; indexdef: string }>(sql`
      select indexname, indexdef from pg_indexes
      where indexname in ('product_variants_size_colour_idx', 'products_on_sale_idx',
                          'products_on_sale_price_idx')
      order by 1`);
    expect(indexes.map((i) => i.indexdef)).toEqual([
      expect.stringMatching(/\(size, colour, product_id, stock\)$/),
      expect.stringMatching(/\(id\) WHERE \(status = 'published'::text\)$/),
      expect.stringMatching(/\(price, id\) WHERE \(status = 'published'::text\)$/),
    ]);
  });
});
