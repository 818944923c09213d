import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DESK_DELIVERY_TEXT, optionId, saveDeliveryInput, sharedName } from './desk-delivery.ts';

const kampala = {
  id: 'kampala',
  kind: 'delivery',
  name: 'Kampala delivery',
  fee: 5000,
  minDays: 1,
  maxDays: 3,
  details: 'By boda.',
  cashOnDelivery: true,
  active: true,
};
const save = (options: unknown[], freeDeliveryOver: unknown = null) =>
  v.safeParse(saveDeliveryInput, {
    requestKey: '5b0e8a3e-8f0c-4d59-9a43-6c1f8f1b2a77',
    options,
    freeDeliveryOver,
  });
const message = (result: ReturnType<typeof save>) =>
  result.success ? null : result.issues[0].message;

describe('a new option’s id', () => {
  it('is its name as a slug, made unique', () => {
    expect(optionId('Nakawa delivery', new Set())).toBe('nakawa-delivery');
    expect(optionId('Entebbe / Wakiso', new Set(['kampala']))).toBe('entebbe-wakiso');
    expect(optionId('Nakawa', new Set(['nakawa', 'nakawa-2']))).toBe('nakawa-3');
    expect(optionId('🛵', new Set())).toBe('option');
    expect(optionId('x'.repeat(60), new Set())).toMatch(/^x{34}$/);
  });
});

describe('the delivery save', () => {
  it('takes the options as the page sends them, trimmed', () => {
    const result = save([{ ...kampala, name: '  Kampala delivery ' }], 150_000);
    if (!result.success) throw new Error(result.issues[0].message);
    expect(result.output.options[0]?.name).toBe('Kampala delivery');
  });

  it('refuses with a clear text per field', () => {
    expect(message(save([{ ...kampala, fee: 1_000_001 }]))).toBe(
      'Fee must be a whole number of shillings, from 0 to 1,000,000.',
    );
    expect(message(save([{ ...kampala, fee: '5000' }]))).toBe(DESK_DELIVERY_TEXT.feeInvalid);
    expect(message(save([{ ...kampala, minDays: 4 }]))).toBe(DESK_DELIVERY_TEXT.daysOrder);
    expect(message(save([{ ...kampala, maxDays: 1.5 }]))).toBe(DESK_DELIVERY_TEXT.daysInvalid);
    expect(message(save([{ ...kampala, name: ' ' }]))).toBe(DESK_DELIVERY_TEXT.nameNeeded);
    expect(message(save([{ ...kampala, kind: 'drone' }]))).toBe(DESK_DELIVERY_TEXT.kindInvalid);
    expect(message(save([{ ...kampala, active: false }]))).toBe(DESK_DELIVERY_TEXT.oneOffered);
    expect(message(save([]))).toBe(DESK_DELIVERY_TEXT.oneOffered);
    expect(message(save([kampala, { ...kampala, id: undefined, name: 'KAMPALA  delivery' }]))).toBe(
      DESK_DELIVERY_TEXT.namesUnique('KAMPALA delivery'),
    );
    expect(message(save([kampala, { ...kampala, name: 'Other' }]))).toBe(
      DESK_DELIVERY_TEXT.unknownOption,
    );
    expect(message(save([kampala], 0))).toBe(DESK_DELIVERY_TEXT.thresholdInvalid);
    expect(message(save([{ ...kampala, extra: 1 }]))).toBe(DESK_DELIVERY_TEXT.invalid);
  });

  it('names two options alike whatever their case and spaces', () => {
    expect(sharedName([{ name: 'Nakawa' }, { name: ' nakawa ' }])).toBe('nakawa');
    expect(sharedName([{ name: 'Nakawa' }, { name: 'Kawempe' }])).toBeNull();
  });
});
