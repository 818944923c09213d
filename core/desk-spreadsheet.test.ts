import { describe, expect, it } from 'vitest';
import { readCsv, writeCsv } from './desk-csv.ts';
import {
  type CatalogueNow,
  catalogueCsv,
  catalogueFileName,
  guardCell,
  type ProductCheck,
  type ProductInput,
  planImport,
  productChanges,
  SPREADSHEET_COLUMNS,
  SPREADSHEET_TEXT,
  saveProblem,
  unguardCell,
} from './desk-spreadsheet.ts';

const now: CatalogueNow = {
  products: new Map([
    [
      7,
      {
        name: 'Wrap',
        description: 'Soft',
        status: 'published',
        kind: 'clothes',
        categoryIds: [1],
        variants: [
          {
            id: 70,
            sku: 'WRAP-S',
            options: { Size: 'S' },
            price: 1000,
            compareAtPrice: null,
            stock: 3,
          },
          {
            id: 71,
            sku: 'WRAP-M',
            options: { Size: 'M' },
            price: 1200,
            compareAtPrice: null,
            stock: 0,
          },
        ],
      },
    ],
  ]),
  categories: [
    { id: 1, name: 'Dresses' },
    { id: 2, name: 'Tops' },
  ],
};
const accept: ProductCheck<ProductInput> = (input) => ({ success: true, output: input });
const header = SPREADSHEET_COLUMNS.join(',');
const file = (...lines: string[]) => [header, ...lines].join('\r\n');

describe('the formula guard', () => {
  it('guards cells that start like a formula, and takes exactly the guard off', () => {
    for (const text of ['=Sale', '+256', '-5', '@home', '\tx', "'quoted", "'=both", 'plain', '']) {
      expect(unguardCell(guardCell(text))).toBe(text);
    }
    expect(guardCell('=Sale')).toBe("'=Sale");
    expect(guardCell('Sale')).toBe('Sale');
    expect(unguardCell("'hello")).toBe("'hello");
  });
});

describe('the export', () => {
  it('writes a BOM, the header and one guarded row per variant', () => {
    const csv = catalogueCsv([
      {
        id: 7,
        name: '=Sale',
        slug: 'sale',
        status: 'draft',
        kind: 'clothes',
        categories: ['Dresses', 'Tops'],
        description: 'Soft, "light"\nlinen',
        variants: [
          {
            id: 70,
            sku: 'S-1',
            options: { Size: 'S' },
            price: 1000,
            compareAtPrice: null,
            stock: 2,
          },
        ],
      },
    ]);
    expect(csv.startsWith(`\uFEFF${header}\r\n`)).toBe(true);
    const read = readCsv(csv);
    expect(read.ok && read.rows[1]).toEqual([
      '7',
      "'=Sale",
      'sale',
      'draft',
      'clothes',
      'Dresses; Tops',
      'Soft, "light"\nlinen',
      '70',
      'S-1',
      'S',
      '',
      '1000',
      '',
      '2',
      '2',
    ]);
  });

  it('names the file by the date in Kampala', () => {
    expect(catalogueFileName(new Date('2026-11-25T21:30:00Z'))).toBe(
      'duuka-products-2026-11-26.csv',
    );
    expect(catalogueFileName(new Date('2026-11-25T20:59:00Z'))).toBe(
      'duuka-products-2026-11-25.csv',
    );
  });
});

