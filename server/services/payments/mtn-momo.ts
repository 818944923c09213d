// MTN MoMo Collection API (momodeveloper.mtn.com): a token from the API user and key, then
// request-to-pay and its status. The sandbox only takes EUR; production ('mtnuganda') takes UGX.
import type { FailureReason } from '#core/mobile-money.ts';
import {
  type MobileMoneyProvider,
  type PaymentRequest,
  ProviderError,
  type ProviderStatus,
  providerFetch,
  TokenCache,
} from './provider.ts';

export type MtnConfig = {
  baseUrl: string;
  apiUser: string;
  apiKey: string;
  subscriptionKey: string;
  targetEnvironment: 'sandbox' | 'mtnuganda';
  timeoutMs: number;
};

/** MTN's FAILED reasons in the shop's words; anything else is a decline. */
const REASONS: Record<string, FailureReason> = {
  APPROVAL_REJECTED: 'declined',
  EXPIRED: 'expired',
  PAYER_NOT_FOUND: 'not-registered',
  NOT_ENOUGH_FUNDS: 'not-enough-funds',
  PAYER_LIMIT_REACHED: 'not-enough-funds',
  INTERNAL_PROCESSING_ERROR: 'unavailable',
  SERVICE_UNAVAILABLE: 'unavailable',
  COULD_NOT_PERFORM_TRANSACTION: 'unavailable',
};

function reasonOf(reason: unknown): FailureReason {
  const code =
    typeof reason === 'string'
      ? reason
      : typeof reason === 'object' && reason !== null
        ? String((reason as { code?: unknown }).code ?? '')
        : '';
  return REASONS[code] ?? 'declined';
}

export function mtnMomo(config: MtnConfig): MobileMoneyProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
  const subscription = { 'Ocp-Apim-Subscription-Key': config.subscriptionKey };
  const tokens = new TokenCache(async () => {
    const response = await providerFetch(
      `${base}/collection/token/`,
      {
        method: 'POST',
        headers: {
          ...subscription,
          Authorization: `Basic ${btoa(`${config.apiUser}:${config.apiKey}`)}`,
        },
      },
      config.timeoutMs,
      'MTN MoMo token',
    );
    if (!response.ok) {
      throw new ProviderError(`MTN MoMo token: HTTP ${response.status}`, { unavailable: true });
    }
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) {
      throw new ProviderError('MTN MoMo token: no access_token', { unavailable: true });
    }
    return { token: body.access_token, expiresIn: Number(body.expires_in) || 3600 };
  });

  function call(path: string, init: RequestInit, what: string): Promise<Response> {
    return tokens.call((bearer) =>
      providerFetch(
        `${base}${path}`,
        {
          ...init,
          headers: {
            ...subscription,
            Authorization: bearer,
            'X-Target-Environment': config.targetEnvironment,
            ...init.headers,
          },
        },
        config.timeoutMs,
        what,
      ),
    );
  }

  return {
    network: 'mtn',

    async requestPayment(request: PaymentRequest) {
      const sandbox = config.targetEnvironment === 'sandbox';
      const response = await call(
        '/collection/v1_0/requesttopay',
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Reference-Id': request.reference,
            'X-Callback-Url': request.callbackUrl,
          },
          body: JSON.stringify({
            amount: String(request.amount),
            currency: sandbox ? 'EUR' : 'UGX',
            externalId: request.orderId,
            payer: { partyIdType: 'MSISDN', partyId: request.phone.replace(/^\+/, '') },
            payerMessage: `duuka order ${request.orderId.slice(0, 8)}`,
            payeeNote: `Order ${request.orderId}`,
          }),
        },
        'MTN MoMo request to pay',
      );
      // 409: this reference was already received (a retry of the same request): it stands.
      if (response.status === 202 || response.status === 409) return;
      const text = await response.text().catch(() => '');
      if (response.status >= 500) {
        throw new ProviderError(`MTN MoMo request to pay: HTTP ${response.status} ${text}`, {
          unavailable: true,
        });
      }
      const refused = /PAYER_NOT_FOUND|PARTY/i.test(text) ? 'not-registered' : 'declined';
      throw new ProviderError(`MTN MoMo request to pay: HTTP ${response.status} ${text}`, {
        refused,
      });
    },

    async paymentStatus(reference: string): Promise<ProviderStatus> {
      const response = await call(
        `/collection/v1_0/requesttopay/${encodeURIComponent(reference)}`,
        { method: 'GET' },
        'MTN MoMo payment status',
      );
      if (response.status === 404) return { state: 'unknown' };
      if (!response.ok) {
        throw new ProviderError(`MTN MoMo payment status: HTTP ${response.status}`, {
          unavailable: true,
        });
      }
      const body = (await response.json()) as {
        status?: string;
        financialTransactionId?: string;
        reason?: unknown;
      };
      if (body.status === 'SUCCESSFUL') {
        return { state: 'successful', transactionId: String(body.financialTransactionId ?? '') };
      }
      if (body.status === 'FAILED' || body.status === 'REJECTED' || body.status === 'TIMEOUT') {
        return {
          state: 'failed',
          reason: body.status === 'TIMEOUT' ? 'expired' : reasonOf(body.reason),
        };
      }
      return { state: 'pending' };
    },

    parseCallback() {
      // MTN's callback body does not name our reference: it is in the callback URL's path.
      return { reference: null };
    },
  };
}
