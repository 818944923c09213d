// Sizes and colours in texts (decision 0040): labels as "M/Indigo" (GSM-7 has no '·'), the name
// clipped before the label, pieces named in the customer's confirmation when they fit.
import { describe, expect, it } from 'vitest';
import { SMS_MAX_CHARS, SMS_TEXT, smsLabel, smsPiece, smsSegments } from './sms.ts';

const orderId = '5b0e8a3e-8f0c-4d59-9a43-6c1f8f1b2a77';
const longPiece = 'Hand-woven Barkcloth & Kitenge Wrap Dress — “Kampala Nights” Limited Edition';

describe('labels in texts', () => {
  it('"M · Indigo" is "M/Indigo"; no label is nothing', () => {
    expect(smsLabel('M · Indigo')).toBe('M/Indigo');
    expect(smsLabel('EU 38')).toBe('EU 38');
    expect(smsLabel('')).toBe('');
    expect(smsLabel(null)).toBe('');
  });

  it('the name is clipped, the label kept', () => {
    expect(smsPiece(longPiece, 'XXL · Indigo', 22)).toBe('Hand-woven Barkclot... (XXL/Indigo)');
    expect(smsPiece('Brass Cowrie Earrings', '', 22)).toBe('Brass Cowrie Earrings');
  });
});

describe('the seller’s and the low-stock texts name sizes', () => {
  it('seller: "2 x Ankara Wrap Dress (M/Indigo)"', () => {
    const text = SMS_TEXT.sellerNewOrder({
      orderId,
      business: 'Kampala Kitenge House',
      lines: [
        { name: 'Ankara Wrap Dress', label: 'M · Indigo', quantity: 2 },
        { name: 'Cowrie Necklace', label: '', quantity: 1 },
      ],
    });
    expect(text).toBe(
      'duuka: New order RCP-5b0e8a3e for Kampala Kitenge House: 2 x Ankara Wrap Dress (M/Indigo), 1 x Cowrie Necklace. Please prepare.',
    );
  });

  it('low stock: per size, and as before without one', () => {
    expect(
      SMS_TEXT.lowStock([
        { name: 'Ankara Wrap Dress', label: 'M · Indigo', left: 1 },
        { name: 'Brass Cowrie Earrings', left: 2 },
      ]),
    ).toBe(
      'duuka LOW STOCK: Ankara Wrap Dress (M/Indigo, 1 left), Brass Cowrie Earrings (2 left). Restock soon.',
    );
  });

  it('every label survives a full list, in one GSM-7 part', () => {
    const lines = Array.from({ length: 12 }, (_, i) => ({
      name: `${longPiece} ${i}`,
      label: 'XXL · Burnt Orange',
      quantity: 100_000,
    }));
    const text = SMS_TEXT.sellerNewOrder({ orderId, business: 'x'.repeat(200), lines });
    expect(text.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(text).toContain('(XXL/Burnt Orange)');
    expect(text).toMatch(/\+\d+ more\. Please prepare\.$/);
  });
});

describe('the customer’s confirmation', () => {
  const confirm = (
    lines: { name: string; label?: string; quantity: number }[],
    method = 'cash_on_delivery',
    total = 155_000,
  ) =>
    SMS_TEXT.orderConfirmation({
      orderId,
      total,
      items: lines.reduce((n, l) => n + l.quantity, 0),
      payment: { method, bankDetails: 'Stanbic Bank, Kampala Road. Account 9030012345678.' },
      lines,
    });

  it('names one or two pieces with their sizes', () => {
    expect(
      confirm([
        { name: 'Ankara Wrap Dress 1', label: 'M · Indigo', quantity: 1 },
        { name: 'Cowrie Necklace', quantity: 1 },
      ]),
    ).toBe(
      'duuka: Thank you for order RCP-5b0e8a3e: Ankara Wrap Dress 1 (M/Indigo) and Cowrie Necklace, UGX 155,000. Pay on delivery. We will text you when it ships.',
    );
    expect(confirm([{ name: 'Ankara Wrap Dress', label: 'M · Indigo', quantity: 1 }])).toBe(
      'duuka: Thank you for order RCP-5b0e8a3e: Ankara Wrap Dress (M/Indigo), UGX 155,000. Pay on delivery. We will text you when it ships.',
    );
    expect(
      confirm(
        [
          { name: 'Ankara Wrap Dress', label: 'M · Indigo', quantity: 2 },
          { name: 'Cowrie Necklace', quantity: 1 },
        ],
        'mobile_money',
      ),
    ).toBe(
      'duuka: Thank you for order RCP-5b0e8a3e: 2 x Ankara Wrap Dress (M/Indigo) and Cowrie Necklace, UGX 155,000. We will confirm when your payment arrives.',
    );
  });

  it('three lines, pieces without sizes, or a text too long: the count, exactly as before', () => {
    const before = SMS_TEXT.orderConfirmation({
      orderId,
      total: 155_000,
      items: 3,
      payment: { method: 'cash_on_delivery' },
    });
    expect(before).toBe(
      'duuka: Thank you! Order RCP-5b0e8a3e (3 items, UGX 155,000) is received. Pay on delivery. We will text you when it ships.',
    );
    const three = ['A', 'B', 'C'].map((n) => ({ name: `Dress ${n}`, label: 'S', quantity: 1 }));
    expect(confirm(three)).toBe(before);
    expect(confirm([{ name: 'Kitenge Scarf', quantity: 3 }])).toBe(before);
    const long = confirm(
      [
        { name: longPiece, label: 'XXL · Burnt Orange', quantity: 100_000 },
        { name: longPiece, label: 'XS · Midnight Indigo', quantity: 100_000 },
      ],
      'mobile_money',
      999_999_999_999_999,
    );
    expect(long).toMatch(/^duuka: Thank you! Order RCP-5b0e8a3e \(200000 items, UGX /);
    expect(long.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
  });

  it('a bank transfer keeps its bank details first; the pieces only where room is left', () => {
    const text = confirm(
      [{ name: 'Ankara Wrap Dress', label: 'M · Indigo', quantity: 1 }],
      'bank_transfer',
    );
    expect(text.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(text).toContain('Account 9030012345678');
    expect(text).toContain('quoting RCP-5b0e8a3e');
  });
});

describe('back in stock', () => {
  it('names the piece and size and links to that size, never cutting the link', () => {
    const link = 'https://duuka.ug/products/ankara-wrap-dress?variant=1234';
    expect(
      SMS_TEXT.backInStock({
        name: 'Ankara Wrap Dress',
        label: 'M · Indigo',
        link,
        shop: 'https://duuka.ug',
      }),
    ).toBe(`duuka: Good news! Ankara Wrap Dress in M/Indigo is back in stock: ${link}`);
    const long = SMS_TEXT.backInStock({
      name: `${longPiece} ${'x'.repeat(100)}`,
      label: 'XXL · Burnt Orange',
      link,
      shop: 'https://duuka.ug',
    });
    expect(long.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(long.endsWith(link)).toBe(true);
    expect(long).toContain('in XXL/Burnt Orange');
    expect(smsSegments(long).encoding).toBe('GSM-7');
  });

  it('a link too long for one text gives way to the shop’s address', () => {
    const text = SMS_TEXT.backInStock({
      name: 'Ankara Wrap Dress',
      label: 'M',
      link: `https://duuka.ug/products/${'a'.repeat(150)}?variant=1`,
      shop: 'https://duuka.ug',
    });
    expect(text).toBe(
      'duuka: Good news! Ankara Wrap Dress in M is back in stock: https://duuka.ug',
    );
  });
});
