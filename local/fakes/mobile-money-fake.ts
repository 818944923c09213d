// A fake MTN MoMo Collection API and Airtel Money API on loopback, speaking their real shapes
// (token, request to pay, status, both providers' callbacks), so a fresh clone can pay by mobile
// money with no account anywhere. The payer number's last digit decides what happens
// (docs/payments.md, "Local and tests"):
//   2 declined · 3 not enough funds · 4 never answered · 5 not registered for mobile money ·
//   6 the request answers HTTP 500 · 7 the request hangs · 9 approved, but Airtel first answers
//   TA (ambiguous) for a while · any other digit approved after a moment.
// It refuses what the real APIs refuse: MTN's API user must be a UUID v4 and its sandbox takes
// EUR only, mtnuganda UGX only; Airtel's v2 payments must carry an x-signature/x-key that the
// private half of the key pair made at start-up reads back, with x-key padded only the way this
// fake is told (`airtelRsaPadding`, else AIRTEL_RSA_PADDING, else the shop's default: decision
// 0062). Its public key goes to the shop as AIRTEL_PUBLIC_KEY and is also served, as Airtel does,
// at GET /v1/rsa/encryption-keys. Airtel's token gives expires_in as a string ("180"), as Airtel
// does; MTN's status echoes the externalId the shop sent. Airtel's callbacks carry a hash made
// with AIRTEL_CALLBACK_SECRET, posted to the shop's fixed Airtel URL (set in Airtel's portal;
// here `airtelCallbackUrl`, or {BETTER_AUTH_URL}/api/payments/airtel when the fake is told none).
// Refunds (issue 36): MTN's Disbursement (its own token, API user and subscription key; a
// transfer and its status) and Airtel's v2 disbursement (signed like a payment, with the PIN
// encrypted under the same key: a wrong PIN is refused as Airtel does, DP00900001009). The
// payee's last digit decides as above (2 refused, 3 the shop's account is short, 4 waits until
// a test decides, 5 not registered, 6 HTTP 500, 7 hangs); a reused X-Reference-Id is 409, a
// reused Airtel transaction id DP00900001011, a wrong currency refused.
// Test-only routes: GET /__requests lists the payments that arrived, GET /__refunds the refunds;
// POST /__decide/{reference} with {"status":"SUCCESSFUL"|"FAILED","reason"?} settles a payment
// or a refund now (a late answer).
import {
  constants,
  createDecipheriv,
  createHmac,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AirtelRsaPadding,
  DEFAULT_AIRTEL_RSA_PADDING,
} from '#server/services/payments/airtel-money.ts';
import type { LocalFake } from './index.ts';

export const FAKE_MOMO = {
  /** MTN's API users are UUID v4 (made with POST /v1_0/apiuser, X-Reference-Id). */
  apiUser: '3f6b2c1e-8d4a-4f7b-9c2e-5a1d0b7e6f43',
  apiKey: 'fake-momo-api-key',
  subscriptionKey: 'fake-momo-subscription-key',
};
/** MTN's Disbursement product: another subscription, another API user (a UUID v4) and key. */
export const FAKE_MOMO_DISBURSEMENT = {
  apiUser: '7c1d9e2a-4b6f-4a8e-b3d5-9f0e2c4a6b81',
  apiKey: 'fake-momo-disbursement-api-key',
  subscriptionKey: 'fake-momo-disbursement-subscription-key',
};
export const FAKE_AIRTEL = {
  clientId: 'fake-airtel-client',
  clientSecret: 'fake-airtel-secret',
  /** The disbursement wallet's PIN: any other is refused. */
  disbursementPin: '4826',
};

/** What MTN takes as an API user: a UUID, version 4. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** How long after its approval a 9 number's Airtel payment is still reported TA (ambiguous). */
const AMBIGUOUS_MS = 1000;

