// Sizes and colours on the receipt PDF (decision 0040): the label under its piece's name, read
// back as pdftotext printed it (pdf.js, tests/support/pdf.ts); a long name and its label stay in
// the name column.
import { describe, expect, it } from 'vitest';
import { buildReceipt, type ReceiptOrder } from '#core/receipt.ts';
import { pdfText } from '../../tests/support/pdf.ts';
import { receiptPdf } from './receipt-pdf.ts';

const longName =
  'Hand-beaded Ankole long-horn leather travel holdall with brass fittings and a detachable strap';
const order: ReceiptOrder = {
  id: '3f2a9c1e-7b4d-4e8a-9c3b-1d2e3f4a5b6c',
  createdAt: '2026-11-14T11:05:00Z',
  paymentMethod: 'cash_on_delivery',
  total: 420_000,
  deliveryFee: 5000,
  discount: 0,
  items: [
    { id: 'a', name: 'Ankara Wrap Dress', price: 145_000, quantity: 2, variant: 'M · Indigo' },
    { id: 'b', name: 'Cowrie Necklace', price: 35_000, quantity: 1 },
    { id: 'c', name: longName, price: 90_000, quantity: 1, variant: 'EU 42 · Burnt Orange' },
  ],
};
const customer = { fullName: 'Nakato Achieng', email: 'nakato@example.ug', phone: '+256772123456' };

// pdf.js (a few MB of script) and the fonts load with the first test: seconds on a busy machine,
// past the unit tests' 5 s.
describe('the receipt PDF with sizes and colours', { timeout: 20_000 }, () => {
  it('shows each label on the line under its piece, and nothing for a piece without one', async () => {
    const text = await pdfText(await receiptPdf(buildReceipt(order, customer)), { mode: 'layout' });
    const lines = text.split('\n');
    const dress = lines.findIndex((line) => line.includes('Ankara Wrap Dress'));
    expect(dress).toBeGreaterThan(-1);
    // Name, quantity and figures on one line; the label alone on the next.
    expect(lines[dress]).toMatch(/Ankara Wrap Dress\s+2\s+UGX 145,000\s+UGX 290,000/);
    expect(lines[dress + 1]?.trim()).toBe('M · Indigo');
    const necklace = lines.findIndex((line) => line.includes('Cowrie Necklace'));
    expect(lines[necklace + 1]).not.toMatch(/·/);
    expect(text).toContain('EU 42 · Burnt Orange');
  });

  it('keeps a long name and its label inside the name column, clear of the figures', async () => {
    const text = await pdfText(await receiptPdf(buildReceipt(order, customer)), { mode: 'layout' });
    const label = text.split('\n').find((line) => line.includes('Burnt Orange')) ?? '';
    // Alone on its line: no figure beside it.
    expect(label.trim()).toBe('EU 42 · Burnt Orange');
    const raw = await pdfText(await receiptPdf(buildReceipt(order, customer)), { mode: 'raw' });
    expect(raw).toMatch(/Hand-beaded Ankole[\s\S]*detachable strap\s+EU 42 · Burnt Orange/);
  });
});
