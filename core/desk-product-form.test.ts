import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { saveProductInput } from './desk-catalogue.ts';
import {
  addedColours,
  combinations,
  type EditedProduct,
  emptyProductForm,
  productForm,
  productSaveInput,
  sizeChoices,
  sizesForKind,
  toggledSizes,
  withPriceForAll,
  withRow,
  withRows,
} from './desk-product-form.ts';

const requestKey = crypto.randomUUID();

const dress = (): EditedProduct => ({
  name: 'Ankara Wrap Dress',
  description: 'Cotton.',
  categoryIds: [2],
  status: 'published',
  // Set apart from the default, so reading it is seen (issue 36: earrings, underwear).
  returnable: false,
  kind: 'clothes',
  options: [
    { name: 'Size', values: ['S', 'M'] },
    { name: 'Colour', values: ['Indigo'] },
  ],
  variants: [
    {
      id: 7,
      sku: 'AWD-S',
      price: 85000,
      compareAtPrice: null,
      stock: 3,
      options: { Size: 'S', Colour: 'Indigo' },
    },
    {
      id: 8,
      sku: 'AWD-M',
      price: 85000,
      compareAtPrice: 95000,
      stock: 0,
      options: { Size: 'M', Colour: 'Indigo' },
    },
  ],
});

describe('the product form', () => {
  it('opens a new product as a draft of clothes with one row to price', () => {
    const form = emptyProductForm();
    expect(form).toMatchObject({
      status: 'draft',
      returnable: true,
      kind: 'clothes',
      sizes: [],
      colours: [],
    });
    expect(form.rows).toEqual({
      '|': { sku: 'SKU', skuTouched: false, price: '', compareAtPrice: '', stock: '0' },
    });
  });

  it('opens a saved product with its values as text and the stock it had', () => {
    const form = productForm(dress());
    expect(form.sizes).toEqual(['S', 'M']);
    expect(form.colours).toEqual(['Indigo']);
    expect(form.returnable).toBe(false);
    expect(form.rows['M|Indigo']).toEqual({
      id: 8,
      sku: 'AWD-M',
      skuTouched: true,
      price: '85000',
      compareAtPrice: '95000',
      stock: '0',
      stockWas: 0,
    });
    expect(combinations(form).map((c) => c.label)).toEqual(['S · Indigo', 'M · Indigo']);
  });

  it('adds a row per new combination, priced like the others, its SKU suggested', () => {
    const form = withRows({ ...productForm(dress()), colours: ['Indigo', 'Gold'] });
    expect(Object.keys(form.rows)).toEqual(['S|Indigo', 'M|Indigo', 'S|Gold', 'M|Gold']);
    expect(form.rows['M|Gold']).toEqual({
      sku: 'AWD-M-GOL',
      skuTouched: false,
      price: '85000',
      compareAtPrice: '',
      stock: '0',
    });
  });

  it('suggests SKUs again as the name changes, except those typed', () => {
    let form = withRows({ ...emptyProductForm(), name: 'Kitenge Shirt', sizes: ['M'] });
    form = withRow(form, 'M|', { sku: 'MINE', skuTouched: true });
    form = withRows({ ...form, sizes: ['M', 'L'] });
    expect(form.rows['M|']?.sku).toBe('MINE');
    expect(form.rows['L|']?.sku).toBe('KS-L');
    expect(withRow(form, 'XL|', { sku: 'X' })).toBe(form);
  });

  it('puts every row at the price for all, trimmed', () => {
    const form = withPriceForAll(productForm(dress()), ' 90000 ');
    expect(Object.values(form.rows).map((r) => r.price)).toEqual(['90000', '90000']);
  });

  it("keeps sizes in the system's order, and sizes from beyond it", () => {
    const form = { ...emptyProductForm(), sizes: ['L', 'UK 8'] };
    expect(sizeChoices(form)).toEqual(['XS', 'S', 'M', 'L', 'XL', 'XXL', 'UK 8']);
    expect(toggledSizes(form, 'S')).toEqual(['S', 'L', 'UK 8']);
    expect(toggledSizes(form, 'L')).toEqual(['UK 8']);
    expect(sizesForKind(form, 'shoes')).toEqual([]);
    expect(sizesForKind({ ...form, sizes: ['S', 'M'] }, 'clothes')).toEqual(['S', 'M']);
    expect(sizesForKind(form, 'one-size')).toEqual([]);
  });

  it('adds a colour once, its spaces tidied', () => {
    const form = { ...emptyProductForm(), colours: ['Indigo'] };
    expect(addedColours(form, '  Burnt   orange ')).toEqual(['Indigo', 'Burnt orange']);
    expect(addedColours(form, 'indigo')).toBeNull();
    expect(addedColours(form, '   ')).toBeNull();
  });

  it('sends what desk.saveProduct takes: an edit with its ids, stock and typed numbers', () => {
    let form = productForm(dress());
    form = withRow(form, 'S|Indigo', { price: '80,000', stock: '5' });
    const input = productSaveInput(form, { id: 4, requestKey });
    expect(input).toMatchObject({ id: 4, requestKey, kind: 'clothes', returnable: false });
    expect(input.options).toEqual(dress().options);
    expect(input.variants).toEqual([
      {
        id: 7,
        options: { Size: 'S', Colour: 'Indigo' },
        sku: 'AWD-S',
        price: 80000,
        stock: 5,
        stockWas: 3,
      },
      {
        id: 8,
        options: { Size: 'M', Colour: 'Indigo' },
        sku: 'AWD-M',
        price: 85000,
        compareAtPrice: 95000,
        stock: 0,
        stockWas: 0,
      },
    ]);
    expect(v.safeParse(saveProductInput, input).success).toBe(true);
  });

  it('sends a new piece without sizes as one size, its empty price refused at the save', () => {
    const input = productSaveInput(withRows({ ...emptyProductForm(), name: 'Tote' }), {
      requestKey,
    });
    expect(input).not.toHaveProperty('id');
    expect(input.kind).toBe('one-size');
    expect(input.options).toEqual([]);
    expect(input.variants).toEqual([{ options: {}, sku: 'T', price: Number.NaN, stock: 0 }]);
    expect(v.safeParse(saveProductInput, input).success).toBe(false);
  });
});
