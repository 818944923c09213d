import { describe, expect, it } from 'vitest';
import {
  appliedFor,
  MAX_OFFER_CODES,
  OFFER_CODE_TEXT,
  offersNote,
  readSavedCodes,
  withCode,
  withoutCode,
} from './offer-codes.ts';
import { OFFER_TEXT } from './offers.ts';

describe('the codes kept beside the cart', () => {
  it('a typed code is kept as the shop compares it, once', () => {
    const first = withCode([], '  nakato10 ');
    expect(first).toEqual({ ok: true, codes: ['NAKATO10'], code: 'NAKATO10' });
    expect(withCode(['NAKATO10'], 'Nakato10')).toEqual({
      ok: false,
      message: OFFER_CODE_TEXT.already,
    });
    expect(withCode([], '   ')).toEqual({ ok: false, message: OFFER_CODE_TEXT.empty });
    expect(withCode([], 'A'.repeat(41))).toEqual({ ok: false, message: OFFER_CODE_TEXT.tooLong });
    expect(withCode([], 'AB\u0000C')).toEqual({ ok: false, message: OFFER_CODE_TEXT.tooLong });
    const full = Array.from({ length: MAX_OFFER_CODES }, (_, i) => `CODE${i}`);
    expect(withCode(full, 'ONEMORE')).toEqual({ ok: false, message: OFFER_CODE_TEXT.tooMany });
  });

  it('removing a code removes it in any case', () => {
    expect(withoutCode(['NAKATO10', 'GIFT-ABCD-EFGH-JKMN'], 'nakato10')).toEqual([
      'GIFT-ABCD-EFGH-JKMN',
    ]);
  });

  it('what the tab kept is read back only when it is a short list of codes', () => {
    expect(readSavedCodes(null)).toEqual([]);
    expect(readSavedCodes('not json')).toEqual([]);
    expect(readSavedCodes('{"a":1}')).toEqual([]);
    expect(
      readSavedCodes('["nakato10", 5, null, "NAKATO10", "", "x\\u0000y", "karibu10"]'),
    ).toEqual(['NAKATO10', 'KARIBU10']);
    const many = JSON.stringify(Array.from({ length: 20 }, (_, i) => `C${i}`));
    expect(readSavedCodes(many)).toHaveLength(MAX_OFFER_CODES);
  });

  it("a chip finds its offer in the preview's answer; the offers are named with their codes", () => {
    const applied = [
      { code: null, name: 'Weekend sale', amount: 4000, kind: 'percent' as const },
      { code: 'nakato10', name: "Nakato's 10%", amount: 2000, kind: 'percent' as const },
    ];
    expect(appliedFor(applied, 'NAKATO10')?.amount).toBe(2000);
    expect(appliedFor(applied, 'KARIBU10')).toBeUndefined();
    expect(offersNote(applied)).toBe("Weekend sale, Nakato's 10% (nakato10)");
    // The field's own texts say what the checkout's would (kept apart: the cart's first load).
    expect(OFFER_CODE_TEXT.tooMany).toBe(OFFER_TEXT.tooManyCodes);
    expect(OFFER_CODE_TEXT.tooLong).toBe(OFFER_TEXT.badCode);
    expect(OFFER_CODE_TEXT.creditChoice(25_000)).toBe('Use my store credit (UGX 25,000)');
  });
});
