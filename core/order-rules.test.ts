import { describe, expect, it } from 'vitest';
import { kampalaYear } from './kampala-time.ts';
import {
  CHECKOUT_TEXT,
  DELIVERY_FEE,
  formatLongDate,
  formatOrderDate,
  formatTime,
  isPaymentMethod,
  ORDERS_TEXT,
  orderCustomerName,
  orderIdHead,
  orderIdTail,
  orderTotals,
  PAYMENT_METHOD_CHOICES,
  PAYMENT_METHODS,
  paymentMethodLabel,
  receiptNumber,
  statusLabel,
  statusTone,
} from './order-rules.ts';

const orderId = '3f2a9c1e-7b4d-4e8a-9c3b-1d2e3f4a5b6c';

describe('order totals', () => {
  it('is the items at their prices + 5,000 delivery − 0 discount', () => {
    expect(DELIVERY_FEE).toBe(5000);
    expect(
      orderTotals([
        { price: 85_000, quantity: 2 },
        { price: 30_000, quantity: 1 },
      ]),
    ).toEqual({ subtotal: 200_000, deliveryFee: 5000, discount: 0, total: 205_000 });
  });

  it('charges the delivery fee even on an empty list (no free-delivery threshold)', () => {
    expect(orderTotals([]).total).toBe(5000);
    expect(orderTotals([{ price: 1_000_000, quantity: 1 }]).total).toBe(1_005_000);
  });
});

describe('payment methods', () => {
  it('offers the four methods with the spec labels', () => {
    expect(PAYMENT_METHODS).toEqual(['mobile_money', 'card', 'bank_transfer', 'cash_on_delivery']);
    expect(PAYMENT_METHODS.map(paymentMethodLabel)).toEqual([
      'Mobile Money',
      'Credit Card',
      'Bank Transfer',
      'Cash on Delivery',
    ]);
    expect(PAYMENT_METHOD_CHOICES.mobile_money.description).toBe(
      'MTN Mobile Money, Airtel Money and similar',
    );
  });

  it('knows its own methods only', () => {
    expect(isPaymentMethod('card')).toBe(true);
    expect(isPaymentMethod('bitcoin')).toBe(false);
    expect(isPaymentMethod(undefined)).toBe(false);
    expect(paymentMethodLabel('bitcoin')).toBe('bitcoin');
  });
});

describe('order status badge', () => {
  it('is yellow for pending, green for completed, red for cancelled, grey otherwise', () => {
    expect(statusTone('pending')).toBe('yellow');
    expect(statusTone('completed')).toBe('green');
    expect(statusTone('cancelled')).toBe('red');
    for (const other of ['processing', 'shipped', 'delivered', 'Pending', '']) {
      expect(statusTone(other)).toBe('grey');
    }
    expect(statusLabel('pending')).toBe('Pending');
  });
});

describe('order ids and receipt numbers', () => {
  it('shows the first 8 on /orders, the last 8 in the history table', () => {
    expect(orderIdHead(orderId)).toBe('3f2a9c1e');
    expect(orderIdTail(orderId)).toBe('3f4a5b6c');
  });
  it("is RCP- plus the order id's first 8 characters", () => {
    expect(receiptNumber(orderId)).toBe('RCP-3f2a9c1e');
  });
});

describe('dates in Kampala time (UTC+3), whatever the machine zone', () => {
  it('formats dd.mm.yyyy', () => {
    expect(formatOrderDate('2026-03-07T09:00:00Z')).toBe('07.03.2026');
  });

  it('moves an order placed after 21:00 UTC to the next day in Kampala', () => {
    const lateEvening = '2026-12-31T21:30:00Z'; // 00:30 on 1 January in Kampala
    expect(formatOrderDate(lateEvening)).toBe('01.01.2027');
    expect(formatLongDate(lateEvening)).toBe('1 January 2027');
    expect(formatTime(lateEvening)).toBe('00:30 EAT');
    const justBefore = '2026-12-31T20:59:00Z';
    expect(formatOrderDate(justBefore)).toBe('31.12.2026');
    expect(formatTime(justBefore)).toBe('23:59 EAT');
  });

  it("gives the footer's year in Kampala: the next one from 21:00 UTC on 31 December", () => {
    expect(kampalaYear(Date.parse('2026-12-31T20:59:59Z'))).toBe(2026);
    expect(kampalaYear(Date.parse('2026-12-31T21:00:00Z'))).toBe(2027);
  });

  it('takes Date objects and epoch numbers too, and shows nothing for a broken date', () => {
    const at = new Date(Date.UTC(2026, 10, 14, 11, 5));
    expect(formatLongDate(at)).toBe('14 November 2026');
    expect(formatTime(at.getTime())).toBe('14:05 EAT');
    expect(formatOrderDate('not a date')).toBe('');
    expect(formatTime(Number.NaN)).toBe('');
  });
});

describe('texts', () => {
  it('has the checkout errors as the spec writes them', () => {
    expect(CHECKOUT_TEXT.productNotFound('Kitenge Wrap Dress')).toBe(
      'Product Kitenge Wrap Dress not found.',
    );
    expect(CHECKOUT_TEXT.insufficientStock('Kitenge Wrap Dress', 2)).toBe(
      'Insufficient stock for Kitenge Wrap Dress. Available: 2',
    );
    expect(CHECKOUT_TEXT.stockUpdateNotFound('Scarf')).toBe(
      'Product Scarf not found for stock update.',
    );
    expect(CHECKOUT_TEXT.placed).toBe('Order placed successfully!');
  });

  it('counts orders and names the customer as the order, the profile, or You', () => {
    expect(ORDERS_TEXT.found(1)).toBe('1 order(s) found');
    expect(ORDERS_TEXT.found(12)).toBe('12 order(s) found');
    expect(orderCustomerName('Nakato Ñambi', 'Other')).toBe('Nakato Ñambi');
    expect(orderCustomerName('  ', 'Profile Name')).toBe('Profile Name');
    expect(orderCustomerName(null, null)).toBe('You');
  });
});
