import { describe, expect, it } from 'vitest';
import {
  countText,
  lowStockBadge,
  piecesText,
  saleOf,
  saleReach,
  saleText,
  searchWords,
  shopNewArrivalsCount,
} from './catalogue.ts';
import { formatUGX } from './money.ts';
import { isValidPhone, normalisePhone } from './phone.ts';

describe('shop groups', () => {
  it('rounds the 30 % New Arrivals share up', () => {
    expect(shopNewArrivalsCount(0)).toBe(0);
    expect(shopNewArrivalsCount(1)).toBe(1);
    expect(shopNewArrivalsCount(10)).toBe(3);
    expect(shopNewArrivalsCount(11)).toBe(4);
    expect(shopNewArrivalsCount(56)).toBe(17);
  });
  it('shows the low-stock badge only from 1 to 9', () => {
    expect(lowStockBadge(0)).toBeNull();
    expect(lowStockBadge(1)).toBe('Only 1 left');
    expect(lowStockBadge(9)).toBe('Only 9 left');
    expect(lowStockBadge(10)).toBeNull();
  });
});

describe('money', () => {
  it('formats UGX with grouping and shows 0 for a missing price', () => {
    expect(formatUGX(1_250_000)).toBe('UGX 1,250,000');
    expect(formatUGX(5000)).toBe('UGX 5,000');
    expect(formatUGX(undefined)).toBe('UGX 0');
    expect(formatUGX(null)).toBe('UGX 0');
    expect(formatUGX(Number.NaN)).toBe('UGX 0');
  });
});

describe('phone', () => {
  it('normalises local, international and bare numbers to +256', () => {
    expect(normalisePhone('0772 123 456')).toBe('+256772123456');
    expect(normalisePhone('256772123456')).toBe('+256772123456');
    expect(normalisePhone('+256 772-123-456')).toBe('+256772123456');
    expect(normalisePhone('772123456')).toBe('+256772123456');
  });
  it('accepts + then 10 to 15 digits only', () => {
    expect(isValidPhone('+256772123456')).toBe(true);
    expect(isValidPhone('+123456789')).toBe(false);
    expect(isValidPhone('+1234567890123456')).toBe(false);
    expect(isValidPhone('256772123456')).toBe(false);
  });
});

describe('a sale on some variants is not the piece’s sale (issue 32)', () => {
  const at = (price: number, compareAtPrice: number | null) => ({ price, compareAtPrice });

  it('is the piece’s only when every variant is on sale, struck at the lowest compare-at', () => {
    expect(saleOf([at(135_000, 150_000), at(135_000, 160_000)])).toEqual({
      sale: 'all',
      compareAtPrice: 150_000,
    });
  });

  it('one variant on sale (L · Rust) is a sale in some sizes, with no struck price', () => {
    expect(saleOf([at(135_000, null), at(135_000, null), at(135_000, 150_000)])).toEqual({
      sale: 'some',
      compareAtPrice: null,
    });
  });

  it('a compare-at price not above the price is no sale', () => {
    expect(saleOf([at(135_000, 135_000), at(135_000, 100_000)])).toEqual({
      sale: null,
      compareAtPrice: null,
    });
    expect(saleReach(0, 3)).toBeNull();
    expect(saleReach(3, 3)).toBe('all');
    expect(saleReach(1, 3)).toBe('some');
  });

  it('a card says Sale, Sale in some sizes, or (a piece without sizes) some colours', () => {
    expect(saleText({ sale: 'all', sizesLeft: ['M'] })).toBe('Sale');
    expect(saleText({ sale: 'some', sizesLeft: ['M', 'L'] })).toBe('Sale in some sizes');
    expect(saleText({ sale: 'some', sizesLeft: [] })).toBe('Sale in some sizes');
    expect(saleText({ sale: 'some', sizesLeft: null })).toBe('Sale in some colours');
    expect(saleText({ sale: null, sizesLeft: ['M'] })).toBeNull();
  });
});

describe('a listing’s count, capped at 1,000 (issue 38)', () => {
  it('says how many pieces, and 1,000+ when the count stopped', () => {
    expect(piecesText(0, false)).toBe('0 pieces');
    expect(piecesText(1, false)).toBe('1 piece');
    expect(piecesText(24, false)).toBe('24 pieces');
    expect(piecesText(1_000, false)).toBe('1,000 pieces');
    expect(piecesText(1_000, true)).toBe('1,000+ pieces');
    expect(countText(300, true)).toBe('300+');
    expect(countText(999, false)).toBe('999');
  });
});

describe('search words (issues 32, 38)', () => {
  it('reads a size, a short word (a name’s word start) and any other word', () => {
    expect(searchWords('Ki wrap M')).toEqual([{ start: 'ki' }, { text: 'wrap' }, { size: 'M' }]);
    expect(searchWords('k 38 kit')).toEqual([{ start: 'k' }, { size: '38' }, { text: 'kit' }]);
  });
});
