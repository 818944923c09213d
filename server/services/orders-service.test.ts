import { describe, expect, it } from 'vitest';
import { deliveryOf } from './orders-service.ts';

const row = {
  deliveryOption: 'Kampala delivery',
  deliveryKind: 'delivery',
  deliveryArea: 'Ntinda',
  deliveryLandmark: 'Capital Shoppers',
  deliveryPhone: '+256772123456',
  deliveryNotes: 'Green gate',
  riderName: 'Musa',
  riderPhone: '+256701555000',
};

describe('deliveryOf', () => {
  it('reads an order’s delivery columns as the shopper’s delivery', () => {
    expect(deliveryOf(row)).toEqual({
      option: 'Kampala delivery',
      kind: 'delivery',
      area: 'Ntinda',
      landmark: 'Capital Shoppers',
      phone: '+256772123456',
      notes: 'Green gate',
      riderName: 'Musa',
      riderPhone: '+256701555000',
    });
  });

  it('reads a kind it does not know as a delivery (the order still shows its steps)', () => {
    expect(deliveryOf({ ...row, deliveryKind: 'drone' }).kind).toBe('delivery');
    expect(deliveryOf({ ...row, deliveryKind: 'pickup' }).kind).toBe('pickup');
  });
});
