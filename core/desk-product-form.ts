// The desk's product editor as data (app/routes/desk/products/$productId.tsx draws it): the form
// made from a product, the variants grid kept to sizes × colours, and the save it sends. Numbers
// stay text while typed, so nothing typed is lost; desk.saveProduct checks the whole at the save.

import { type ProductSaveInput, suggestSku } from './desk-catalogue.ts';
import type { ProductStatus } from './desk-roles.ts';
import {
  COLOUR,
  type Kind,
  type ProductOption,
  SIZE,
  SIZES,
  type VariantOptions,
  variantLabel,
} from './variants.ts';

/** A variant row as typed. */
export type ProductRow = {
  id?: number;
  sku: string;
  skuTouched: boolean;
  price: string;
  compareAtPrice: string;
  stock: string;
  /** The stock when the editor loaded it: the save moves stock by the difference. */
  stockWas?: number;
};

export type ProductForm = {
  name: string;
  description: string;
  categoryIds: number[];
  status: ProductStatus;
  /** Whether a shopper may return or exchange it (issue 36; earrings, underwear: not). */
  returnable: boolean;
  kind: Kind;
  sizes: string[];
  colours: string[];
  /** By the variant's values, "M|Indigo" ('|' for a piece without options). */
  rows: Record<string, ProductRow>;
};

/** The parts of desk.product's answer the form is made from. */
export type EditedProduct = {
  name: string;
  description: string;
  categoryIds: number[];
  status: ProductStatus;
  returnable: boolean;
  kind: Kind;
  options: readonly ProductOption[];
  variants: readonly {
    id: number;
    sku: string;
    price: number;
    compareAtPrice: number | null;
    stock: number;
    options: VariantOptions;
  }[];
};

/** A variant's key in `rows`. */
export const rowKey = (size: string | undefined, colour: string | undefined) =>
  `${size ?? ''}|${colour ?? ''}`;

/** A new product's form: a draft of clothes, one row waiting for its price. */
export function emptyProductForm(): ProductForm {
  return withRows({
    name: '',
    description: '',
    categoryIds: [],
    status: 'draft',
    returnable: true,
    kind: 'clothes',
    sizes: [],
    colours: [],
    rows: {},
  });
}

/** A saved product's form: its values as text, each row knowing its variant and stock. */
export function productForm(product: EditedProduct): ProductForm {
  const values = (name: string) => product.options.find((o) => o.name === name)?.values ?? [];
  const rows: Record<string, ProductRow> = {};
  for (const v of product.variants) {
    rows[rowKey(v.options[SIZE], v.options[COLOUR])] = {
      id: v.id,
      sku: v.sku,
      skuTouched: true,
      price: String(v.price),
      compareAtPrice: v.compareAtPrice === null ? '' : String(v.compareAtPrice),
      stock: String(v.stock),
      stockWas: v.stock,
    };
  }
  return {
    name: product.name,
    description: product.description,
    categoryIds: product.categoryIds,
    status: product.status,
    returnable: product.returnable,
    kind: product.kind,
    sizes: values(SIZE),
    colours: values(COLOUR),
    rows,
  };
}

/** The product's options as the form stands: Size, then Colour, each when chosen. */
export function formOptions(form: ProductForm): ProductOption[] {
  const options: ProductOption[] = [];
  if (form.sizes.length) options.push({ name: SIZE, values: form.sizes });
  if (form.colours.length) options.push({ name: COLOUR, values: form.colours });
  return options;
}

/** Every combination of the chosen sizes and colours, in order (one for a piece without). */
export function combinations(form: ProductForm) {
  const sizes: (string | undefined)[] = form.sizes.length ? form.sizes : [undefined];
  const colours: (string | undefined)[] = form.colours.length ? form.colours : [undefined];
  const options = formOptions(form);
  return sizes.flatMap((size) =>
    colours.map((colour) => {
      const values: Record<string, string> = {};
      if (size) values[SIZE] = size;
      if (colour) values[COLOUR] = colour;
      return { key: rowKey(size, colour), values, label: variantLabel(values, options) };
    }),
  );
}