describe('planImport', () => {
  it('groups rows into an updated product and a new one, with options from the rows', () => {
    const plan = planImport(
      file(
        '7,Wrap,wrap,,,dresses,Soft,70,WRAP-S,s,,1000,,3',
        '7,Wrap,wrap,,,Dresses,Soft,71,WRAP-M,M,,"1,000",,0',
        ",'=Sale,,draft,,,New,,SALE-38,38,Black,5000,6000,1",
        ',=Sale,,,,,,,SALE-39,39,Black,5000,,2',
      ),
      now,
      accept,
    );
    expect(plan).toMatchObject({
      ok: true,
      summary: {
        created: 1,
        updated: 1,
        unchanged: 0,
        variants: 4,
        changed: [
          { product: 'Wrap', created: false, changes: ['price of WRAP-M 1,200 → 1,000'] },
          { product: '=Sale', created: true, changes: ['new, 2 variants: SALE-38, SALE-39'] },
        ],
      },
    });
    if (!plan.ok) return;
    expect(plan.saves[0]?.save).toEqual({
      id: 7,
      name: 'Wrap',
      description: 'Soft',
      categoryIds: [1],
      status: 'published',
      kind: 'clothes',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { id: 70, options: { Size: 'S' }, sku: 'WRAP-S', price: 1000, stock: 3 },
        { id: 71, options: { Size: 'M' }, sku: 'WRAP-M', price: 1000, stock: 0 },
      ],
    });
    expect(plan.saves[1]).toMatchObject({
      rows: [4, 5],
      created: true,
      save: {
        name: '=Sale',
        kind: 'shoes',
        status: 'draft',
        options: [
          { name: 'Size', values: ['38', '39'] },
          { name: 'Colour', values: ['Black'] },
        ],
      },
    });
  });

  it('lists every problem with its row, the header as row 1', () => {
    const plan = planImport(
      file(
        '7,Wrap,wrap,,,,,70,WRAP-S,S,,12.5,,3',
        '99,Gone,,,,,,,X-1,,,100,,1',
        ',Hat,,sold,,Shoez,,,HAT,,,100,,-1',
        ',Shoe,,,shoes,,,,SH-1,XL,,100,,1',
        ',Shoe,,,shoes,,,,WRAP-S,40,,100,,1',
        ',Copy,,,,,,,wrap-m,,,100,,1',
      ),
      now,
      accept,
    );
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.problems).toEqual([
      'Row 2: price must be a whole number of shillings.',
      'Row 3: there is no product with id 99.',
      'Row 4: status must be draft, published or archived.',
      'Row 4: stock must be a whole number, 0 or more.',
      'Row 4: there is no category named “Shoez” (the categories are Dresses, Tops).',
      'Row 6: sku “WRAP-S” is already on row 2.',
      'Row 7: sku “wrap-m” is product 7’s; put 7 in product_id to update that product, or give this row another sku.',
      'Row 5: size “XL” is not a shoes size (36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46).',
    ]);
  });

  it('refuses a header with missing or unknown columns, naming them', () => {
    const plan = planImport('name,sku,prise,stock\r\nA,B,1,1', now, accept);
    expect(plan).toEqual({
      ok: false,
      problems: [
        SPREADSHEET_TEXT.unknownColumn('prise'),
        SPREADSHEET_TEXT.missingColumns(['price']),
      ],
    });
  });

  it('accepts a file with only the required columns, in any order', () => {
    const plan = planImport('stock,price,sku,name\r\n2,900,BAG-1,Bag\r\n', now, accept);
    expect(plan).toMatchObject({
      ok: true,
      saves: [{ save: { name: 'Bag', kind: 'one-size', status: 'draft', options: [] } }],
    });
  });

  it('refuses a size on some rows only, twin variants and mixed product columns', () => {
    const plan = planImport(
      file(
        ',Kaftan,,,,,,,K-1,M,,100,,1',
        ',Kaftan,,,,,,,K-2,,,100,,1',
        ',Kaftan,,,,,,,K-3,M,,100,,1',
        ',Cap,,draft,,,,,C-1,,,100,,1',
        ',Cap,,published,,,,,C-2,,,100,,1',
      ),
      now,
      accept,
    );
    expect(plan.ok || plan.problems).toEqual([
      'Row 3: size is empty, but other rows of this product have one (row 2).',
      'Row 4: this product’s size M is already on row 2.',
      'Row 6: status differs from row 5’s, for the same product; a product’s columns must match on all its rows.',
      'Row 6: this product is already on row 5; a product without sizes or colours has one row.',
    ]);
  });

  it('names the row of a variant the catalogue refuses', () => {
    const refuse: ProductCheck<ProductInput> = () => ({
      success: false,
      issues: [{ message: 'SKU too long.', path: [{ key: 'variants' }, { key: 1 }] }],
    });
    const plan = planImport(file(',A,,,,,,,A-1,S,,1,,1', ',A,,,,,,,A-2,M,,1,,1'), now, refuse);
    expect(plan).toEqual({ ok: false, problems: ['Row 3: SKU too long.'] });
  });

  it('refuses an empty file, a header alone, too many rows and a NUL', () => {
    expect(planImport('', now, accept)).toEqual({ ok: false, problems: [SPREADSHEET_TEXT.empty] });
    expect(planImport(`${header}\r\n`, now, accept)).toEqual({
      ok: false,
      problems: [SPREADSHEET_TEXT.noRows],
    });
    const many = writeCsv(Array.from({ length: 5001 }, (_, i) => ['x', `S${i}`, '1', '1']));
    expect(planImport(`name,sku,price,stock\r\n${many}`, now, accept)).toEqual({
      ok: false,
      problems: [SPREADSHEET_TEXT.tooManyRows(5001)],
    });
    expect(planImport(file(',A\0,,,,,,,A-1,,,1,,1'), now, accept)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^Row 2: .*NUL/)],
    });
  });

  it('caps the problems listed and counts the rest', () => {
    const bad = Array.from({ length: 150 }, (_, i) => `,P${i},,,,,,,S${i},,,x,,1`);
    const plan = planImport(file(...bad), now, accept);
    expect(plan.ok || plan.problems.length).toBe(101);
    expect(plan.ok || plan.problems.at(-1)).toBe(SPREADSHEET_TEXT.more(50));
  });
});

