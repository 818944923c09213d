// A fake MTN MoMo Collection API and Airtel Money API on loopback, speaking their real shapes
// (token, request to pay, status, MTN's callback), so a fresh clone can pay by mobile money with no
// account anywhere. The payer number's last digit decides what happens (README, "Mobile money"):
//   2 declined · 3 not enough funds · 4 never answered · 5 not registered for mobile money ·
//   6 the request answers HTTP 500 · 7 the request hangs · any other digit approved after a moment.
// Test-only routes: GET /__requests lists what arrived; POST /__decide/{reference} with
// {"status":"SUCCESSFUL"|"FAILED","reason"?} settles a payment now (a late answer).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalFake } from './index.ts';

export const FAKE_MOMO = {
  apiUser: 'fake-momo-api-user',
  apiKey: 'fake-momo-api-key',
  subscriptionKey: 'fake-momo-subscription-key',
};
export const FAKE_AIRTEL = { clientId: 'fake-airtel-client', clientSecret: 'fake-airtel-secret' };

type Outcome = { status: 'SUCCESSFUL' | 'FAILED'; reason?: string };
type Received = {
  network: 'mtn' | 'airtel';
  reference: string;
  phone: string;
  amount: string;
  currency: string;
  callbackUrl: string | null;
  /** How many times this reference was requested. */
  count: number;
  requestedAt: number;
  decided: Outcome | null;
  transactionId: string;
};

