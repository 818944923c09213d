// MTN MoMo Disbursement (momodeveloper.mtn.com): a refund is a transfer to the payer's number,
// under its own product subscription, API user and key (MOMO_DISBURSEMENT_*), the collection's
// base URL and target environment. `X-Reference-Id` is the refund's provider_reference, kept
// before the call: sent again after a time-out, MTN answers 409 for a transfer it already has,
// so one refund is never paid twice.
import type { RefundFailure } from '#core/returns.ts';
import { codeOf, type MtnConfig, mtnCaller, parsed } from './mtn-momo.ts';
import {
  ProviderError,
  type RefundOrder,
  RefundRefused,
  type RefundSender,
  type RefundStatus,
} from './provider.ts';

/** A FAILED transfer's reason in the shop's words (the payee's, or the shop's account). */
const FAILED_REASONS: Record<string, RefundFailure> = {
  PAYEE_NOT_FOUND: 'payee-not-found',
  NOT_ENOUGH_FUNDS: 'not-enough-balance',
  PAYER_LIMIT_REACHED: 'not-enough-balance',
  INTERNAL_PROCESSING_ERROR: 'not-enough-balance',
  NOT_ALLOWED: 'setup',
  INVALID_CURRENCY: 'setup',
};

/** Request errors that name the shop's set-up, whatever HTTP status they come with. */
const SETUP_CODES = new Set([
  'INVALID_CURRENCY',
  'NOT_ALLOWED',
  'NOT_ALLOWED_TARGET_ENVIRONMENT',
  'INVALID_TARGET_ENVIRONMENT',
]);

export function mtnDisbursement(config: MtnConfig): RefundSender {
  const call = mtnCaller(config, 'disbursement');
  return {
    async sendRefund(refund: RefundOrder) {
      if (!refund.phone) throw new RefundRefused('MTN transfer: no number', 'payee-not-found');
      const sandbox = config.targetEnvironment === 'sandbox';
      const response = await call(
        '/disbursement/v1_0/transfer',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Reference-Id': refund.reference },
          body: JSON.stringify({
            amount: String(refund.amount),
            currency: sandbox ? 'EUR' : 'UGX',
            externalId: refund.orderId,
            payee: { partyIdType: 'MSISDN', partyId: refund.phone.replace(/^\+/, '') },
            payerMessage: `duuka refund ${refund.orderId.slice(0, 8)}`,
            payeeNote: `Refund for order ${refund.orderId}`,
          }),
        },
        'MTN MoMo transfer',
      );
      // 409 RESOURCE_ALREADY_EXIST: this very refund reached MTN before; its status tells.
      if (response.status === 202 || response.status === 409) return;
      const text = await response.text().catch(() => '');
      const code = codeOf(parsed(text));
      const what = `MTN MoMo transfer: HTTP ${response.status} ${text.slice(0, 300)}`;
      if (code === 'PAYEE_NOT_FOUND') throw new RefundRefused(what, 'payee-not-found');
      if (response.status >= 500 && !SETUP_CODES.has(code)) {
        throw new ProviderError(what, { unavailable: true });
      }
      throw new RefundRefused(what, 'setup');
    },

    async refundStatus(refund: RefundOrder): Promise<RefundStatus> {
      const response = await call(
        `/disbursement/v1_0/transfer/${encodeURIComponent(refund.reference)}`,
        { method: 'GET' },
        'MTN MoMo transfer status',
      );
      if (response.status === 404) return { state: 'unknown' };
      if (!response.ok) {
        throw new ProviderError(`MTN MoMo transfer status: HTTP ${response.status}`, {
          unavailable: true,
        });
      }
      const body = (await response.json()) as {
        status?: string;
        financialTransactionId?: string;
        reason?: unknown;
      };
      if (body.status === 'SUCCESSFUL') {
        return { state: 'successful', reference: String(body.financialTransactionId ?? '') };
      }
      if (body.status === 'FAILED' || body.status === 'REJECTED') {
        return { state: 'failed', reason: FAILED_REASONS[codeOf(body.reason)] ?? 'declined' };
      }
      return { state: 'pending' };
    },
  };
}
