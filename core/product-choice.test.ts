import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  availableAsChosen,
  chosenVariant,
  initialChoice,
  missingChoice,
  sizesOf,
} from './product-choice.ts';
import { productPageSearch } from './product-search.ts';
import type { ProductOption, Variant } from './variants.ts';

const options: ProductOption[] = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Colour', values: ['Indigo', 'Terracotta'] },
];
let nextId = 1;
const variant = (size: string, colour: string, available: number): Variant => ({
  id: nextId,
  sku: `WRAP-${nextId++}`,
  label: `${size} · ${colour}`,
  options: { Size: size, Colour: colour },
  price: 145_000,
  compareAtPrice: null,
  available,
});
const variants = [
  variant('S', 'Indigo', 4),
  variant('M', 'Indigo', 2),
  variant('L', 'Indigo', 0),
  variant('S', 'Terracotta', 5),
  variant('M', 'Terracotta', 9),
  variant('L', 'Terracotta', 0),
];
const dress = { options, variants };

describe('productPageSearch (?variant=)', () => {
  const read = (search: unknown) => v.parse(productPageSearch, search).variant;
  it('reads a variant id, as a number or as digits', () => {
    expect(read({ variant: 12 })).toBe(12);
    expect(read({ variant: '12' })).toBe(12);
  });
  it('reads anything else as no variant, never an error', () => {
    for (const bad of ['abc', 0, -1, 1.5, '1.5', 99_999_999_999, null, {}, '']) {
      expect(read({ variant: bad })).toBeUndefined();
    }
    expect(read({})).toBeUndefined();
  });
});

describe('initialChoice', () => {
  it('opens the variant the URL names, even a sold-out one', () => {
    expect(initialChoice(dress, variants[1]?.id)).toEqual({ Size: 'M', Colour: 'Indigo' });
    expect(initialChoice(dress, variants[2]?.id)).toEqual({ Size: 'L', Colour: 'Indigo' });
  });
  it('otherwise chooses the first colour in stock and never a size', () => {
    expect(initialChoice(dress)).toEqual({ Colour: 'Indigo' });
    expect(initialChoice(dress, 999_999)).toEqual({ Colour: 'Indigo' });
    const indigoGone = {
      options,
      variants: variants.map((x) => (x.options.Colour === 'Indigo' ? { ...x, available: 0 } : x)),
    };
    expect(initialChoice(indigoGone)).toEqual({ Colour: 'Terracotta' });
  });
  it('chooses an option with a single value', () => {
    const oneColour = { options: [{ name: 'Size', values: ['M'] }], variants: [] };
    expect(initialChoice(oneColour)).toEqual({ Size: 'M' });
  });
});

describe('chosenVariant and missingChoice', () => {
  it('names the variant once size and colour are chosen', () => {
    expect(chosenVariant(dress, { Colour: 'Indigo' })).toBeNull();
    expect(chosenVariant(dress, { Size: 'M', Colour: 'Indigo' })?.label).toBe('M · Indigo');
  });
  it('asks for the size first, then the colour', () => {
    expect(missingChoice(options, { Colour: 'Indigo' })?.text).toBe('Please choose a size.');
    expect(missingChoice(options, {})?.option).toBe('Size');
    expect(missingChoice(options, { Size: 'M' })?.text).toBe('Please choose a colour.');
    expect(missingChoice(options, { Size: 'M', Colour: 'Indigo' })).toBeNull();
  });
  it('a piece without options is its only variant', () => {
    const only = variant('', '', 3);
    const bag = { options: [], variants: [{ ...only, options: {}, label: '' }] };
    expect(chosenVariant(bag, {})?.id).toBe(only.id);
    expect(missingChoice([], {})).toBeNull();
  });
});

describe('availableAsChosen', () => {
  it('is the chosen variant’s stock, or the most a matching one has', () => {
    expect(availableAsChosen(dress, { Size: 'M', Colour: 'Indigo' })).toBe(2);
    expect(availableAsChosen(dress, { Size: 'L', Colour: 'Indigo' })).toBe(0);
    expect(availableAsChosen(dress, { Colour: 'Indigo' })).toBe(4);
    expect(availableAsChosen(dress, {})).toBe(9);
  });
  it('sizesOf reads the Size option', () => {
    expect(sizesOf(options)).toEqual(['S', 'M', 'L']);
    expect(sizesOf([])).toEqual([]);
  });
});
