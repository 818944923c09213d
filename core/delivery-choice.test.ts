import { describe, expect, it } from 'vitest';
import {
  DELIVERY_CHOICE_TEXT,
  deliveryLine,
  deliveryTime,
  phoneHref,
  phoneText,
  stepLabel,
} from './delivery-choice.ts';

const kampala = { id: 'kampala', kind: 'delivery', minDays: 1, maxDays: 3 } as const;
const pickup = { id: 'pickup', kind: 'pickup', minDays: 0, maxDays: 1 } as const;
const upcountry = { id: 'upcountry', kind: 'courier', minDays: 3, maxDays: 5 } as const;

describe('deliveryTime', () => {
  it('says when a delivery arrives and when a pickup is ready', () => {
    expect(deliveryTime(kampala)).toBe('Arrives in 1–3 days');
    expect(deliveryTime(upcountry)).toBe('Arrives in 3–5 days');
    expect(deliveryTime(pickup)).toBe('Ready the same or the next day');
    expect(deliveryTime({ kind: 'pickup', minDays: 0, maxDays: 0 })).toBe('Ready the same day');
    expect(deliveryTime({ kind: 'delivery', minDays: 2, maxDays: 2 })).toBe('Arrives in 2 days');
  });
});

describe('deliveryLine', () => {
  it('names the option and where it goes', () => {
    const order = { option: 'Kampala delivery', kind: 'delivery' as const };
    expect(deliveryLine({ ...order, area: 'Ntinda', landmark: 'Capital Shoppers' })).toBe(
      'Kampala delivery · Ntinda, near Capital Shoppers',
    );
    expect(deliveryLine({ ...order, area: 'Ntinda', landmark: 'opposite Shell' })).toBe(
      'Kampala delivery · Ntinda, opposite Shell',
    );
    expect(deliveryLine({ ...order, area: 'Ntinda', landmark: '' })).toBe(
      'Kampala delivery · Ntinda',
    );
    // An order from before delivery options: its option alone.
    expect(deliveryLine({ ...order, area: '', landmark: '' })).toBe('Kampala delivery');
  });

  it('names a pickup by its option alone', () => {
    expect(
      deliveryLine({ option: 'Pick up at the boutique', kind: 'pickup', area: 'x', landmark: 'y' }),
    ).toBe('Pick up at the boutique');
  });
});

describe('phones and steps', () => {
  it('shows a stored number as typed in Uganda and links it', () => {
    expect(phoneText('+256772123456')).toBe('0772 123 456');
    expect(phoneText(null)).toBe('');
    expect(phoneHref('+256 772 123 456')).toBe('tel:+256772123456');
  });

  it('reads pending as Placed and every other status by its label', () => {
    expect(stepLabel('pending')).toBe(DELIVERY_CHOICE_TEXT.placed);
    expect(stepLabel('ready_for_pickup')).toBe('Ready for pickup');
    expect(stepLabel('out_for_delivery')).toBe('Out for delivery');
    expect(stepLabel('collected')).toBe('Collected');
  });

  it('says why cash on delivery is not offered', () => {
    expect(DELIVERY_CHOICE_TEXT.cashNotHere('Upcountry by bus courier')).toBe(
      'Not available for Upcountry by bus courier',
    );
  });
});
