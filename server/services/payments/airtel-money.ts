// Airtel Money Collection API (developers.airtel.africa): a client-credentials token, then a USSD
// push payment and its status. Uganda: X-Country UG, X-Currency UGX, the number without +256.
import type { FailureReason } from '#core/mobile-money.ts';
import {
  type MobileMoneyProvider,
  type PaymentRequest,
  ProviderError,
  type ProviderStatus,
  providerFetch,
  TokenCache,
} from './provider.ts';

export type AirtelConfig = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
};

const COUNTRY = { 'X-Country': 'UG', 'X-Currency': 'UGX' };

/** A failed transaction's message in the shop's words (Airtel gives text, not a reason code). */
function reasonOf(message: unknown): FailureReason {
  const text = String(message ?? '').toLowerCase();
  if (/insufficient|not enough|balance/.test(text)) return 'not-enough-funds';
  if (/not registered|invalid (msisdn|subscriber)|not found/.test(text)) return 'not-registered';
  if (/expire|timed? ?out/.test(text)) return 'expired';
  return 'declined';
}

export function airtelMoney(config: AirtelConfig): MobileMoneyProvider {
  const base = config.baseUrl.replace(/\/+$/, '');
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
    if (!response.ok) {
      throw new ProviderError(`Airtel Money token: HTTP ${response.status}`, { unavailable: true });
    }
    const body = (await response.json()) as { access_token?: string; expires_in?: number | string };
    if (!body.access_token) {
      throw new ProviderError('Airtel Money token: no access_token', { unavailable: true });
    }
    return { token: body.access_token, expiresIn: Number(body.expires_in) || 180 };
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

  return {
    network: 'airtel',

    async requestPayment(request: PaymentRequest) {
      const response = await call(
        '/merchant/v1/payments/',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
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
          }),
        },
        'Airtel Money payment',
      );
      const text = await response.text().catch(() => '');
      if (response.status >= 500) {
        throw new ProviderError(`Airtel Money payment: HTTP ${response.status} ${text}`, {
          unavailable: true,
        });
      }
      let body: { status?: { success?: boolean; message?: string } } = {};
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: judged by the HTTP status alone.
      }
      if (response.ok && body.status?.success !== false) return;
      throw new ProviderError(`Airtel Money payment: HTTP ${response.status} ${text}`, {
        refused: reasonOf(body.status?.message),
      });
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
      };
      const transaction = body.data?.transaction;
      switch (transaction?.status) {
        case 'TS':
          return { state: 'successful', transactionId: String(transaction.airtel_money_id ?? '') };
        case 'TF':
          return { state: 'failed', reason: reasonOf(transaction.message) };
        case 'TE':
          return { state: 'failed', reason: 'expired' };
        case undefined:
          return { state: 'unknown' };
        default:
          return { state: 'pending' };
      }
    },

    parseCallback(body: unknown) {
      const id = (body as { transaction?: { id?: unknown } } | null)?.transaction?.id;
      return typeof id === 'string' && id.length <= 100 ? { reference: id } : null;
    },
  };
}