describe('saveProblem', () => {
  it('names the row of the SKU a save refused, else the product’s first row', () => {
    const planned = { rows: [4, 5, 9], skus: ['A-1', 'A-2', 'A-3'] };
    expect(saveProblem(planned, 'The SKU a-2 belongs to another product.')).toBe(
      'Row 5: The SKU a-2 belongs to another product.',
    );
    expect(saveProblem(planned, 'Someone saved at the same moment.')).toBe(
      'Row 4: Someone saved at the same moment.',
    );
  });
});

describe('what an import changes', () => {
  const wrap = now.products.get(7) as NonNullable<ReturnType<typeof now.products.get>>;
  const same: ProductInput = {
    id: 7,
    name: 'Wrap',
    description: 'Soft',
    categoryIds: [1],
    status: 'published',
    kind: 'clothes',
    options: [{ name: 'Size', values: ['S', 'M'] }],
    variants: [
      { id: 70, options: { Size: 'S' }, sku: 'WRAP-S', price: 1000, stock: 3 },
      { id: 71, options: { Size: 'M' }, sku: 'WRAP-M', price: 1200, stock: 0 },
    ],
  };

  it('finds nothing in a product the file leaves as it is', () => {
    expect(productChanges(same, wrap, now.categories)).toEqual([]);
    // Stock given with the download's count moves by the difference only: sales since are kept.
    const sold = { ...wrap, variants: wrap.variants.map((v) => ({ ...v, stock: v.stock + 4 })) };
    const atExport = same.variants.map((v) => ({ ...v, stockWas: v.stock }));
    expect(productChanges({ ...same, variants: atExport }, sold, now.categories)).toEqual([]);
  });

  it('names each change, with the SKU it is on', () => {
    const edited: ProductInput = {
      ...same,
      name: 'Wrap Dress',
      description: 'Soft, lined',
      categoryIds: [1, 2],
      status: 'draft',
      variants: [
        {
          id: 71,
          options: { Size: 'L' },
          sku: 'WRAP-L',
          price: 1500,
          compareAtPrice: 2000,
          stock: 0,
          stockWas: 0,
        },
        { options: { Size: 'XL' }, sku: 'WRAP-XL', price: 1500, stock: 1 },
      ],
    };
    expect(productChanges(edited, wrap, now.categories)).toEqual([
      'name “Wrap” → “Wrap Dress”',
      'description',
      'status published → draft',
      'categories Dresses → Dresses, Tops',
      'SKU WRAP-M → WRAP-L',
      'WRAP-L: size M → size L',
      'price of WRAP-L 1,200 → 1,500',
      'compare-at price of WRAP-L none → 2,000',
      'WRAP-XL added',
      'WRAP-S removed',
    ]);
    const reordered = { ...same, variants: [...same.variants].reverse() };
    expect(productChanges(reordered, wrap, now.categories)).toEqual(['the variants’ order']);
  });

  it('counts a file that changes nothing as unchanged, and plans no save', () => {
    const plan = planImport(
      file(
        '7,Wrap,wrap,,,Dresses,Soft,70,WRAP-S,S,,1000,,3,3',
        '7,Wrap,wrap,,,Dresses,Soft,71,WRAP-M,M,,1200,,0,0',
      ),
      now,
      accept,
    );
    expect(plan).toEqual({
      ok: true,
      saves: [],
      summary: { created: 0, updated: 0, unchanged: 1, variants: 2, changed: [] },
    });
    expect(SPREADSHEET_TEXT.summary({ created: 0, updated: 0, unchanged: 1 })).toBe(
      'Nothing changed: the file’s 1 product matches the catalogue.',
    );
    expect(SPREADSHEET_TEXT.summary({ created: 1, updated: 1, unchanged: 56 })).toBe(
      '1 product created, 1 updated, 56 unchanged',
    );
    expect(SPREADSHEET_TEXT.summary({ created: 0, updated: 2, unchanged: 0 })).toBe(
      '2 products updated',
    );
  });
});
