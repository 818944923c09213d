import { describe, expect, it } from 'vitest';
import { approximatePrice, formatUGX, parseRates, rateLine } from './money.ts';

const rates = { USD: 3800, EUR: 4100, GBP: 4800, setOn: '2026-11-24' };

describe('approximate prices', () => {
  it('shows the chosen currency beside UGX, rounded to whole units', () => {
    expect(formatUGX(145_000)).toBe('UGX 145,000');
    expect(approximatePrice(145_000, 'USD', rates)).toBe('≈ US$ 38');
    expect(approximatePrice(145_000, 'EUR', rates)).toBe('≈ €35');
    expect(approximatePrice(1_250_000, 'GBP', rates)).toBe('≈ £260');
    expect(rateLine('USD', rates)).toBe('US$ 1 = UGX 3,800');
  });

  it('shows nothing for UGX, an unknown currency or without rates', () => {
    expect(approximatePrice(145_000, 'UGX', rates)).toBeNull();
    expect(approximatePrice(145_000, 'BTC', rates)).toBeNull();
    expect(approximatePrice(145_000, 'USD', null)).toBeNull();
  });

  it('reads stored rates only when every one is a positive number with a date', () => {
    expect(parseRates(JSON.stringify(rates))).toEqual(rates);
    expect(parseRates(JSON.stringify({ ...rates, EUR: 0 }))).toBeNull();
    expect(parseRates(JSON.stringify({ ...rates, setOn: 'yesterday' }))).toBeNull();
    expect(parseRates(JSON.stringify({ USD: 3800 }))).toBeNull();
    expect(parseRates('{')).toBeNull();
    expect(parseRates(null)).toBeNull();
  });
});
