import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { GIFT_CARD_MAX, newGiftCardCode } from './gift-cards.ts';
import { SMS_MAX_CHARS, SMS_TEXT } from './sms.ts';
import { buyGiftCardInput, GIFT_CARD_TEXT, grantCreditInput } from './value-ledger.ts';

const buy = {
  orderId: '0b6c0f36-6a55-4c1e-9d43-3f4f0a3e8e11',
  amount: 50_000,
  recipientName: ' Amina ',
  recipientPhone: '0772 123 456',
  paymentMethod: 'mobile_money',
};

describe('a gift card bought', () => {
  it('keeps the recipient’s phone as +256…, trimmed name, no message when none', () => {
    const parsed = v.parse(buyGiftCardInput, buy);
    expect(parsed).toMatchObject({ recipientName: 'Amina', recipientPhone: '+256772123456' });
    expect(parsed.message).toBeUndefined();
    for (const phone of ['+256 772 123456', '256772123456', '(0772) 123-456']) {
      expect(v.parse(buyGiftCardInput, { ...buy, recipientPhone: phone }).recipientPhone).toBe(
        '+256772123456',
      );
    }
  });

  it('refuses a number abroad or too short, and cash on delivery', () => {
    for (const phone of ['+447700900123', '0772 123', '']) {
      const result = v.safeParse(buyGiftCardInput, { ...buy, recipientPhone: phone });
      expect(result.issues?.[0]?.message).toBe(GIFT_CARD_TEXT.badPhone);
    }
    const cash = v.safeParse(buyGiftCardInput, { ...buy, paymentMethod: 'cash_on_delivery' });
    expect(cash.issues?.[0]?.message).toBe(GIFT_CARD_TEXT.badMethod);
  });

  it('is texted in one SMS whatever the names, amount and message', () => {
    const text = SMS_TEXT.giftCard({
      from: 'Nakato Achieng Namubiru Nalwoga',
      amount: GIFT_CARD_MAX,
      code: newGiftCardCode(),
      message: 'x'.repeat(200),
    });
    expect(text.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(text).toMatch(/GIFT-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/);
    const short = SMS_TEXT.giftCard({
      from: 'Nakato',
      amount: 50_000,
      code: 'GIFT-AAAA-BBBB-CCCC',
      message: 'Happy birthday!',
    });
    expect(short).toBe(
      'duuka: Nakato sent you a UGX 50,000 gift card. Code GIFT-AAAA-BBBB-CCCC. Spend it at checkout on duuka. "Happy birthday!"',
    );
  });
});

describe('credit granted', () => {
  it('lower-cases the email and bounds the amount', () => {
    expect(
      v.parse(grantCreditInput, { email: ' A@Example.UG ', amount: 5_000_000, reason: 'x' }),
    ).toEqual({ email: 'a@example.ug', amount: 5_000_000, reason: 'x' });
    expect(
      v.safeParse(grantCreditInput, { email: 'a@b.ug', amount: 5_000_001, reason: 'x' }).success,
    ).toBe(false);
  });
});
