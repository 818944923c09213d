// The receipt PDF read back as a shopper's PDF reader would show it (pdf.js, tests/support/pdf.ts:
// the text as pdftotext printed it, the fonts, the pages).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DELIVERY_WORDING } from '#core/delivery-choice.ts';
import { buildReceipt, RECEIPT_TEXT, type ReceiptOrder, receiptPayment } from '#core/receipt.ts';
import { pdfFonts, pdfPageCount, pdfText } from '../../tests/support/pdf.ts';
import { receiptPdf } from './receipt-pdf.ts';

const folder = mkdtempSync(join(tmpdir(), 'receipt-pdf-'));
afterAll(() => {
  // RECEIPT_PDF_SHOTS=dir keeps the PAID and UNPAID receipts to look at.
  const keep = process.env.RECEIPT_PDF_SHOTS;
  if (keep)
    for (const name of ['paid.pdf', 'unpaid.pdf']) cpSync(join(folder, name), join(keep, name));
  rmSync(folder, { recursive: true, force: true });
});

/** The fonts as pdffonts lists them: a line each, its name and whether it is embedded. */
const fontList = async (pdf: Uint8Array) =>
  (await pdfFonts(pdf))
    .map((f) => `${f.name} ${f.embedded ? 'embedded' : 'not embedded'}`)
    .join('\n');

const order: ReceiptOrder = {
  id: '3f2a9c1e-7b4d-4e8a-9c3b-1d2e3f4a5b6c',
  createdAt: '2026-11-14T11:05:00Z',
  paymentMethod: 'mobile_money',
  total: 1_390_000,
  deliveryFee: 5000,
  discount: 0,
  items: [
    { id: 'a', name: 'Kitenge Wrap Dress', price: 85_000, quantity: 2 },
    { id: 'b', name: 'Ñambi Bark Cloth Scarf — ẞ edition', price: 30_000, quantity: 1 },
    {
      id: 'c',
      name: 'Hand-beaded Ankole long-horn leather travel holdall with brass fittings, a detachable shoulder strap and a lining of Kampala-printed cotton',
      price: 1_185_000,
      quantity: 1,
    },
  ],
};
const customer = {
  fullName: 'Nakato Ñambi — Kampala ẞ',
  email: 'nakato@example.ug',
  phone: '+256772123456',
  address: 'Plot 12 Acacia Avenue, Kololo, Uganda',
};

