import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { campaignAudienceInput, sendCampaignInput } from './campaign-rules.ts';
import { SMS_MAX_CHARS, SMS_TEXT, smsSegments } from './sms.ts';
import {
  isStopToken,
  SAMPLE_STOP_TOKEN,
  STOP_TEXT,
  STOP_TOKEN_ALPHABET,
  STOP_TOKEN_LENGTH,
  stopLink,
} from './stop-link.ts';

const LONG_ORIGIN = 'https://h-campaigns-duuka.boutique-owner-kampala.workers.dev';

describe('the stop link', () => {
  it('is the shop’s name, stop and a token of the unambiguous alphabet', () => {
    expect(stopLink('https://duuka.ug/', 'abcdefghjk')).toBe(
      'https://duuka.ug/duuka/stop/abcdefghjk',
    );
    expect(STOP_TOKEN_ALPHABET).not.toMatch(/[01ilo]/);
    expect(isStopToken('abcdefghjk')).toBe(true);
    for (const bad of ['abcdefghj', 'abcdefghjkm', 'ABCDEFGHJK', 'abcdefghj0', 'abcdefghjl', '']) {
      expect(isStopToken(bad), bad).toBe(false);
    }
    expect(SAMPLE_STOP_TOKEN).toHaveLength(STOP_TOKEN_LENGTH);
  });

  it('the page names a first name at most', () => {
    expect(STOP_TEXT.ask('Nakato')).toMatch(/^Nakato, you will no longer/);
    expect(STOP_TEXT.ask(null)).toMatch(/^You will no longer/);
  });
});

describe('the texts', () => {
  it('a promotional text ends with the whole stop link, in one GSM-7 part, however long the message', () => {
    const link = stopLink(LONG_ORIGIN, 'abcdefghjk');
    const text = SMS_TEXT.promotional({
      message: 'Kitenge “week” — '.repeat(20),
      code: 'KITENGE20',
      stopLink: link,
    });
    expect(text.endsWith(` Stop: ${link}`)).toBe(true);
    expect(text.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(smsSegments(text).segments).toBe(1);
    expect(text).not.toContain('Reply STOP');
  });

  it('the cart reminder keeps the stop link and drops the cart link when both do not fit', () => {
    const short = SMS_TEXT.cartReminder({
      pieces: 1,
      cartLink: 'https://duuka.ug/cart',
      stopLink: stopLink('https://duuka.ug', 'abcdefghjk'),
    });
    expect(short).toBe(
      'duuka: Your piece is still in your cart: https://duuka.ug/cart Stop: https://duuka.ug/duuka/stop/abcdefghjk',
    );
    const origin = LONG_ORIGIN;
    const long = SMS_TEXT.cartReminder({
      pieces: 3,
      cartLink: `${origin}/cart`,
      stopLink: stopLink(origin, 'abcdefghjk'),
    });
    expect(long).toBe(
      `duuka: Your 3 pieces are still in your cart. Stop: ${stopLink(origin, 'abcdefghjk')}`,
    );
    expect(long.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
  });
});

describe('what the desk sends', () => {
  it('a message is typed text of at most 160 characters; ids are bounded', () => {
    const ok = { promotionId: 1, message: 'Weekend sale', requestKey: crypto.randomUUID() };
    expect(v.safeParse(sendCampaignInput, ok).success).toBe(true);
    for (const bad of [
      { ...ok, message: '' },
      { ...ok, message: 'x'.repeat(161) },
      { ...ok, message: 'a\u0000b' },
      { ...ok, promotionId: 2 ** 31 },
      { ...ok, promotionId: '1' },
      { ...ok, categoryId: 1.5 },
      { ...ok, extra: true },
      { promotionId: 1, message: 'Weekend sale' },
    ]) {
      expect(v.safeParse(sendCampaignInput, bad).success, JSON.stringify(bad).slice(0, 60)).toBe(
        false,
      );
    }
    expect(v.safeParse(campaignAudienceInput, { promotionId: 1, categoryId: null }).success).toBe(
      true,
    );
  });
});
