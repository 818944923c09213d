// The catalogue as a spreadsheet (issue 22, decision 0047): one row per variant, the columns the
// export writes and the import reads, the formula guard, and the whole file checked and turned
// into product saves before anything is written. Pure: the server reads and writes around it.
import * as v from 'valibot';
import { INT4_MAX } from './bounds.ts';
import { readCsv, writeCsv } from './desk-csv.ts';
import { PRODUCT_STATUSES, type ProductStatus, requestKey } from './desk-roles.ts';
import { KAMPALA_OFFSET_MS } from './kampala-time.ts';
import { COLOUR, KINDS, type Kind, SIZE, SIZES } from './variants.ts';

export const SPREADSHEET_COLUMNS = [
  'product_id',
  'name',
  'slug',
  'status',
  'kind',
  'categories',
  'description',
  'variant_id',
  'sku',
  'size',
  'colour',
  'price',
  'compare_at_price',
  'stock',
  'stock_at_export',
] as const;
export type Column = (typeof SPREADSHEET_COLUMNS)[number];

/** What a row cannot do without; the other columns may be left out (empty). */
export const REQUIRED_COLUMNS: readonly Column[] = ['name', 'sku', 'price', 'stock'];

/** How much one import takes: a boutique's catalogue, with room to spare. */
export const IMPORT_MAX_CHARS = 2_000_000;
export const IMPORT_MAX_ROWS = 5_000;
/** Problems listed at once; past this the rest are counted. */
export const PROBLEMS_SHOWN = 100;
const MAX_PRICE = 1_000_000_000;
const MAX_STOCK = 1_000_000;

export const SPREADSHEET_TEXT = {
  tooLarge: 'The file is larger than 2 MB. Split it into smaller files and import each.',
  notText: 'Choose a CSV file saved from your spreadsheet.',
  chooseAgain:
    'The file could not be read; it may have changed since you chose it. Choose it again.',
  tooManyRows: (rows: number) =>
    `The file has ${rows.toLocaleString('en-US')} rows; import at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} at a time (split the file).`,
  empty: 'The file is empty: it needs a header row, then a row per variant.',
  noRows: 'The file has a header but no rows: add a row per variant under it.',
  missingColumns: (names: string[]) =>
    `Row 1: the header is missing the column${names.length > 1 ? 's' : ''} ${names.join(', ')}.`,
  unknownColumn: (name: string) =>
    `Row 1: unknown column “${name}”. The columns are ${SPREADSHEET_COLUMNS.join(', ')}.`,
  repeatedColumn: (name: string) => `Row 1: the column “${name}” appears twice.`,
  more: (count: number) => `… and ${count} more problem${count === 1 ? '' : 's'}.`,
  imported: 'Catalogue imported',
  /** What an import changed: "1 product created, 1 updated, 56 unchanged"; zeros left out. */
  summary: (counts: { created: number; updated: number; unchanged: number }) => {
    const { created, updated, unchanged } = counts;
    const products = (n: number) => `${n} product${n === 1 ? '' : 's'}`;
    if (created + updated === 0) {
      return `Nothing changed: the file’s ${products(unchanged)} ${unchanged === 1 ? 'matches' : 'match'} the catalogue.`;
    }
    const parts = [
      ...(created > 0 ? [`${products(created)} created`] : []),
      ...(updated > 0 ? [created > 0 ? `${updated} updated` : `${products(updated)} updated`] : []),
      ...(unchanged > 0 ? [`${unchanged} unchanged`] : []),
    ];
    return parts.join(', ');
  },
} as const;

// ——— The formula guard ———

/** A cell a spreadsheet could run as a formula (or an apostrophe our guard itself would add). */
const GUARDED_START = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);

/**
 * A cell as exported: one starting like a formula gets a leading apostrophe, so a spreadsheet
 * shows it as text. A cell already starting with an apostrophe gets one too, so `unguardCell`
 * can take exactly one off and every text comes back as it was.
 */
export function guardCell(cell: string): string {
  return GUARDED_START.has(cell.charAt(0)) ? `'${cell}` : cell;
}

