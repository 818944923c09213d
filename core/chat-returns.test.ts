import { describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT } from './chat.ts';
import { cannedAnswer } from './chat-answers.ts';
import {
  type OrderForReturn,
  orderRefundLine,
  orderReturnLine,
  returnInstructions,
  returnLine,
} from './chat-returns.ts';
import { DEFAULT_WINDOWS } from './return-windows.ts';

const ORDER = 'a1b2c3d4-0000-4000-8000-000000000001';
// 10:00 in Kampala on 1 March 2026.
const DELIVERED = new Date('2026-03-01T07:00:00Z');
const dress = { name: 'Ankara wrap dress', variantLabel: 'M · Indigo', quantity: 2, returned: 0 };
const order = (lines: OrderForReturn['lines'], deliveredAt: Date | null = DELIVERED) => ({
  id: ORDER,
  status: deliveredAt ? 'delivered' : 'out_for_delivery',
  deliveredAt,
  lines,
});

describe('what the assistant says about returns', () => {
  it('tells until when a delivered piece goes back, counting day 14 in and day 15 out', () => {
    const line = { ...dress, returnable: true };
    expect(orderReturnLine(order([line]), DEFAULT_WINDOWS, new Date('2026-03-15T20:59:00Z'))).toBe(
      "Order RCP-a1b2c3d4, delivered on 1 March 2026. 2 x Ankara wrap dress (M · Indigo) can be returned until 15 March 2026 (for a refund; the exchange window closed on 8 March 2026). Ask for it on the order's page under My Orders.",
    );
    expect(orderReturnLine(order([line]), DEFAULT_WINDOWS, new Date('2026-03-15T21:00:00Z'))).toBe(
      'Order RCP-a1b2c3d4, delivered on 1 March 2026. The return window for this order closed on 15 March 2026.',
    );
  });

  it('names pieces that cannot go back, and only what is left of one partly returned', () => {
    const now = new Date('2026-03-03T09:00:00Z');
    const said = orderReturnLine(
      order([
        { ...dress, returned: 1, returnable: true },
        { name: 'Gold hoops', variantLabel: '', quantity: 1, returned: 0, returnable: false },
        { name: 'Silk scarf', variantLabel: '', quantity: 1, returned: 1, returnable: true },
      ]),
      { returnDays: 30, exchangeDays: 10 },
      now,
    );
    expect(said).toContain(
      '1 x Ankara wrap dress (M · Indigo) can be returned until 31 March 2026 and exchanged until 11 March 2026.',
    );
    expect(said).toContain('Gold hoops cannot be returned or exchanged.');
    expect(said).toContain('Silk scarf is already in a return.');
    expect(said).not.toContain('Silk scarf can');
  });

  it('says an order on its way is not returnable yet, with the shop’s windows', () => {
    expect(
      orderReturnLine(
        order([{ ...dress, returnable: true }], null),
        { returnDays: 21, exchangeDays: 5 },
        DELIVERED,
      ),
    ).toBe(
      'Order RCP-a1b2c3d4 (Out for delivery): Only a delivered or collected order can be returned or exchanged. Once it is, its pieces can be returned within 21 days and exchanged within 5 days.',
    );
  });

  it('tells each step of a return and of its refunds', () => {
    const base = {
      orderId: ORDER,
      resolution: 'refund',
      handover: null,
      pickupFee: 0,
      staffReason: null,
      exchangeStatus: null,
      amount: 85_000,
      createdAt: DELIVERED,
      lines: [{ ...dress, quantity: 1, exchangeLabel: null }],
      refunds: [],
    };
    expect(returnLine({ ...base, status: 'requested' })).toBe(
      'Return on order RCP-a1b2c3d4, asked on 1 March 2026, for a refund of UGX 85,000: 1 x Ankara wrap dress (M · Indigo). Requested: waiting for the shop to approve it.',
    );
    expect(
      returnLine({ ...base, status: 'approved', handover: 'pickup', pickupFee: 5_000 }),
    ).toContain('Approved: our rider collects it (pickup fee UGX 5,000).');
    expect(
      returnLine({ ...base, status: 'refused', staffReason: 'The tags were removed.' }),
    ).toContain('Refused: The tags were removed.');
    expect(
      returnLine({
        ...base,
        status: 'exchanged',
        resolution: 'exchange',
        exchangeStatus: 'out_for_delivery',
        lines: [{ ...dress, quantity: 1, exchangeLabel: 'L · Indigo' }],
      }),
    ).toContain(
      'for an exchange: 1 x Ankara wrap dress (M · Indigo). Exchanged: the new piece (L · Indigo) is on its way.',
    );
    const failed = returnLine({
      ...base,
      status: 'received',
      refunds: [
        {
          orderId: ORDER,
          method: 'airtel',
          amount: 60_000,
          status: 'failed',
          reference: null,
          settledAt: null,
        },
        {
          orderId: ORDER,
          method: 'store_credit',
          amount: 25_000,
          status: 'succeeded',
          reference: null,
          settledAt: DELIVERED,
        },
      ],
    });
    expect(failed).toContain(
      'Refund: UGX 60,000 to Airtel Money: it did not go through; the shop has been told and sends it again.',
    );
    expect(failed).toContain('Refund: UGX 25,000 to store credit: paid on 1 March 2026.');
    expect(
      orderRefundLine({
        orderId: ORDER,
        method: 'pesapal',
        amount: 150_000,
        status: 'requested',
        reference: null,
        settledAt: null,
      }),
    ).toBe(
      'Refund for order RCP-a1b2c3d4: UGX 150,000 to your card: being prepared, not sent yet.',
    );
  });

  it('instructs with the shop’s windows, and states no days it could not read', () => {
    expect(returnInstructions({ returnDays: 30, exchangeDays: 10 })).toContain(
      'Returns within 30 days for unworn items with tags. Exchanges within 10 days with the receipt.',
    );
    const unknown = returnInstructions(null);
    expect(unknown).not.toMatch(/\d+ days/);
    expect(unknown).toContain('call myReturns');
  });

  it('answers returns without the model from the shop’s windows, and no days it could not read', () => {
    expect(
      cannedAnswer('Can I return my dress?', DEFAULT_SUPPORT, null, {
        returnDays: 30,
        exchangeDays: 10,
      }),
    ).toBe(
      'Unworn pieces with their tags can be returned within 30 days and exchanged within 10 days of delivery or collection. Ask on the order’s page under My Orders: it shows each step of your return and of your refund.',
    );
    for (const asked of ['Where is my refund?', 'hello']) {
      expect(cannedAnswer(asked, DEFAULT_SUPPORT, null, null)).not.toMatch(/\d+ days/);
    }
    expect(cannedAnswer('hello', DEFAULT_SUPPORT, null, DEFAULT_WINDOWS)).toContain(
      'returns (14 days, unworn with tags)',
    );
    expect(
      cannedAnswer('What exchange rate do you use?', DEFAULT_SUPPORT, null, DEFAULT_WINDOWS),
    ).not.toContain('Unworn pieces');
  });
});
