// The size guide a product page opens (issue 21): body measurements per size, in the size system of
// the piece's kind, for only the sizes the piece comes in. Pure: the page and its tests read it.
import { type Kind, SIZES } from './variants.ts';

export type SizeGuide = {
  title: string;
  /** What the table lists, read as the table's caption. */
  caption: string;
  /** Column headings; the first is the size. */
  columns: string[];
  /** One row per size the piece comes in, in the size system's order. */
  rows: string[][];
  /** How to measure, in a sentence or two. */
  notes: string[];
};

/** Clothes: body measurements in cm (a range: between two, take the larger size). */
const CLOTHES: Record<string, { bust: string; waist: string; hips: string; length: string }> = {
  XS: { bust: '80–84', waist: '62–66', hips: '86–90', length: '96' },
  S: { bust: '84–88', waist: '66–70', hips: '90–94', length: '98' },
  M: { bust: '88–92', waist: '70–74', hips: '94–98', length: '100' },
  L: { bust: '94–98', waist: '76–80', hips: '100–104', length: '102' },
  XL: { bust: '100–104', waist: '82–86', hips: '106–110', length: '104' },
  XXL: { bust: '106–110', waist: '88–92', hips: '112–116', length: '106' },
};

/** Shoes: EU size, UK size and the foot's length in cm, heel to longest toe. */
const SHOES: Record<string, { uk: string; foot: string }> = {
  '36': { uk: '3.5', foot: '23.0' },
  '37': { uk: '4', foot: '23.5' },
  '38': { uk: '5', foot: '24.0' },
  '39': { uk: '6', foot: '25.0' },
  '40': { uk: '6.5', foot: '25.5' },
  '41': { uk: '7.5', foot: '26.0' },
  '42': { uk: '8', foot: '26.5' },
  '43': { uk: '9', foot: '27.5' },
  '44': { uk: '9.5', foot: '28.0' },
  '45': { uk: '10.5', foot: '29.0' },
  '46': { uk: '11', foot: '29.5' },
};

export const SIZE_GUIDE_TEXT = {
  open: 'Size guide',
  clothesTitle: 'Size guide: clothes',
  shoesTitle: 'Size guide: shoes',
} as const;

/** Whether a piece has a size guide: some of its sizes are in its kind's size system, which the
 * charts cover (read without the charts, so the page's button ships without them). */
export function hasSizeGuide(kind: Kind, sizes: readonly string[]): boolean {
  return sizes.some((size) => SIZES[kind].includes(size));
}

/**
 * The guide for a piece of `kind` sold in `sizes` (its Size option's values): null for one-size
 * pieces, and for sizes the chart does not know (nothing is made up).
 */
export function sizeGuideFor(kind: Kind, sizes: readonly string[]): SizeGuide | null {
  if (kind === 'clothes') {
    const known = sizes.filter((size) => size in CLOTHES);
    if (known.length === 0) return null;
    return {
      title: SIZE_GUIDE_TEXT.clothesTitle,
      caption: 'Body measurements in centimetres',
      columns: ['Size', 'Bust', 'Waist', 'Hips', 'Length'],
      rows: known.map((size) => {
        const m = CLOTHES[size] as (typeof CLOTHES)[string];
        return [size, m.bust, m.waist, m.hips, m.length];
      }),
      notes: [
        'Measure over light clothing, the tape snug but not tight. Between two sizes, take the larger.',
        'Length is shoulder to hem of a knee-length dress; tops, skirts and long pieces differ, as their descriptions say.',
      ],
    };
  }
  if (kind === 'shoes') {
    const known = sizes.filter((size) => size in SHOES);
    if (known.length === 0) return null;
    return {
      title: SIZE_GUIDE_TEXT.shoesTitle,
      caption: 'EU and UK sizes with foot length in centimetres',
      columns: ['EU', 'UK', 'Foot length (cm)'],
      rows: known.map((size) => {
        const m = SHOES[size] as (typeof SHOES)[string];
        return [size, m.uk, m.foot];
      }),
      notes: [
        'Stand on a sheet of paper and measure from your heel to your longest toe. Between two sizes, take the larger.',
      ],
    };
  }
  return null;
}
