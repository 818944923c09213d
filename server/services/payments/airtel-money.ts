// Airtel Money Collection API (developers.airtel.africa): a client-credentials token, then a USSD
// push payment and its status. Uganda: X-Country UG, X-Currency UGX, the number without +256.
// The payment goes to the current `/merchant/v2/payments/`, signed as Airtel's "message signing"
// describes: the JSON body encrypted with a fresh AES-256-CBC key and IV (`x-signature`), and
// `key:iv` encrypted with Airtel's RSA public key (`x-key`), padded as AIRTEL_RSA_PADDING says
// (public clients disagree: decision 0062). The key is AIRTEL_PUBLIC_KEY, else the one Airtel
// hands out at `GET /v1/rsa/encryption-keys`. Only when Airtel offers this app no key (that
// endpoint refuses) does the payment go unsigned to `/merchant/v1/payments/` (not said to be
// refused; Airtel warns older versions may be deprecated at any time). docs/payments.md has the
// sources.
import type { FailureReason } from '#core/mobile-money.ts';
import {
  type MobileMoneyProvider,
  oauthToken,
  type PaymentRequest,
  ProviderError,
  type ProviderStatus,
  providerFetch,
  TokenCache,
} from './provider.ts';

/** How `key:iv` is padded under Airtel's RSA key (AIRTEL_RSA_PADDING). */
export type AirtelRsaPadding = 'oaep' | 'pkcs1';
export const AIRTEL_RSA_PADDINGS = ['pkcs1', 'oaep'] as const satisfies AirtelRsaPadding[];
/** The padding used when AIRTEL_RSA_PADDING is unset: the one most public clients use (0062). */
export const DEFAULT_AIRTEL_RSA_PADDING: AirtelRsaPadding = 'pkcs1';

export type AirtelConfig = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * The RSA public key from Airtel's portal (PEM or bare base64 SPKI); absent: fetched from
   * `GET /v1/rsa/encryption-keys`.
   */
  publicKey?: string;
  /** `x-key`'s padding; default DEFAULT_AIRTEL_RSA_PADDING. */
  rsaPadding?: AirtelRsaPadding;
  /** The key Airtel's "callback with authentication" hashes callbacks with. */
  callbackSecret?: string;
  timeoutMs: number;
};

const COUNTRY = { 'X-Country': 'UG', 'X-Currency': 'UGX' };

/**
 * Airtel's `status.response_code` (DP008000010xx) in the shop's words; null: still in progress.
 * The list is Airtel's collection response codes (000 ambiguous … 029 expired).
 */
const RESPONSE_CODES: Record<string, FailureReason | null> = {
  DP00800001000: null, // ambiguous: read again
  DP00800001002: 'declined', // incorrect PIN
  DP00800001003: 'not-enough-funds', // over the wallet's transaction limit
  DP00800001004: 'setup', // amount below the minimum or above the maximum allowed
  DP00800001005: 'expired', // the payer did not enter the PIN
  DP00800001006: null, // in process
  DP00800001007: 'not-enough-funds', // not enough balance
  DP00800001008: 'declined', // refused
  DP00800001009: 'declined', // do not honour
  DP00800001010: 'not-registered', // payer barred or not registered for Airtel Money
  DP00800001024: 'expired', // timed out
  DP00800001025: 'unavailable', // transaction not found
  DP00800001026: 'setup', // forbidden: x-signature and payload did not match (SIGNATURE_REFUSED)
  DP00800001027: 'setup', // (encryption keys)
  DP00800001028: 'setup', // error fetching the encryption key
  DP00800001029: 'expired', // transaction expired
};

/** Airtel's answer when it cannot read a signed payment back (x-key or x-signature wrong). */
export const SIGNATURE_REFUSED = 'DP00800001026';

/**
 * Why an Airtel payment failed, from its response code, else from its message text (older
 * answers carry only text). Unknown: a decline (the phone's answer is the likeliest).
 */