/** A new row: the SKU suggested, the price of the rows already there. */
function newRow(form: ProductForm, values: Record<string, string>): ProductRow {
  const price = Object.values(form.rows).find((r) => r.price !== '')?.price ?? '';
  return {
    sku: suggestSku(form.name, Object.values(values)),
    skuTouched: false,
    price,
    compareAtPrice: '',
    stock: '0',
  };
}

/**
 * The form with a row for every combination (rows typed earlier are kept, by their values), and
 * the SKUs staff have not typed suggested again from the name.
 */
export function withRows(form: ProductForm): ProductForm {
  const rows = { ...form.rows };
  for (const combo of combinations(form)) {
    const row = rows[combo.key];
    if (!row) rows[combo.key] = newRow(form, combo.values);
    else if (!row.skuTouched)
      rows[combo.key] = { ...row, sku: suggestSku(form.name, Object.values(combo.values)) };
  }
  return { ...form, rows };
}

/** One row changed as typed (the form unchanged if it has no such row). */
export function withRow(form: ProductForm, key: string, change: Partial<ProductRow>): ProductForm {
  const row = form.rows[key];
  return row ? { ...form, rows: { ...form.rows, [key]: { ...row, ...change } } } : form;
}

/** Every row at one price ("Apply" beside "Price for all"). */
export function withPriceForAll(form: ProductForm, price: string): ProductForm {
  const rows = Object.entries(form.rows).map(([key, row]) => [
    key,
    { ...row, price: price.trim() },
  ]);
  return { ...form, rows: Object.fromEntries(rows) };
}

/**
 * The sizes offered: the size system's, then those the piece already has beyond it (an
 * import's "One size", "UK 8"), which stay.
 */
export function sizeChoices(form: ProductForm): string[] {
  const kindSizes = SIZES[form.kind];
  return [...kindSizes, ...form.sizes.filter((s) => !kindSizes.includes(s))];
}

/** The sizes after one is toggled, kept in the order they are offered. */
export function toggledSizes(form: ProductForm, size: string): string[] {
  if (form.sizes.includes(size)) return form.sizes.filter((s) => s !== size);
  return sizeChoices(form).filter((s) => s === size || form.sizes.includes(s));
}

/** The sizes kept when the size system changes: those the new system has (none for one size). */
export function sizesForKind(form: ProductForm, kind: Kind): string[] {
  return kind === 'one-size' ? [] : form.sizes.filter((s) => SIZES[kind].includes(s));
}

/** The colours after one is typed, its spaces tidied; null when there is nothing new to add. */
export function addedColours(form: ProductForm, typed: string): string[] | null {
  const value = typed.trim().replace(/\s+/g, ' ');
  if (!value || form.colours.some((c) => c.toLowerCase() === value.toLowerCase())) return null;
  return [...form.colours, value];
}

/** Typed text as a number ("25,000" and "25 000" read 25000); empty is NaN, refused at the save. */
export const typedNumber = (text: string) =>
  text.trim() === '' ? Number.NaN : Number(text.replace(/[,\s]/g, ''));

/** desk.saveProduct's input from the form: `id` when editing, one variant per combination. */
export function productSaveInput(
  form: ProductForm,
  save: { id?: number; requestKey: string },
): ProductSaveInput {
  return {
    ...(save.id !== undefined ? { id: save.id } : {}),
    requestKey: save.requestKey,
    name: form.name,
    description: form.description,
    categoryIds: form.categoryIds,
    status: form.status,
    returnable: form.returnable,
    // Without sizes a piece is one size, whatever system was picked.
    kind: form.sizes.length ? form.kind : 'one-size',
    options: formOptions(form),
    variants: combinations(form).map(({ key, values }) => {
      const row = form.rows[key] as ProductRow;
      return {
        ...(row.id ? { id: row.id } : {}),
        options: values,
        sku: row.sku,
        price: typedNumber(row.price),
        ...(row.compareAtPrice.trim() ? { compareAtPrice: typedNumber(row.compareAtPrice) } : {}),
        stock: typedNumber(row.stock),
        ...(row.stockWas !== undefined ? { stockWas: row.stockWas } : {}),
      };
    }),
  };
}
