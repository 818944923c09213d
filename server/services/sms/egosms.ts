// EgoSMS's plain-text HTTP API (Pahappa, Uganda): GET {url}?username&password&number&message&
// sender&priority. The reply is plain text: 'OK' when accepted (compared case-insensitively),
// otherwise the reason, e.g. 'Wrong UserName Or Password', 'One Of The Values Is Empty' or 'Money
// Not Enough To Send This Batch of Msgs': each a failure the desk shows in the gateway's words and
// not retried by itself (the owner fixes the set-up or tops up, then resends). The plain API gives
// no message id. EgoSMS documents numbers as 256XXXXXXXXX (no '+')
// and messages of at most 160 characters: the outbox keeps +256… and builds texts that fit.
import { egoSmsNumber, SMS_PRIORITY, SMS_TIMEOUT_MS } from '#core/sms.ts';
import type { OutgoingSms, SendResult, SmsGateway } from './gateway.ts';

export type EgoSmsConfig = {
  url: string;
  username: string;
  password: string;
  /** At most 11 characters (server/env.ts checks it). */
  sender: string;
  timeoutMs?: number;
};

export function egoSms(config: EgoSmsConfig): SmsGateway {
  const timeoutMs = config.timeoutMs ?? SMS_TIMEOUT_MS;
  return {
    async send(sms: OutgoingSms): Promise<SendResult> {
      const url = new URL(config.url);
      url.search = new URLSearchParams({
        username: config.username,
        password: config.password,
        number: egoSmsNumber(sms.number),
        message: sms.message,
        sender: config.sender,
        priority: String(SMS_PRIORITY),
      }).toString();
      let response: Response;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        return {
          ok: false,
          error: timedOut
            ? `No answer from the SMS gateway within ${timeoutMs / 1000} s`
            : `SMS gateway unreachable: ${String(error).slice(0, 200)}`,
          transient: true,
        };
      }
      const text = (await response.text().catch(() => '')).trim().slice(0, 500);
      if (!response.ok) {
        return {
          ok: false,
          error: `SMS gateway answered HTTP ${response.status}${text ? `: ${text}` : ''}`,
          transient: response.status >= 500 || response.status === 429,
        };
      }
      if (text.toUpperCase() === 'OK') return { ok: true, messageId: null };
      return { ok: false, error: text || 'Empty answer from the SMS gateway', transient: false };
    },
  };
}