type Outcome = { status: 'SUCCESSFUL' | 'FAILED'; reason?: string };
type Received = {
  network: 'mtn' | 'airtel';
  /** A payment collected, or a refund sent (a disbursement). */
  kind?: 'refund';
  /** Airtel: the v1 or the signed v2 path. */
  version?: 'v1' | 'v2';
  reference: string;
  /** MTN: the shop's own id for the payment (its order), echoed in the status. */
  externalId?: string;
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
/** A refund's payee: the same digits, the payee's own reason. */
const REFUND_FAILURES: Record<string, string> = { ...FAILURES, '5': 'PAYEE_NOT_FOUND' };
/** Airtel's answer for each outcome: its DP… response code and message. */
const AIRTEL_FAILURES: Record<string, { code: string; message: string }> = {
  APPROVAL_REJECTED: { code: 'DP00800001008', message: 'The transaction was refused.' },
  NOT_ENOUGH_FUNDS: {
    code: 'DP00800001007',
    message: 'User wallet does not have enough money to cover the payable amount.',
  },
  PAYER_NOT_FOUND: {
    code: 'DP00800001010',
    message:
      'Payee is already initiated for churn or barred or not registered on Airtel Money platform.',
  },
  EXPIRED: { code: 'DP00800001029', message: 'Transaction has been expired.' },
};
/** Airtel's disbursement codes for each outcome. */
const AIRTEL_DISBURSEMENT_FAILURES: Record<string, { code: string; message: string }> = {
  APPROVAL_REJECTED: { code: 'DP00900001013', message: 'The transaction was refused.' },
  NOT_ENOUGH_FUNDS: {
    code: 'DP00900001007',
    message: 'Not enough funds in account to complete the transaction.',
  },
  PAYEE_NOT_FOUND: { code: 'DP00900001012', message: 'Mobile number entered is incorrect.' },
};
const AIRTEL_WRONG_PIN = {
  code: 'DP00900001009',
  message: 'Initiatee of the transaction is invalid.',
};
const AIRTEL_DUPLICATE = {
  code: 'DP00900001011',
  message: 'Transaction with similar information already exists in this system.',
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
  options: {
    approvalMs?: number;
    airtelCallbackUrl?: string;
    airtelRsaPadding?: AirtelRsaPadding;
  } = {},
): Promise<LocalFake & { url: string; providerEnv: Record<string, string> }> {
  const approvalMs =
    options.approvalMs ?? Number(process.env.FAKE_MOBILE_MONEY_APPROVAL_MS ?? 3000);
  const airtelRsaPadding: AirtelRsaPadding =
    options.airtelRsaPadding ??
    (process.env.AIRTEL_RSA_PADDING === 'oaep' || process.env.AIRTEL_RSA_PADDING === 'pkcs1'
      ? process.env.AIRTEL_RSA_PADDING
      : DEFAULT_AIRTEL_RSA_PADDING);
  // The portal's keys for this run: the shop signs with the public one, the fake reads with the
  // private one; the callback key signs the callbacks. 1024 bits, like the key in Airtel's
  // documented encryption-keys answer ("MIGfMA0G…").
  const airtelKeys = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const airtelPublicKey = airtelKeys.publicKey
    .export({ type: 'spki', format: 'der' })
    .toString('base64');
  /** A day from now, as Airtel writes it: "DD-MM-YYYY HH:mm:ss". */
  const airtelKeyValidUpto = (() => {
    const at = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    return `${at.slice(8, 10)}-${at.slice(5, 7)}-${at.slice(0, 4)} ${at.slice(11, 19)}`;
  })();
  const airtelCallbackSecret = randomBytes(24).toString('base64url');
  const received = new Map<string, Received>();
  const refunds = new Map<string, Received>();
  /** Each token and the product it was given for (MTN's Collection and Disbursement differ). */
  const tokens = new Map<string, string>();
  const hanging = new Set<ServerResponse>();

  /** What the payer's phone does: decided by the number's last digit, after a moment. */
  function outcomeOf(payment: Received): Outcome | null {
    if (payment.decided) return payment.decided;
    const digit = payment.phone.slice(-1);
    if (digit === '4' || Date.now() - payment.requestedAt < approvalMs) return null;
    const reason = (payment.kind === 'refund' ? REFUND_FAILURES : FAILURES)[digit];
    return reason ? { status: 'FAILED', reason } : { status: 'SUCCESSFUL' };
  }

  /**
   * Once settled, MTN calls the request's X-Callback-Url (as the sandbox does) and Airtel the
   * shop's URL from its portal. A 9 number's Airtel callback waits until TA has passed.
   */
  function scheduleCallback(payment: Received) {
    if (payment.phone.endsWith('4')) return;
    const wait =
      payment.network === 'airtel' && payment.phone.endsWith('9')
        ? approvalMs + AMBIGUOUS_MS
        : approvalMs;
    setTimeout(() => sendCallback(payment), wait + 50).unref();
  }

  function sendCallback(payment: Received) {
    // The shop reads a refund's status; it takes no refund callbacks.
    if (payment.kind === 'refund') return;
    if (payment.network === 'mtn') sendMtnCallback(payment);
    else sendAirtelCallback(payment);
  }

  function airtelCallbackUrl(): string | null {
    if (options.airtelCallbackUrl) return options.airtelCallbackUrl;
    const shop = process.env.BETTER_AUTH_URL?.trim();
    return shop ? `${shop.replace(/\/+$/, '')}/api/payments/airtel` : null;
  }

  /** Airtel's "callback with authentication": the transaction and its hash. */
  function sendAirtelCallback(payment: Received) {
    const outcome = outcomeOf(payment);
    const url = airtelCallbackUrl();
    if (!outcome || !url) return;
    const transaction = {
      id: payment.reference,
      message:
        outcome.status === 'SUCCESSFUL'
          ? `Paid UGX ${payment.amount} to duuka`
          : (AIRTEL_FAILURES[outcome.reason ?? '']?.message ?? 'Transaction failed'),
      status_code: outcome.status === 'SUCCESSFUL' ? 'TS' : 'TF',
      ...(outcome.status === 'SUCCESSFUL' ? { airtel_money_id: `MP${payment.transactionId}` } : {}),
    };
    const hash = createHmac('sha256', airtelCallbackSecret)
      .update(JSON.stringify(transaction))
      .digest('base64');
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transaction, hash }),
    }).catch(() => {
      // The shop may be gone (a test ended): a callback is only a hint anyway.
    });
  }

  /**
   * A v2 payment's body as Airtel reads it: x-key decrypted with the private key, with the one
   * padding this fake is set to (PKCS#1 v1.5, or OAEP with SHA-1), gives key:iv, which decrypt
   * x-signature (AES-256-CBC); it must be the body sent. False when anything is missing or does
   * not match.
   */
  /** What the shop encrypted with the portal's public key, read with the padding set. */
  function airtelDecrypt(base64: string): string {
    return privateDecrypt(
      airtelRsaPadding === 'oaep'
        ? {
            key: airtelKeys.privateKey,
            padding: constants.RSA_PKCS1_OAEP_PADDING,
            oaepHash: 'sha1',
          }
        : { key: airtelKeys.privateKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(base64, 'base64'),
    ).toString();
  }

  function signedBody(req: IncomingMessage, body: string): boolean {
    const signature = req.headers['x-signature'];
    const key = req.headers['x-key'];
    if (typeof signature !== 'string' || typeof key !== 'string') return false;
    try {
      const [aesKey, iv] = airtelDecrypt(key).split(':');
      const decipher = createDecipheriv(
        'aes-256-cbc',
        Buffer.from(aesKey ?? '', 'base64'),
        Buffer.from(iv ?? '', 'base64'),
      );
      const plain = Buffer.concat([
        decipher.update(Buffer.from(signature, 'base64')),
        decipher.final(),
      ]).toString();
      return plain === body;
    } catch {
      return false;
    }
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
      externalId: payment.externalId ?? '',
      payer: { partyIdType: 'MSISDN', partyId: payment.phone },
      status: outcome?.status ?? 'PENDING',
      ...(outcome?.status === 'SUCCESSFUL'
        ? { financialTransactionId: payment.transactionId }
        : {}),
      ...(outcome?.status === 'FAILED' ? { reason: outcome.reason } : {}),
    };
  }

  function bearer(req: IncomingMessage, product: string): boolean {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return !!token && tokens.get(token) === product;
  }

  /** MTN gives expires_in as a number; Airtel as a string ("180"). */
  function newToken(res: ServerResponse, expiresIn: number | string, product: string) {
    const token = randomUUID();
    tokens.set(token, product);
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

  function record(
    payment: Omit<Received, 'count' | 'requestedAt' | 'decided' | 'transactionId'>,
    into = received,
  ) {
    const known = into.get(payment.reference);
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
    into.set(payment.reference, fresh);
    return fresh;
  }

  async function mtn(req: IncomingMessage, res: ServerResponse, path: string) {
    // Each product its own subscription key, API user and tokens.
    const product = path.startsWith('/disbursement/') ? 'disbursement' : 'collection';
    const keys = product === 'disbursement' ? FAKE_MOMO_DISBURSEMENT : FAKE_MOMO;
    if (req.headers['ocp-apim-subscription-key'] !== keys.subscriptionKey) {
      return json(res, 401, {
        statusCode: 401,
        message: 'Access denied due to invalid subscription key.',
      });
    }
    if (req.method === 'POST' && path === `/${product}/token/`) {
      const [user, key] = Buffer.from(
        /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '',
        'base64',
      )
        .toString()
        .split(':');
      // No API user but a UUID v4 exists at MTN: any other name is refused like a wrong key.
      if (!UUID_V4.test(user ?? '') || user !== keys.apiUser || key !== keys.apiKey) {
        return json(res, 401, { error: 'login_failed' });
      }
      return newToken(res, 3600, `mtn-${product}`);
    }
    if (!bearer(req, `mtn-${product}`)) {
      return json(res, 401, { code: 'UNAUTHORIZED', message: 'Invalid token' });
    }
    // One fake plays both: the sandbox (EUR only) and production in Uganda (UGX only).
    const environment = req.headers['x-target-environment'];
    if (environment !== 'sandbox' && environment !== 'mtnuganda') {
      return json(res, 500, {
        code: 'NOT_ALLOWED_TARGET_ENVIRONMENT',
        message: 'Access to target environment is forbidden.',
      });
    }
    if (req.method === 'POST' && path === '/collection/v1_0/requesttopay') {
      const reference = String(req.headers['x-reference-id'] ?? '');
      const body = JSON.parse((await bodyOf(req)) || '{}') as {
        amount?: string;
        currency?: string;
        externalId?: string;
        payer?: { partyId?: string };
      };
      const phone = String(body.payer?.partyId ?? '');
      if (!/^[0-9a-f-]{36}$/.test(reference) || !/^\d+$/.test(phone) || !body.amount) {
        return json(res, 400, { code: 'INVALID_REQUEST' });
      }
      if (body.currency !== (environment === 'sandbox' ? 'EUR' : 'UGX')) {
        return json(res, 500, { code: 'INVALID_CURRENCY', message: 'Currency not supported.' });
      }
      if (broken(phone, res)) return;
      const callback = req.headers['x-callback-url'];
      const payment = record({
        network: 'mtn',
        reference,
        externalId: String(body.externalId ?? ''),
        phone,
        amount: body.amount,
        currency: body.currency,
        callbackUrl: typeof callback === 'string' ? callback : null,
      });
      if (payment.count > 1) return json(res, 409, { code: 'RESOURCE_ALREADY_EXIST' });
      scheduleCallback(payment);
      return json(res, 202);
    }
    if (product === 'disbursement') return mtnTransfer(req, res, path, environment);
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

  /** MTN's Disbursement: a transfer to the payee (a refund) and its status. */
  async function mtnTransfer(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    environment: string,
  ) {
    if (req.method === 'POST' && path === '/disbursement/v1_0/transfer') {
      const reference = String(req.headers['x-reference-id'] ?? '');
      const body = JSON.parse((await bodyOf(req)) || '{}') as {
        amount?: string;
        currency?: string;
        externalId?: string;
        payee?: { partyIdType?: string; partyId?: string };
      };
      const phone = String(body.payee?.partyId ?? '');
      if (
        !/^[0-9a-f-]{36}$/.test(reference) ||
        body.payee?.partyIdType !== 'MSISDN' ||
        !/^\d+$/.test(phone) ||
        !/^\d+$/.test(String(body.amount ?? ''))
      ) {
        return json(res, 400, { code: 'INVALID_REQUEST' });
      }
      if (body.currency !== (environment === 'sandbox' ? 'EUR' : 'UGX')) {
        return json(res, 500, { code: 'INVALID_CURRENCY', message: 'Currency not supported.' });
      }
      if (broken(phone, res)) return;
      const refund = record(
        {
          network: 'mtn',
          kind: 'refund',
          reference,
          externalId: String(body.externalId ?? ''),
          phone,
          amount: String(body.amount),
          currency: String(body.currency),
          callbackUrl: null,
        },
        refunds,
      );
      if (refund.count > 1) {
        return json(res, 409, {
          code: 'RESOURCE_ALREADY_EXIST',
          message: 'Duplicated reference id. Creation of resource failed.',
        });
      }
      return json(res, 202);
    }
    const status = /^\/disbursement\/v1_0\/transfer\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && status) {
      const refund = refunds.get(decodeURIComponent(status[1] ?? ''));
      if (!refund) {
        return json(res, 404, {
          code: 'RESOURCE_NOT_FOUND',
          message: 'Requested resource was not found.',
        });
      }
      const outcome = outcomeOf(refund);
      return json(res, 200, {
        amount: refund.amount,
        currency: refund.currency,
        externalId: refund.externalId ?? '',
        payee: { partyIdType: 'MSISDN', partyId: refund.phone },
        status: outcome?.status ?? 'PENDING',
        ...(outcome?.status === 'SUCCESSFUL'
          ? { financialTransactionId: refund.transactionId }
          : {}),
        ...(outcome?.status === 'FAILED' ? { reason: outcome.reason } : {}),
      });
    }
    return json(res, 404, { code: 'RESOURCE_NOT_FOUND' });
  }

  /** Airtel's disbursement answer: its status block, success or a DP0090000… refusal. */
  function airtelDisbursementAnswer(
    res: ServerResponse,
    http: number,
    code: string,
    message: string,
    transaction?: Record<string, unknown>,
  ) {
    const success = code === 'DP00900001001' || code === 'DP00900001006';
    return json(res, http, {
      data: transaction ? { transaction } : {},
      status: {
        response_code: code,
        code: String(http),
        success,
        result_code: success ? 'ESB000010' : 'ESB000045',
        message,
      },
    });
  }

  /** Airtel's v2 disbursement (a refund): signed, with the PIN encrypted; and its status. */
  async function airtelDisbursement(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method === 'POST' && path === '/standard/v2/disbursements/') {
      const text = await bodyOf(req);
      if (!signedBody(req, text)) {
        return json(res, 403, {
          status: {
            response_code: 'DP00800001026',
            code: '403',
            success: false,
            message: 'Forbidden: X-signature and payload did not match.',
          },
        });
      }
      const body = JSON.parse(text || '{}') as {
        payee?: { msisdn?: string };
        pin?: string;
        transaction?: { id?: string; amount?: number; type?: string };
      };
      const phone = String(body.payee?.msisdn ?? '');
      const reference = String(body.transaction?.id ?? '');
      if (
        !/^\d{9}$/.test(phone) ||
        !reference ||
        !(Number(body.transaction?.amount) > 0) ||
        body.transaction?.type !== 'B2C'
      ) {
        return json(res, 400, {
          status: { code: '400', success: false, message: 'Invalid request' },
        });
      }
      let pin = '';
      try {
        pin = airtelDecrypt(String(body.pin ?? ''));
      } catch {
        pin = '';
      }
      if (pin !== FAKE_AIRTEL.disbursementPin) {
        return airtelDisbursementAnswer(res, 400, AIRTEL_WRONG_PIN.code, AIRTEL_WRONG_PIN.message);
      }
      if (broken(phone, res)) return;
      const refund = record(
        {
          network: 'airtel',
          kind: 'refund',
          version: 'v2',
          reference,
          phone,
          amount: String(body.transaction?.amount),
          currency: 'UGX',
          callbackUrl: null,
        },
        refunds,
      );
      if (refund.count > 1) {
        return airtelDisbursementAnswer(res, 400, AIRTEL_DUPLICATE.code, AIRTEL_DUPLICATE.message);
      }
      return airtelDisbursementAnswer(res, 200, 'DP00900001006', 'Transaction is in process.', {
        reference_id: `RF${refund.transactionId}`,
        airtel_money_id: `MP${refund.transactionId}`,
        id: reference,
        status: 'TIP',
      });
    }
    const status = /^\/standard\/v2\/disbursements\/([^/?]+)$/.exec(path);
    if (req.method === 'GET' && status) {
      const refund = refunds.get(decodeURIComponent(status[1] ?? ''));
      if (!refund) {
        return airtelDisbursementAnswer(res, 404, 'DP00900001015', 'Transaction not found.');
      }
      const outcome = outcomeOf(refund);
      const failure =
        outcome?.status === 'FAILED' ? AIRTEL_DISBURSEMENT_FAILURES[outcome.reason ?? ''] : null;
      const code = !outcome ? 'TIP' : outcome.status === 'SUCCESSFUL' ? 'TS' : 'TF';
      return airtelDisbursementAnswer(
        res,
        200,
        code === 'TS'
          ? 'DP00900001001'
          : code === 'TIP'
            ? 'DP00900001006'
            : (failure?.code ?? 'DP00900001005'),
        failure?.message ??
          (code === 'TS' ? 'Transaction is successful.' : 'Transaction is in process.'),
        {
          id: refund.reference,
          status: code,
          ...(code === 'TS' ? { airtel_money_id: `MP${refund.transactionId}` } : {}),
        },
      );
    }
    return null;
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
      return newToken(res, '180', 'airtel');
    }
    if (!bearer(req, 'airtel'))
      return json(res, 401, { status: { code: '401', success: false, message: 'Unauthorized' } });
    if (req.headers['x-country'] !== 'UG' || req.headers['x-currency'] !== 'UGX') {
      return json(res, 400, {
        status: { code: '400', success: false, message: 'Invalid country or currency' },
      });
    }
    if (req.method === 'GET' && path === '/v1/rsa/encryption-keys') {
      // The shape Airtel documents: a bare base64 SPKI, its id and until when it is valid.
      return json(res, 200, {
        data: { key_id: 1, key: airtelPublicKey, valid_upto: airtelKeyValidUpto },
        status: {
          code: '200',
          message: 'Success',
          response_code: 'DP02010001001',
          result_code: 'ESB000010',
          success: true,
        },
      });
    }
    if (path.startsWith('/standard/v2/disbursements/')) {
      const answered = await airtelDisbursement(req, res, path);
      if (answered !== null) return answered;
    }
    const version = /^\/merchant\/(v1|v2)\/payments\/$/.exec(path)?.[1] as 'v1' | 'v2' | undefined;
    if (req.method === 'POST' && version) {
      const text = await bodyOf(req);
      if (version === 'v2' && !signedBody(req, text)) {
        return json(res, 403, {
          status: {
            response_code: 'DP00800001026',
            code: '403',
            success: false,
            message: 'Forbidden: X-signature and payload did not match.',
          },
        });
      }
      const body = JSON.parse(text || '{}') as {
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
      const payment = record({
        network: 'airtel',
        version,
        reference,
        phone,
        amount: String(body.transaction.amount),
        currency: 'UGX',
        callbackUrl: airtelCallbackUrl(),
      });
      if (payment.count === 1) scheduleCallback(payment);
      return json(res, 200, {
        data: { transaction: { id: reference, status: 'SUCCESS' } },
        status: {
          response_code: 'DP00800001006',
          code: '200',
          message: 'SUCCESS',
          result_code: 'ESB000010',
          success: true,
        },
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
      let outcome = outcomeOf(payment);
      // A 9 number: Airtel cannot say yet (TA, ambiguous) until a while after its approval.
      const ambiguous =
        !payment.decided &&
        payment.phone.endsWith('9') &&
        Date.now() - payment.requestedAt < approvalMs + AMBIGUOUS_MS;
      if (ambiguous) outcome = null;
      const failure = outcome?.status === 'FAILED' ? AIRTEL_FAILURES[outcome.reason ?? ''] : null;
      const code = !outcome
        ? ambiguous
          ? 'TA'
          : 'TIP'
        : outcome.status === 'SUCCESSFUL'
          ? 'TS'
          : 'TF';
      return json(res, 200, {
        data: {
          transaction: {
            id: payment.reference,
            status: code,
            message: failure?.message ?? (code === 'TS' ? 'success' : 'In process'),
            ...(code === 'TS' ? { airtel_money_id: `MP${payment.transactionId}` } : {}),
          },
        },
        status: {
          response_code:
            code === 'TS'
              ? 'DP00800001001'
              : code === 'TA'
                ? 'DP00800001000'
                : (failure?.code ?? 'DP00800001006'),
          code: '200',
          message: 'SUCCESS',
          result_code: 'ESB000010',
          success: true,
        },
      });
    }
    return json(res, 404, { status: { code: '404', success: false, message: 'Not found' } });
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const handle = async () => {
      if (req.method === 'GET' && path === '/__requests')
        return json(res, 200, [...received.values()]);
      if (req.method === 'GET' && path === '/__refunds')
        return json(res, 200, [...refunds.values()]);
      const decide = /^\/__decide\/([^/]+)$/.exec(path);
      if (req.method === 'POST' && decide) {
        const payment = received.get(decide[1] ?? '') ?? refunds.get(decide[1] ?? '');
        if (!payment) return json(res, 404, { message: 'unknown reference' });
        payment.decided = JSON.parse(await bodyOf(req)) as Outcome;
        sendCallback(payment);
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
  const mtnEnv = {
    MOMO_BASE_URL: `${url}/momo`,
    MOMO_API_USER: FAKE_MOMO.apiUser,
    MOMO_API_KEY: FAKE_MOMO.apiKey,
    MOMO_SUBSCRIPTION_KEY: FAKE_MOMO.subscriptionKey,
    // The production path: UGX to mtnuganda (the sandbox's EUR is tested beside it).
    MOMO_TARGET_ENVIRONMENT: 'mtnuganda',
    MOMO_DISBURSEMENT_API_USER: FAKE_MOMO_DISBURSEMENT.apiUser,
    MOMO_DISBURSEMENT_API_KEY: FAKE_MOMO_DISBURSEMENT.apiKey,
    MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: FAKE_MOMO_DISBURSEMENT.subscriptionKey,
  };
  const airtelEnv = {
    AIRTEL_BASE_URL: `${url}/airtel`,
    AIRTEL_CLIENT_ID: FAKE_AIRTEL.clientId,
    AIRTEL_CLIENT_SECRET: FAKE_AIRTEL.clientSecret,
    AIRTEL_PUBLIC_KEY: airtelPublicKey,
    AIRTEL_RSA_PADDING: airtelRsaPadding,
    AIRTEL_CALLBACK_SECRET: airtelCallbackSecret,
    AIRTEL_DISBURSEMENT_PIN: FAKE_AIRTEL.disbursementPin,
  };
  return {
    url,
    /** Every variable pointing both adapters here (tests build providers from these). */
    providerEnv: { ...mtnEnv, ...airtelEnv },
    // For `npm start`: a provider the caller points elsewhere (its base URL set) gets none of
    // the fake's values (the fake's Airtel key would make the real Airtel refuse the signature).
    env: {
      ...(process.env.MOMO_BASE_URL?.trim() ? {} : mtnEnv),
      ...(process.env.AIRTEL_BASE_URL?.trim() ? {} : airtelEnv),
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
