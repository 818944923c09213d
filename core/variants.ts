// Sizes, colours and the variants a shopper buys (decision 0039). Pure: the server, the pages,
// the seeder and the assistant share these rules.
import * as v from 'valibot';
import { idSchema } from './bounds.ts';

/** An option a product comes in, with its values in the order shown. */
export type ProductOption = { name: string; values: string[] };
/** A variant's value for each option: { Size: 'M', Colour: 'Indigo' }; {} for none. */
export type VariantOptions = Record<string, string>;

/** The option names the shop uses. */
export const SIZE = 'Size';
export const COLOUR = 'Colour';

/** The size system of each kind of piece. */
export const KINDS = ['clothes', 'shoes', 'one-size'] as const;
export type Kind = (typeof KINDS)[number];
export const SIZES: Record<Kind, readonly string[]> = {
  clothes: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  shoes: ['36', '37', '38', '39', '40', '41', '42', '43', '44', '45', '46'],
  'one-size': [],
};

export const VARIANT_TEXT = {
  chooseSize: 'Please choose a size.',
  chooseColour: 'Please choose a colour.',
  soldOut: 'Sold out',
  notifyMe: 'Tell me when it’s back',
  notifyAsked: 'We’ll text you when it’s back.',
  notifySignIn: 'Sign in to be told when it’s back.',
  notInStockNow: 'This size is in stock now: add it to your cart.',
  notifyNeedsPhone: 'Add your phone number in your profile so we can text you.',
} as const;

/** "M · Indigo": the variant's values in the product's option order ('' for none). */
export function variantLabel(options: VariantOptions, productOptions: readonly ProductOption[]) {
  return productOptions
    .map((option) => options[option.name])
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .join(' · ');
}

/** "Ankara Wrap Dress (M · Indigo)", or the name alone for a piece without options. */
export function nameWithVariant(name: string, label: string | null | undefined): string {
  return label ? `${name} (${label})` : name;
}

/** A variant as the storefront sees it (catalogue.productBySlug's contract). */
export type Variant = {
  id: number;
  /** The shop's own code for it (unique): its JSON-LD offer's sku. */
  sku: string;
  label: string;
  options: VariantOptions;
  price: number;
  compareAtPrice: number | null;
  /** Pieces that can be bought now. */
  available: number;
};

/** The variant whose values match every chosen one, if the choice is complete. */
export function findVariant<V extends { options: VariantOptions }>(
  variants: readonly V[],
  chosen: VariantOptions,
  productOptions: readonly ProductOption[],
): V | undefined {
  if (productOptions.some((option) => !chosen[option.name])) return undefined;
  return variants.find((variant) =>
    productOptions.every((option) => variant.options[option.name] === chosen[option.name]),
  );
}

/**
 * Whether a value can still be chosen given the other choices made: some variant with it (and
 * the other chosen values) has stock. A sold-out size is shown but disabled.
 */
export function valueAvailable(
  variants: readonly Variant[],
  option: string,
  value: string,
  chosen: VariantOptions,
): boolean {
  return variants.some(
    (variant) =>
      variant.options[option] === value &&
      variant.available > 0 &&
      Object.entries(chosen).every(
        ([name, picked]) => name === option || !picked || variant.options[name] === picked,
      ),
  );
}

/** The lowest and highest price a product's variants ask. */
export function priceRange(variants: readonly { price: number }[]): { from: number; to: number } {
  const prices = variants.map((v) => v.price);
  return { from: Math.min(...prices), to: Math.max(...prices) };
}

/** catalogue.notifyWhenBack's input. */
export const notifyWhenBackInput = v.strictObject(
  { variantId: idSchema('Product not found') },
  'Product not found',
);
