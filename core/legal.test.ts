import { storageKey as routerScrollKey } from '@tanstack/router-core';
import { describe, expect, it } from 'vitest';
import { MIN_PASSWORD_LENGTH } from './account.ts';
import { returnFacts } from './chat-returns.ts';
import {
  BROWSER_ITEMS,
  LEGAL_PAGES,
  RECIPIENTS,
  SCROLL_RESTORATION_KEY,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  TERMS_FACTS,
  TWO_FACTOR_COOKIE,
} from './legal.ts';
import { PAYMENT_EXPIRY_MS } from './mobile-money.ts';
import { DEFAULT_WINDOWS } from './return-windows.ts';
import {
  CART_OWNER_KEY,
  CART_STORAGE_KEY,
  ORDER_ATTEMPT_KEY,
  PENDING_ADD_KEY,
  SETTINGS_STORAGE_KEY,
  SETTINGS_UNSYNCED_KEY,
} from './settings-rules.ts';
import { SMS_TEXT } from './sms.ts';

describe('the legal pages’ facts', () => {
  it('name better-auth’s cookies with the shop’s prefix', () => {
    expect(SESSION_COOKIE).toBe('duuka.session_token');
    expect(SECURE_SESSION_COOKIE).toBe('__Secure-duuka.session_token');
    expect(TWO_FACTOR_COOKIE).toBe('duuka.two_factor');
  });

  it('list every browser-storage key the shop writes, once', () => {
    const names = BROWSER_ITEMS.filter((item) => item.kind !== 'Cookie').map((item) => item.name);
    expect(new Set(names)).toEqual(
      new Set([
        SETTINGS_STORAGE_KEY,
        SETTINGS_UNSYNCED_KEY,
        CART_STORAGE_KEY,
        CART_OWNER_KEY,
        PENDING_ADD_KEY,
        ORDER_ATTEMPT_KEY,
        SCROLL_RESTORATION_KEY,
      ]),
    );
    expect(names).toHaveLength(new Set(names).size);
    // The router's own key: a router upgrade that renames it shows here.
    expect(SCROLL_RESTORATION_KEY).toBe(routerScrollKey);
  });

  it('state the returns, refund, payment and password numbers the shop uses', () => {
    expect(returnFacts(DEFAULT_WINDOWS)).toEqual([
      `Returns within ${TERMS_FACTS.returnDays} days for unworn items with tags.`,
      `Exchanges within ${TERMS_FACTS.exchangeDays} days with the receipt.`,
    ]);
    const cancelled = SMS_TEXT.cancelled({ orderId: crypto.randomUUID(), refund: true });
    expect(cancelled).toContain(`Refund in ${TERMS_FACTS.refundDays.replace('–', '-')} days.`);
    expect(PAYMENT_EXPIRY_MS).toBe(TERMS_FACTS.approveMinutes * 60 * 1000);
    expect(MIN_PASSWORD_LENGTH).toBe(TERMS_FACTS.minPasswordLength);
  });

  it('name the payment providers, the SMS gateway and the model provider', () => {
    const names = RECIPIENTS.map((r) => r.name).join(' | ');
    for (const name of [
      'MTN',
      'Airtel',
      'Pesapal',
      'EgoSMS',
      'Gemini',
      'Resend',
      'Cloudflare',
      'Neon',
    ]) {
      expect(names).toContain(name);
    }
    expect(LEGAL_PAGES.map((p) => p.path)).toEqual(['/terms', '/privacy', '/cookies']);
  });
});
