import { describe, expect, it } from 'vitest';
import { parseAddress } from './address.ts';

describe('receipt address', () => {
  it('reads three comma-separated parts as street, city, country', () => {
    expect(parseAddress('Plot 12 Kampala Road, Entebbe, Uganda')).toEqual({
      street: 'Plot 12 Kampala Road',
      city: 'Entebbe',
      country: 'Uganda',
    });
  });

  it('trims each part', () => {
    expect(parseAddress('  Acacia Avenue ,Kololo ,  Kenya  ')).toEqual({
      street: 'Acacia Avenue',
      city: 'Kololo',
      country: 'Kenya',
    });
  });

  it('puts two parts in Uganda', () => {
    expect(parseAddress('Bukoto Street, Ntinda')).toEqual({
      street: 'Bukoto Street',
      city: 'Ntinda',
      country: 'Uganda',
    });
  });

  it('puts one part in Kampala, Uganda', () => {
    expect(parseAddress('Plot 4, ')).toEqual({
      street: 'Plot 4',
      city: 'Kampala',
      country: 'Uganda',
    });
    expect(parseAddress('Bombo Road')).toEqual({
      street: 'Bombo Road',
      city: 'Kampala',
      country: 'Uganda',
    });
  });

  it('ignores blank parts', () => {
    expect(parseAddress('Plot 4, , Gulu,')).toEqual({
      street: 'Plot 4',
      city: 'Gulu',
      country: 'Uganda',
    });
  });

  it('keeps the street whole when there are more than three parts', () => {
    expect(parseAddress('Flat 3, Plot 9, Lumumba Ave, Kampala, Uganda')).toEqual({
      street: 'Flat 3, Plot 9, Lumumba Ave',
      city: 'Kampala',
      country: 'Uganda',
    });
  });

  it('is Kampala, Uganda with no street when there is no address', () => {
    for (const none of [null, undefined, '', '  ', ', ,']) {
      expect(parseAddress(none)).toEqual({ street: '', city: 'Kampala', country: 'Uganda' });
    }
  });
});