/** A cell as imported: the export's guard taken back off (a lone leading apostrophe stays). */
export function unguardCell(cell: string): string {
  return cell.startsWith("'") && GUARDED_START.has(cell.charAt(1)) ? cell.slice(1) : cell;
}

// ——— Export ———

export type ExportVariant = {
  id: number;
  sku: string;
  options: Record<string, string>;
  price: number;
  compareAtPrice: number | null;
  stock: number;
};
export type ExportProduct = {
  id: number;
  name: string;
  slug: string;
  status: ProductStatus;
  kind: string;
  categories: string[];
  description: string | null;
  variants: ExportVariant[];
};

/** The file's rows: the header, then one row per variant, every cell guarded. */
export function catalogueRows(products: readonly ExportProduct[]): string[][] {
  const rows: string[][] = [[...SPREADSHEET_COLUMNS]];
  for (const product of products) {
    const productCells = [
      String(product.id),
      product.name,
      product.slug,
      product.status,
      product.kind,
      product.categories.join('; '),
      product.description ?? '',
    ];
    for (const variant of product.variants) {
      rows.push(
        [
          ...productCells,
          String(variant.id),
          variant.sku,
          variant.options[SIZE] ?? '',
          variant.options[COLOUR] ?? '',
          String(variant.price),
          variant.compareAtPrice === null ? '' : String(variant.compareAtPrice),
          String(variant.stock),
          String(variant.stock),
        ].map(guardCell),
      );
    }
  }
  return rows;
}

/** The whole file: a UTF-8 byte order mark (so Excel reads it as UTF-8), CRLF records. */
export function catalogueCsv(products: readonly ExportProduct[]): string {
  return `\uFEFF${writeCsv(catalogueRows(products))}`;
}

/** duuka-products-2026-11-25.csv, dated in Kampala (UTC+3 all year). */
export function catalogueFileName(now: Date): string {
  const kampala = new Date(now.getTime() + KAMPALA_OFFSET_MS);
  return `duuka-products-${kampala.toISOString().slice(0, 10)}.csv`;
}

// ——— Import ———

/** desk.importProducts' input: the file's text and the page's key for this import. */
export const importProductsInput = v.strictObject(
  {
    csv: v.pipe(
      v.string(SPREADSHEET_TEXT.notText),
      v.maxLength(IMPORT_MAX_CHARS, SPREADSHEET_TEXT.tooLarge),
    ),
    requestKey,
  },
  SPREADSHEET_TEXT.notText,
);

/** A variant as the catalogue has it (its own price, else its product's): as the export writes it. */
export type VariantNow = ExportVariant;

/** A product as the catalogue has it: what a file's rows are checked and compared against. */
export type ProductNow = {
  name: string;
  description: string;
  status: ProductStatus;
  kind: string;
  categoryIds: readonly number[];
  /** In the order shoppers see them (position). */
  variants: readonly VariantNow[];
};

/** What the import must know of the catalogue as it is. */
export type CatalogueNow = {
  products: ReadonlyMap<number, ProductNow>;
  categories: readonly { id: number; name: string }[];
};

/** A product the import creates or changes, and what changes, in words, for the desk. */
export type ImportChange = { product: string; created: boolean; changes: string[] };

/** What an import does: products counted apart by what happens to them, and the changed ones. */
export type ImportSummary = {
  created: number;
  updated: number;
  unchanged: number;
  variants: number;
  changed: ImportChange[];
};

/** A product save, shaped as desk.saveProduct's input (core/desk-catalogue.ts saveProductInput). */
export type ProductInput = {
  id?: number;
  name: string;
  description: string;
  categoryIds: number[];
  status: ProductStatus;
  kind: Kind;
  options: { name: string; values: string[] }[];
  variants: {
    id?: number;
    options: Record<string, string>;
    sku: string;
    price: number;
    compareAtPrice?: number | null;
    stock: number;
    stockWas?: number;
  }[];
};

/** The catalogue's own check of one save (valibot's safeParse of saveProductInput). */
export type ProductCheck<Save> = (
  input: ProductInput,
) =>
  | { success: true; output: Save }
  | { success: false; issues: readonly { message: string; path?: readonly { key: unknown }[] }[] };

