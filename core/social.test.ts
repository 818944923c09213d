import { describe, expect, it } from 'vitest';
import { socialLinkOf } from './social.ts';

describe('socialLinkOf', () => {
  it('names the network of an https page', () => {
    expect(socialLinkOf('https://www.instagram.com/duuka.ug')).toEqual({
      network: 'Instagram',
      url: 'https://www.instagram.com/duuka.ug',
    });
    expect(socialLinkOf('https://twitter.com/duuka')?.network).toBe('X');
    expect(socialLinkOf('https://www.tiktok.com/@duuka')?.network).toBe('TikTok');
  });

  it('refuses what is not a page of a known network', () => {
    for (const address of [
      'http://instagram.com/duuka', // not https
      'https://instagram.com/', // the network, not a page
      'https://evil.example/instagram.com/duuka',
      'https://instagram.com.evil.example/duuka',
      'https://user:pw@instagram.com/duuka',
      'javascript:alert(1)',
      'instagram.com/duuka',
    ]) {
      expect(socialLinkOf(address), address).toBeNull();
    }
  });
});
