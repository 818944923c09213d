import { describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT, keywords, newSessionId, ownsSession } from './chat.ts';
import { cannedAnswer } from './chat-answers.ts';
import type { DeliveryChoices } from './delivery-rules.ts';

/** The migration's defaults (db/migrations/0014_delivery.sql). */
const DEFAULTS: DeliveryChoices = {
  options: [
    {
      id: 'kampala',
      kind: 'delivery',
      name: 'Kampala delivery',
      fee: 5000,
      minDays: 1,
      maxDays: 3,
      details: 'By boda.',
      cashOnDelivery: true,
    },
    {
      id: 'pickup',
      kind: 'pickup',
      name: 'Pick up at the boutique',
      fee: 0,
      minDays: 0,
      maxDays: 1,
      details: '',
      cashOnDelivery: true,
    },
    {
      id: 'upcountry',
      kind: 'courier',
      name: 'Upcountry by bus courier',
      fee: 15000,
      minDays: 3,
      maxDays: 5,
      details: '',
      cashOnDelivery: false,
    },
  ],
  freeDeliveryOver: null,
};

describe('chat rules', () => {
  it('keeps words of 3+ characters, singular, without filler', () => {
    expect(keywords('Show me dresses and shoes, do you have bags?')).toEqual([
      'dress',
      'shoe',
      'bag',
    ]);
    expect(keywords('a ox')).toEqual([]);
  });

  it('a session is the user id and the time; only its owner may use it', () => {
    const id = newSessionId('user_1', 1764000000000);
    expect(id).toBe('user_1-1764000000000');
    expect(ownsSession('user_1', id)).toBe(true);
    expect(ownsSession('user', id)).toBe(false);
    expect(ownsSession('user_1', 'user_1-abc')).toBe(false);
  });

  it('chooses canned answers by keyword, else the help menu with the contact', () => {
    expect(cannedAnswer('Where is my receipt?', DEFAULT_SUPPORT, DEFAULTS)).toMatch(/My Orders/);
    expect(cannedAnswer('hello', DEFAULT_SUPPORT, DEFAULTS)).toContain(DEFAULT_SUPPORT.email);
  });

  it('answers delivery and totals from the shop’s settings, and states none it could not read', () => {
    expect(cannedAnswer('How long does delivery take?', DEFAULT_SUPPORT, DEFAULTS)).toBe(
      [
        'Kampala delivery: UGX 5,000, 1–3 days.',
        'Pick up at the boutique: free, ready the same or the next day.',
        'Upcountry by bus courier: UGX 15,000, 3–5 days (no cash on delivery).',
        'There is no free delivery: every order pays its option’s fee.',
        'You choose at checkout and can follow each order under My Orders.',
      ].join('\n'),
    );
    const owner = {
      options: DEFAULTS.options.map((o) => (o.id === 'upcountry' ? { ...o, fee: 20_000 } : o)),
      freeDeliveryOver: 200_000,
    };
    const changed = cannedAnswer('Do you deliver upcountry?', DEFAULT_SUPPORT, owner);
    expect(changed).toContain('Upcountry by bus courier: UGX 20,000, 3–5 days');
    expect(changed).toContain('Delivery is free on orders of UGX 200,000 or more.');
    expect(cannedAnswer('How much is my order total?', DEFAULT_SUPPORT, owner)).toBe(
      'Your order total is shown on My Orders and on its receipt: the items, the delivery fee of the option you chose (Kampala delivery UGX 5,000, Pick up at the boutique free, Upcountry by bus courier UGX 20,000, free on orders of UGX 200,000 or more) and the total you pay in UGX.',
    );
    for (const unknown of [null, { options: [], freeDeliveryOver: null }]) {
      for (const asked of ['How long does delivery take?', 'What is my order total?']) {
        const said = cannedAnswer(asked, DEFAULT_SUPPORT, unknown);
        expect(said).toContain('shown at checkout');
        expect(said).not.toMatch(/UGX \d|days|free/i);
      }
    }
  });
});