export function airtelFailedReason(responseCode: unknown, message?: unknown): FailureReason {
  const known = typeof responseCode === 'string' ? RESPONSE_CODES[responseCode] : undefined;
  if (known) return known;
  const text = String(message ?? '').toLowerCase();
  if (/insufficient|not enough|balance/.test(text)) return 'not-enough-funds';
  if (/not registered|invalid (msisdn|subscriber)|not found|barred/.test(text)) {
    return 'not-registered';
  }
  if (/expire|timed? ?out|pin/.test(text)) return 'expired';
  return 'declined';
}

/** Whether a response code says the payment is still being decided (ambiguous, in process). */
export function airtelStillPending(responseCode: unknown): boolean {
  return typeof responseCode === 'string' && RESPONSE_CODES[responseCode] === null;
}

/**
 * Why Airtel refused a payment request. A refused request is the shop's set-up (keys, signature,
 * country) unless the response code names the payer.
 */
export function airtelRequestRefusal(
  status: number,
  responseCode: unknown,
): FailureReason | 'unavailable' {
  const known = typeof responseCode === 'string' ? RESPONSE_CODES[responseCode] : undefined;
  if (known) return known;
  return status >= 500 ? 'unavailable' : 'setup';
}

// --- Message signing (WebCrypto only: the adapter runs in workerd) -------------------------------

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const fromBase64Url = (text: string) =>
  fromBase64(
    text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '='),
  );

function bigIntOf(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

function bytesOf(value: bigint, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    bytes[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return bytes;
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

/** Airtel's key, read once: its modulus and exponent (PKCS#1 v1.5) and a WebCrypto key (OAEP). */
export type RsaPublicKey = { n: bigint; e: bigint; length: number; oaep: CryptoKey };

/**
 * The portal's key, PEM or bare base64 of an SPKI. WebCrypto reads it as an RSA-OAEP key with
 * SHA-1 (the OAEP of the clients that use OAEP: Node's and PHP's defaults; decision 0062) and
 * gives its modulus and exponent back as a JWK for PKCS#1 v1.5, which WebCrypto lacks.
 */
export async function readAirtelPublicKey(text: string): Promise<RsaPublicKey> {
  // Headers, line breaks and literal "\n" (a PEM pasted into one line of .dev.vars) go.
  const der = fromBase64(
    text
      .replace(/-----[A-Z ]+-----/g, '')
      .replace(/\\n/g, '')
      .replace(/\s+/g, ''),
  );
  const oaep = await crypto.subtle.importKey(
    'spki',
    der,
    { name: 'RSA-OAEP', hash: 'SHA-1' },
    true,
    ['encrypt'],
  );
  const jwk = await crypto.subtle.exportKey('jwk', oaep);
  const modulus = fromBase64Url(jwk.n ?? '');
  return {
    n: bigIntOf(modulus),
    e: bigIntOf(fromBase64Url(jwk.e ?? '')),
    length: modulus.length,
    oaep,
  };
}

/**
 * RSAES-PKCS1-v1_5 encryption (RFC 8017 §7.2.1), `x-key`'s padding in most public clients.
 * WebCrypto has no PKCS#1 v1.5 encryption, so the padding and the modular power are done here:
 * EM = 0x00 0x02 PS 0x00 M, PS at least 8 random non-zero bytes; c = EM^e mod n.
 */
function rsaPkcs1Encrypt(key: RsaPublicKey, message: Uint8Array): Uint8Array {
  const padding = key.length - message.length - 3;
  if (padding < 8) throw new Error('Airtel public key too short for the AES key and IV');
  const em = new Uint8Array(key.length);
  em[1] = 0x02;
  const random = crypto.getRandomValues(new Uint8Array(padding));
  for (let i = 0; i < padding; i++) {
    let byte = random[i] ?? 0;
    while (byte === 0) byte = crypto.getRandomValues(new Uint8Array(1))[0] ?? 0;
    em[2 + i] = byte;
  }
  em.set(message, 3 + padding);
  return bytesOf(modPow(bigIntOf(em), key.e, key.n), key.length);
}

/**
 * `x-signature` and `x-key` for one request body: a fresh AES key and IV each time (a test may
 * pass Airtel's documented example key and IV to compare with the documented signature).
 */
export async function signAirtelBody(
  body: string,
  key: RsaPublicKey,
  padding: AirtelRsaPadding = DEFAULT_AIRTEL_RSA_PADDING,
  aes = {
    key: crypto.getRandomValues(new Uint8Array(32)),
    iv: crypto.getRandomValues(new Uint8Array(16)),
  },
): Promise<{ 'x-signature': string; 'x-key': string }> {
  const { key: aesKey, iv } = aes;
  const cryptoKey = await crypto.subtle.importKey('raw', aesKey, 'AES-CBC', false, ['encrypt']);
  const encrypted = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, cryptoKey, new TextEncoder().encode(body)),
  );
  const keyAndIv = new TextEncoder().encode(`${base64(aesKey)}:${base64(iv)}`);
  return {
    'x-signature': base64(encrypted),
    'x-key': await airtelEncrypt(key, keyAndIv, padding),
  };
}

/** Bytes encrypted with Airtel's key, base64: `x-key`, and a disbursement's PIN. */
export async function airtelEncrypt(
  key: RsaPublicKey,
  message: Uint8Array<ArrayBuffer>,
  padding: AirtelRsaPadding,
): Promise<string> {
  return base64(
    padding === 'oaep'
      ? new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key.oaep, message))
      : rsaPkcs1Encrypt(key, message),
  );
}

