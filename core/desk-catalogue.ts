// The desk's catalogue (issue 22): what a product save may hold, checked whole before anything is
// written. The editor, desk.saveProduct and the spreadsheet import share this one input.
import * as v from 'valibot';
import { idSchema, wholeSchema } from './bounds.ts';
import { PRODUCT_STATUSES, requestKey } from './desk-roles.ts';
import {
  COLOUR,
  KINDS,
  type Kind,
  type ProductOption,
  SIZE,
  SIZES,
  variantLabel,
} from './variants.ts';

export const CATALOGUE_LIMITS = {
  name: 120,
  description: 5_000,
  optionValue: 30,
  values: 20,
  variants: 300,
  categories: 20,
  sku: 40,
  /** UGX 100 million: beyond any dress; a slip of the thumb, not a price. */
  price: 100_000_000,
  stock: 100_000,
} as const;

/** The option names the shop uses, in the order a product lists them. */
export const OPTION_NAMES = [SIZE, COLOUR] as const;

export const DESK_CATALOGUE_TEXT = {
  returnable: 'Can be returned',
  returnableNote: 'Shoppers may return or exchange it within the shop’s windows.',
  notReturnableNote: 'The product page says it cannot be returned or exchanged.',
  badInput: 'Please check the product and try again.',
  nameMissing: 'Please give the product a name.',
  nameLong: `The name can be at most ${CATALOGUE_LIMITS.name} characters.`,
  descriptionLong: `The description can be at most ${CATALOGUE_LIMITS.description} characters.`,
  controlCharacters: 'Please remove the unusual characters from the text.',
  badStatus: 'Please choose Draft, Published or Archived.',
  badKind: 'Please choose clothes, shoes or one size.',
  badReturnable: 'Say whether this piece can be returned: yes or no.',
  badCategory: 'Please choose categories from the list.',
  tooManyCategories: `A product can be in at most ${CATALOGUE_LIMITS.categories} categories.`,
  badOption: 'A product’s options are Size and Colour.',
  optionTwice: 'Each option can be given once.',
  optionEmpty: (name: string) => `Please give at least one ${name.toLowerCase()}.`,
  badValue: `An option’s value is 1 to ${CATALOGUE_LIMITS.optionValue} characters.`,
  tooManyValues: `An option can have at most ${CATALOGUE_LIMITS.values} values.`,
  valueTwice: (value: string) => `${value} is listed twice.`,
  noVariants: 'Please add at least one variant.',
  tooManyVariants: `A product can have at most ${CATALOGUE_LIMITS.variants} variants.`,
  oneVariant: 'A product without sizes or colours has exactly one variant.',
  variantOptions: (label: string) =>
    `${label || 'A variant'}: choose a value from each of the product’s options.`,
  variantTwice: (label: string) => `${label} is listed twice.`,
  badSku: `A SKU is 1 to ${CATALOGUE_LIMITS.sku} letters, digits or dashes.`,
  skuTwice: (sku: string) => `The SKU ${sku} is used twice.`,
  badPrice: `A price is a whole number of UGX from 0 to ${CATALOGUE_LIMITS.price.toLocaleString('en-US')}.`,
  compareAtNotAbove: (label: string) =>
    `${label ? `${label}: ` : ''}the compare-at price must be above the price.`,
  badStock: `Stock is a whole number from 0 to ${CATALOGUE_LIMITS.stock.toLocaleString('en-US')}.`,
  badId: 'Product not found',
  badVariantId: 'Variant not found',
  // The service's problems.
  skuTaken: (sku: string) => `The SKU ${sku} belongs to another product.`,
  notEnoughStock: (label: string) =>
    `${label ? `${label}: ` : ''}pieces were sold while you edited; there are fewer left than you took off. Reload and try again.`,
  savedAtOnce: 'Someone saved at the same moment. Please try again.',
  saved: 'Product saved',
  badSearch: 'Please search with at most 100 characters.',
} as const;

const T = DESK_CATALOGUE_TEXT;
/** Whether a text holds control characters (NUL included); `lines` lets line breaks and tabs by. */
function hasControl(text: string, lines = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (lines && (code === 9 || code === 10 || code === 13)) continue;
    if (code < 32 || code === 127) return true;
  }
  return false;
}
const id = idSchema;
const whole = (max: number, message: string) => wholeSchema(0, max, message);
/** A one-line text: trimmed, without control characters. */
const line = (max: number, missing: string, long: string) =>
  v.pipe(
    v.string(missing),
    v.check((s) => !hasControl(s), T.controlCharacters),
    v.trim(),
    v.minLength(1, missing),
    v.maxLength(max, long),
  );

const optionValue = line(CATALOGUE_LIMITS.optionValue, T.badValue, T.badValue);

const option = v.strictObject(
  {
    // A plain string (the type a spreadsheet's column or a stored product has), one of the shop's.
    name: v.pipe(
      v.string(T.badOption),
      v.check((name) => (OPTION_NAMES as readonly string[]).includes(name), T.badOption),
    ),
    values: v.pipe(
      v.array(optionValue, T.badValue),
      v.maxLength(CATALOGUE_LIMITS.values, T.tooManyValues),
    ),
  },
  T.badOption,
);

const variant = v.strictObject(
  {
    id: v.optional(id(T.badVariantId)),
    options: v.record(v.string(T.badOption), optionValue, T.badOption),
    sku: v.pipe(
      v.string(T.badSku),
      v.trim(),
      v.regex(new RegExp(`^[A-Za-z0-9-]{1,${CATALOGUE_LIMITS.sku}}$`), T.badSku),
    ),
    price: whole(CATALOGUE_LIMITS.price, T.badPrice),
    compareAtPrice: v.optional(v.nullable(whole(CATALOGUE_LIMITS.price, T.badPrice))),
    stock: whole(CATALOGUE_LIMITS.stock, T.badStock),
    /** The stock the editor loaded: the save applies stock − stockWas to the stock now. */
    stockWas: v.optional(whole(CATALOGUE_LIMITS.stock, T.badStock)),
  },
  T.badInput,
);

