import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  customersInput,
  ordersByPhoneLink,
  phoneDigits,
  readCursor,
  telLink,
  whatsappLink,
} from './desk-customers.ts';
import { cashProblem, createOrderInput, defaultDeskOption } from './desk-phone-orders.ts';
import { PAYMENT_METHODS, paymentMethodLabel } from './order-rules.ts';

describe('the customers list', () => {
  it('reads a phone search in any spelling as the same digits', () => {
    for (const q of ['0772 123 456', '+256 772-123-456', '256772123456', '772123456']) {
      expect(phoneDigits(q), q).toBe('772123456');
    }
    expect(phoneDigits('Nakato')).toBeNull();
    expect(phoneDigits('07')).toBeNull();
    // A name with digits in it is a name: 'Wanjiru 4b1c' matched every phone holding '41'.
    expect(phoneDigits('Wanjiru 4b1c23')).toBeNull();
  });

  it('builds the call, WhatsApp and orders links', () => {
    expect(telLink('+256772123456')).toBe('tel:+256772123456');
    expect(whatsappLink('+256772123456')).toBe('https://wa.me/256772123456');
    expect(ordersByPhoneLink('+256772123456')).toBe('/desk/orders?q=%2B256772123456');
  });

  it('takes only cursors the shop made', () => {
    const cursor = '2026-11-29T04:00:00.123456Z~p:+256772123456';
    expect(v.parse(customersInput, { cursor })).toMatchObject({ cursor });
    expect(readCursor(cursor)).toEqual({
      at: '2026-11-29T04:00:00.123456Z',
      key: 'p:+256772123456',
    });
    for (const bad of ['x', '2026-11-29~a:1', `2026-11-29T04:00:00.123456Z~a:\u0000`]) {
      expect(v.safeParse(customersInput, { cursor: bad }).success, bad).toBe(false);
    }
  });
});

describe('a desk order', () => {
  it('takes cash at the counter only, and picks up a counter sale', () => {
    expect(cashProblem('cash', 'counter')).toBeNull();
    expect(cashProblem('cash', 'phone')).toMatch(/counter/);
    expect(cashProblem('mobile_money', 'whatsapp')).toBeNull();
    expect(defaultDeskOption('counter')).toBe('pickup');
    expect(defaultDeskOption('phone')).toBe('kampala');
  });

  it('labels cash everywhere, and never offers it at checkout', () => {
    expect(paymentMethodLabel('cash')).toBe('Cash (paid at the counter)');
    expect(PAYMENT_METHODS as readonly string[]).not.toContain('cash');
  });

  it('stores the phone +256…, and the source defaults to phone', () => {
    const parsed = v.parse(createOrderInput, {
      orderId: '8f14e45f-ceea-467f-a0e6-1b2c3d4e5f60',
      customer: { phone: '0772 123 456', name: ' Aisha ' },
      items: [{ variantId: 1, quantity: 2 }],
      paymentMethod: 'bank_transfer',
    });
    expect(parsed).toMatchObject({
      customer: { phone: '+256772123456', name: 'Aisha' },
      source: 'phone',
    });
  });
});
