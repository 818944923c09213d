import { describe, expect, it } from 'vitest';
import { DELIVERY_WORDING } from './delivery-choice.ts';
import { deliveryOrder } from './delivery-form.ts';
import { DELIVERY_TEXT } from './delivery-rules.ts';

const kampala = { id: 'kampala', kind: 'delivery' } as const;
const pickup = { id: 'pickup', kind: 'pickup' } as const;
const upcountry = { id: 'upcountry', kind: 'courier' } as const;
const blank = { area: '', landmark: '', phone: '', notes: '' };

describe('deliveryOrder', () => {
  it('sends the option and the address, trimmed, and leaves out what was not typed', () => {
    expect(
      deliveryOrder(kampala, {
        area: '  Ntinda ',
        landmark: 'near Capital Shoppers ',
        phone: '',
        notes: ' Gate is green ',
      }),
    ).toEqual({
      ok: true,
      order: {
        deliveryOptionId: 'kampala',
        deliveryArea: 'Ntinda',
        deliveryLandmark: 'near Capital Shoppers',
        deliveryNotes: 'Gate is green',
      },
    });
  });

  it('asks for the area of a delivery or a courier, never of a pickup', () => {
    expect(deliveryOrder(kampala, blank)).toEqual({
      ok: false,
      problems: { area: DELIVERY_TEXT.areaRequired },
    });
    // Upcountry asks for a town: the parcel goes by bus, no rider looks for an area (issue 32).
    expect(deliveryOrder(upcountry, { ...blank, area: '   ' })).toEqual({
      ok: false,
      problems: { area: DELIVERY_TEXT.townRequired },
    });
    // A pickup sends no address even when one was typed for another option.
    expect(deliveryOrder(pickup, { ...blank, area: 'Ntinda', phone: '0772 123 456' })).toEqual({
      ok: true,
      order: { deliveryOptionId: 'pickup', deliveryPhone: '0772 123 456' },
    });
  });

  it('refuses what placeOrder would refuse, field by field', () => {
    const result = deliveryOrder(kampala, {
      area: 'A'.repeat(81),
      landmark: 'L'.repeat(121),
      phone: '12345',
      notes: 'N'.repeat(301),
    });
    expect(result).toEqual({
      ok: false,
      problems: {
        area: DELIVERY_TEXT.areaTooLong,
        landmark: DELIVERY_TEXT.landmarkTooLong,
        phone: DELIVERY_TEXT.phoneInvalid,
        notes: DELIVERY_TEXT.notesTooLong,
      },
    });
  });

  it('names upcountry’s fields as its form does: the town, the bus company or stage, the phone to call', () => {
    const result = deliveryOrder(upcountry, {
      area: 'A'.repeat(81),
      landmark: 'L'.repeat(121),
      phone: '12345',
      notes: '',
    });
    const courier = DELIVERY_WORDING.courier;
    expect(result).toEqual({
      ok: false,
      problems: {
        area: courier.areaTooLong,
        landmark: courier.landmarkTooLong,
        phone: courier.phoneInvalid,
      },
    });
    expect(courier.areaTooLong).toBe('Town must be 80 characters or fewer.');
    expect(courier.phoneInvalid).not.toMatch(/rider/i);
  });
});
