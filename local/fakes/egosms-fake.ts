// A fake EgoSMS gateway on loopback with the real plain API's shape: GET ?username&password&
// number&message&sender&priority answered in plain text, 'OK' or the reason. It refuses what
// EgoSMS documents it refuses, in EgoSMS's documented words: an empty value ('One Of The Values Is
// Empty'), wrong credentials ('Wrong UserName Or Password'), no credit ('Money Not Enough To Send
// This Batch of Msgs'); and a number not in the 256XXXXXXXXX form (a '+' included), a message over
// 160 characters, a sender over 11 (the fake's own words for these three: EgoSMS documents the
// rule, not the reply). A few numbers stand for the gateway's other answers:
//   256700000402 'Money Not Enough To Send This Batch of Msgs' · 256700000500 HTTP 500 ·
//   256700000700 no answer at all (hangs).
// Test-only: GET /__sent lists the texts accepted, oldest first (`npm start` shows them on the
// operator page too, from the shop's own records).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalFake } from './index.ts';

export const FAKE_EGOSMS = {
  username: 'duuka-fake',
  password: 'fake-egosms-password',
  sender: 'duuka',
};
/** The shop's numbers (+256…) that make the fake answer otherwise; they arrive as 256…. */
export const FAKE_SMS_NUMBERS = {
  noCredit: '+256700000402',
  serverError: '+256700000500',
  hang: '+256700000700',
};

/** EgoSMS's documented error replies, word for word (its capitals included). */
export const EGOSMS_REPLIES = {
  empty: 'One Of The Values Is Empty',
  wrongCredentials: 'Wrong UserName Or Password',
  noCredit: 'Money Not Enough To Send This Batch of Msgs',
};

/** EgoSMS's plain API: at most 160 characters a message. */
const FAKE_EGOSMS_MAX_CHARS = 160;

export type FakeSms = {
  number: string;
  message: string;
  sender: string;
  priority: string;
  at: string;
};

export async function startFakeEgoSms(): Promise<LocalFake & { url: string; sent: FakeSms[] }> {
  const sent: FakeSms[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(body);
    };
    if (url.pathname === '/__sent') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(sent));
    }
    if (req.method !== 'GET' || url.pathname !== '/api/v1/plain/') return text(404, 'Not Found');
    const q = (name: string) => url.searchParams.get(name) ?? '';
    if (['username', 'password', 'number', 'message', 'sender'].some((name) => !q(name))) {
      return text(200, EGOSMS_REPLIES.empty);
    }
    if (q('username') !== FAKE_EGOSMS.username || q('password') !== FAKE_EGOSMS.password) {
      return text(200, EGOSMS_REPLIES.wrongCredentials);
    }
    if (q('sender').length > 11) return text(200, 'Sender ID too long');
    if (!/^256\d{9}$/.test(q('number'))) {
      return text(200, `Invalid number ${q('number')}: use 256XXXXXXXXX`);
    }
    if ([...q('message')].length > FAKE_EGOSMS_MAX_CHARS) {
      return text(200, `Message too long: at most ${FAKE_EGOSMS_MAX_CHARS} characters`);
    }
    const number = `+${q('number')}`;
    if (number === FAKE_SMS_NUMBERS.noCredit) {
      return text(200, EGOSMS_REPLIES.noCredit);
    }
    if (number === FAKE_SMS_NUMBERS.serverError) return text(500, 'Internal Server Error');
    if (number === FAKE_SMS_NUMBERS.hang) {
      hanging.add(res);
      return;
    }
    sent.push({
      number: q('number'),
      message: q('message'),
      sender: q('sender'),
      priority: q('priority'),
      at: new Date().toISOString(),
    });
    return text(200, 'OK');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    sent,
    env: {
      EGOSMS_URL: `${url}/api/v1/plain/`,
      EGOSMS_USERNAME: FAKE_EGOSMS.username,
      EGOSMS_PASSWORD: FAKE_EGOSMS.password,
      EGOSMS_SENDER: FAKE_EGOSMS.sender,
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
