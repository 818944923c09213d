import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  deskProductsInput,
  inferKind,
  type ProductSaveInput,
  saveProductInput,
  suggestSku,
  DESK_CATALOGUE_TEXT as T,
} from './desk-catalogue.ts';

const dress = (): ProductSaveInput => ({
  name: '  Ankara Wrap Dress ',
  description: 'Cotton.\nMade in Kampala.',
  categoryIds: [2, 2, 5],
  status: 'draft',
  options: [
    { name: 'Size', values: ['S', 'M'] },
    { name: 'Colour', values: ['Indigo'] },
  ],
  variants: [
    { options: { Size: 'S', Colour: 'Indigo' }, sku: 'AWD-S-IND', price: 145_000, stock: 2 },
    {
      id: 7,
      options: { Colour: 'Indigo', Size: 'M' },
      sku: 'AWD-M-IND',
      price: 150_000,
      compareAtPrice: 180_000,
      stock: 0,
      stockWas: 1,
    },
  ],
});

const problem = (input: unknown) => {
  const result = v.safeParse(saveProductInput, input);
  return result.success ? null : result.issues[0].message;
};

describe('saveProductInput', () => {
  it('takes the contract shape: trimmed, kind inferred, labels made, categories once', () => {
    const save = v.parse(saveProductInput, dress());
    expect(save.name).toBe('Ankara Wrap Dress');
    expect(save.kind).toBe('clothes');
    expect(save.categoryIds).toEqual([2, 5]);
    expect(save.variants.map((variant) => variant.label)).toEqual(['S · Indigo', 'M · Indigo']);
    expect(save.variants[0]?.compareAtPrice).toBeNull();
    expect(save.variants[1]).toMatchObject({ id: 7, stockWas: 1, compareAtPrice: 180_000 });
  });

  it('infers the size system, or keeps the one given', () => {
    expect(inferKind([])).toBe('one-size');
    expect(inferKind([{ name: 'Size', values: ['38', '39'] }])).toBe('shoes');
    expect(inferKind([{ name: 'Size', values: ['38', 'M'] }])).toBe('clothes');
    expect(inferKind([{ name: 'Colour', values: ['Red'] }])).toBe('one-size');
    expect(v.parse(saveProductInput, { ...dress(), kind: 'one-size' }).kind).toBe('one-size');
  });

  it('takes a piece without options with exactly one variant of options {}', () => {
    const single = {
      ...dress(),
      options: [],
      variants: [{ options: {}, sku: 'BAG-1', price: 90_000, stock: 3 }],
    };
    expect(v.parse(saveProductInput, single).variants[0]?.label).toBe('');
    expect(problem({ ...single, variants: [...single.variants, single.variants[0]] })).toBe(
      T.oneVariant,
    );
    expect(
      problem({ ...single, variants: [{ ...single.variants[0], options: { Size: 'M' } }] }),
    ).toBe(T.variantOptions('A variant'));
  });

  it('refuses what a save must not hold, each with its own clear text', () => {
    const base = dress();
    const [s, m] = base.variants as [
      ProductSaveInput['variants'][number],
      ProductSaveInput['variants'][number],
    ];
    const cases: [unknown, string][] = [
      [{ ...base, name: '   ' }, T.nameMissing],
      [{ ...base, name: 'a'.repeat(121) }, T.nameLong],
      [{ ...base, name: 'Dress\u0000' }, T.controlCharacters],
      [{ ...base, description: 'Bell\u0007' }, T.controlCharacters],
      [{ ...base, description: 'x'.repeat(5001) }, T.descriptionLong],
      [{ ...base, status: 'live' }, T.badStatus],
      [{ ...base, kind: 'hats' }, T.badKind],
      [{ ...base, categoryIds: [0] }, T.badCategory],
      [{ ...base, categoryIds: ['1'] }, T.badCategory],
      [{ ...base, options: [{ name: 'Fabric', values: ['Silk'] }] }, T.badOption],
      [{ ...base, options: [...base.options, base.options[0]] }, T.badOption],
      [
        { ...base, options: [{ name: 'Size', values: [] }, base.options[1]] },
        T.optionEmpty('Size'),
      ],
      [
        { ...base, options: [{ name: 'Size', values: ['S', 's', 'M'] }, base.options[1]] },
        T.valueTwice('s'),
      ],
      [{ ...base, variants: [] }, T.noVariants],
      [{ ...base, variants: [s, { ...s, sku: 'OTHER' }] }, T.variantTwice('S · Indigo')],
      [
        { ...base, variants: [s, { ...m, options: { Size: 'L', Colour: 'Indigo' } }] },
        T.variantOptions('L · Indigo'),
      ],
      [{ ...base, variants: [s, { ...m, options: { Size: 'M' } }] }, T.variantOptions('M')],
      [{ ...base, variants: [s, { ...m, sku: 'awd-s-ind' }] }, T.skuTwice('awd-s-ind')],
      [{ ...base, variants: [s, { ...m, sku: 'AWD M' }] }, T.badSku],
      [{ ...base, variants: [s, { ...m, sku: 'A'.repeat(41) }] }, T.badSku],
      [{ ...base, variants: [s, { ...m, price: -1 }] }, T.badPrice],
      [{ ...base, variants: [s, { ...m, price: 1.5 }] }, T.badPrice],
      [{ ...base, variants: [s, { ...m, price: 100_000_001 }] }, T.badPrice],
      [{ ...base, variants: [s, { ...m, price: Number.NaN }] }, T.badPrice],
      [
        { ...base, variants: [s, { ...m, compareAtPrice: 150_000 }] },
        T.compareAtNotAbove('M · Indigo'),
      ],
      [{ ...base, variants: [s, { ...m, stock: -1 }] }, T.badStock],
      [{ ...base, variants: [s, { ...m, stockWas: 0.5 }] }, T.badStock],
      [{ ...base, variants: [s, { ...m, surprise: 1 }] }, T.badInput],
      [{ ...base, surprise: 1 }, T.badInput],
      [
        { ...base, requestKey: 'not-a-uuid' },
        'This save could not be matched. Reload the page and try again.',
      ],
      ['a dress', T.badInput],
    ];
    for (const [input, message] of cases) expect(problem(input), message).toBe(message);
  });
});

describe('deskProductsInput', () => {
  it('takes a search and a status, and refuses long or odd ones', () => {
    expect(v.parse(deskProductsInput, undefined)).toEqual({});
    expect(v.parse(deskProductsInput, { q: ' wrap ', status: 'draft' })).toEqual({
      q: 'wrap',
      status: 'draft',
    });
    expect(v.safeParse(deskProductsInput, { q: 'x'.repeat(101) }).success).toBe(false);
    expect(v.safeParse(deskProductsInput, { q: 'a\u0000' }).success).toBe(false);
    expect(v.safeParse(deskProductsInput, { status: 'gone' }).success).toBe(false);
  });
});

describe('suggestSku', () => {
  it('makes a SKU from the name and the values, always a valid one', () => {
    expect(suggestSku('Ankara Wrap Dress', ['M', 'Indigo'])).toBe('AWD-M-IND');
    expect(suggestSku('Leather Sandals', ['38'])).toBe('LS-38');
    expect(suggestSku('Bag', [])).toBe('B');
    expect(suggestSku('', ['Ochre yellow'])).toBe('SKU-OCH');
    expect(suggestSku('Élan Robe', ['Off white'])).toBe('ER-OFF');
  });
});
