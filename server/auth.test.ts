import { describe, expect, it } from 'vitest';
import { defaultTrustedOrigins, onShopperOrigin } from './auth.ts';

describe('verification links', () => {
  const trusted = defaultTrustedOrigins('http://localhost:3000');
  const link = 'http://localhost:3000/api/auth/verify-email?token=abc&callbackURL=%2F';
  const from = (origin?: string) =>
    new Request('http://localhost:3000/api/auth/sign-up/email', {
      method: 'POST',
      headers: origin ? { origin } : {},
    });

  it('open on 127.0.0.1 for a shopper browsing 127.0.0.1, on localhost for localhost', () => {
    expect(onShopperOrigin(link, from('http://127.0.0.1:3000'), trusted)).toBe(
      'http://127.0.0.1:3000/api/auth/verify-email?token=abc&callbackURL=%2F',
    );
    expect(onShopperOrigin(link, from('http://localhost:3000'), trusted)).toBe(link);
  });

  it('stay on the shop’s origin for any other or no Origin', () => {
    expect(onShopperOrigin(link, from('https://evil.example'), trusted)).toBe(link);
    expect(onShopperOrigin(link, from('http://127.0.0.1:4000'), trusted)).toBe(link);
    expect(onShopperOrigin(link, from(), trusted)).toBe(link);
    expect(onShopperOrigin(link, undefined, trusted)).toBe(link);
  });
});
