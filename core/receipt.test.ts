import { describe, expect, it } from 'vitest';
import {
  buildReceipt,
  CREDIT_PAYMENT_LABEL,
  GUEST_CUSTOMER_NAME,
  type ReceiptOrder,
  receiptPayment,
  showsTax,
} from './receipt.ts';

const order: ReceiptOrder = {
  id: '3f2a9c1e-7b4d-4e8a-9c3b-1d2e3f4a5b6c',
  createdAt: new Date('2026-11-14T21:15:00Z'),
  paymentMethod: 'mobile_money',
  total: 205_000,
  deliveryFee: 5000,
  discount: 0,
  customerName: 'Nakato Ñambi',
  items: [
    { id: 'a1', name: 'Kitenge Wrap Dress', price: 85_000, quantity: 2 },
    { id: 'b2', name: 'Bark Cloth Scarf', price: 30_000, quantity: 1 },
  ],
};

const profile = {
  fullName: 'Nakato Ñambi',
  email: 'nakato@example.ug',
  phone: '+256772123456',
  address: 'Plot 12 Acacia Avenue, Kololo',
};

describe('the receipt', () => {
  it('is built from the order and the profile as the spec shapes it', () => {
    expect(buildReceipt(order, profile)).toEqual({
      receiptNumber: 'RCP-3f2a9c1e',
      orderId: order.id,
      orderDate: '2026-11-14T21:15:00.000Z',
      // 00:15 the next day in Kampala
      date: '15 November 2026',
      time: '00:15 EAT',
      customerInfo: {
        name: 'Nakato Ñambi',
        email: 'nakato@example.ug',
        phone: '+256772123456',
        address: { street: 'Plot 12 Acacia Avenue', city: 'Kololo', country: 'Uganda' },
      },
      items: [
        { id: 'a1', name: 'Kitenge Wrap Dress', quantity: 2, price: 85_000 },
        { id: 'b2', name: 'Bark Cloth Scarf', quantity: 1, price: 30_000 },
      ],
      subtotal: 200_000,
      deliveryFee: 5000,
      discount: 0,
      tax: 0,
      total: 205_000,
      paymentMethod: 'Mobile Money',
      transactionId: null,
    });
  });

  it('survives a trip through JSON (receipt_data)', () => {
    const receipt = buildReceipt(order, profile);
    expect(JSON.parse(JSON.stringify(receipt))).toEqual(receipt);
  });

  it("falls back to the order's name, then 'Guest Customer'", () => {
    expect(buildReceipt(order, { ...profile, fullName: '  ' }).customerInfo.name).toBe(
      'Nakato Ñambi',
    );
    const guest = buildReceipt({ ...order, customerName: null }, null);
    expect(GUEST_CUSTOMER_NAME).toBe('Guest Customer');
    expect(guest.customerInfo).toEqual({
      name: 'Guest Customer',
      email: '',
      phone: '',
      address: { street: '', city: 'Kampala', country: 'Uganda' },
    });
  });

  it('shows the stored total, and the tax line only above 0', () => {
    const receipt = buildReceipt(order, profile);
    expect(showsTax(receipt)).toBe(false);
    expect(showsTax(buildReceipt(order, profile, { tax: 1800 }))).toBe(true);
    expect(buildReceipt({ ...order, total: 210_000 }, profile).total).toBe(210_000);
  });

  it('carries a transaction id when the payment has one', () => {
    expect(buildReceipt(order, profile, { transactionId: ' MP-77 ' }).transactionId).toBe('MP-77');
    expect(buildReceipt(order, profile, { transactionId: '' }).transactionId).toBeNull();
  });

  it('numbers items without ids and labels every payment method', () => {
    const receipt = buildReceipt(
      {
        ...order,
        paymentMethod: 'cash_on_delivery',
        items: [{ name: 'Tote', price: 1, quantity: 1 }],
      },
      profile,
    );
    expect(receipt.items[0]?.id).toBe('1');
    expect(receipt.paymentMethod).toBe('Cash on Delivery');
  });
});

describe('PAID or UNPAID', () => {
  const facts = {
    orderId: order.id,
    status: 'pending',
    paymentMethod: 'bank_transfer',
    successful: null,
    receiptTransactionId: null,
    bankDetails: 'Stanbic Bank Uganda · A/C 9030012345678',
  };

  it('an unpaid bank transfer carries the bank details and the reference to quote', () => {
    expect(receiptPayment(facts)).toEqual({
      state: 'unpaid',
      bankTransfer: {
        details: 'Stanbic Bank Uganda · A/C 9030012345678',
        reference: 'RCP-3f2a9c1e',
      },
    });
    expect(receiptPayment({ ...facts, bankDetails: '   ' })).toEqual({
      state: 'unpaid',
      bankTransfer: { details: null, reference: 'RCP-3f2a9c1e' },
    });
  });

  it('a recorded payment is PAID with who moved the money and its reference, whatever the receipt stored', () => {
    expect(
      receiptPayment({ ...facts, successful: { network: 'mtn', transactionId: 'MP26.1432' } }),
    ).toEqual({ state: 'paid', method: 'MTN Mobile Money', reference: 'MP26.1432' });
    expect(
      receiptPayment({
        ...facts,
        status: 'cancelled',
        successful: { network: 'bank_transfer', transactionId: 'FT1' },
      }),
    ).toMatchObject({ state: 'paid', reference: 'FT1' });
  });

  it('paid in full by gift card or credit: PAID by it, whatever way was chosen; cancelled is not', () => {
    const inFull = {
      ...facts,
      paymentMethod: 'cash_on_delivery',
      status: 'processing',
      paidInFull: true,
    };
    expect(receiptPayment(inFull)).toEqual({
      state: 'paid',
      method: CREDIT_PAYMENT_LABEL,
      reference: null,
    });
    expect(receiptPayment({ ...inFull, status: 'cancelled' })).toEqual({
      state: 'unpaid',
      bankTransfer: null,
    });
  });

  it('without a payment: past pending is PAID, except cash on delivery until completed; cancelled is UNPAID', () => {
    expect(receiptPayment({ ...facts, paymentMethod: 'mobile_money', status: 'shipped' })).toEqual({
      state: 'paid',
      method: 'Mobile Money',
      reference: null,
    });
    expect(
      receiptPayment({ ...facts, paymentMethod: 'cash_on_delivery', status: 'shipped' }),
    ).toEqual({ state: 'unpaid', bankTransfer: null });
    expect(
      receiptPayment({ ...facts, paymentMethod: 'cash_on_delivery', status: 'completed' }),
    ).toMatchObject({ state: 'paid', method: 'Cash on Delivery' });
    expect(receiptPayment({ ...facts, status: 'cancelled' })).toEqual({
      state: 'unpaid',
      bankTransfer: null,
    });
    expect(receiptPayment({ ...facts, paymentMethod: 'mobile_money' })).toEqual({
      state: 'unpaid',
      bankTransfer: null,
    });
  });
});
