// Airtel Money's own codes in the shop's words, and the v2 message signing checked the way Airtel
// reads it: decrypted with the private key of a pair made here.
import {
  constants,
  createDecipheriv,
  createHmac,
  generateKeyPairSync,
  privateDecrypt,
} from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  airtelCallbackHash,
  airtelFailedReason,
  airtelKeyValidUntil,
  airtelMoney,
  airtelRequestRefusal,
  airtelStillPending,
  readAirtelPublicKey,
  signAirtelBody,
} from './airtel-money.ts';

describe("Airtel's response codes", () => {
  it.each([
    ['DP00800001002', 'declined'], // incorrect PIN
    ['DP00800001003', 'not-enough-funds'], // over the wallet's limit
    ['DP00800001004', 'setup'], // amount outside what the wallet allows
    ['DP00800001005', 'expired'], // the PIN was never entered
    ['DP00800001007', 'not-enough-funds'], // not enough balance
    ['DP00800001008', 'declined'], // refused
    ['DP00800001009', 'declined'], // do not honour
    ['DP00800001010', 'not-registered'], // barred or not on Airtel Money
    ['DP00800001024', 'expired'], // timed out
    ['DP00800001025', 'unavailable'], // not found
    ['DP00800001026', 'setup'], // x-signature and payload did not match
    ['DP00800001029', 'expired'], // expired
  ])('%s: %s', (code, reason) => {
    expect(airtelFailedReason(code, 'whatever the text says')).toBe(reason);
  });

  it('ambiguous (000) and in process (006) are read again, never a failure', () => {
    expect(airtelStillPending('DP00800001000')).toBe(true);
    expect(airtelStillPending('DP00800001006')).toBe(true);
    expect(airtelStillPending('DP00800001007')).toBe(false);
    expect(airtelStillPending(undefined)).toBe(false);
  });

  it('without a known code, the message decides; anything else is a decline', () => {
    expect(airtelFailedReason(undefined, 'Insufficient funds in the wallet')).toBe(
      'not-enough-funds',
    );
    expect(airtelFailedReason('DP0080000109X', 'Subscriber not registered')).toBe('not-registered');
    expect(airtelFailedReason(undefined, 'Transaction expired')).toBe('expired');
    expect(airtelFailedReason(undefined, 'Something else')).toBe('declined');
  });

  it("a refused request is the shop's set-up unless its code names the payer; a 5xx is unavailable", () => {
    expect(airtelRequestRefusal(401, undefined)).toBe('setup');
    expect(airtelRequestRefusal(403, 'DP00800001026')).toBe('setup');
    expect(airtelRequestRefusal(400, 'DP00800001010')).toBe('not-registered');
    expect(airtelRequestRefusal(200, 'DP00800001007')).toBe('not-enough-funds');
    expect(airtelRequestRefusal(503, undefined)).toBe('unavailable');
  });
});

