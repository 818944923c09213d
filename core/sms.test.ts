import { describe, expect, it } from 'vitest';
import { failureRate, kampalaDayStart, plainText, smsSegments } from './sms.ts';

describe('SMS parts', () => {
  it('GSM-7: 160 in one part, 153 per part after', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments('a'.repeat(161)).segments).toBe(2);
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
    // The extension table's characters take two septets.
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments(`${'€'.repeat(80)}a`).segments).toBe(2);
  });

  it('anything else is UCS-2: 70, then 67 per part', () => {
    expect(smsSegments('ẞ'.repeat(70))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments('ẞ'.repeat(71)).segments).toBe(2);
    expect(smsSegments('👗'.repeat(35)).units).toBe(70);
  });

  it('texts are made plain GSM-7 where they can be', () => {
    expect(plainText('It’s “ready” — 9AM–6PM…')).toBe('It\'s "ready" - 9AM-6PM...');
    expect(smsSegments(plainText('It’s “ready” — now')).encoding).toBe('GSM-7');
  });
});

describe('statistics helpers', () => {
  it('failure rate with 2 decimals, 0.00 when nothing is done', () => {
    expect(failureRate(5, 2)).toBe('28.57');
    expect(failureRate(0, 0)).toBe('0.00');
    expect(failureRate(0, 3)).toBe('100.00');
  });

  it('the Kampala day starts at 21:00 UTC the evening before', () => {
    expect(kampalaDayStart(new Date('2026-11-24T21:30:00Z')).toISOString()).toBe(
      '2026-11-24T21:00:00.000Z',
    );
    expect(kampalaDayStart(new Date('2026-11-24T20:59:59Z')).toISOString()).toBe(
      '2026-11-23T21:00:00.000Z',
    );
  });
});
