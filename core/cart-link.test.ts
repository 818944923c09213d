import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INT4_MAX } from './bounds.ts';
import {
  CART_LINK_MAX_CHARS,
  CART_LINK_MAX_LINES,
  CART_LINK_TEXT,
  cartLinkPath,
  parseCartLink,
  planCartLink,
} from './cart-link.ts';
import { type CartProduct, emptyCart, loadCart, MAX_LINE_QUANTITY } from './cart-rules.ts';

/** The `add` value of a link's path. */
const addOf = (path: string) => new URL(path, 'https://duuka.ug').searchParams.get('add');

describe('cartLinkPath', () => {
  it('writes id x quantity, comma-separated, in the order given', () => {
    expect(
      cartLinkPath([
        { variantId: 12, quantity: 2 },
        { variantId: 15, quantity: 1 },
      ]),
    ).toBe('/cart?add=12x2,15x1');
  });

  it('adds up a variant named twice into one line', () => {
    expect(
      cartLinkPath([
        { variantId: 12, quantity: 2 },
        { variantId: 15, quantity: 1 },
        { variantId: 12, quantity: 3 },
      ]),
    ).toBe('/cart?add=12x5,15x1');
  });

  it('refuses what no link may hold', () => {
    const line = (variantId: number, quantity = 1) => [{ variantId, quantity }];
    for (const items of [
      [],
      line(0),
      line(-3),
      line(1.5),
      line(INT4_MAX + 1),
      line(Number.NaN),
      line(12, 0),
      line(12, -1),
      line(12, 2.5),
      line(12, MAX_LINE_QUANTITY + 1),
      [...line(12, MAX_LINE_QUANTITY), ...line(12, 1)],
      Array.from({ length: CART_LINK_MAX_LINES + 1 }, (_, i) => ({
        variantId: i + 1,
        quantity: 1,
      })),
    ]) {
      expect(() => cartLinkPath(items), JSON.stringify(items)).toThrow(RangeError);
    }
  });

  it('reads back as the lines it was made from (any lines a link may hold)', () => {
    const lines = fc.uniqueArray(
      fc.record({
        variantId: fc.integer({ min: 1, max: INT4_MAX }),
        quantity: fc.integer({ min: 1, max: MAX_LINE_QUANTITY }),
      }),
      { minLength: 1, maxLength: CART_LINK_MAX_LINES, selector: (l) => l.variantId },
    );
    fc.assert(
      fc.property(lines, (items) => {
        const path = cartLinkPath(items);
        expect(path.length).toBeLessThanOrEqual('/cart?add='.length + CART_LINK_MAX_CHARS);
        expect(parseCartLink(addOf(path))).toEqual(items);
      }),
    );
  });
});

describe('parseCartLink', () => {
  it('reads the lines in order', () => {
    expect(parseCartLink('12x2,15x1')).toEqual([
      { variantId: 12, quantity: 2 },
      { variantId: 15, quantity: 1 },
    ]);
    expect(parseCartLink(`${INT4_MAX}x${MAX_LINE_QUANTITY}`)).toEqual([
      { variantId: INT4_MAX, quantity: MAX_LINE_QUANTITY },
    ]);
  });

  it('takes the longest link the shop can make', () => {
    const items = Array.from({ length: CART_LINK_MAX_LINES }, (_, i) => ({
      variantId: INT4_MAX - i,
      quantity: MAX_LINE_QUANTITY,
    }));
    expect(parseCartLink(addOf(cartLinkPath(items)))).toEqual(items);
  });

  it('is null for anything malformed', () => {
    const twentyOne = Array.from({ length: CART_LINK_MAX_LINES + 1 }, (_, i) => `${i + 1}x1`);
    for (const value of [
      undefined,
      null,
      12,
      ['12x2'],
      { add: '12x2' },
      '',
      ',',
      '12',
      '12x',
      'x2',
      '12x2,',
      ',12x2',
      '12x2,,15x1',
      '12X2',
      '12*2',
      '12x2;15x1',
      ' 12x2',
      '12x2 ',
      '12 x2',
      '12x2, 15x1',
      '+12x2',
      '-12x2',
      '12x-2',
      '12x+2',
      '12.0x2',
      '12x2.5',
      '12x1e3',
      '1e3x2',
      '0x12',
      '0xff',
      '12x0',
      '0x0',
      '012x2',
      '12x02',
      'abcx2',
      '12x2\u0000',
      '12\u0000x2',
      '１２x2', // full-width digits
      '٣x2', // Arabic-Indic digits
      `${INT4_MAX + 1}x1`,
      '99999999999x1',
      `12x${MAX_LINE_QUANTITY + 1}`,
      '12x9999999',
      '12x2,15x1,12x1', // a variant twice: refused, not added up
      '12x2,12x2',
      twentyOne.join(','),
      `${'1'.repeat(CART_LINK_MAX_CHARS)}x1`,
      '12x2,'.repeat(10_000),
      'x'.repeat(1_000_000),
    ]) {
      expect(parseCartLink(value), String(JSON.stringify(value)).slice(0, 60)).toBeNull();
    }
  });
});

