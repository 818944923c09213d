import { describe, expect, it } from 'vitest';
import { cannedAnswer, DEFAULT_SUPPORT, keywords, newSessionId, ownsSession } from './chat.ts';

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
    expect(cannedAnswer('How long does delivery take?', DEFAULT_SUPPORT)).toMatch(
      /1-3 days in Kampala/,
    );
    expect(cannedAnswer('Where is my receipt?', DEFAULT_SUPPORT)).toMatch(/My Orders/);
    expect(cannedAnswer('hello', DEFAULT_SUPPORT)).toContain(DEFAULT_SUPPORT.email);
  });
});