/**
 * Airtel answered "x-signature and payload did not match" (DP00800001026) to a signed payment:
 * the shop's set-up, and most likely `x-key`'s padding (or the key). The desk's Money view says
 * which setting to change (server/services/payments/airtel-signature.ts).
 */
export class AirtelSignatureRefused extends ProviderError {
  override name = 'AirtelSignatureRefused';
  /** The padding Airtel refused. */
  readonly padding: AirtelRsaPadding;
  /** Where the key came from: AIRTEL_PUBLIC_KEY, or Airtel's encryption-keys answer. */
  readonly keyFrom: 'setting' | 'airtel';
  constructor(message: string, padding: AirtelRsaPadding, keyFrom: 'setting' | 'airtel') {
    super(message, { refused: 'setup' });
    this.padding = padding;
    this.keyFrom = keyFrom;
  }
}

/** The encryption-keys answer: `{data:{key_id,key,valid_upto}}` (or the fields at the top). */
type EncryptionKeys = { key?: unknown; valid_upto?: unknown; data?: EncryptionKeys };

/** Airtel's `valid_upto` ("12-08-2024 21:29:26", day first) as a time; null when unreadable. */
export function airtelKeyValidUntil(text: unknown): number | null {
  const match = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(String(text ?? '').trim());
  if (!match) return null;
  const [, day, month, year, hour, minute, second] = match.map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second);
}

/** How long a fetched key is kept at most (Airtel's valid_upto may say sooner). */
const KEY_KEPT_MS = 24 * 60 * 60 * 1000;
/** How long "Airtel offers no key" is believed before asking again. */
const NO_KEY_KEPT_MS = 60 * 60 * 1000;

/**
 * The `hash` of a callback with authentication: base64 HMAC-SHA256, keyed with the portal's
 * callback key, of the callback's `transaction` object as JSON.
 */
