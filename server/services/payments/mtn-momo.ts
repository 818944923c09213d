// MTN MoMo Collection API (momodeveloper.mtn.com): a token from the API user and key, then
// request-to-pay and its status. The sandbox only takes EUR; production ('mtnuganda') takes UGX.
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

export type MtnConfig = {
  baseUrl: string;
  apiUser: string;
  apiKey: string;
  subscriptionKey: string;
  targetEnvironment: 'sandbox' | 'mtnuganda';
  timeoutMs: number;
};

/**
 * MTN's FAILED reasons in the shop's words. MTN's names mislead: INTERNAL_PROCESSING_ERROR is
 * mostly a wallet without enough money, COULD_NOT_PERFORM_TRANSACTION a payer who never entered
 * the PIN (checked against MTN's forum answers and third-party clients, docs/payments.md).
 */
const FAILED_REASONS: Record<string, FailureReason> = {
  APPROVAL_REJECTED: 'declined',
  EXPIRED: 'expired',
  COULD_NOT_PERFORM_TRANSACTION: 'expired',
  PAYER_NOT_FOUND: 'not-registered',
  NOT_ENOUGH_FUNDS: 'not-enough-funds',
  PAYER_LIMIT_REACHED: 'not-enough-funds',
  INTERNAL_PROCESSING_ERROR: 'not-enough-funds',
  SERVICE_UNAVAILABLE: 'unavailable',
  TRANSACTION_CANCELED: 'declined',
};

/** A FAILED status's reason (a code, or {code, message}) in the shop's words. */
export function mtnFailedReason(reason: unknown): FailureReason {
  return FAILED_REASONS[codeOf(reason)] ?? 'declined';
}

/**
 * Why MTN refused a request to pay (the HTTP answer itself, before any phone was asked). A
 * refused request is never the payer's refusal: it is the shop's set-up (wrong currency for the
 * target environment, a callback host MTN was not told about, keys, a reused reference), except a
 * number MTN does not know.
 */
export function mtnRequestRefusal(status: number, body: unknown): FailureReason {
  const code = codeOf(body);
  if (code === 'PAYER_NOT_FOUND') return 'not-registered';
  if (status >= 500 && !SETUP_CODES.has(code)) return 'unavailable';
  return 'setup';
}

/** MTN's request errors that name the shop's set-up, whatever HTTP status they come with. */
const SETUP_CODES = new Set([
  'INVALID_CURRENCY',
  'NOT_ALLOWED',
  'NOT_ALLOWED_TARGET_ENVIRONMENT',
  'INVALID_TARGET_ENVIRONMENT',
  'INVALID_CALLBACK_URL_HOST',
  'RESOURCE_ALREADY_EXIST',
]);

export function codeOf(reason: unknown): string {
  if (typeof reason === 'string') return reason;
  if (typeof reason === 'object' && reason !== null) {
    const code = (reason as { code?: unknown }).code;
    return typeof code === 'string' ? code : '';
  }
  return '';
}

export function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A call to one of MTN's products (Collection, Disbursement: each its own subscription key, API
 * user and token) with its token, subscription key and target environment.
 */
export function mtnCaller(config: MtnConfig, product: 'collection' | 'disbursement') {
  const base = config.baseUrl.replace(/\/+$/, '');
  const subscription = { 'Ocp-Apim-Subscription-Key': config.subscriptionKey };
  const what = product === 'collection' ? 'MTN MoMo token' : 'MTN MoMo disbursement token';
  const tokens = new TokenCache(async () => {
    const response = await providerFetch(
      `${base}/${product}/token/`,
      {
        method: 'POST',
        headers: {
          ...subscription,
          Authorization: `Basic ${btoa(`${config.apiUser}:${config.apiKey}`)}`,
        },
      },
      config.timeoutMs,
      what,
    );
    // Wrong API user, key or subscription key (401, 403): the desk must fix the set-up.
    return oauthToken(response, what, { refusedStatuses: [401, 403], lifetimeS: 3600 });
  });

  return (path: string, init: RequestInit, what: string): Promise<Response> =>
    tokens.call((bearer) =>
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

export function mtnMomo(config: MtnConfig): MobileMoneyProvider {
  const call = mtnCaller(config, 'collection');

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
      if (response.status === 202) return;
      const text = await response.text().catch(() => '');
      const refused = mtnRequestRefusal(response.status, parsed(text));
      throw new ProviderError(
        `MTN MoMo request to pay: HTTP ${response.status} ${text.slice(0, 300)}`,
        refused === 'unavailable' ? { unavailable: true } : { refused },
      );
    },

    async paymentStatus(reference: string): Promise<ProviderStatus> {
      const response = await call(
        `/collection/v1_0/requesttopay/${encodeURIComponent(reference)}`,
        { method: 'GET' },
        'MTN MoMo payment status',
      );
      if (response.status === 404) return { state: 'unknown' };
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new ProviderError(
          `MTN MoMo payment status: HTTP ${response.status} ${text.slice(0, 300)}`,
          { unavailable: true },
        );
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
          reason: body.status === 'TIMEOUT' ? 'expired' : mtnFailedReason(body.reason),
        };
      }
      return { state: 'pending' };
    },

    async parseCallback() {
      // MTN's callback body does not name our reference: it is in the callback URL's path.
      return { reference: null };
    },
  };
}