export type PlannedSave<Save> = {
  save: Save;
  /** The spreadsheet's row of each variant, in order (the product's first row first). */
  rows: number[];
  /** Each row's SKU, as `rows`. */
  skus: string[];
  created: boolean;
  /** What the save changes, in words ([] for a new product). */
  changes: string[];
};

/** The saves to write (new and changed products only) and what they do. */
export type ImportPlan<Save> =
  | { ok: true; saves: PlannedSave<Save>[]; summary: ImportSummary }
  | { ok: false; problems: string[] };

type Row = { number: number; cells: Record<Column, string> };

const WHOLE = /^(\d{1,3}(,\d{3})+|\d+)$/;
function wholeNumber(cell: string, max: number): number | null {
  const text = cell.trim();
  if (!WHOLE.test(text)) return null;
  const value = Number(text.replaceAll(',', ''));
  return value <= max ? value : null;
}

const listed = (names: readonly string[]) => names.join(', ');
const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Reads the file and checks it whole: the header, every row, the rows grouped into products,
 * each product through the catalogue's own check. Every problem names its row (the header is
 * row 1, as the spreadsheet shows it); with any problem nothing is to be saved.
 */
export function planImport<Save>(
  csv: string,
  now: CatalogueNow,
  check: ProductCheck<Save>,
): ImportPlan<Save> {
  const problems: string[] = [];
  const refuse = () => ({ ok: false as const, problems: capped(problems) });

  const read = readCsv(csv);
  if (!read.ok) return { ok: false, problems: [read.problem] };
  const [header, ...body] = read.rows;
  if (!header || header.every((cell) => cell.trim() === '')) {
    return { ok: false, problems: [SPREADSHEET_TEXT.empty] };
  }
  if (body.length > IMPORT_MAX_ROWS) {
    return { ok: false, problems: [SPREADSHEET_TEXT.tooManyRows(body.length)] };
  }

  // The header: known columns, each once, the required ones present (any order).
  const columns: (Column | null)[] = [];
  for (const cell of header) {
    const name = unguardCell(cell).trim().toLowerCase();
    if (name === '') {
      columns.push(null);
      continue;
    }
    if (!(SPREADSHEET_COLUMNS as readonly string[]).includes(name)) {
      problems.push(SPREADSHEET_TEXT.unknownColumn(cell.trim()));
    } else if (columns.includes(name as Column)) {
      problems.push(SPREADSHEET_TEXT.repeatedColumn(name));
    }
    columns.push(name as Column);
  }
  const missing = REQUIRED_COLUMNS.filter((name) => !columns.includes(name));
  if (missing.length > 0) problems.push(SPREADSHEET_TEXT.missingColumns([...missing]));
  if (problems.length > 0) return refuse();

  // The rows, as cells by column; blank rows (a spreadsheet's leftovers) are passed over.
  const rows: Row[] = [];
  body.forEach((cells, index) => {
    const number = index + 2;
    if (cells.every((cell) => cell.trim() === '')) return;
    if (cells.some((cell) => cell.includes('\0'))) {
      problems.push(`Row ${number}: it holds a NUL character; save the file again as CSV.`);
      return;
    }
    if (cells.slice(columns.length).some((cell) => cell.trim() !== '')) {
      problems.push(
        `Row ${number}: it has ${cells.length} cells but the header has ${columns.length} columns.`,
      );
      return;
    }
    const byColumn = Object.fromEntries(SPREADSHEET_COLUMNS.map((c) => [c, ''])) as Record<
      Column,
      string
    >;
    columns.forEach((column, i) => {
      if (column) byColumn[column] = unguardCell(cells[i] ?? '');
    });
    rows.push({ number, cells: byColumn });
  });
  if (rows.length === 0 && problems.length === 0) {
    return { ok: false, problems: [SPREADSHEET_TEXT.noRows] };
  }

  // Each row on its own, then grouped: by product_id, else by name (or slug) for a new product.
  const groups = new Map<string, Row[]>();
  const skuRows = new Map<string, number>();
  /** Each SKU in the shop and the product it belongs to. */
  const skuOwners = new Map<string, number>();
  for (const [id, product] of now.products) {
    for (const variant of product.variants) skuOwners.set(variant.sku.toLowerCase(), id);
  }
  const categoryNames = listed(now.categories.map((c) => c.name));
  for (const row of rows) {
    const { cells, number } = row;
    const at = `Row ${number}:`;
    const before = problems.length;
    const productId = cells.product_id.trim();
    if (productId !== '') {
      const id = wholeNumber(productId, INT4_MAX);
      if (id === null) {
        problems.push(
          `${at} product_id must be a product’s number from an export (empty for a new product).`,
        );
      } else if (!now.products.has(id)) {
        problems.push(`${at} there is no product with id ${productId}.`);
      }
    }
    const variantId = cells.variant_id.trim();
    if (variantId !== '') {
      const product = now.products.get(Number(productId));
      if (productId === '') {
        problems.push(
          `${at} variant_id is set but product_id is empty; a new product’s rows have no ids.`,
        );
      } else if (product && !product.variants.some((v) => String(v.id) === variantId)) {
        problems.push(`${at} variant ${variantId} is not one of product ${productId}’s variants.`);
      }
    }
    if (cells.status.trim() !== '' && !PRODUCT_STATUSES.includes(cells.status.trim() as never)) {
      problems.push(`${at} status must be draft, published or archived.`);
    }
    if (cells.kind.trim() !== '' && !KINDS.includes(cells.kind.trim() as never)) {
      problems.push(`${at} kind must be clothes, shoes or one-size.`);
    }
    const sku = cells.sku.trim();
    if (sku === '') problems.push(`${at} sku is required.`);
    else {
      const earlier = skuRows.get(sku.toLowerCase());
      const owner = skuOwners.get(sku.toLowerCase());
      if (earlier) problems.push(`${at} sku “${sku}” is already on row ${earlier}.`);
      else if (owner !== undefined && String(owner) !== productId) {
        problems.push(
          `${at} sku “${sku}” is product ${owner}’s; put ${owner} in product_id to update that product, or give this row another sku.`,
        );
      } else skuRows.set(sku.toLowerCase(), number);
    }
    if (wholeNumber(cells.price, MAX_PRICE) === null) {
      problems.push(`${at} price must be a whole number of shillings.`);
    }
    if (
      cells.compare_at_price.trim() !== '' &&
      wholeNumber(cells.compare_at_price, MAX_PRICE) === null
    ) {
      problems.push(`${at} compare_at_price must be a whole number of shillings, or empty.`);
    }
    if (wholeNumber(cells.stock, MAX_STOCK) === null) {
      problems.push(`${at} stock must be a whole number, 0 or more.`);
    }
    if (
      cells.stock_at_export.trim() !== '' &&
      wholeNumber(cells.stock_at_export, MAX_STOCK) === null
    ) {
      problems.push(`${at} stock_at_export must be the number the download gave, or empty.`);
    }
    for (const name of categoryList(cells.categories)) {
      if (!now.categories.some((c) => sameText(c.name, name))) {
        problems.push(
          `${at} there is no category named “${name}” (the categories are ${categoryNames}).`,
        );
      }
    }
    const name = cells.name.trim();
    const slug = cells.slug.trim().toLowerCase();
    const key =
      productId !== ''
        ? `id:${productId}`
        : name !== ''
          ? `name:${name.toLowerCase()}`
          : slug !== ''
            ? `slug:${slug}`
            : null;
    if (key === null) problems.push(`${at} name is required.`);
    if (problems.length > before || key === null) continue;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }

  const saves: PlannedSave<Save>[] = [];
  for (const group of groups.values()) {
    const planned = planProduct(group, now, check, problems);
    if (planned) saves.push(planned);
  }
  if (problems.length > 0) return refuse();
  // Only what changes is saved (and said): a product the file leaves as it is, is left alone.
  const changing = saves.filter((planned) => planned.created || planned.changes.length > 0);
  const created = changing.filter((planned) => planned.created).length;
  return {
    ok: true,
    saves: changing,
    summary: {
      created,
      updated: changing.length - created,
      unchanged: saves.length - changing.length,
      variants: rows.length,
      changed: changing.map((planned) => ({
        product: (planned.save as { name?: string }).name ?? '',
        created: planned.created,
        changes: planned.created
          ? [
              `new, ${planned.skus.length} variant${planned.skus.length === 1 ? '' : 's'}: ${planned.skus.join(', ')}`,
            ]
          : planned.changes,
      })),
    },
  };
}