const piece = (
  variantId: number,
  stock: number,
  extra: Partial<CartProduct> = {},
): CartProduct => ({
  productId: variantId * 10,
  variantId,
  label: '',
  name: `Piece ${variantId}`,
  price: 10_000,
  image: null,
  stock,
  ...extra,
});

describe('planCartLink', () => {
  const dress = piece(12, 5, { name: 'Ankara Wrap Dress', label: 'M' });
  const clutch = piece(15, 0, { name: 'Kente Clutch' });
  const hoops = piece(18, 1, { name: 'Gold Hoops' });

  it('adds each line as asked when the stock allows', () => {
    expect(planCartLink(emptyCart(), [{ variantId: 12, quantity: 2 }], [dress])).toEqual([
      {
        piece: dress,
        quantity: 2,
        note: { tone: 'added', text: 'Ankara Wrap Dress (M): 2 added.' },
      },
    ]);
  });

  it('leaves out a sold-out or gone line and says so; lowers a line above the stock', () => {
    const steps = planCartLink(
      emptyCart(),
      [
        { variantId: 15, quantity: 1 },
        { variantId: 99, quantity: 1 },
        { variantId: 12, quantity: 1 },
        { variantId: 18, quantity: 3 },
        { variantId: 98, quantity: 4 },
      ],
      [dress, clutch, hoops],
    );
    expect(
      steps.map((s) => [s.piece?.variantId ?? null, 'quantity' in s ? s.quantity : 0]),
    ).toEqual([
      [null, 0],
      [12, 1],
      [18, 1],
      [null, 0],
    ]);
    expect(steps.map((s) => s.note)).toEqual([
      { tone: 'refused', text: 'Kente Clutch is sold out: not added.' },
      { tone: 'added', text: 'Ankara Wrap Dress (M): 1 added.' },
      { tone: 'lowered', text: 'Only 1 left of Gold Hoops: 1 added.' },
      { tone: 'refused', text: CART_LINK_TEXT.gone(2) },
    ]);
    expect(CART_LINK_TEXT.gone(2)).toBe(
      '2 pieces in this link are no longer in the shop: not added.',
    );
    expect(CART_LINK_TEXT.gone(1)).toBe(
      'A piece in this link is no longer in the shop: not added.',
    );
  });

  it('adds to what is in the cart, never past the stock', () => {
    const cart = loadCart([
      { ...dress, quantity: 4 },
      { ...hoops, quantity: 1 },
    ]);
    const steps = planCartLink(
      cart,
      [
        { variantId: 12, quantity: 3 },
        { variantId: 18, quantity: 1 },
      ],
      [dress, hoops],
    );
    expect(steps).toEqual([
      {
        piece: dress,
        quantity: 1,
        note: { tone: 'lowered', text: 'Only 5 left of Ankara Wrap Dress (M): 1 added.' },
      },
      {
        piece: null,
        note: { tone: 'refused', text: 'The last Gold Hoops is already in your cart: not added.' },
      },
    ]);
    const full = loadCart([{ ...dress, quantity: 5 }]);
    expect(planCartLink(full, [{ variantId: 12, quantity: 1 }], [dress])[0]?.note.text).toBe(
      'All 5 left of Ankara Wrap Dress (M) are already in your cart: not added.',
    );
  });

  it('never takes a line past the per-line maximum, whatever the stock', () => {
    const plenty = piece(20, MAX_LINE_QUANTITY * 2, { name: 'Beaded Bracelet' });
    const cart = loadCart([{ ...plenty, quantity: MAX_LINE_QUANTITY - 3 }]);
    expect(planCartLink(cart, [{ variantId: 20, quantity: 10 }], [plenty])).toEqual([
      {
        piece: plenty,
        quantity: 3,
        note: { tone: 'lowered', text: CART_LINK_TEXT.lineLimit('Beaded Bracelet', 3) },
      },
    ]);
    const full = loadCart([{ ...plenty, quantity: MAX_LINE_QUANTITY }]);
    expect(planCartLink(full, [{ variantId: 20, quantity: 1 }], [plenty])).toEqual([
      { piece: null, note: { tone: 'refused', text: CART_LINK_TEXT.lineFull('Beaded Bracelet') } },
    ]);
  });
});