/** The size system a product's sizes come from, when the save does not say. */
export function inferKind(options: readonly ProductOption[]): Kind {
  const sizes = options.find((o) => o.name === SIZE)?.values ?? [];
  if (sizes.length === 0) return 'one-size';
  return sizes.every((size) => SIZES.shoes.includes(size)) ? 'shoes' : 'clothes';
}

type Checked = {
  options: ProductOption[];
  variants: {
    options: Record<string, string>;
    sku: string;
    price: number;
    compareAtPrice?: number | null;
  }[];
};

/** The rules across fields: every problem named, the first one shown. */
function wholeProductProblem(input: Checked): string | null {
  const names = input.options.map((o) => o.name);
  if (new Set(names).size !== names.length) return T.optionTwice;
  for (const o of input.options) {
    if (o.values.length === 0) return T.optionEmpty(o.name);
    const seen = new Set<string>();
    for (const value of o.values) {
      if (seen.has(value.toLowerCase())) return T.valueTwice(value);
      seen.add(value.toLowerCase());
    }
  }
  if (input.variants.length === 0) return T.noVariants;
  if (input.options.length === 0 && input.variants.length !== 1) return T.oneVariant;
  const combos = new Set<string>();
  const skus = new Set<string>();
  for (const variant of input.variants) {
    const label = variantLabel(variant.options, input.options);
    const keys = Object.keys(variant.options);
    const matches =
      keys.length === input.options.length &&
      input.options.every((o) => o.values.includes(variant.options[o.name] ?? ''));
    if (!matches) return T.variantOptions(label);
    if (combos.has(label)) return T.variantTwice(label);
    combos.add(label);
    const sku = variant.sku.toUpperCase();
    if (skus.has(sku)) return T.skuTwice(variant.sku);
    skus.add(sku);
    const compareAt = variant.compareAtPrice;
    if (compareAt != null && compareAt <= variant.price) return T.compareAtNotAbove(label);
  }
  return null;
}

/** desk.saveProduct's input (and each row group of an import): no `id` creates, an `id` edits. */
export const saveProductInput = v.pipe(
  v.strictObject(
    {
      id: v.optional(id(T.badId)),
      requestKey: v.optional(requestKey),
      name: line(CATALOGUE_LIMITS.name, T.nameMissing, T.nameLong),
      description: v.pipe(
        v.string(T.descriptionLong),
        v.check((s) => !hasControl(s, true), T.controlCharacters),
        v.trim(),
        v.maxLength(CATALOGUE_LIMITS.description, T.descriptionLong),
      ),
      categoryIds: v.pipe(
        v.array(id(T.badCategory), T.badCategory),
        v.maxLength(CATALOGUE_LIMITS.categories, T.tooManyCategories),
        v.transform((ids) => [...new Set(ids)]),
      ),
      status: v.picklist(PRODUCT_STATUSES, T.badStatus),
      kind: v.optional(v.picklist(KINDS, T.badKind)),
      /** Issue 36: earrings and underwear are not (absent: a new piece is; an edit keeps it). */
      returnable: v.optional(v.boolean(T.badReturnable)),
      options: v.pipe(v.array(option, T.badOption), v.maxLength(OPTION_NAMES.length, T.badOption)),
      variants: v.pipe(
        v.array(variant, T.noVariants),
        v.maxLength(CATALOGUE_LIMITS.variants, T.tooManyVariants),
      ),
    },
    T.badInput,
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = wholeProductProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
  v.transform((input) => ({
    ...input,
    kind: input.kind ?? inferKind(input.options),
    variants: input.variants.map((variant) => ({
      ...variant,
      compareAtPrice: variant.compareAtPrice ?? null,
      label: variantLabel(variant.options, input.options),
    })),
  })),
);

export type ProductSaveInput = v.InferInput<typeof saveProductInput>;
/** One product to save, checked whole: what saveProducts (server/services/desk-catalogue-service.ts) takes. */
export type ProductSave = v.InferOutput<typeof saveProductInput>;

/** desk.products' input: a search by name or SKU, and a status. */
export const deskProductsInput = v.optional(
  v.strictObject(
    {
      q: v.optional(
        v.pipe(
          v.string(T.badSearch),
          v.check((s) => !hasControl(s), T.badSearch),
          v.trim(),
          v.maxLength(100, T.badSearch),
        ),
      ),
      status: v.optional(v.picklist(PRODUCT_STATUSES, T.badStatus)),
    },
    T.badSearch,
  ),
  {},
);

/** desk.product's input. */
export const deskProductInput = v.strictObject({ id: id(T.badId) }, T.badId);

/**
 * The SKU the editor suggests: the name's initials and the option values, "AWD-M-IND" for an
 * Ankara Wrap Dress in M, Indigo. Staff may type their own.
 */
export function suggestSku(name: string, values: readonly string[]): string {
  const clean = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .replace(/[^A-Z0-9 ]+/g, ' ')
      .trim();
  const words = clean(name).split(/\s+/).filter(Boolean);
  const head =
    words
      .map((w) => w[0])
      .join('')
      .slice(0, 6) || 'SKU';
  const tail = values.map((value) => {
    const word = clean(value).replace(/\s+/g, '');
    return /^\d+$/.test(word) ? word : word.slice(0, 3);
  });
  return [head, ...tail.filter(Boolean)].join('-').slice(0, CATALOGUE_LIMITS.sku);
}
