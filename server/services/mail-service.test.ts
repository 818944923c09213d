import { describe, expect, it } from 'vitest';
import { resendMailer, verificationMail } from './mail-service.ts';

describe('production mail (Resend over HTTP)', () => {
  it('posts the mail with the key and sender from secrets', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const mailer = resendMailer({
      apiKey: 're_test',
      from: 'duuka <hello@duuka.ug>',
      fetch: async (url, init) => {
        calls.push({ url: String(url), init: init ?? {} });
        return new Response('{"id":"1"}', { status: 200 });
      },
    });
    await mailer.send(
      verificationMail({ email: 'a@example.ug', name: 'Amara' }, 'https://x/v?t=1'),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('https://api.resend.com/emails');
    expect(new Headers(calls[0]?.init.headers).get('authorization')).toBe('Bearer re_test');
    const body = JSON.parse(String(calls[0]?.init.body));
    expect(body).toMatchObject({
      from: 'duuka <hello@duuka.ug>',
      to: ['a@example.ug'],
      subject: 'Verify your email for duuka',
    });
    expect(body.text).toContain('https://x/v?t=1');
  });

  it('fails loudly on a provider error or missing secrets (better-auth then answers 500)', async () => {
    const refusing = resendMailer({
      apiKey: 're_test',
      from: 'x@duuka.ug',
      fetch: async () => new Response('invalid key', { status: 401 }),
    });
    await expect(
      refusing.send(verificationMail({ email: 'a@x.ug', name: '' }, 'u')),
    ).rejects.toThrow(/401: invalid key/);
    await expect(
      resendMailer({}).send(verificationMail({ email: 'a@x.ug', name: '' }, 'u')),
    ).rejects.toThrow(/EMAIL_API_KEY/);
  });

  it('escapes the name in the HTML body', () => {
    const mail = verificationMail({ email: 'a@x.ug', name: '<b>x</b>' }, 'https://x/"y');
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(mail.html).toContain('https://x/&quot;y');
  });
});
