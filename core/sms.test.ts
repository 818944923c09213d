import { describe, expect, it } from 'vitest';
import { GIFT_CARD_DELIVERY } from './gift-cards.ts';
import {
  egoSmsNumber,
  failureRate,
  kampalaDayStart,
  plainText,
  SMS_MAX_CHARS,
  SMS_TEXT,
  smsSegments,
} from './sms.ts';

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

describe('every text fits one 160-character SMS (EgoSMS plain API)', () => {
  const orderId = '5b0e8a3e-8f0c-4d59-9a43-6c1f8f1b2a77';
  // Worst cases: totals far past UGX 3,000,000,000 (100,000 pieces a line at a listed price),
  // names at their 100-character limit with letters GSM-7 lacks, 40-character tracking and
  // transaction references, a 120-character cancellation reason (the desk's limit).
  const huge = 999_999_999_999_999;
  const longName = `Nakato Achieng Mirembe-Wasswa Nalubega Kisakye Ńamutebi ${'Nabukenya '.repeat(5)}`;
  const longPiece = `Hand-woven Barkcloth & Kitenge Wrap Dress — “Kampala Nights” Limited Edition ${'x'.repeat(30)}`;
  const bankDetails =
    'Stanbic Bank Uganda, Kampala Road branch. Account name: Duuka Boutique Ltd. Account number: 9030012345678. SWIFT: SBICUGKX. Use your order reference.';
  const texts = {
    confirmationMobileMoney: SMS_TEXT.orderConfirmation({
      orderId,
      total: huge,
      items: 9_999_999,
      payment: { method: 'mobile_money' },
    }),
    confirmationCard: SMS_TEXT.orderConfirmation({
      orderId,
      total: huge,
      items: 9_999_999,
      payment: { method: 'card' },
    }),
    confirmationCash: SMS_TEXT.orderConfirmation({
      orderId,
      total: huge,
      items: 9_999_999,
      payment: { method: 'cash_on_delivery' },
    }),
    confirmationCashPickup: SMS_TEXT.orderConfirmation({
      orderId,
      total: huge,
      items: 9_999_999,
      payment: { method: 'cash_on_delivery' },
      delivery: { kind: 'pickup', name: `${longName} pickup` },
    }),
    confirmationOtherOption: SMS_TEXT.orderConfirmation({
      orderId,
      total: 55_000,
      items: 1,
      payment: { method: 'other' },
      delivery: { kind: 'courier', name: longPiece },
    }),
    confirmationBank: SMS_TEXT.orderConfirmation({
      orderId,
      total: huge,
      items: 9_999_999,
      payment: { method: 'bank_transfer', bankDetails },
    }),
    confirmationBankShortDetails: SMS_TEXT.orderConfirmation({
      orderId,
      total: huge,
      items: 1,
      payment: { method: 'bank_transfer', bankDetails: 'Stanbic 9030012345678' },
    }),
    adminNewOrder: SMS_TEXT.adminNewOrder({
      orderId,
      total: huge,
      customer: longName,
      items: 9_999_999,
      payment: 'Cash on Delivery',
    }),
    sellerNewOrder: SMS_TEXT.sellerNewOrder({
      orderId,
      business: `Kampala Kitenge House & Barkcloth Emporium ${'Ltd '.repeat(10)}`,
      lines: Array.from({ length: 12 }, (_, i) => ({
        name: `${longPiece} ${i}`,
        quantity: 100_000,
      })),
    }),
    shipped: SMS_TEXT.shipped({ orderId, tracking: '1'.repeat(40) }),
    shippedWithDays: SMS_TEXT.shipped({
      orderId,
      tracking: '1'.repeat(40),
      days: { minDays: 60, maxDays: 60 },
    }),
    outForDelivery: SMS_TEXT.outForDelivery({
      orderId,
      riderName: `${longName}${longName}`,
      riderPhone: '+256772123456',
    }),
    delivered: SMS_TEXT.delivered({ orderId }),
    paymentReceived: SMS_TEXT.paymentReceived({
      orderId,
      amount: huge,
      transactionId: 'T'.repeat(60),
    }),
    lowStock: SMS_TEXT.lowStock(
      Array.from({ length: 20 }, (_, i) => ({ name: `${longPiece} ${i}`, left: 3 })),
    ),
    welcome: SMS_TEXT.welcome(longName),
    cancelled: SMS_TEXT.cancelled({ orderId, reason: 'Sorry — '.repeat(15), refund: true }),
    promotional: SMS_TEXT.promotional({
      message: 'Kitenge Week! '.repeat(20),
      code: 'KITENGE20',
      stopLink: 'https://duuka-preview.shop-owner.workers.dev/duuka/stop/abcdefghjk',
    }),
    cartReminder: SMS_TEXT.cartReminder({
      pieces: 3,
      cartLink: 'https://duuka-preview.shop-owner.workers.dev/cart',
      stopLink: 'https://duuka-preview.shop-owner.workers.dev/duuka/stop/abcdefghjk',
    }),
    readyForPickup: SMS_TEXT.readyForPickup({ orderId }),
    returnRequested: SMS_TEXT.returnRequested({ orderId, exchange: true }),
    returnApprovedPickup: SMS_TEXT.returnApproved({
      orderId,
      handover: 'pickup',
      fee: huge,
      address: longName,
    }),
    returnApprovedDropOff: SMS_TEXT.returnApproved({
      orderId,
      handover: 'drop_off',
      fee: 0,
      address: `${longName}${longName}`,
    }),
    returnRefused: SMS_TEXT.returnRefused({ orderId, reason: 'Worn — '.repeat(50) }),
    refundSent: SMS_TEXT.refundSent({
      orderId,
      amount: huge,
      reference: 'R'.repeat(60),
      credit: false,
    }),
    refundToCredit: SMS_TEXT.refundSent({ orderId, amount: huge, credit: true }),
    exchangeShipped: SMS_TEXT.exchangeShipped({
      orderId,
      pieces: Array.from({ length: 6 }, (_, i) => ({
        name: `${longPiece} ${i}`,
        label: 'XL · Indigo',
      })),
    }),
  };

  it.each(Object.entries(texts))('%s: at most 160 GSM-7 characters, one part', (_name, text) => {
    expect(text.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(smsSegments(text)).toEqual({ encoding: 'GSM-7', units: text.length, segments: 1 });
    expect(plainText(text)).toBe(text);
  });

  it('a list too long for one text ends with how many more there are', () => {
    expect(texts.sellerNewOrder).toMatch(/, \+\d+ more\. Please prepare\.$/);
    const shown = texts.sellerNewOrder.match(/100000 x /g)?.length ?? 0;
    expect(texts.sellerNewOrder).toContain(`+${12 - shown} more`);
    expect(shown).toBeGreaterThanOrEqual(2);
    expect(texts.lowStock).toMatch(/, \+\d+ more\. Restock soon\.$/);
    // A short list is shown whole.
    expect(SMS_TEXT.lowStock([{ name: 'Brass Cowrie Earrings', left: 2 }])).toBe(
      'duuka LOW STOCK: Brass Cowrie Earrings (2 left). Restock soon.',
    );
  });

  it('the confirmation says what happens next for each way of paying', () => {
    const ref = 'RCP-5b0e8a3e';
    const confirm = (payment: Parameters<typeof SMS_TEXT.orderConfirmation>[0]['payment']) =>
      SMS_TEXT.orderConfirmation({ orderId, total: 3_000_005_000, items: 100, payment });
    expect(confirm({ method: 'mobile_money' })).toBe(
      `duuka: Thank you! Order ${ref} (100 items, UGX 3,000,005,000) is received. We will confirm when your payment arrives.`,
    );
    expect(confirm({ method: 'card' })).toContain('We will confirm when your payment arrives.');
    expect(confirm({ method: 'cash_on_delivery' })).toContain('Pay on delivery.');
    // Bank details that fit are in the text; longer ones are on the receipt.
    expect(confirm({ method: 'bank_transfer', bankDetails: 'Stanbic 9030012345678' })).toBe(
      `duuka: Order ${ref} (UGX 3,000,005,000) is received. Please pay by bank transfer quoting ${ref}. Stanbic 9030012345678`,
    );
    expect(texts.confirmationBank).toBe(
      `duuka: Order ${ref} (UGX 999,999,999,999,999) is received. Please pay by bank transfer quoting ${ref}. Bank details are on your receipt.`,
    );
    expect(confirm({ method: 'bank_transfer', bankDetails: null })).toContain(
      'Bank details are on your receipt.',
    );
  });

  it('names keep their letters where GSM-7 has them; a cut reason ends with ...', () => {
    expect(plainText('Ńamutebi Zoë — Café “Ñ” 👗 [x] €5')).toBe(
      'Namutebi Zoe - Café "Ñ" ? (x) EUR5',
    );
    expect(texts.cancelled).toMatch(/\.\.\.\. Refund in 3-5 days\.$/);
    // A reason at 100 characters is sent whole.
    const reason =
      'The fabric arrived damaged from our supplier in Jinja, so we cannot make your dress in time. Sorry!!';
    expect(reason).toHaveLength(100);
    expect(SMS_TEXT.cancelled({ orderId, reason, refund: true })).toBe(
      `duuka: Order RCP-5b0e8a3e cancelled: ${reason.replace(/!+$/, '')}. Refund in 3-5 days.`,
    );
    expect(SMS_TEXT.cancelled({ orderId, reason: null, refund: false })).toBe(
      'duuka: Order RCP-5b0e8a3e was cancelled.',
    );
  });

  it('the order’s way (issue 23): ready for pickup as the spec says, the rider, the option’s days', () => {
    const ref = 'RCP-5b0e8a3e';
    expect(texts.readyForPickup).toBe(
      `duuka: Order ${ref} is ready for pickup at our Kampala shop, 9AM-6PM daily. Bring your receipt.`,
    );
    expect(
      SMS_TEXT.outForDelivery({ orderId, riderName: 'Okello', riderPhone: '+256772123456' }),
    ).toBe(
      `duuka: Order ${ref} is out for delivery with Okello (0772 123 456). Please keep your phone on.`,
    );
    // A name past the room left is cut; the number is never cut.
    expect(texts.outForDelivery).toMatch(/\.\.\. \(0772 123 456\)\. Please keep your phone on\.$/);
    const ship = (minDays: number, maxDays: number) =>
      SMS_TEXT.shipped({ orderId, days: { minDays, maxDays } });
    expect(ship(3, 5)).toBe(`duuka: Order ${ref} has shipped. Expect it in 3-5 days.`);
    expect(ship(2, 2)).toBe(`duuka: Order ${ref} has shipped. Expect it in 2 days.`);
    expect(ship(0, 1)).toBe(`duuka: Order ${ref} has shipped. Expect it the same or the next day.`);
    expect(SMS_TEXT.shipped({ orderId })).toBe(
      `duuka: Order ${ref} has shipped. Expect it in 1-3 days in Kampala, 3-5 days elsewhere.`,
    );
  });

  it('the confirmation says what the shopper saved (issue 35) only when one SMS holds it', () => {
    const order = {
      orderId: '3f2a9c1e-7b4d-4e8a-9c3b-1d2e3f4a5b6c',
      total: 88_000,
      items: 1,
      payment: { method: 'mobile_money' },
      lines: [{ name: 'Kitenge Wrap Dress', label: 'M · Indigo', quantity: 1 }],
    };
    const saved = SMS_TEXT.orderConfirmation({ ...order, saved: 2000 });
    expect(saved).toContain('You saved UGX 2,000.');
    expect(saved.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(SMS_TEXT.orderConfirmation({ ...order, saved: 0 })).not.toContain('saved');
    expect(SMS_TEXT.orderConfirmation(order)).toBe(
      SMS_TEXT.orderConfirmation({ ...order, saved: 0 }),
    );
    // Long bank details leave no room: the saving goes, the text still fits one SMS.
    const bank = SMS_TEXT.orderConfirmation({
      ...order,
      saved: 2000,
      payment: {
        method: 'bank_transfer',
        bankDetails:
          'Stanbic Bank Uganda, Kampala Road branch, account 9030012345678, duuka Fashion Limited',
      },
    });
    expect(bank.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(bank).toContain('Please pay by bank transfer');
  });

  it('the confirmation names the order’s option where it fits one SMS', () => {
    const ref = 'RCP-5b0e8a3e';
    const confirm = (method: string, delivery: { kind: string; name: string }) =>
      SMS_TEXT.orderConfirmation({
        orderId,
        total: 50_000,
        items: 1,
        payment: { method },
        delivery,
      });
    // A gift card's buyer is told it goes to its recipient, not to her (issue 35).
    expect(confirm('mobile_money', { kind: 'pickup', name: GIFT_CARD_DELIVERY })).toBe(
      `duuka: Thank you! Order ${ref} (1 item, UGX 50,000) is received. We will confirm when your payment arrives. Sent by text: we text it to its recipient.`,
    );
    const pickup = { kind: 'pickup', name: 'Pick up at the boutique' };
    expect(confirm('cash_on_delivery', pickup)).toBe(
      `duuka: Thank you! Order ${ref} (1 item, UGX 50,000) is received. Pay when you collect it. Pick up at the boutique: we will text you when it is ready.`,
    );
    expect(confirm('card', pickup)).toBe(
      `duuka: Thank you! Order ${ref} (1 item, UGX 50,000) is received. We will confirm when your payment arrives.`,
    );
    expect(confirm('cash_on_delivery', { kind: 'delivery', name: 'Nakawa' })).toBe(
      `duuka: Thank you! Order ${ref} (1 item, UGX 50,000) is received. Pay on delivery. Nakawa: we will text you when it ships.`,
    );
    // Too long to name: the pickup order still hears it is texted when ready, not shipped.
    expect(texts.confirmationCashPickup).toMatch(
      /Pay when you collect it\. We will text you when it is ready\.$/,
    );
  });

  it('EgoSMS gets numbers as 256XXXXXXXXX', () => {
    expect(egoSmsNumber('+256772000101')).toBe('256772000101');
  });
});