export async function airtelCallbackHash(transaction: unknown, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign(
    'HMAC',
    key,
    new TextEncoder().encode(JSON.stringify(transaction)),
  );
  return base64(new Uint8Array(mac));
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

// --- The adapter ------------------------------------------------------------------------------

type AirtelStatus = { response_code?: unknown; success?: boolean; message?: string };

/**
 * What Airtel's products share: the token, the country and currency headers, and the key that
 * signs a body (the configured one, else Airtel's own, kept until its valid_upto).
 */
export function airtelClient(config: AirtelConfig) {
  const base = config.baseUrl.replace(/\/+$/, '');
  const padding = config.rsaPadding ?? DEFAULT_AIRTEL_RSA_PADDING;
  /** The configured key, read once. */
  let configuredKey: Promise<RsaPublicKey> | null = null;
  /** Airtel's key as fetched (null: Airtel offers none), and until when it is believed. */
  let fetchedKey: { key: RsaPublicKey | null; until: number } | null = null;
  const tokens = new TokenCache(async () => {
    const response = await providerFetch(
      `${base}/auth/oauth2/token`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: '*/*' },
        body: JSON.stringify({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          grant_type: 'client_credentials',
        }),
      },
      config.timeoutMs,
      'Airtel Money token',
    );
    // Wrong client id or secret (400, 401): the desk must fix the set-up. expires_in arrives
    // as a string ("180"); oauthToken reads a number too.
    return oauthToken(response, 'Airtel Money token', {
      refusedStatuses: [400, 401],
      lifetimeS: 180,
    });
  });

  function call(path: string, init: RequestInit, what: string): Promise<Response> {
    return tokens.call((bearer) =>
      providerFetch(
        `${base}${path}`,
        {
          ...init,
          headers: {
            ...COUNTRY,
            Accept: '*/*',
            Authorization: bearer,
            ...init.headers,
          },
        },
        config.timeoutMs,
        what,
      ),
    );
  }

  /**
   * Airtel's key from `GET /v1/rsa/encryption-keys`, kept until its `valid_upto` (at most a day).
   * A 4xx: Airtel offers this app no key (the payment goes unsigned to v1), believed for an hour;
   * a 5xx or no answer: Airtel is unavailable for this payment.
   */
  async function airtelsKey(): Promise<RsaPublicKey | null> {
    if (fetchedKey && Date.now() < fetchedKey.until) return fetchedKey.key;
    const response = await call('/v1/rsa/encryption-keys', { method: 'GET' }, 'Airtel Money key');
    if (response.status >= 400 && response.status < 500) {
      console.error(
        `Airtel Money key: HTTP ${response.status}, no encryption key for this app: payments go unsigned to v1`,
      );
      fetchedKey = { key: null, until: Date.now() + NO_KEY_KEPT_MS };
      return null;
    }
    if (!response.ok) {
      throw new ProviderError(`Airtel Money key: HTTP ${response.status}`, { unavailable: true });
    }
    const answer = (await response.json().catch(() => ({}))) as EncryptionKeys;
    const fields = answer.data ?? answer;
    if (typeof fields.key !== 'string' || !fields.key) {
      throw new ProviderError('Airtel Money key: no key in the answer', { unavailable: true });
    }
    let key: RsaPublicKey;
    try {
      key = await readAirtelPublicKey(fields.key);
    } catch (error) {
      throw new ProviderError(`Airtel Money key: unreadable (${error})`, { refused: 'setup' });
    }
    const validUntil = airtelKeyValidUntil(fields.valid_upto);
    fetchedKey = {
      key,
      until: Math.min(Date.now() + KEY_KEPT_MS, validUntil ?? Number.POSITIVE_INFINITY),
    };
    return key;
  }

  /** The key that signs a payment: the configured one, else Airtel's; null: unsigned (v1). */
  async function signingKey(): Promise<RsaPublicKey | null> {
    if (!config.publicKey) return airtelsKey();
    configuredKey ??= readAirtelPublicKey(config.publicKey);
    try {
      return await configuredKey;
    } catch (error) {
      configuredKey = null;
      throw new ProviderError(`Airtel Money signing: AIRTEL_PUBLIC_KEY unusable (${error})`, {
        refused: 'setup',
      });
    }
  }

  return {
    padding,
    call,
    signingKey,
    /** Airtel refused the signature: a fetched key may have been replaced, ask again next time. */
    forgetKey() {
      if (!config.publicKey) fetchedKey = null;
    },
  };
}

