// The mail adapter: the local outbox (development and tests) or an HTTP provider (production).

import { escapeHtml } from '#core/html.ts';
import type { Db } from '#db/client.ts';
import { mailOutbox } from '#db/schema/index.ts';

export type Mail = { to: string; subject: string; text: string; html: string; link?: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/** Writes mails to the mail_outbox table: read by /dev/mailbox and by tests. */
export function outboxMailer(db: Db): Mailer {
  return {
    async send(mail) {
      await db.insert(mailOutbox).values({
        recipient: mail.to.toLowerCase(),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        link: mail.link ?? null,
      });
    },
  };
}

/** Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email). */
export function resendMailer(options: {
  apiKey?: string;
  from?: string;
  fetch?: typeof fetch;
}): Mailer {
  return {
    async send(mail) {
      if (!options.apiKey || !options.from) {
        throw new Error(
          'Mail: MAIL_TRANSPORT=resend needs the EMAIL_API_KEY and EMAIL_FROM secrets',
        );
      }
      const response = await (options.fetch ?? fetch)('https://api.resend.com/emails', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          from: options.from,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        }),
      });
      if (!response.ok) {
        throw new Error(`Mail: the provider answered ${response.status}: ${await response.text()}`);
      }
    },
  };
}

export function mailerFor(
  transport: string,
  db: Db,
  secrets: { apiKey?: string; from?: string },
): Mailer {
  if (transport === 'outbox') return outboxMailer(db);
  if (transport === 'resend') return resendMailer(secrets);
  throw new Error(`Mail: unknown MAIL_TRANSPORT "${transport}" (use "outbox" or "resend")`);
}

export function verificationMail(to: { email: string; name: string }, link: string): Mail {
  const greeting = `Hello ${to.name || 'there'},`;
  return {
    to: to.email,
    subject: 'Verify your email for duuka',
    link,
    text: `${greeting}\n\nWelcome to duuka. Please verify your email address to finish creating your account:\n\n${link}\n\nIf you did not create an account, you can ignore this email.\n\nduuka, Kampala`,
    html: `<div style="font-family:Georgia,serif;max-width:520px;margin:auto;color:#1d1a16">
<h1 style="font-weight:500">duuka</h1>
<p>${escapeHtml(greeting)}</p>
<p>Welcome to duuka. Please verify your email address to finish creating your account.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 22px;background:#1d1a16;color:#faf7f2;text-decoration:none;letter-spacing:.12em;text-transform:uppercase;font-family:sans-serif;font-size:12px">Verify email</a></p>
<p style="font-size:13px;color:#5b534a">If you did not create an account, you can ignore this email.</p>
</div>`,
  };
}

export function resetPasswordMail(to: { email: string; name: string }, link: string): Mail {
  const greeting = `Hello ${to.name || 'there'},`;
  return {
    to: to.email,
    subject: 'Set a new password for duuka',
    link,
    text: `${greeting}\n\nSomeone (we hope you) asked to set a new password for your duuka account. This link works for one hour, once:\n\n${link}\n\nIf you did not ask, ignore this email: your password stays as it is.\n\nduuka, Kampala`,
    html: `<div style="font-family:Georgia,serif;max-width:520px;margin:auto;color:#1d1a16">
<h1 style="font-weight:500">duuka</h1>
<p>${escapeHtml(greeting)}</p>
<p>Someone (we hope you) asked to set a new password for your duuka account. This link works for one hour, once.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 22px;background:#1d1a16;color:#faf7f2;text-decoration:none;letter-spacing:.12em;text-transform:uppercase;font-family:sans-serif;font-size:12px">Set a new password</a></p>
<p style="font-size:13px;color:#5b534a">If you did not ask, ignore this email: your password stays as it is.</p>
</div>`,
  };
}
