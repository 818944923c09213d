import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  addOrderNoteInput,
  callLink,
  DESK_ORDER_TEXT,
  nextMove,
  statusTextPreview,
  whatsAppLink,
} from './desk-order.ts';
import { orderRecordDetail } from './desk-shop.ts';

const ID = '1a2b3c4d-0000-4000-8000-00000000abcd';

describe('nextMove', () => {
  const order = (status: string, deliveryKind = 'delivery', paid = true) => ({
    status,
    deliveryKind,
    paymentMethod: 'mobile_money',
    paid,
  });
  it('follows the order’s kind', () => {
    expect(nextMove(order('pending'))).toEqual({ status: 'processing', label: 'Start packing' });
    expect(nextMove(order('processing'))).toMatchObject({ status: 'out_for_delivery' });
    expect(nextMove(order('processing', 'pickup'))).toMatchObject({ status: 'ready_for_pickup' });
    expect(nextMove(order('processing', 'courier'))).toMatchObject({ status: 'shipped' });
    expect(nextMove(order('out_for_delivery'))).toMatchObject({ status: 'delivered' });
    expect(nextMove(order('ready_for_pickup', 'pickup'))).toMatchObject({ status: 'collected' });
    expect(nextMove(order('delivered'))).toMatchObject({ status: 'completed' });
    expect(nextMove(order('collected', 'pickup'))).toMatchObject({ status: 'completed' });
  });
  it('waits for the money, and stops at the end', () => {
    expect(nextMove(order('pending', 'delivery', false))).toEqual({
      status: null,
      why: DESK_ORDER_TEXT.waitingForPayment,
    });
    expect(
      nextMove({ ...order('pending', 'delivery', false), paymentMethod: 'cash_on_delivery' }),
    ).toMatchObject({ status: 'processing' });
    expect(nextMove(order('completed')).status).toBeNull();
    expect(nextMove(order('cancelled')).status).toBeNull();
  });
});

describe('the customer’s links', () => {
  it('call and WhatsApp the number however it was typed', () => {
    for (const phone of ['0772 123 456', '+256772123456', '256-772-123-456']) {
      expect(callLink(phone)).toBe('tel:+256772123456');
      expect(whatsAppLink(phone)).toBe('https://wa.me/256772123456');
    }
  });
});

describe('a note', () => {
  const parse = (text: unknown) => v.safeParse(addOrderNoteInput, { orderId: ID, text });
  it('keeps line breaks and refuses control characters, blanks and more than 1000', () => {
    expect(parse(' Gift-wrap\r\nplease ').output).toEqual({
      orderId: ID,
      text: 'Gift-wrap\nplease',
    });
    for (const bad of ['', '  ', 'a\u0000', 'tab\there', 'x'.repeat(1001), 12, null]) {
      expect(parse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(parse('x'.repeat(1000)).success).toBe(true);
  });
});

describe('the record in words', () => {
  it('says each move, payment, refund and note', () => {
    expect(
      orderRecordDetail('order.status', {
        from: 'processing',
        to: 'out_for_delivery',
        rider: { name: 'Okello', phone: '+256772123456' },
      }),
    ).toBe('From Processing to Out for delivery · rider Okello (0772 123 456)');
    expect(orderRecordDetail('order.paid', { reference: 'FT1', amount: 125000 })).toBe(
      'Ref FT1 · UGX 125,000',
    );
    expect(orderRecordDetail('order.refunded', { reference: 'RF9' })).toBe('Ref RF9');
    expect(orderRecordDetail('order.noted', { text: 'Hi' })).toBe('Hi');
    expect(orderRecordDetail('stock.adjusted', {})).toBeNull();
  });
});

describe('the text a move sends', () => {
  it('is core/sms.ts’s own, or none', () => {
    expect(
      statusTextPreview(ID, 'out_for_delivery', { rider: { name: 'Okello', phone: '0772123456' } }),
    ).toBe(
      'duuka: Order RCP-1a2b3c4d is out for delivery with Okello (0772 123 456). Please keep your phone on.',
    );
    expect(statusTextPreview(ID, 'processing')).toBeNull();
    expect(statusTextPreview(ID, 'cancelled', { refund: true })).toContain('Refund in 3-5 days.');
  });
});