// pdf.js (a few MB of script) and the fonts load with the first test: seconds on a busy machine,
// past the unit tests' 5 s.
describe('the receipt PDF', { timeout: 20_000 }, () => {
  it('shows the receipt number, date, customer, items, totals and payment method', async () => {
    const pdf = await receiptPdf(buildReceipt(order, customer));
    const text = await pdfText(pdf, { mode: 'layout' });
    expect(text).toContain('RCP-3f2a9c1e');
    expect(text).toContain('14 November 2026');
    expect(text).toContain('14:05 EAT');
    expect(text).toContain('Nakato Ñambi — Kampala ẞ');
    expect(text).toContain('Plot 12 Acacia Avenue');
    expect(text).toContain('Kololo, Uganda');
    expect(text).toContain('Kitenge Wrap Dress');
    expect(text).toContain('Ñambi Bark Cloth Scarf — ẞ edition');
    expect(text).toContain('Mobile Money');
    expect(text).toMatch(/Subtotal\s+UGX 1,385,000/);
    expect(text).toMatch(/Delivery Fee\s+UGX 5,000/);
    expect(text).toMatch(/Discount\s+UGX 0/);
    expect(text).toMatch(/Total\s+UGX 1,390,000/);
    expect(text).not.toContain('Tax');
    expect(text).not.toContain('Transaction ID');
  });

  it('shows the discount with the offers that gave it, and the gift card spent (issue 35)', async () => {
    const offered = buildReceipt(
      {
        ...order,
        discount: 138_500,
        credit: 50_000,
        total: 1_201_500,
        offers: [
          { code: null, name: 'Weekend sale', amount: 100_000 },
          { code: 'NAKATO10', name: 'Nakato friends and family', amount: 38_500 },
        ],
      },
      customer,
    );
    const text = await pdfText(await receiptPdf(offered), { mode: 'layout' });
    expect(text).toMatch(/Discount\s+− UGX 138,500/);
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Weekend sale, Nakato friends and family (NAKATO10)',
    );
    expect(text).toMatch(/Gift card \/ credit\s+− UGX 50,000/);
    expect(text).toMatch(/Total\s+UGX 1,201,500/);
  });

  it('wraps a long item name instead of running into the figures', async () => {
    const text = await pdfText(await receiptPdf(buildReceipt(order, customer)));
    const words = text.replace(/\s+/g, ' ');
    expect(words).toContain('Hand-beaded Ankole long-horn leather');
    const nameLines = text.split('\n').filter((l) => /holdall|Kampala-printed|Hand-beaded/.test(l));
    expect(nameLines.length).toBeGreaterThan(1);
  });

  it('names the delivery option, where it goes, the rider’s number and the notes', async () => {
    const delivered = buildReceipt(
      {
        ...order,
        delivery: {
          option: 'Kampala delivery',
          kind: 'delivery',
          area: 'Ntinda',
          landmark: 'Capital Shoppers',
          phone: '+256772123456',
          notes: 'Green gate',
        },
      },
      customer,
    );
    const text = await pdfText(await receiptPdf(delivered), { mode: 'layout' });
    expect(text).toContain('DELIVERY');
    expect(text.replace(/\s+/g, ' ')).toContain('Kampala delivery · Ntinda, near Capital Shoppers');
    expect(text).toContain(`${DELIVERY_WORDING.delivery.calls} 0772 123 456`);
    expect(text).toContain('Notes: Green gate');

    const pickup = buildReceipt(
      {
        ...order,
        deliveryFee: 0,
        delivery: {
          option: 'Pick up at the boutique',
          kind: 'pickup',
          area: '',
          landmark: '',
          phone: '+256772123456',
          notes: '',
        },
      },
      customer,
    );
    const picked = await pdfText(await receiptPdf(pickup), { mode: 'layout' });
    expect(picked).toContain('Pick up at the boutique');
    expect(picked).not.toContain(DELIVERY_WORDING.delivery.calls);
    expect(picked).toMatch(/Delivery Fee\s+UGX 0/);
  });

  it('embeds the shop fonts, subset', async () => {
    const fonts = await fontList(await receiptPdf(buildReceipt(order, customer)));
    expect(fonts).toMatch(/CormorantGaramond-SemiBold/);
    expect(fonts).toMatch(/Manrope-Regular/);
    expect(fonts).toMatch(/Manrope-SemiBold/);
    expect(fonts).not.toMatch(/Helvetica|Times/);
  });

  it('shows tax above 0 and a transaction id when there is one', async () => {
    const receipt = buildReceipt(order, customer, {
      tax: 1800,
      transactionId: 'MP240611.1432.A77',
    });
    const text = await pdfText(await receiptPdf(receipt), { mode: 'layout' });
    expect(text).toMatch(/Tax\s+UGX 1,800/);
    expect(text).toContain('Transaction ID'.toUpperCase());
    expect(text).toContain('MP240611.1432.A77');
  });

  const bankOrder: ReceiptOrder = { ...order, paymentMethod: 'bank_transfer' };
  const BANK =
    'Stanbic Bank Uganda, Kampala Road branch\nAccount name: duuka Ltd\nAccount no. 9030012345678';

  it('an unpaid bank transfer says UNPAID and shows the bank details with the reference to quote', async () => {
    const receipt = {
      ...buildReceipt(bankOrder, customer),
      payment: receiptPayment({
        orderId: order.id,
        status: 'pending',
        paymentMethod: 'bank_transfer',
        successful: null,
        receiptTransactionId: null,
        bankDetails: BANK,
      }),
    };
    const pdf = await receiptPdf(receipt);
    writeFileSync(join(folder, 'unpaid.pdf'), pdf);
    const text = await pdfText(pdf, { mode: 'layout' });
    expect(text).toContain('UNPAID');
    expect(text).not.toMatch(/\bPAID\b/);
    expect(text).toContain('Awaiting payment');
    expect(text).toContain('PAY BY BANK TRANSFER');
    // Each line of the configured details on its own line, as the shop typed them.
    expect(text).toMatch(/Stanbic Bank Uganda, Kampala Road branch\s*\n\s*Account name: duuka Ltd/);
    expect(text).toContain('Account no. 9030012345678');
    expect(text).toContain('Quote this reference with your transfer: RCP-3f2a9c1e');
    expect(text).toMatch(/Total\s+UGX 1,390,000/);
  });

  it('a paid receipt says PAID with the method and the reference, and no bank details', async () => {
    const receipt = buildReceipt(bankOrder, customer, { transactionId: 'FT26329XK81' });
    const paid = {
      ...receipt,
      payment: receiptPayment({
        orderId: order.id,
        status: 'processing',
        paymentMethod: 'bank_transfer',
        successful: { network: 'bank_transfer', transactionId: 'FT26329XK81' },
        receiptTransactionId: receipt.transactionId,
        bankDetails: BANK,
      }),
    };
    const pdf = await receiptPdf(paid);
    writeFileSync(join(folder, 'paid.pdf'), pdf);
    const text = await pdfText(pdf, { mode: 'layout' });
    expect(text).toMatch(/\bPAID\b/);
    expect(text).not.toContain('UNPAID');
    expect(text).toContain('Bank Transfer · Reference FT26329XK81');
    expect(text).not.toContain('Stanbic');
    expect(text).not.toContain('PAY BY BANK TRANSFER');
  });

  it('an unpaid bank transfer without configured details asks the shopper to ask, with the reference', async () => {
    const receipt = {
      ...buildReceipt(bankOrder, customer),
      payment: {
        state: 'unpaid' as const,
        bankTransfer: { details: null, reference: 'RCP-3f2a9c1e' },
      },
    };
    const text = await pdfText(await receiptPdf(receipt), { mode: 'layout' });
    expect(text).toContain('UNPAID');
    expect(text).toContain(RECEIPT_TEXT.bankTransferMissing);
    expect(text).toContain('RCP-3f2a9c1e');
  });

  it('flows many items onto further pages, each numbered', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      id: String(i),
      name: `Kitenge shirt number ${i + 1}`,
      price: 45_000,
      quantity: 1,
    }));
    const receipt = buildReceipt({ ...order, items: many, total: 40 * 45_000 + 5000 }, customer);
    const pdf = await receiptPdf(receipt);
    const pages = await pdfPageCount(pdf);
    expect(pages).toBeGreaterThanOrEqual(2);
    const text = await pdfText(pdf, { mode: 'layout' });
    expect(text).toContain('Kitenge shirt number 1 ');
    expect(text).toContain('Kitenge shirt number 40');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toMatch(/Total\s+UGX 1,805,000/);
    // The table's head opens every page that carries items, once.
    for (let n = 1; n <= pages; n++) {
      const onPage = await pdfText(pdf, { mode: 'layout', page: n });
      const heads = onPage.match(/UNIT PRICE/g)?.length ?? 0;
      expect(heads, `table heads on page ${n}`).toBe(/Kitenge shirt/.test(onPage) ? 1 : 0);
    }
  });

  it('composes a letter typed as letter + accent', async () => {
    const receipt = buildReceipt(order, { ...customer, fullName: 'Nakato N\u0303ambi' });
    const text = await pdfText(await receiptPdf(receipt), { mode: 'layout' });
    expect(text).toContain('Nakato Ñambi');
  });

  it('prints letters its fonts lack as ? and survives control characters', async () => {
    const receipt = buildReceipt(
      {
        ...order,
        items: [{ name: 'Silk 絲 scarf\u0000 🧣 with\ttabs', price: 1000, quantity: 1 }],
      },
      { ...customer, fullName: 'Guest\nName' },
    );
    const text = await pdfText(await receiptPdf(receipt), { mode: 'layout' });
    expect(text).toContain('Silk ? scarf ? with tabs');
    expect(text).not.toContain('\u0000');
    expect(text).toContain('Guest Name');
  });
});
