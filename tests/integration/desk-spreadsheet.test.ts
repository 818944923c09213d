// The catalogue as a spreadsheet (issue 22): export, edit, import, export again is lossless; a
// bad row anywhere refuses the whole file, named by its row, with nothing changed; only the
// desk may download or import; an import is recorded, and happens once per request key.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv, writeCsv } from '#core/desk-csv.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { SPREADSHEET_COLUMNS, SPREADSHEET_TEXT } from '#core/desk-spreadsheet.ts';
import type { Auth } from '#server/auth.ts';
import { productsCsv } from '#server/http/desk-files.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { type DeskMember, deskCaller, deskMember, sentTwice } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { mutateOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let staff: DeskMember;
let customer: Awaited<ReturnType<typeof signedInShopper>>;

const column = (name: (typeof SPREADSHEET_COLUMNS)[number]) => SPREADSHEET_COLUMNS.indexOf(name);

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  staff = await deskMember(test.db, auth, 'staff');
  customer = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  await test.db.execute(sql`insert into categories (name) values ('Dresses'), ('Tops')
                            on conflict (name) do nothing`);
  const [dresses] = (
    await test.db.execute<{ id: number }>(sql`select id from categories where name = 'Dresses'`)
  ).rows;
  // Made as the desk makes them (desk.saveProduct), so their slugs are the shop's own.
  const desk = deskCaller(test.db, staff);
  const tag = randomUUID().slice(0, 6);
  await desk.saveProduct({
    name: 'Ankara Wrap Dress',
    description: 'Wax print, fully lined.',
    categoryIds: [Number(dresses?.id)],
    status: 'published',
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: ['S', 'M', 'L'].map((size, i) => ({
      options: { Size: size },
      sku: `AWD-${size}-${tag}`,
      price: 120_000,
      stock: [2, 0, 4][i] ?? 0,
    })),
  });
  for (const [name, status] of [
    ['=Sale', 'draft'],
    ['Raffia Hat', 'archived'],
  ] as const) {
    await desk.saveProduct({
      name,
      description: '',
      categoryIds: [],
      status,
      options: [],
      variants: [{ options: {}, sku: `ONE-${randomUUID().slice(0, 8)}`, price: 5_000, stock: 1 }],
    });
  }
});
afterAll(async () => {
  await test?.close();
});

/** The download as the browser gets it: the response and the file's rows. */
async function download(cookie?: string) {
  const headers = new Headers(cookie ? { cookie } : {});
  const response = await productsCsv(
    { db: test.db, auth, ownerEmails: [] },
    new Request('http://shop.test/api/desk/products.csv', { headers }),
    new Date('2026-11-25T22:30:00Z'),
  );
  return response;
}
async function exported(): Promise<{ text: string; rows: string[][] }> {
  const response = await download(staff.cookie);
  expect(response.status).toBe(200);
  const text = await response.text();
  const read = readCsv(text);
  if (!read.ok) throw new Error(read.problem);
  return { text, rows: read.rows };
}
const asFile = (rows: string[][]) => `\uFEFF${writeCsv(rows)}`;

/** What an import could change: every product, variant, category link, stock movement, record. */
async function snapshot() {
  const { rows } = await test.db.execute(sql`
    select (select json_agg(p order by p.id) from products p) as products,
           (select json_agg(v order by v.id) from product_variants v) as variants,
           (select json_agg(pc order by pc.product_id, pc.category_id)
              from product_categories pc) as categories,
           (select count(*) from stock_movements) as movements,
           (select count(*) from desk_records) as records`);
  return rows[0];
}

describe('the download', () => {
  it('is the whole catalogue, one row per variant, for the desk only', async () => {
    expect((await download()).status).toBe(401);
    const refused = await download(customer.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: DESK_TEXT.deskOnly });

    const response = await download(staff.cookie);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="duuka-products-2026-11-26.csv"',
    );
    expect(response.headers.get('cache-control')).toContain('no-store');
    // Read as bytes: Response.text() would drop the byte order mark.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith(`\uFEFF${SPREADSHEET_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');

    const { rows } = await exported();
    const names = rows.slice(1).map((row) => row[column('name')]);
    expect(names.filter((name) => name === 'Ankara Wrap Dress')).toHaveLength(3);
    // Drafts and archived pieces too; the formula-looking name guarded.
    expect(names).toContain("'=Sale");
    const hat = rows.find((row) => row[column('name')] === 'Raffia Hat');
    expect(hat?.[column('status')]).toBe('archived');
  });
});

