import { describe, expect, it } from 'vitest';
import { hasSizeGuide, sizeGuideFor } from './size-guide.ts';
import { SIZES } from './variants.ts';

describe('sizeGuideFor', () => {
  it('lists clothes in cm: bust, waist, hips and length, for the sizes the piece comes in', () => {
    const guide = sizeGuideFor('clothes', ['S', 'M', 'L']);
    expect(guide?.columns).toEqual(['Size', 'Bust', 'Waist', 'Hips', 'Length']);
    expect(guide?.rows.map((row) => row[0])).toEqual(['S', 'M', 'L']);
    expect(guide?.rows[1]).toEqual(['M', '88–92', '70–74', '94–98', '100']);
    expect(guide?.caption).toMatch(/centimetres/);
  });

  it('knows every clothes size XS–XXL and every shoe size 36–46', () => {
    expect(sizeGuideFor('clothes', SIZES.clothes)?.rows).toHaveLength(6);
    const shoes = sizeGuideFor('shoes', SIZES.shoes);
    expect(shoes?.columns).toEqual(['EU', 'UK', 'Foot length (cm)']);
    expect(shoes?.rows).toHaveLength(11);
    expect(shoes?.rows[0]).toEqual(['36', '3.5', '23.0']);
    expect(shoes?.rows.at(-1)).toEqual(['46', '11', '29.5']);
  });

  it('lists the sizes in the order the piece has them, measurements growing with size', () => {
    const rows = sizeGuideFor('shoes', ['40', '38', '39'])?.rows ?? [];
    expect(rows.map((row) => row[0])).toEqual(['40', '38', '39']);
    const feet = (sizeGuideFor('shoes', SIZES.shoes)?.rows ?? []).map((row) => Number(row[2]));
    expect(feet).toEqual([...feet].sort((a, b) => a - b));
    const busts = (sizeGuideFor('clothes', SIZES.clothes)?.rows ?? []).map((row) =>
      Number(row[1]?.split('–')[0]),
    );
    expect(busts).toEqual([...busts].sort((a, b) => a - b));
  });

  it('has no guide for one-size pieces nor for sizes it does not know', () => {
    expect(sizeGuideFor('one-size', [])).toBeNull();
    expect(sizeGuideFor('clothes', [])).toBeNull();
    expect(sizeGuideFor('clothes', ['3XL'])).toBeNull();
    expect(sizeGuideFor('clothes', ['M', '3XL'])?.rows.map((row) => row[0])).toEqual(['M']);
  });

  it('hasSizeGuide says the same without reading the charts', () => {
    const cases: [Parameters<typeof sizeGuideFor>[0], string[]][] = [
      ['clothes', ['S', 'M']],
      ['clothes', ['3XL']],
      ['clothes', []],
      ['shoes', ['36', '47']],
      ['shoes', ['M']],
      ['one-size', []],
      ['one-size', ['M']],
    ];
    for (const [kind, sizes] of cases) {
      expect(hasSizeGuide(kind, sizes)).toBe(sizeGuideFor(kind, sizes) !== null);
    }
  });
});