function categoryList(cell: string): string[] {
  return cell
    .split(';')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** One product's rows as its save, or null with its problems added. */
function planProduct<Save>(
  rows: Row[],
  now: CatalogueNow,
  check: ProductCheck<Save>,
  problems: string[],
): PlannedSave<Save> | null {
  const first = rows[0] as Row;
  const before = problems.length;
  const id = first.cells.product_id.trim() === '' ? undefined : Number(first.cells.product_id);
  const existing = id === undefined ? undefined : now.products.get(id);

  // A product's own columns: the same on every row that fills them in.
  const productValue = (column: Column, same = sameText): string => {
    let value = '';
    let from = first;
    for (const row of rows) {
      const cell = column === 'description' ? row.cells[column] : row.cells[column].trim();
      if (cell === '' || cell === value || (value !== '' && same(value, cell))) continue;
      if (value === '') {
        value = cell;
        from = row;
      } else {
        problems.push(
          `Row ${row.number}: ${column} differs from row ${from.number}’s, for the same product; a product’s columns must match on all its rows.`,
        );
        return value;
      }
    }
    return value;
  };
  const name = productValue('name', (a, b) => a === b);
  const description = productValue('description', (a, b) => a === b);
  const statusCell = productValue('status');
  const kindCell = productValue('kind');
  const categoriesCell = productValue('categories', (a, b) =>
    sameText(categoryList(a).join(';'), categoryList(b).join(';')),
  );
  if (name === '') problems.push(`Row ${first.number}: name is required.`);

  // Sizes and colours: on all of a product's rows or on none.
  const sized = rows.filter((row) => row.cells.size.trim() !== '');
  const coloured = rows.filter((row) => row.cells.colour.trim() !== '');
  for (const [column, filled] of [
    ['size', sized],
    ['colour', coloured],
  ] as const) {
    if (filled.length > 0 && filled.length < rows.length) {
      const empty = rows.find((row) => row.cells[column].trim() === '') as Row;
      problems.push(
        `Row ${empty.number}: ${column} is empty, but other rows of this product have one (row ${(filled[0] as Row).number}).`,
      );
    }
  }

  const sizes = sized.map((row) => row.cells.size.trim());
  const kind = (kindCell.toLowerCase() || existing?.kind || inferredKind(sizes)) as Kind | null;
  if (kind === null) {
    problems.push(
      `Row ${first.number}: kind is required: these sizes are neither clothes (${listed(SIZES.clothes)}) nor shoes (${listed(SIZES.shoes)}) sizes.`,
    );
  }
  const sizeOf = (row: Row): string => {
    const size = row.cells.size.trim();
    if (size === '' || kind === null) return size;
    if (kind === 'one-size') {
      problems.push(
        `Row ${row.number}: a one-size piece has no sizes; empty the size or set the kind to clothes or shoes.`,
      );
      return size;
    }
    const known = SIZES[kind].find((s) => s.toLowerCase() === size.toLowerCase());
    if (!known) {
      problems.push(
        `Row ${row.number}: size “${size}” is not a ${kind} size (${listed(SIZES[kind])}).`,
      );
      return size;
    }
    return known;
  };

  // Each row a variant; its size and colour (with a new product's) appear once.
  const seen = new Map<string, number>();
  const usedVariantIds = new Map<string, number>();
  const variants: ProductInput['variants'] = [];
  const sizeValues: string[] = [];
  const colourValues: string[] = [];
  for (const row of rows) {
    const options: Record<string, string> = {};
    const size = sizeOf(row);
    const colour = row.cells.colour.trim();
    if (size !== '') {
      options[SIZE] = size;
      if (!sizeValues.includes(size)) sizeValues.push(size);
    }
    if (colour !== '') {
      const named = colourValues.find((c) => sameText(c, colour)) ?? colour;
      options[COLOUR] = named;
      if (!colourValues.includes(named)) colourValues.push(named);
    }
    const combination = `${options[SIZE] ?? ''}\n${(options[COLOUR] ?? '').toLowerCase()}`;
    const twin = seen.get(combination);
    if (twin !== undefined) {
      problems.push(
        sized.length === 0 && coloured.length === 0
          ? `Row ${row.number}: this product is already on row ${twin}; a product without sizes or colours has one row.`
          : `Row ${row.number}: this product’s ${describe(options)} is already on row ${twin}.`,
      );
    } else seen.set(combination, row.number);

    let variantId: number | undefined;
    const variantCell = row.cells.variant_id.trim();
    if (variantCell !== '') {
      const twinRow = usedVariantIds.get(variantCell);
      if (twinRow !== undefined) {
        problems.push(`Row ${row.number}: variant ${variantCell} is already on row ${twinRow}.`);
      }
      usedVariantIds.set(variantCell, row.number);
      variantId = Number(variantCell);
    } else if (existing) {
      // A row added to a product without its variant id, whose SKU is one of the product's own.
      variantId = existing.variants.find((v) => sameText(v.sku, row.cells.sku))?.id;
    }
    const compareAt = row.cells.compare_at_price.trim();
    const stockWas =
      row.cells.stock_at_export.trim() === ''
        ? null
        : wholeNumber(row.cells.stock_at_export, MAX_STOCK);
    variants.push({
      ...(variantId === undefined ? {} : { id: variantId }),
      options,
      sku: row.cells.sku.trim(),
      price: wholeNumber(row.cells.price, MAX_PRICE) ?? 0,
      ...(compareAt === '' ? {} : { compareAtPrice: wholeNumber(compareAt, MAX_PRICE) ?? 0 }),
      stock: wholeNumber(row.cells.stock, MAX_STOCK) ?? 0,
      // The count the download gave: the import moves the stock by what the owner changed, so
      // sales made since the download are kept (decision 0047).
      ...(variantId !== undefined && stockWas !== null ? { stockWas } : {}),
    });
  }
  if (problems.length > before || kind === null) return null;

  const input: ProductInput = {
    ...(id === undefined ? {} : { id }),
    name,
    description,
    categoryIds: categoryList(categoriesCell).map(
      (named) => (now.categories.find((c) => sameText(c.name, named)) as { id: number }).id,
    ),
    status: (statusCell as ProductStatus) || existing?.status || 'draft',
    kind,
    options: [
      ...(sizeValues.length > 0 ? [{ name: SIZE, values: sizeValues }] : []),
      ...(colourValues.length > 0 ? [{ name: COLOUR, values: colourValues }] : []),
    ],
    variants,
  };
  const checked = check(input);
  if (!checked.success) {
    for (const issue of checked.issues) {
      const [top, index] = issue.path ?? [];
      const row =
        top?.key === 'variants' && typeof index?.key === 'number'
          ? (rows[index.key] ?? first)
          : first;
      const text = `Row ${row.number}: ${issue.message}`;
      if (!problems.includes(text)) problems.push(text);
    }
    return null;
  }
  return {
    save: checked.output,
    rows: rows.map((row) => row.number),
    skus: rows.map((row) => row.cells.sku.trim()),
    created: id === undefined,
    changes: existing ? productChanges(input, existing, now.categories) : [],
  };
}

const shillings = (amount: number | null) =>
  amount === null ? 'none' : amount.toLocaleString('en-US');

/**
 * What saving `input` would change in the product as it is, in words: "price of WRAP-M 120,000 →
 * 135,000". Stock given with the download's count (stock_at_export) changes by the difference
 * only, as the save moves it. Empty: the file leaves the product as it is.
 */
export function productChanges(
  input: ProductInput,
  now: ProductNow,
  categories: readonly { id: number; name: string }[],
): string[] {
  const changes: string[] = [];
  if (input.name !== now.name) changes.push(`name “${now.name}” → “${input.name}”`);
  if (input.description.trim() !== now.description.trim()) changes.push('description');
  if (input.status !== now.status) changes.push(`status ${now.status} → ${input.status}`);
  if (input.kind !== now.kind) changes.push(`kind ${now.kind} → ${input.kind}`);
  const names = (ids: readonly number[]) =>
    [...new Set(ids)]
      .map((id) => categories.find((c) => c.id === id)?.name ?? String(id))
      .sort()
      .join(', ') || 'none';
  if (names(input.categoryIds) !== names(now.categoryIds)) {
    changes.push(`categories ${names(now.categoryIds)} → ${names(input.categoryIds)}`);
  }
  const options = (o: Record<string, string>) => describe(o) || 'no size or colour';
  const kept = new Set<number>();
  for (const variant of input.variants) {
    const was = now.variants.find((v) => v.id === variant.id);
    if (!was) {
      changes.push(`${variant.sku} added`);
      continue;
    }
    kept.add(was.id);
    if (variant.sku !== was.sku) changes.push(`SKU ${was.sku} → ${variant.sku}`);
    if (options(variant.options) !== options(was.options)) {
      changes.push(`${variant.sku}: ${options(was.options)} → ${options(variant.options)}`);
    }
    if (variant.price !== was.price) {
      changes.push(`price of ${variant.sku} ${shillings(was.price)} → ${shillings(variant.price)}`);
    }
    const compareAt = variant.compareAtPrice ?? null;
    if (compareAt !== was.compareAtPrice) {
      changes.push(
        `compare-at price of ${variant.sku} ${shillings(was.compareAtPrice)} → ${shillings(compareAt)}`,
      );
    }
    const from = variant.stockWas ?? was.stock;
    if (variant.stock !== from) changes.push(`stock of ${variant.sku} ${from} → ${variant.stock}`);
  }
  for (const variant of now.variants) {
    if (!kept.has(variant.id)) changes.push(`${variant.sku} removed`);
  }
  const order = (ids: number[]) => ids.filter((id) => kept.has(id)).join(',');
  const fileOrder = input.variants.flatMap((v) => (v.id === undefined ? [] : [v.id]));
  if (order(fileOrder) !== order(now.variants.map((v) => v.id))) {
    changes.push('the variants’ order');
  }
  return changes;
}

function describe(options: Record<string, string>): string {
  const parts = [];
  if (options[SIZE]) parts.push(`size ${options[SIZE]}`);
  if (options[COLOUR]) parts.push(`colour ${options[COLOUR]}`);
  return parts.join(', ');
}

/** A new product's kind from its sizes: clothes or shoes sizes, or none (one size). */
function inferredKind(sizes: readonly string[]): Kind | null {
  if (sizes.length === 0) return 'one-size';
  for (const kind of ['clothes', 'shoes'] as const) {
    if (sizes.every((size) => SIZES[kind].some((s) => s.toLowerCase() === size.toLowerCase()))) {
      return kind;
    }
  }
  return null;
}

/** At most PROBLEMS_SHOWN, then how many more. */
function capped(problems: readonly string[]): string[] {
  if (problems.length <= PROBLEMS_SHOWN) return [...problems];
  return [
    ...problems.slice(0, PROBLEMS_SHOWN),
    SPREADSHEET_TEXT.more(problems.length - PROBLEMS_SHOWN),
  ];
}

/**
 * A problem saving one product (saveProducts' `index`): named by the row of the SKU it speaks of
 * ("The SKU X belongs to another product."), else by the product's first row.
 */
export function saveProblem(planned: { rows: number[]; skus: string[] }, problem: string): string {
  const words = new Set(problem.toLowerCase().split(/[^a-z0-9-]+/));
  const at = planned.skus.findIndex((sku) => words.has(sku.toLowerCase()));
  return `Row ${planned.rows[at] ?? planned.rows[0] ?? 2}: ${problem}`;
}
