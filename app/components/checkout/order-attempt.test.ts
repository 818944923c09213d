import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  forgetOrderAttempt,
  newOrderId,
  ORDER_ATTEMPT_KEY,
  orderAttemptId,
} from './order-attempt.ts';

function memoryStore() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

const cart = [
  { variantId: 7, quantity: 2 },
  { variantId: 3, quantity: 1 },
];

describe('order attempt id', () => {
  it('keeps one id for retries of the same cart, in any line order', () => {
    const store = memoryStore();
    const first = orderAttemptId(store, cart);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(orderAttemptId(store, cart)).toBe(first);
    expect(orderAttemptId(store, [...cart].reverse())).toBe(first);
  });

  it('makes a new id when the cart changes and after the order is placed', () => {
    const store = memoryStore();
    const first = orderAttemptId(store, cart);
    const changed = orderAttemptId(store, [{ variantId: 7, quantity: 3 }]);
    expect(changed).not.toBe(first);
    forgetOrderAttempt(store);
    expect(store.values.has(ORDER_ATTEMPT_KEY)).toBe(false);
    expect(orderAttemptId(store, [{ variantId: 7, quantity: 3 }])).not.toBe(changed);
  });

  it('starts afresh from a broken saved attempt', () => {
    const store = memoryStore();
    store.setItem(ORDER_ATTEMPT_KEY, '{not json');
    const id = orderAttemptId(store, cart, () => '11111111-2222-4333-8444-555555555555');
    expect(id).toBe('11111111-2222-4333-8444-555555555555');
    store.setItem(ORDER_ATTEMPT_KEY, JSON.stringify({ orderId: 'DROP TABLE', items: '3x1,7x2' }));
    expect(orderAttemptId(store, cart)).not.toBe('DROP TABLE');
  });

  afterEach(() => vi.unstubAllGlobals());

  it('makes version 4 uuids, also where crypto.randomUUID is missing (plain http)', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const real = globalThis.crypto;
    for (const source of [real, { getRandomValues: real.getRandomValues.bind(real) }]) {
      vi.stubGlobal('crypto', source);
      const ids = new Set(Array.from({ length: 50 }, () => newOrderId()));
      expect(ids.size).toBe(50);
      for (const id of ids) expect(id).toMatch(v4);
    }
  });
});