describe('v2 message signing', () => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const body = JSON.stringify({
    reference: 'duuka order 1234abcd',
    subscriber: { country: 'UG', currency: 'UGX', msisdn: '752000001' },
    transaction: { amount: 150000, country: 'UG', currency: 'UGX', id: 'a-payment-id' },
  });

  function asAirtelReadsIt(headers: { 'x-signature': string; 'x-key': string }): string {
    const keyAndIv = privateDecrypt(
      { key: pair.privateKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(headers['x-key'], 'base64'),
    ).toString();
    const [key, iv] = keyAndIv.split(':');
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
    expect(Buffer.from(iv ?? '', 'base64')).toHaveLength(16);
    const decipher = createDecipheriv(
      'aes-256-cbc',
      Buffer.from(key ?? '', 'base64'),
      Buffer.from(iv ?? '', 'base64'),
    );
    return Buffer.concat([
      decipher.update(Buffer.from(headers['x-signature'], 'base64')),
      decipher.final(),
    ]).toString();
  }

  it('x-key is key:iv under the RSA public key (PKCS#1 v1.5 by default), x-signature the body under that key', async () => {
    const key = await readAirtelPublicKey(pem);
    const first = await signAirtelBody(body, key);
    expect(asAirtelReadsIt(first)).toBe(body);
    // A fresh AES key each time.
    const second = await signAirtelBody(body, key);
    expect(second['x-key']).not.toBe(first['x-key']);
    expect(second['x-signature']).not.toBe(first['x-signature']);
    expect(asAirtelReadsIt(second)).toBe(body);
  });

  it('AIRTEL_RSA_PADDING: x-key is OAEP (SHA-1) or PKCS#1 v1.5, each readable only as itself', async () => {
    // Airtel's documented key is 1024 bits: key:iv (69 bytes) fits OAEP with SHA-1, not SHA-256.
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const key = await readAirtelPublicKey(
      small.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    );
    const readAs = (xKey: string, padding: 'oaep' | 'pkcs1') => {
      try {
        return privateDecrypt(
          padding === 'oaep'
            ? { key: small.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }
            : { key: small.privateKey, padding: constants.RSA_PKCS1_PADDING },
          Buffer.from(xKey, 'base64'),
        ).toString();
      } catch {
        return null;
      }
    };
    const keyAndIv = /^[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{22}==$/;
    const oaep = await signAirtelBody(body, key, 'oaep');
    expect(readAs(oaep['x-key'], 'oaep')).toMatch(keyAndIv);
    expect(readAs(oaep['x-key'], 'pkcs1') ?? '').not.toMatch(keyAndIv);
    const pkcs1 = await signAirtelBody(body, key, 'pkcs1');
    expect(readAs(pkcs1['x-key'], 'pkcs1')).toMatch(keyAndIv);
    expect(readAs(pkcs1['x-key'], 'oaep')).toBeNull();
    // Unset, the default: PKCS#1 v1.5 (decision 0062).
    expect(readAs((await signAirtelBody(body, key))['x-key'], 'pkcs1')).toMatch(keyAndIv);
  });

  it("reads Airtel's valid_upto (day first) for how long a fetched key is kept", () => {
    expect(airtelKeyValidUntil('12-08-2024 21:29:26')).toBe(Date.UTC(2024, 7, 12, 21, 29, 26));
    expect(airtelKeyValidUntil('2024-08-12')).toBeNull();
    expect(airtelKeyValidUntil(undefined)).toBeNull();
  });

  it('takes the portal key as PEM, bare base64 or one line with literal \\n', async () => {
    const bare = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const oneLine = pem.replace(/\n/g, '\\n');
    for (const text of [bare, oneLine]) {
      expect(asAirtelReadsIt(await signAirtelBody(body, await readAirtelPublicKey(text)))).toBe(
        body,
      );
    }
    await expect(readAirtelPublicKey('not a key')).rejects.toThrow();
  });

  it("matches Airtel's documented example signature for its example key and IV", async () => {
    // The example in Airtel's message-signing documentation (also checked in global-121's
    // 121-platform): AES-256-CBC of the compact JSON body.
    const example = JSON.stringify({
      reference: '1234',
      subscriber: { country: 'UG', currency: 'UGX', msisdn: '752604392' },
      transaction: { amount: '100', country: 'UG', currency: 'UGX', id: 'test_id ' },
    });
    const signed = await signAirtelBody(example, await readAirtelPublicKey(pem), 'pkcs1', {
      key: Buffer.from('PSw37xtnShLl7zgWn4dLSnf1J5GRhRsOD4OfvJOuLIM=', 'base64'),
      iv: Buffer.from('gGIhDvCBnSBhBgYiXCyMnw==', 'base64'),
    });
    expect(signed['x-signature']).toBe(
      'bDOsVGZzbK0P5jO/M5QVMH/qxSmRJLEvIPZCdW6H81xvsZNI6jZej54oBQlHZ38yy63QNeyyYcfEkGJ8f3f15wHWs86V9BCIpHSesS3SrhozE/gGA1fLydeSS26mw0jhyt9XIpabk1RjDH59SfsrkHKU38I5mRlthG/t2qXJck0FhNR64bgOExm9CsuxUlfpsSoW1g81g1u5a4yMFIHhp77f+h3EXNHzcEsdSWhqTho=',
    );
  });
});

describe('callback authentication', () => {
  const secret = 'airtel-callback-key';
  const transaction = {
    id: '3f1c2d4e-0000-4000-8000-000000000001',
    message: 'Paid UGX 150,000',
    status_code: 'TS',
    airtel_money_id: 'MP210603.1234.A00001',
  };
  const adapter = airtelMoney({
    baseUrl: 'http://airtel.invalid',
    clientId: 'id',
    clientSecret: 'secret',
    callbackSecret: secret,
    timeoutMs: 1000,
  });

  it('the hash is base64 HMAC-SHA256 of the transaction with the callback key', async () => {
    const expected = createHmac('sha256', secret)
      .update(JSON.stringify(transaction))
      .digest('base64');
    expect(await airtelCallbackHash(transaction, secret)).toBe(expected);
  });

  it('a callback names its payment only with the right hash', async () => {
    const hash = await airtelCallbackHash(transaction, secret);
    expect(await adapter.parseCallback({ transaction, hash })).toEqual({
      reference: transaction.id,
    });
    expect(await adapter.parseCallback({ transaction })).toBeNull();
    expect(await adapter.parseCallback({ transaction, hash: hash.replace(/^./, 'x') })).toBeNull();
    const otherPayment = { ...transaction, id: '3f1c2d4e-0000-4000-8000-000000000002' };
    expect(await adapter.parseCallback({ transaction: otherPayment, hash })).toBeNull();
    expect(
      await adapter.parseCallback({
        transaction,
        hash: await airtelCallbackHash(transaction, 'other'),
      }),
    ).toBeNull();
  });

  it('without a callback key, any well-formed body names its payment (the status read decides)', async () => {
    const open = airtelMoney({
      baseUrl: 'http://airtel.invalid',
      clientId: 'i',
      clientSecret: 's',
      timeoutMs: 1000,
    });
    expect(await open.parseCallback({ transaction })).toEqual({ reference: transaction.id });
    expect(await open.parseCallback({ transaction: { id: 42 } })).toBeNull();
    expect(await open.parseCallback(null)).toBeNull();
  });
});
