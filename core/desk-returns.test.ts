// What a return asks of the desk next, which refunds staff record by hand, which payments have a
// provider to refund through, and how the return's record reads.
import { describe, expect, it } from 'vitest';
import {
  recordedByHand,
  refundProvider,
  returnRecordDetail,
  returnRecordLabel,
  returnStep,
} from './desk-returns.ts';

const ret = (status: string, resolution = 'exchange', exchangeStatus: string | null = null) => ({
  status,
  resolution,
  exchangeStatus,
});

describe('the desk’s returns', () => {
  it('asks to decide, then receive; an exchange to ship, then deliver; nothing once closed', () => {
    expect(returnStep(ret('requested'))).toBe('decide');
    expect(returnStep(ret('approved', 'refund'))).toBe('receive');
    expect(returnStep(ret('received', 'exchange', 'preparing'))).toBe('ship');
    expect(returnStep(ret('received', 'exchange', null))).toBe('ship');
    expect(returnStep(ret('exchanged', 'exchange', 'out_for_delivery'))).toBe('deliver');
    expect(returnStep(ret('exchanged', 'exchange', 'delivered'))).toBeNull();
    expect(returnStep(ret('received', 'refund'))).toBeNull();
    expect(returnStep(ret('refunded', 'refund'))).toBeNull();
    expect(returnStep(ret('refused', 'exchange'))).toBeNull();
  });

  it('records by hand only a bank or cash refund not yet settled', () => {
    expect(recordedByHand({ method: 'bank_transfer', status: 'requested' })).toBe(true);
    expect(recordedByHand({ method: 'cash_on_delivery', status: 'sent' })).toBe(true);
    expect(recordedByHand({ method: 'bank_transfer', status: 'succeeded' })).toBe(false);
    expect(recordedByHand({ method: 'mtn', status: 'requested' })).toBe(false);
    expect(recordedByHand({ method: 'store_credit', status: 'requested' })).toBe(false);
  });

  it('names a provider for mobile money and card, none for bank transfer and cash', () => {
    expect(refundProvider('mtn')).toBe('MTN MoMo');
    expect(refundProvider('airtel')).toBe('Airtel Money');
    expect(refundProvider('pesapal')).toBe('Pesapal');
    expect(refundProvider('bank_transfer')).toBeNull();
    expect(refundProvider('cash_on_delivery')).toBeNull();
  });

  it('reads a record line in words, an unknown action by its own name', () => {
    expect(returnRecordLabel('return.approved')).toBe('Approved');
    expect(returnRecordLabel('return.pickup-booked')).toBe('Pickup booked');
    expect(returnRecordDetail({ handover: 'pickup', reason: 'Worn' })).toBe(
      'Rider picks it up · reason: Worn',
    );
    expect(returnRecordDetail({ to: 'out_for_delivery' })).toBe('Out for delivery');
    expect(returnRecordDetail(null)).toBeNull();
  });
});