export function airtelMoney(config: AirtelConfig): MobileMoneyProvider {
  const { padding, call, signingKey, forgetKey } = airtelClient(config);
  return {
    network: 'airtel',

    async requestPayment(request: PaymentRequest) {
      const body = JSON.stringify({
        reference: `duuka order ${request.orderId.slice(0, 8)}`,
        subscriber: {
          country: 'UG',
          currency: 'UGX',
          msisdn: request.phone.replace(/^\+256/, ''),
        },
        transaction: {
          amount: request.amount,
          country: 'UG',
          currency: 'UGX',
          id: request.reference,
        },
      });
      const key = await signingKey();
      const signature = key ? await signAirtelBody(body, key, padding) : {};
      const response = await call(
        key ? '/merchant/v2/payments/' : '/merchant/v1/payments/',
        { method: 'POST', headers: { 'Content-Type': 'application/json', ...signature }, body },
        'Airtel Money payment',
      );
      const text = await response.text().catch(() => '');
      let answer: { status?: AirtelStatus } = {};
      try {
        answer = JSON.parse(text);
      } catch {
        // Not JSON: judged by the HTTP status alone.
      }
      if (response.ok && answer.status?.success !== false) return;
      const what = `Airtel Money payment: HTTP ${response.status} ${text.slice(0, 300)}`;
      if (key && answer.status?.response_code === SIGNATURE_REFUSED) {
        // A fetched key may have been replaced since: the next payment asks Airtel again.
        forgetKey();
        throw new AirtelSignatureRefused(what, padding, config.publicKey ? 'setting' : 'airtel');
      }
      const refused = airtelRequestRefusal(response.status, answer.status?.response_code);
      throw new ProviderError(
        what,
        refused === 'unavailable' ? { unavailable: true } : { refused },
      );
    },

    async paymentStatus(reference: string): Promise<ProviderStatus> {
      const response = await call(
        `/standard/v1/payments/${encodeURIComponent(reference)}`,
        { method: 'GET' },
        'Airtel Money payment status',
      );
      if (response.status === 404) return { state: 'unknown' };
      if (!response.ok) {
        throw new ProviderError(`Airtel Money payment status: HTTP ${response.status}`, {
          unavailable: true,
        });
      }
      const body = (await response.json()) as {
        data?: { transaction?: { status?: string; airtel_money_id?: string; message?: string } };
        status?: AirtelStatus;
      };
      const transaction = body.data?.transaction;
      const code = body.status?.response_code;
      switch (transaction?.status) {
        case 'TS':
          return { state: 'successful', transactionId: String(transaction.airtel_money_id ?? '') };
        case 'TF':
          return { state: 'failed', reason: airtelFailedReason(code, transaction.message) };
        case 'TE':
          return { state: 'failed', reason: 'expired' };
        case undefined:
          return { state: 'unknown' };
        default:
          // TIP (in progress) and TA (ambiguous): nothing is decided yet, read again.
          return { state: 'pending' };
      }
    },

    async parseCallback(body: unknown) {
      const callback = body as { transaction?: { id?: unknown }; hash?: unknown } | null;
      const id = callback?.transaction?.id;
      if (typeof id !== 'string' || id.length > 100) return null;
      if (config.callbackSecret) {
        // Callback authentication is on: an unsigned or wrongly signed body names nothing.
        const hash = typeof callback?.hash === 'string' ? callback.hash : '';
        const expected = await airtelCallbackHash(callback?.transaction, config.callbackSecret);
        if (!sameText(expected, hash)) return null;
      }
      return { reference: id };
    },
  };
}
