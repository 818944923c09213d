// Choosing a size and colour on a product page or in the product dialog (issue 21). Pure: the
// page, the dialog and their tests share these rules.
import {
  COLOUR,
  findVariant,
  type ProductOption,
  SIZE,
  VARIANT_TEXT,
  type Variant,
  type VariantOptions,
  valueAvailable,
} from './variants.ts';

type Choosable = { options: readonly ProductOption[]; variants: readonly Variant[] };

/**
 * What is chosen when the page opens: the variant the URL names (even a sold-out one: it shows as
 * sold out, with "Tell me when it's back"); otherwise every option with a single value, and the
 * first colour still in stock, so the gallery shows a colour. A size is never chosen for the
 * shopper.
 */
export function initialChoice(product: Choosable, variantId?: number | null): VariantOptions {
  const named = variantId ? product.variants.find((variant) => variant.id === variantId) : null;
  if (named) return { ...named.options };
  const chosen: VariantOptions = {};
  for (const option of product.options) {
    const only = option.values.length === 1 ? option.values[0] : undefined;
    if (only) chosen[option.name] = only;
    else if (option.name === COLOUR) {
      const first =
        option.values.find((value) => valueAvailable([...product.variants], COLOUR, value, {})) ??
        option.values[0];
      if (first) chosen[COLOUR] = first;
    }
  }
  return chosen;
}

/** The variant the choice names, when it is complete (a piece without options: its only one). */
export function chosenVariant(product: Choosable, chosen: VariantOptions): Variant | null {
  return findVariant(product.variants, chosen, product.options) ?? null;
}

/** What to say when Add to Cart is pressed before the choice is complete (null: it is). */
export function missingChoice(
  options: readonly ProductOption[],
  chosen: VariantOptions,
): { option: string; text: string } | null {
  const missing = options.find((option) => !chosen[option.name]);
  if (!missing) return null;
  return {
    option: missing.name,
    text: missing.name === COLOUR ? VARIANT_TEXT.chooseColour : VARIANT_TEXT.chooseSize,
  };
}

/**
 * How many of the piece can be bought as chosen so far: the chosen variant's stock, or before the
 * choice is complete the most any variant matching it has (for the quantity stepper's limit).
 */
export function availableAsChosen(product: Choosable, chosen: VariantOptions): number {
  const variant = chosenVariant(product, chosen);
  if (variant) return Math.max(0, variant.available);
  const matching = product.variants.filter((candidate) =>
    Object.entries(chosen).every(([name, value]) => candidate.options[name] === value),
  );
  return Math.max(0, ...matching.map((candidate) => candidate.available));
}

/** The sizes a product comes in (its Size option's values), for the size guide. */
export function sizesOf(options: readonly ProductOption[]): string[] {
  return options.find((option) => option.name === SIZE)?.values ?? [];
}
