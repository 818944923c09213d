// Airtel Money disbursement (developers.airtel.africa, "Disbursement-APIs"): a refund is a B2C
// payment to the payer's number, `POST /standard/v2/disbursements/`, its body signed like the
// collection's (x-signature, x-key) and carrying the shop's disbursement PIN encrypted with the
// same RSA key (AIRTEL_DISBURSEMENT_PIN), then `GET /standard/v2/disbursements/{id}`. The
// transaction id is the refund's provider_reference: sent again, Airtel refuses a duplicate id
// (DP00900001011), so one refund is never paid twice. docs/payments.md has the codes.
import type { RefundFailure } from '#core/returns.ts';
import {
  type AirtelConfig,
  AirtelSignatureRefused,
  airtelClient,
  airtelEncrypt,
  SIGNATURE_REFUSED,
  signAirtelBody,
} from './airtel-money.ts';
import {
  ProviderError,
  type RefundOrder,
  RefundRefused,
  type RefundSender,
  type RefundStatus,
} from './provider.ts';

/**
 * Airtel's disbursement response codes (DP009000010xx) in the shop's words; null: not decided
 * yet. 009 ("initiatee of the transaction is invalid") is the answer to a wrong PIN: the PIN is
 * what names the shop as the one paying.
 */
const RESPONSE_CODES: Record<string, RefundFailure | null> = {
  DP00900001000: null, // ambiguous: read again
  DP00900001006: null, // in process
  DP00900001003: 'not-enough-balance', // over the account's limit
  DP00900001004: 'setup', // amount outside the allowed range
  DP00900001005: 'declined', // failed
  DP00900001007: 'not-enough-balance', // not enough money in the shop's account
  DP00900001009: 'wrong-pin', // invalid initiatee
  DP00900001010: 'setup', // payer not allowed
  DP00900001012: 'payee-not-found', // incorrect number
  DP00900001013: 'declined', // refused
  DP00900001014: 'declined', // timed out
  [SIGNATURE_REFUSED]: 'setup',
};
const SUCCESS = 'DP00900001001';
/** The same transaction id again: this refund reached Airtel before; its status tells. */
const DUPLICATE = 'DP00900001011';

type AirtelAnswer = {
  data?: { transaction?: { status?: string; airtel_money_id?: string; reference_id?: string } };
  status?: { response_code?: unknown; success?: boolean; message?: string };
};

export function airtelDisbursement(config: AirtelConfig & { pin: string }): RefundSender {
  const { padding, call, signingKey, forgetKey } = airtelClient(config);
  return {
    async sendRefund(refund: RefundOrder) {
      if (!refund.phone)
        throw new RefundRefused('Airtel disbursement: no number', 'payee-not-found');
      const key = await signingKey();
      // The PIN travels only encrypted, and v2 is the only disbursement Airtel still documents.
      if (!key) throw new RefundRefused('Airtel disbursement: no encryption key', 'setup');
      const body = JSON.stringify({
        payee: { msisdn: refund.phone.replace(/^\+256/, ''), wallet_type: 'NORMAL' },
        reference: `duuka refund ${refund.orderId.slice(0, 8)}`,
        pin: await airtelEncrypt(key, new TextEncoder().encode(config.pin), padding),
        transaction: { amount: refund.amount, id: refund.reference, type: 'B2C' },
      });
      const signature = await signAirtelBody(body, key, padding);
      const response = await call(
        '/standard/v2/disbursements/',
        { method: 'POST', headers: { 'Content-Type': 'application/json', ...signature }, body },
        'Airtel Money disbursement',
      );
      const text = await response.text().catch(() => '');
      let answer: AirtelAnswer = {};
      try {
        answer = JSON.parse(text);
      } catch {
        // Not JSON: judged by the HTTP status alone.
      }
      const code = String(answer.status?.response_code ?? '');
      if (code === DUPLICATE) return;
      if (response.ok && answer.status?.success !== false) return;
      const what = `Airtel Money disbursement: HTTP ${response.status} ${text.slice(0, 300)}`;
      if (code === SIGNATURE_REFUSED) {
        forgetKey();
        throw new AirtelSignatureRefused(what, padding, config.publicKey ? 'setting' : 'airtel');
      }
      const known = RESPONSE_CODES[code];
      if (known) throw new RefundRefused(what, known);
      if (response.status >= 500 || known === null) {
        throw new ProviderError(what, { uncertain: true });
      }
      throw new RefundRefused(what, 'setup');
    },

    async refundStatus(refund: RefundOrder): Promise<RefundStatus> {
      const response = await call(
        `/standard/v2/disbursements/${encodeURIComponent(refund.reference)}?transactionType=B2C`,
        { method: 'GET' },
        'Airtel Money disbursement status',
      );
      if (response.status === 404) return { state: 'unknown' };
      if (!response.ok) {
        throw new ProviderError(`Airtel Money disbursement status: HTTP ${response.status}`, {
          unavailable: true,
        });
      }
      const answer = (await response.json()) as AirtelAnswer;
      const transaction = answer.data?.transaction;
      const code = String(answer.status?.response_code ?? '');
      if (transaction?.status === 'TS' || code === SUCCESS) {
        return {
          state: 'successful',
          reference: String(transaction?.airtel_money_id ?? transaction?.reference_id ?? ''),
        };
      }
      if (transaction?.status === 'TF') {
        return { state: 'failed', reason: RESPONSE_CODES[code] ?? 'declined' };
      }
      if (!transaction?.status) return { state: 'unknown' };
      // TIP (in progress) and TA (ambiguous): read again.
      return { state: 'pending' };
    },
  };
}