describe('the import', () => {
  it('round-trips: export, edit, import, export again gives the edited file', async () => {
    const { rows } = await exported();
    const edited = rows.map((row) => [...row]);
    for (const row of edited.slice(1)) {
      if (row[column('name')] !== 'Ankara Wrap Dress') continue;
      row[column('price')] = '135000';
      row[column('stock')] = String(Number(row[column('stock')]) + 5);
      row[column('description')] = 'Wax print, "fully" lined,\r\nwith pockets.';
    }
    // A piece sells between the download and the import: the import keeps the sale, and moves
    // the stock by the owner's +5 only (stock_at_export).
    const sold = edited.find(
      (row) => row[column('name')] === 'Ankara Wrap Dress' && Number(row[column('stock')]) > 5,
    ) as string[];
    await test.db.execute(sql`update product_variants set stock = stock - 1
                              where id = ${Number(sold[column('variant_id')])}`);
    const newRows = ['S', 'M'].map((size, i) => {
      const row = SPREADSHEET_COLUMNS.map(() => '');
      row[column('name')] = 'Kitenge Top';
      row[column('status')] = 'published';
      row[column('kind')] = 'clothes';
      row[column('categories')] = 'tops';
      row[column('description')] = 'Cotton, hand-dyed.';
      row[column('sku')] = `KT-${size}-${randomUUID().slice(0, 6)}`;
      row[column('size')] = size;
      row[column('price')] = '45000';
      row[column('compare_at_price')] = i === 0 ? '55000' : '';
      row[column('stock')] = String(3 + i);
      return row;
    });
    edited.push(...newRows);

    // A shopper waits for the sold-out M: the import restocks it.
    const soldOut = rows.find(
      (row) => row[column('name')] === 'Ankara Wrap Dress' && row[column('size')] === 'M',
    );
    expect(soldOut?.[column('stock')]).toBe('0');
    await test.db.execute(sql`insert into back_in_stock_requests (user_id, variant_id)
                              values (${customer.id}, ${Number(soldOut?.[column('variant_id')])})`);

    const products = new Set(rows.slice(1).map((row) => row[column('product_id')])).size;
    const answer = await deskCaller(test.db, staff).importProducts({
      csv: asFile(edited),
      requestKey: randomUUID(),
    });
    // Only what changed is reported, and listed: one product edited, one new; the rest as they were.
    const wrapRows = rows.filter((row) => row[column('name')] === 'Ankara Wrap Dress');
    const price = (row: string[]) => Number(row[column('price')]).toLocaleString('en-US');
    expect(answer).toEqual({
      created: 1,
      updated: 1,
      unchanged: products - 1,
      variants: edited.length - 1,
      changed: [
        {
          product: 'Ankara Wrap Dress',
          created: false,
          changes: [
            'description',
            ...wrapRows.flatMap((row) => {
              const [sku, stock] = [row[column('sku')], Number(row[column('stock')])];
              return [
                ...(price(row) === '135,000' ? [] : [`price of ${sku} ${price(row)} → 135,000`]),
                `stock of ${sku} ${stock} → ${stock + 5}`,
              ];
            }),
          ],
        },
        {
          product: 'Kitenge Top',
          created: true,
          changes: [`new, 2 variants: ${newRows.map((row) => row[column('sku')]).join(', ')}`],
        },
      ],
    });
    expect(SPREADSHEET_TEXT.summary(answer)).toBe(
      `1 product created, 1 updated, ${products - 1} unchanged`,
    );

    const again = await exported();
    // The new product's ids and slug are the shop's to make: read them, then compare whole.
    for (const row of newRows) {
      const made = again.rows.find((r) => r[column('sku')] === row[column('sku')]);
      expect(made).toBeDefined();
      for (const name of ['product_id', 'slug', 'variant_id'] as const) {
        row[column(name)] = made?.[column(name)] ?? '';
      }
      row[column('categories')] = 'Tops';
    }
    const bySku = (table: string[][]) =>
      [...table.slice(1)].sort((a, b) =>
        String(a[column('sku')]).localeCompare(String(b[column('sku')])),
      );
    // The sale is kept, and the next download's stock_at_export is the stock now.
    sold[column('stock')] = String(Number(sold[column('stock')]) - 1);
    for (const row of edited.slice(1)) row[column('stock_at_export')] = row[column('stock')] ?? '';
    expect(again.rows[0]).toEqual(edited[0]);
    expect(bySku(again.rows)).toEqual(bySku(edited));

    // Their text is written after the answer (here: no phone on file, so it is recorded failed).
    await expect
      .poll(async () => {
        const texts = await test.db.execute(sql`select 1 from sms_notifications
          where kind = 'back-in-stock' and message_content like '%Ankara Wrap Dress%'`);
        return texts.rows.length;
      })
      .toBe(1);
    const waiting = await test.db.execute(
      sql`select 1 from back_in_stock_requests where user_id = ${customer.id}`,
    );
    expect(waiting.rows).toHaveLength(0);
  });

  it('changes nothing, and writes nothing, for a file as it was downloaded', async () => {
    const { rows } = await exported();
    const products = new Set(rows.slice(1).map((row) => row[column('product_id')])).size;
    const before = await snapshot();
    const requestKey = randomUUID();
    const answer = await deskCaller(test.db, staff).importProducts({
      csv: asFile(rows),
      requestKey,
    });
    expect(answer).toEqual({
      created: 0,
      updated: 0,
      unchanged: products,
      variants: rows.length - 1,
      changed: [],
    });
    expect(SPREADSHEET_TEXT.summary(answer)).toBe(
      `Nothing changed: the file’s ${products} products match the catalogue.`,
    );
    expect(await snapshot()).toEqual(before);
    const records = await test.db.execute(
      sql`select 1 from desk_records where request_key = ${requestKey}`,
    );
    expect(records.rows).toEqual([]);
  });

  it('refuses the whole file for one bad row, naming it, and changes nothing', async () => {
    const { rows } = await exported();
    expect(rows.length).toBeGreaterThan(6);
    const edited = rows.map((row) => [...row]);
    for (const row of edited.slice(1)) row[column('stock')] = '7';
    (edited[6] as string[])[column('price')] = '12.50';
    const before = await snapshot();
    await expect(
      deskCaller(test.db, staff).importProducts({ csv: asFile(edited), requestKey: randomUUID() }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Row 7: price must be a whole number of shillings.',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('names the row of a SKU another product has, and saves none of the file', async () => {
    const { rows } = await exported();
    // A product left out of the file keeps its SKUs: a new row may not take one.
    const [, first] = rows as [string[], string[]];
    const taken = first[column('sku')] as string;
    const edited = rows
      .filter((row, i) => i === 0 || row[column('product_id')] !== first[column('product_id')])
      .map((row) => [...row]);
    for (const row of edited.slice(1)) row[column('stock')] = '9';
    edited.push([
      '',
      'Copied Top',
      '',
      'draft',
      'clothes',
      '',
      '',
      '',
      'NEW-1',
      'S',
      '',
      '100',
      '',
      '1',
    ]);
    edited.push([
      '',
      'Copied Top',
      '',
      'draft',
      'clothes',
      '',
      '',
      '',
      taken,
      'M',
      '',
      '100',
      '',
      '1',
    ]);
    const before = await snapshot();
    await expect(
      deskCaller(test.db, staff).importProducts({ csv: asFile(edited), requestKey: randomUUID() }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: `Row ${edited.length}: sku “${taken}” is product ${first[column('product_id')]}’s; put ${first[column('product_id')]} in product_id to update that product, or give this row another sku.`,
    });
    expect(await snapshot()).toEqual(before);
  });

  it('lists every problem at once, each with its row', async () => {
    const { rows } = await exported();
    const edited = rows.map((row) => [...row]);
    (edited[1] as string[])[column('stock')] = 'many';
    (edited[2] as string[])[column('status')] = 'sold';
    (edited[3] as string[])[column('categories')] = 'Shoez';
    const before = await snapshot();
    const refusal = await deskCaller(test.db, staff)
      .importProducts({ csv: asFile(edited), requestKey: randomUUID() })
      .catch((error: Error) => error);
    expect(refusal).toMatchObject({ code: 'BAD_REQUEST' });
    expect((refusal as Error).message.split('\n')).toEqual([
      'Row 2: stock must be a whole number, 0 or more.',
      'Row 3: status must be draft, published or archived.',
      'Row 4: there is no category named “Shoez” (the categories are Dresses, Tops).',
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an unclosed quote, a huge file and wrong types with clear texts', async () => {
    const desk = deskCaller(test.db, staff);
    await expect(
      desk.importProducts({ csv: 'name,sku,price,stock\r\n"Open,1,2,3', requestKey: randomUUID() }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^Row 2: /) });
    const huge = await mutateOverHttp(
      test.db,
      'desk.importProducts',
      { csv: 'x'.repeat(2_000_001), requestKey: randomUUID() },
      { cookie: staff.cookie },
    );
    expect(huge.status).toBe(400);
    expect(huge.body.error?.message).toBe(SPREADSHEET_TEXT.tooLarge);
    for (const input of [
      { csv: 42, requestKey: randomUUID() },
      { csv: 'name', requestKey: 'again' },
      { csv: 'name', requestKey: randomUUID(), extra: true },
      null,
    ]) {
      const answer = await mutateOverHttp(test.db, 'desk.importProducts', input, {
        cookie: staff.cookie,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error?.message).not.toMatch(/received|42/);
    }
  });

  it('is the desk’s only: a customer is refused, a visitor too', async () => {
    const csv = asFile((await exported()).rows);
    await expect(
      deskCaller(test.db, customer).importProducts({ csv, requestKey: randomUUID() }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: DESK_TEXT.deskOnly });
    const visitor = await mutateOverHttp(test.db, 'desk.importProducts', {
      csv,
      requestKey: randomUUID(),
    });
    expect(visitor.status).toBe(401);
  });

  it('is recorded, and a repeated request key imports once', async () => {
    const sku = `SCARF-${randomUUID().slice(0, 8)}`;
    const csv = `name,sku,price,stock\r\nSilk Scarf,${sku},25000,4\r\n`;
    const requestKey = randomUUID();
    const desk = deskCaller(test.db, staff);
    const first = await desk.importProducts({ csv, requestKey });
    const created = (skuMade: string) => ({
      created: 1,
      updated: 0,
      unchanged: 0,
      variants: 1,
      changed: [{ product: 'Silk Scarf', created: true, changes: [`new, 1 variant: ${skuMade}`] }],
    });
    expect(first).toEqual(created(sku));
    // The retry answers what the import did then (now the file would change nothing).
    expect(await desk.importProducts({ csv, requestKey })).toEqual(first);
    const made = await test.db.execute(sql`select id from product_variants where sku = ${sku}`);
    expect(made.rows).toHaveLength(1);
    const records = await test.db.execute<{ actor_email: string }>(
      sql`select actor_email from desk_records where request_key = ${requestKey}`,
    );
    expect(records.rows).toEqual([{ actor_email: staff.email }]);

    // A double submit: both sent at once, or the second a moment later (while the first is
    // being written: it once saw the first's rows but not its record, and refused the SKU).
    for (let pair = 0; pair < 24; pair++) {
      const twiceSku = `SCARF-${randomUUID().slice(0, 8)}`;
      const twice = `name,sku,price,stock\r\nSilk Scarf,${twiceSku},25000,4\r\n`;
      const twiceKey = randomUUID();
      const answers = await sentTwice(
        () => desk.importProducts({ csv: twice, requestKey: twiceKey }),
        pair / 2,
      );
      expect(answers).toEqual([created(twiceSku), created(twiceSku)]);
      const once = await test.db.execute(
        sql`select 1 from product_variants where sku = ${twiceSku}`,
      );
      expect(once.rows).toHaveLength(1);
    }
  });
});
