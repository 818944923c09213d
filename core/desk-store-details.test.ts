import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  parseHours,
  parsePin,
  parseSocialLinks,
  saveStoreDetailsInput,
  DESK_STORE_DETAILS_TEXT as T,
} from './desk-store-details.ts';
import { SMS_TEXT } from './sms.ts';
import {
  clockText,
  DEFAULT_HOURS,
  hoursLines,
  hoursText,
  mapLink,
  openingHoursSpecification,
  pickupWords,
} from './store-details.ts';

const refusal = (input: unknown) => {
  const checked = v.safeParse(saveStoreDetailsInput, input);
  return checked.success ? null : checked.issues[0].message;
};

describe('the default week is today’s shop', () => {
  it('reads as the footer and the assistant have always said it', () => {
    expect(hoursLines(DEFAULT_HOURS)).toEqual([
      { days: 'Mon–Sat', time: '8AM–8PM', closed: false },
      { days: 'Sun', time: '10AM–6PM', closed: false },
    ]);
    expect(hoursText(DEFAULT_HOURS)).toBe('Mon-Sat 8AM-8PM, Sun 10AM-6PM');
    expect(hoursText(DEFAULT_HOURS, { between: ' · ' })).toBe('Mon-Sat 8AM-8PM · Sun 10AM-6PM');
  });

  it('the pickup text is the spec’s, word for word, until the owner changes it', () => {
    const orderId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const spec = SMS_TEXT.readyForPickup({ orderId });
    expect(spec).toBe(
      'duuka: Order RCP-0f8fad5b is ready for pickup at our Kampala shop, 9AM-6PM daily. Bring your receipt.',
    );
    expect(
      SMS_TEXT.readyForPickup({
        orderId,
        shop: { address: 'Kampala, Uganda', pickupHours: '9AM-6PM daily' },
      }),
    ).toBe(spec);
  });
});

describe('writing the details', () => {
  it('clock times, closed days, whole weeks', () => {
    expect(['00:00', '08:00', '12:00', '18:30', '23:59'].map(clockText)).toEqual([
      '12AM',
      '8AM',
      '12PM',
      '6:30PM',
      '11:59PM',
    ]);
    const week = { ...DEFAULT_HOURS, sat: { open: '09:00', close: '18:00' }, sun: null };
    expect(hoursText(week)).toBe('Mon-Fri 8AM-8PM, Sat 9AM-6PM, Sun Closed');
    const daily = Object.fromEntries(
      Object.keys(DEFAULT_HOURS).map((d) => [d, { open: '09:00', close: '17:00' }]),
    ) as typeof DEFAULT_HOURS;
    expect(hoursText(daily)).toBe('Daily 9AM-5PM');
    expect(openingHoursSpecification(week).map((s) => s.dayOfWeek)).toEqual([
      ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      ['Saturday'],
    ]);
    expect(mapLink(0.313611, 32.581111)).toBe(
      'https://www.google.com/maps/search/?api=1&query=0.313611,32.581111',
    );
  });

  it('the pickup option keeps its words, naming her hours and address once set', () => {
    const words = 'At the duuka boutique in Kampala, 9AM-6PM daily. We text you when it is ready.';
    expect(pickupWords(words, { address: 'Kampala, Uganda', pickupHours: '9AM-6PM daily' })).toBe(
      words,
    );
    expect(pickupWords(words, { address: 'Plot 3 Acacia Ave', pickupHours: '10AM-4PM' })).toBe(
      'At the duuka boutique at Plot 3 Acacia Ave, 10AM-4PM. We text you when it is ready.',
    );
  });
});

describe('the input', () => {
  it('takes any part alone, and each day as hours or closed', () => {
    expect(refusal({})).toBeNull();
    expect(refusal({ tin: '1000123456' })).toBeNull();
    expect(refusal({ hours: { ...DEFAULT_HOURS, sun: null } })).toBeNull();
    expect(refusal({ latitude: -0.5, longitude: 32.123456 })).toBeNull();
    expect(refusal({ latitude: null, longitude: null })).toBeNull();
  });

  it('refuses each bad value with its text', () => {
    expect(refusal({ latitude: 1 })).toBe(T.pinTogether);
    expect(refusal({ latitude: 1, longitude: null })).toBe(T.pinTogether);
    expect(refusal({ latitude: 90.000001, longitude: 1 })).toBe(T.latitudeInvalid);
    expect(refusal({ latitude: 1, longitude: 1.1234567 })).toBe(T.longitudeInvalid);
    expect(refusal({ hours: { ...DEFAULT_HOURS, fri: { open: '10:00', close: '10:00' } } })).toBe(
      T.closeAfterOpen('Friday'),
    );
    expect(refusal({ hours: { ...DEFAULT_HOURS, fri: { open: '9:00', close: '10:00' } } })).toBe(
      T.timeInvalid('Friday'),
    );
    expect(refusal({ tin: '123' })).toBe(T.tinInvalid);
    expect(refusal({ socialLinks: ['https://instagram.com/'] })).toBe(T.socialInvalid);
    expect(refusal({ pickupHours: '9AM\u0000' })).toBe(
      'Pickup hours cannot contain invisible control characters.',
    );
  });

  it('stored values that are not what the desk writes are ignored (the default stands)', () => {
    expect(parseHours('{"mon":1}')).toBeNull();
    expect(parseHours('not json')).toBeNull();
    expect(parsePin('{"latitude":100,"longitude":1}')).toBeNull();
    expect(parsePin('{"latitude":0.3,"longitude":32.5}')).toEqual({
      latitude: 0.3,
      longitude: 32.5,
    });
    expect(parseSocialLinks('["https://x.com/duuka","javascript:alert(1)"]')).toEqual([
      { network: 'X', url: 'https://x.com/duuka' },
    ]);
    expect(parseSocialLinks('{}')).toBeNull();
  });
});
