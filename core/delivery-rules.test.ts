import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  DELIVERY_TEXT,
  type DeliveryChoices,
  type DeliveryOption,
  daysText,
  deliveryFacts,
  deliveryFee,
  deliveryOrderFields,
  deliveryPromise,
  orderSteps,
} from './delivery-rules.ts';

const kampala: DeliveryOption = {
  id: 'kampala',
  kind: 'delivery',
  name: 'Kampala delivery',
  fee: 5000,
  minDays: 1,
  maxDays: 3,
  details: '',
  cashOnDelivery: true,
};
const pickup: DeliveryOption = {
  ...kampala,
  id: 'pickup',
  kind: 'pickup',
  name: 'Pick up at the boutique',
  fee: 0,
  minDays: 0,
  maxDays: 1,
};
const upcountry: DeliveryOption = {
  ...kampala,
  id: 'upcountry',
  kind: 'courier',
  name: 'Upcountry by bus courier',
  fee: 15_000,
  minDays: 3,
  maxDays: 5,
  cashOnDelivery: false,
};
const defaults: DeliveryChoices = {
  options: [kampala, pickup, upcountry],
  freeDeliveryOver: null,
};

describe('the delivery promise', () => {
  it('says what the default options give, as the product page shows it', () => {
    expect(deliveryPromise(defaults)).toBe(
      'Delivery in Kampala from UGX 5,000, 1–3 days · free pickup',
    );
  });

  it('promises from the cheapest zone, names a threshold, and drops what is not offered', () => {
    const nakawa = { ...kampala, id: 'nakawa', fee: 7000, minDays: 1, maxDays: 2 };
    expect(
      deliveryPromise({ options: [nakawa, { ...kampala, fee: 4000 }], freeDeliveryOver: 200_000 }),
    ).toBe('Delivery in Kampala from UGX 4,000, 1–3 days · free delivery over UGX 200,000');
    expect(deliveryPromise({ options: [pickup], freeDeliveryOver: null })).toBe('Free pickup');
    expect(deliveryPromise({ options: [], freeDeliveryOver: 100_000 })).toBe('');
  });
});

describe('the fee', () => {
  it('is the option’s, free at or above the threshold only when one is set', () => {
    expect(deliveryFee(kampala, 1_000_000, null)).toBe(5000);
    expect(deliveryFee(upcountry, 99_999, 100_000)).toBe(15_000);
    expect(deliveryFee(upcountry, 100_000, 100_000)).toBe(0);
  });

  it('reads days as a person says them', () => {
    expect(daysText(kampala)).toBe('1–3 days');
    expect(daysText(pickup)).toBe('the same or the next day');
    expect(daysText({ minDays: 0, maxDays: 0 })).toBe('the same day');
    expect(daysText({ minDays: 2, maxDays: 2 })).toBe('2 days');
  });
});

describe('what the assistant may say', () => {
  it('lists each option with its fee, time and cash, and says there is no free delivery', () => {
    const facts = deliveryFacts(defaults).join('\n');
    expect(facts).toContain('Kampala delivery: UGX 5,000, 1–3 days; cash on delivery accepted.');
    expect(facts).toContain('Upcountry by bus courier: UGX 15,000, 3–5 days; cash on delivery not');
    expect(facts).toContain('There is no free delivery');
    expect(facts).not.toContain('100,000');
    expect(deliveryFacts({ ...defaults, freeDeliveryOver: 250_000 }).at(-1)).toBe(
      'Delivery is free on orders of UGX 250,000 or more.',
    );
  });
});

describe('the address fields of placeOrder', () => {
  const fields = v.strictObject(deliveryOrderFields);
  const message = (input: unknown) => {
    const parsed = v.safeParse(fields, input);
    return parsed.success ? null : parsed.issues[0].message;
  };

  it('takes an option id, an area, a landmark, a Ugandan phone and notes', () => {
    const parsed = v.parse(fields, {
      deliveryOptionId: 'kampala-nakawa',
      deliveryArea: ' Ntinda ',
      deliveryLandmark: 'Opposite Capital Shoppers',
      deliveryPhone: '0772 123 456',
      deliveryNotes: 'Call at the gate.\nBlue door.',
    });
    expect(parsed).toMatchObject({ deliveryArea: 'Ntinda', deliveryPhone: '+256772123456' });
    expect(v.parse(fields, { deliveryPhone: '' })).toEqual({ deliveryPhone: '' });
  });

  it('refuses what no person types, with the field’s message', () => {
    expect(message({ deliveryOptionId: 'Kampala' })).toBe(DELIVERY_TEXT.optionUnavailable);
    expect(message({ deliveryOptionId: 'x'.repeat(41) })).toBe(DELIVERY_TEXT.optionUnavailable);
    expect(message({ deliveryArea: 'Ntinda\u0000' })).toBe(
      'Area cannot contain invisible control characters.',
    );
    expect(message({ deliveryArea: 'a'.repeat(81) })).toBe(DELIVERY_TEXT.areaTooLong);
    expect(message({ deliveryNotes: 'n'.repeat(301) })).toBe(DELIVERY_TEXT.notesTooLong);
    expect(message({ deliveryPhone: 'abc' })).toBe(DELIVERY_TEXT.phoneInvalid);
    expect(message({ deliveryPhone: 772123456 })).toBe(DELIVERY_TEXT.phoneInvalid);
  });
});

describe('the order’s steps', () => {
  const states = (kind: DeliveryOption['kind'], status: string) =>
    orderSteps(kind, status).map((step) => `${step.status}:${step.state}`);

  it('follow the way the order reaches the shopper', () => {
    expect(states('pickup', 'ready_for_pickup')).toEqual([
      'pending:done',
      'processing:done',
      'ready_for_pickup:current',
      'collected:next',
    ]);
    expect(states('delivery', 'out_for_delivery')).toEqual([
      'pending:done',
      'processing:done',
      'out_for_delivery:current',
      'delivered:next',
    ]);
    expect(states('courier', 'pending')[0]).toBe('pending:current');
  });

  it('are all done when the order is delivered, collected or completed; none when cancelled', () => {
    expect(states('delivery', 'delivered').every((s) => s.endsWith(':done'))).toBe(true);
    expect(states('pickup', 'collected').every((s) => s.endsWith(':done'))).toBe(true);
    expect(states('courier', 'completed').every((s) => s.endsWith(':done'))).toBe(true);
    expect(states('pickup', 'cancelled').every((s) => s.endsWith(':next'))).toBe(true);
    // An old Kampala order marked shipped stands at its out-for-delivery step.
    expect(states('delivery', 'shipped')[2]).toBe('out_for_delivery:current');
  });
});
