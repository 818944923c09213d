import { describe, expect, it } from 'vitest';
import { DEFAULT_HOURS } from './store-details.ts';
import { asksForPerson, withinHours } from './whatsapp.ts';

describe("the assistant's 'outside opening hours'", () => {
  // 30 November 2026 is a Monday; Kampala is UTC+3.
  it('reads the Kampala weekday and clock against the shop’s hours', () => {
    expect(withinHours(DEFAULT_HOURS, new Date('2026-11-30T05:00:00Z'))).toBe(true); // Mon 08:00
    expect(withinHours(DEFAULT_HOURS, new Date('2026-11-30T04:59:00Z'))).toBe(false); // Mon 07:59
    expect(withinHours(DEFAULT_HOURS, new Date('2026-11-30T17:00:00Z'))).toBe(false); // Mon 20:00
    expect(withinHours(DEFAULT_HOURS, new Date('2026-11-29T06:30:00Z'))).toBe(false); // Sun 09:30
    expect(withinHours(DEFAULT_HOURS, new Date('2026-11-29T07:30:00Z'))).toBe(true); // Sun 10:30
    // 22:30 UTC on Sunday is already Monday 01:30 in Kampala: closed.
    expect(withinHours(DEFAULT_HOURS, new Date('2026-11-29T22:30:00Z'))).toBe(false);
    expect(withinHours({ ...DEFAULT_HOURS, mon: null }, new Date('2026-11-30T09:00:00Z'))).toBe(
      false,
    );
  });

  it('hears "talk to a person" and its plain forms, not a question that mentions people', () => {
    for (const text of ['Can I talk to a person please', 'speak with someone', 'human', 'Agent!']) {
      expect(asksForPerson(text)).toBe(true);
    }
    for (const text of ['Is this dress for a person my size?', 'Do you have the Ankara wrap?']) {
      expect(asksForPerson(text)).toBe(false);
    }
  });
});