const FAILURES: Record<string, string> = {
  '2': 'APPROVAL_REJECTED',
  '3': 'NOT_ENOUGH_FUNDS',
  '5': 'PAYER_NOT_FOUND',
};
const AIRTEL_MESSAGES: Record<string, string> = {
  APPROVAL_REJECTED: 'Transaction declined by the subscriber',
  NOT_ENOUGH_FUNDS: 'Insufficient funds in the subscriber wallet',
  PAYER_NOT_FOUND: 'Subscriber not registered for Airtel Money',
  EXPIRED: 'Transaction expired',
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body?: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

export async function startFakeMobileMoney(
  options: { approvalMs?: number } = {},
): Promise<LocalFake & { url: string }> {
  const approvalMs =
    options.approvalMs ?? Number(process.env.FAKE_MOBILE_MONEY_APPROVAL_MS ?? 3000);
  const received = new Map<string, Received>();
  const tokens = new Set<string>();
  const hanging = new Set<ServerResponse>();

  /** What the payer's phone does: decided by the number's last digit, after a moment. */
  function outcomeOf(payment: Received): Outcome | null {
    if (payment.decided) return payment.decided;
    const digit = payment.phone.slice(-1);
    if (digit === '4' || Date.now() - payment.requestedAt < approvalMs) return null;
    const reason = FAILURES[digit];
    return reason ? { status: 'FAILED', reason } : { status: 'SUCCESSFUL' };
  }

  /** MTN calls the request's X-Callback-Url once it is settled (as the sandbox does). */
  function scheduleCallback(payment: Received) {
    if (payment.network !== 'mtn' || !payment.callbackUrl || payment.phone.endsWith('4')) return;
    setTimeout(() => sendMtnCallback(payment), approvalMs + 50).unref();
  }

  function sendMtnCallback(payment: Received) {
    const outcome = outcomeOf(payment);
    if (!outcome || !payment.callbackUrl) return;
    fetch(payment.callbackUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(mtnStatus(payment, outcome)),
    }).catch(() => {
      // The shop may be gone (a test ended): a callback is only a hint anyway.
    });
  }

  function mtnStatus(payment: Received, outcome: Outcome | null) {
    return {
      amount: payment.amount,
      currency: payment.currency,
      externalId: payment.reference,
      payer: { partyIdType: 'MSISDN', partyId: payment.phone },
      status: outcome?.status ?? 'PENDING',
      ...(outcome?.status === 'SUCCESSFUL'
        ? { financialTransactionId: payment.transactionId }
        : {}),
      ...(outcome?.status === 'FAILED' ? { reason: outcome.reason } : {}),
    };
  }

  function bearer(req: IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return !!token && tokens.has(token);
  }

  function newToken(res: ServerResponse, expiresIn: number) {
    const token = randomUUID();
    tokens.add(token);
    json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: expiresIn });
  }

  /** Digits 6 and 7 break the request itself: HTTP 500, or no answer at all. */
  function broken(phone: string, res: ServerResponse): boolean {
    if (phone.endsWith('6')) {
      json(res, 500, { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred' });
      return true;
    }
    if (phone.endsWith('7')) {
      hanging.add(res);
      return true;
    }
    return false;
  }

  function record(payment: Omit<Received, 'count' | 'requestedAt' | 'decided' | 'transactionId'>) {
    const known = received.get(payment.reference);
    if (known) {
      known.count += 1;
      return known;
    }
    const fresh: Received = {
      ...payment,
      count: 1,
      requestedAt: Date.now(),
      decided: null,
      transactionId: String(Math.floor(1e9 + Math.random() * 9e9)),
    };
    received.set(payment.reference, fresh);
    return fresh;
  }

  async function mtn(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.headers['ocp-apim-subscription-key'] !== FAKE_MOMO.subscriptionKey) {
      return json(res, 401, {
        statusCode: 401,
        message: 'Access denied due to invalid subscription key.',
      });
    }
    if (req.method === 'POST' && path === '/collection/token/') {
      const basic = `Basic ${Buffer.from(`${FAKE_MOMO.apiUser}:${FAKE_MOMO.apiKey}`).toString('base64')}`;
      if (req.headers.authorization !== basic) return json(res, 401, { error: 'login_failed' });
      return newToken(res, 3600);
    }
    if (!bearer(req)) return json(res, 401, { code: 'UNAUTHORIZED', message: 'Invalid token' });
    if (req.headers['x-target-environment'] !== 'sandbox') {
      return json(res, 400, { code: 'INVALID_TARGET_ENVIRONMENT' });
    }
    if (req.method === 'POST' && path === '/collection/v1_0/requesttopay') {
      const reference = String(req.headers['x-reference-id'] ?? '');
      const body = JSON.parse((await bodyOf(req)) || '{}') as {
        amount?: string;
        currency?: string;
        payer?: { partyId?: string };
      };
      const phone = String(body.payer?.partyId ?? '');
      if (!/^[0-9a-f-]{36}$/.test(reference) || !/^\d+$/.test(phone) || !body.amount) {
        return json(res, 400, { code: 'INVALID_REQUEST' });
      }
      if (body.currency !== 'EUR')
        return json(res, 500, { code: 'NOT_ALLOWED', message: 'Currency not supported.' });
      if (broken(phone, res)) return;
      const callback = req.headers['x-callback-url'];
      const payment = record({
        network: 'mtn',
        reference,
        phone,
        amount: body.amount,
        currency: body.currency,
        callbackUrl: typeof callback === 'string' ? callback : null,
      });
      if (payment.count > 1) return json(res, 409, { code: 'RESOURCE_ALREADY_EXIST' });
      scheduleCallback(payment);
      return json(res, 202);
    }
    const status = /^\/collection\/v1_0\/requesttopay\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && status) {
      const payment = received.get(decodeURIComponent(status[1] ?? ''));
      if (!payment)
        return json(res, 404, {
          code: 'RESOURCE_NOT_FOUND',
          message: 'Requested resource was not found.',
        });
      return json(res, 200, mtnStatus(payment, outcomeOf(payment)));
    }
    return json(res, 404, { code: 'RESOURCE_NOT_FOUND' });
  }

  async function airtel(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method === 'POST' && path === '/auth/oauth2/token') {
      const body = JSON.parse((await bodyOf(req)) || '{}') as Record<string, string>;
      if (
        body.client_id !== FAKE_AIRTEL.clientId ||
        body.client_secret !== FAKE_AIRTEL.clientSecret ||
        body.grant_type !== 'client_credentials'
      ) {
        return json(res, 401, {
          error: 'invalid_client',
          error_description: 'Invalid client credentials',
        });
      }
      return newToken(res, 180);
    }
    if (!bearer(req))
      return json(res, 401, { status: { code: '401', success: false, message: 'Unauthorized' } });
    if (req.headers['x-country'] !== 'UG' || req.headers['x-currency'] !== 'UGX') {
      return json(res, 400, {
        status: { code: '400', success: false, message: 'Invalid country or currency' },
      });
    }
    if (req.method === 'POST' && path === '/merchant/v1/payments/') {
      const body = JSON.parse((await bodyOf(req)) || '{}') as {
        subscriber?: { msisdn?: string };
        transaction?: { id?: string; amount?: number; currency?: string };
      };
      const phone = String(body.subscriber?.msisdn ?? '');
      const reference = String(body.transaction?.id ?? '');
      if (!/^\d{9}$/.test(phone) || !reference || !body.transaction?.amount) {
        return json(res, 400, {
          status: { code: '400', success: false, message: 'Invalid request' },
        });
      }
      if (broken(phone, res)) return;
      record({
        network: 'airtel',
        reference,
        phone,
        amount: String(body.transaction.amount),
        currency: 'UGX',
        callbackUrl: null,
      });
      return json(res, 200, {
        data: { transaction: { id: reference, status: 'Success.' } },
        status: { code: '200', message: 'Success.', result_code: 'ESB000010', success: true },
      });
    }
    const status = /^\/standard\/v1\/payments\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && status) {
      const payment = received.get(decodeURIComponent(status[1] ?? ''));
      if (!payment) {
        return json(res, 404, {
          status: { code: '404', success: false, message: 'Transaction not found' },
        });
      }
      const outcome = outcomeOf(payment);
      const code = !outcome ? 'TIP' : outcome.status === 'SUCCESSFUL' ? 'TS' : 'TF';
      return json(res, 200, {
        data: {
          transaction: {
            id: payment.reference,
            status: code,
            message: outcome?.reason ? AIRTEL_MESSAGES[outcome.reason] : 'In process',
            ...(code === 'TS' ? { airtel_money_id: `MP${payment.transactionId}` } : {}),
          },
        },
        status: { code: '200', message: 'SUCCESS', result_code: 'ESB000010', success: true },
      });
    }
    return json(res, 404, { status: { code: '404', success: false, message: 'Not found' } });
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const handle = async () => {
      if (req.method === 'GET' && path === '/__requests')
        return json(res, 200, [...received.values()]);
      const decide = /^\/__decide\/([^/]+)$/.exec(path);
      if (req.method === 'POST' && decide) {
        const payment = received.get(decide[1] ?? '');
        if (!payment) return json(res, 404, { message: 'unknown reference' });
        payment.decided = JSON.parse(await bodyOf(req)) as Outcome;
        sendMtnCallback(payment);
        return json(res, 200, payment);
      }
      if (path.startsWith('/momo/')) return mtn(req, res, path.slice('/momo'.length));
      if (path.startsWith('/airtel/')) return airtel(req, res, path.slice('/airtel'.length));
      return json(res, 404, { message: 'not found' });
    };
    handle().catch((error: unknown) => json(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      MOMO_BASE_URL: `${url}/momo`,
      MOMO_API_USER: FAKE_MOMO.apiUser,
      MOMO_API_KEY: FAKE_MOMO.apiKey,
      MOMO_SUBSCRIPTION_KEY: FAKE_MOMO.subscriptionKey,
      MOMO_TARGET_ENVIRONMENT: 'sandbox',
      AIRTEL_BASE_URL: `${url}/airtel`,
      AIRTEL_CLIENT_ID: FAKE_AIRTEL.clientId,
      AIRTEL_CLIENT_SECRET: FAKE_AIRTEL.clientSecret,
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
