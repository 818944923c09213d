// Pesapal API 3.0 (developer.pesapal.com, "API 3.0 JSON"): a token from the consumer key and
// secret, the IPN URL registered once, an order submitted for the shopper to pay on Pesapal's
// hosted page, and the transaction status read. Only HTTP here: what a status means for the
// order is server/services/payments/card.ts.
import { ProviderError, providerFetch, TokenCache } from './provider.ts';

export type PesapalConfig = {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  /** PESAPAL_IPN_ID: an IPN already registered (otherwise the shop registers its own once). */
  ipnId: string | null;
  timeoutMs: number;
};

export type PesapalOrder = {
  /** Our merchant reference: the payment's id, unique per attempt (Pesapal allows 50 characters). */
  id: string;
  /** Whole UGX, the order's total as stored. */
  amount: number;
  /** At most 100 characters. */
  description: string;
  callbackUrl: string;
  notificationId: string;
  billing: { email: string; phone: string; firstName: string; lastName: string };
};

/** What Pesapal says about one order, in the shop's terms. */
export type PesapalStatus =
  /** Not paid yet: Pesapal answers INVALID with "Pending Payment" until the shopper pays. */
  | { state: 'pending' }
  | {
      state: 'completed';
      amount: number;
      currency: string;
      confirmationCode: string;
      merchantReference: string;
      paymentMethod: string;
    }
  | { state: 'failed'; reason: 'declined' | 'invalid'; merchantReference: string }
  | { state: 'reversed'; merchantReference: string };

export interface CardPayments {
  readonly provider: 'pesapal';
  /** Each call's deadline. */
  readonly timeoutMs: number;
  /** PESAPAL_IPN_ID when set. */
  readonly configuredIpnId: string | null;
  /** Registers the shop's IPN URL (GET notifications); answers its ipn_id. */
  registerIpn(url: string): Promise<string>;
  /** Creates the order on Pesapal; answers its tracking id and the hosted page's URL. */
  submitOrder(order: PesapalOrder): Promise<{ trackingId: string; redirectUrl: string }>;
  /** The truth about one order. */
  transactionStatus(trackingId: string): Promise<PesapalStatus>;
  /**
   * Asks Pesapal to refund a completed payment (its confirmation code): null when Pesapal took
   * the request (its finance team then does it), else Pesapal's words for the refusal.
   */
  refundRequest(refund: PesapalRefund): Promise<string | null>;
}

export type PesapalRefund = {
  confirmationCode: string;
  /** Whole UGX: all of a mobile-money payment, all or part of a card payment. */
  amount: number;
  /** Who asked (the staff member's email). */
  username: string;
  remarks: string;
};

type PesapalProblem = { type: string; code: string; message: string };

/**
 * Pesapal reports errors as `{error:{error_type|type, code, message}, status:"500"}`, often with
 * HTTP 200: the body decides, never the HTTP status alone. Null when the body is no error.
 */
export function pesapalProblem(body: unknown): PesapalProblem | null {
  if (typeof body !== 'object' || body === null) {
    return { type: 'invalid_response', code: 'not_json_object', message: 'not a JSON object' };
  }
  const { error, status } = body as { error?: unknown; status?: unknown };
  if (typeof error === 'object' && error !== null) {
    const fields = error as Record<string, unknown>;
    const type = String(fields.error_type ?? fields.type ?? '');
    const code = String(fields.code ?? '');
    const message = String(fields.message ?? '');
    if (type || code || message) return { type, code, message };
  }
  if (status !== undefined && status !== null && String(status) !== '200') {
    return { type: 'api_error', code: `status_${String(status)}`, message: '' };
  }
  return null;
}

/** Pesapal's answer for a not-yet-paid order: INVALID, with this code or description. */
function stillPending(body: Record<string, unknown>): boolean {
  const code = String((body.error as { code?: unknown } | null)?.code ?? '');
  return code === 'payment_details_not_found' || /pending payment/i.test(String(body.description));
}

/** Reads a status answer (the HTTP status may be 200 with an error inside). */
export function parseTransactionStatus(body: unknown): PesapalStatus | null {
  if (typeof body !== 'object' || body === null) return null;
  const fields = body as Record<string, unknown>;
  const description = String(fields.payment_status_description ?? '').toUpperCase();
  const raw = fields.status_code;
  const code =
    typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw)) ? Number(raw) : null;
  const merchantReference = String(fields.merchant_reference ?? '');
  if (description === 'COMPLETED' || code === 1) {
    return {
      state: 'completed',
      amount: Number(fields.amount),
      currency: String(fields.currency ?? '').toUpperCase(),
      confirmationCode: String(fields.confirmation_code ?? ''),
      merchantReference,
      paymentMethod: String(fields.payment_method ?? ''),
    };
  }
  if (description === 'FAILED' || code === 2) {
    return { state: 'failed', reason: 'declined', merchantReference };
  }
  if (description === 'REVERSED' || code === 3) return { state: 'reversed', merchantReference };
  if (description === 'INVALID' || code === 0) {
    return stillPending(fields)
      ? { state: 'pending' }
      : { state: 'failed', reason: 'invalid', merchantReference };
  }
  return null;
}

export function pesapal(config: PesapalConfig): CardPayments {
  const base = config.baseUrl.replace(/\/+$/, '');

  async function send(
    path: string,
    init: RequestInit,
    what: string,
    bearer?: string,
  ): Promise<{ response: Response; body: unknown }> {
    const response = await providerFetch(
      `${base}${path}`,
      {
        ...init,
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          ...(bearer ? { Authorization: bearer } : {}),
        },
      },
      config.timeoutMs,
      what,
    );
    let body: unknown = null;
    try {
      body = JSON.parse(await response.text());
    } catch {
      body = null;
    }
    return { response, body };
  }

  const tokens = new TokenCache(async () => {
    const { response, body } = await send(
      '/api/Auth/RequestToken',
      {
        method: 'POST',
        body: JSON.stringify({
          consumer_key: config.consumerKey,
          consumer_secret: config.consumerSecret,
        }),
      },
      'Pesapal token',
    );
    const problem = response.ok ? pesapalProblem(body) : pesapalProblem(body ?? {});
    const { token, expiryDate } = (body ?? {}) as { token?: unknown; expiryDate?: unknown };
    if (!response.ok || problem || typeof token !== 'string' || token === '') {
      throw new ProviderError(
        `Pesapal token: HTTP ${response.status} ${describe(problem) || 'no token'}`,
        { unavailable: true },
      );
    }
    return { token, expiresIn: secondsUntil(expiryDate) };
  });

  /**
   * A call with the kept token; a token Pesapal refuses (401, or its error body naming the
   * token) is fetched afresh once.
   */
  function call(path: string, init: RequestInit, what: string) {
    return tokens.call(
      (bearer) => send(path, init, what, bearer),
      (answer) => answer.response.status === 401 || tokenRefused(pesapalProblem(answer.body)),
    );
  }

  return {
    provider: 'pesapal',
    timeoutMs: config.timeoutMs,
    configuredIpnId: config.ipnId,

    async registerIpn(url) {
      const { response, body } = await call(
        '/api/URLSetup/RegisterIPN',
        { method: 'POST', body: JSON.stringify({ url, ipn_notification_type: 'GET' }) },
        'Pesapal IPN registration',
      );
      const problem = pesapalProblem(body);
      const ipnId = (body as { ipn_id?: unknown } | null)?.ipn_id;
      if (!response.ok || problem || typeof ipnId !== 'string' || ipnId === '') {
        throw new ProviderError(
          `Pesapal IPN registration: HTTP ${response.status} ${describe(problem) || 'no ipn_id'}`,
          { unavailable: true },
        );
      }
      return ipnId;
    },

    async submitOrder(order) {
      const { response, body } = await call(
        '/api/Transactions/SubmitOrderRequest',
        {
          method: 'POST',
          body: JSON.stringify({
            id: order.id,
            currency: 'UGX',
            amount: order.amount,
            description: order.description,
            callback_url: order.callbackUrl,
            notification_id: order.notificationId,
            billing_address: {
              email_address: order.billing.email,
              phone_number: order.billing.phone,
              country_code: 'UG',
              first_name: order.billing.firstName,
              last_name: order.billing.lastName,
            },
          }),
        },
        'Pesapal order',
      );
      const problem = pesapalProblem(body);
      const { order_tracking_id: trackingId, redirect_url: redirectUrl } = (body ?? {}) as {
        order_tracking_id?: unknown;
        redirect_url?: unknown;
      };
      if (
        !response.ok ||
        problem ||
        typeof trackingId !== 'string' ||
        trackingId === '' ||
        typeof redirectUrl !== 'string' ||
        !/^https?:\/\//.test(redirectUrl)
      ) {
        throw new ProviderError(
          `Pesapal order: HTTP ${response.status} ${describe(problem) || 'no tracking id or page'}`,
          { unavailable: true },
        );
      }
      return { trackingId, redirectUrl };
    },

    async transactionStatus(trackingId) {
      const { response, body } = await call(
        `/api/Transactions/GetTransactionStatus?orderTrackingId=${encodeURIComponent(trackingId)}`,
        { method: 'GET' },
        'Pesapal transaction status',
      );
      // The pending answer itself carries an error (payment_details_not_found, status "500"):
      // a payment status in the body is read first.
      const status = response.ok ? parseTransactionStatus(body) : null;
      if (!status) {
        throw new ProviderError(
          `Pesapal transaction status: HTTP ${response.status} ${describe(pesapalProblem(body)) || 'no status'}`,
          { unavailable: true },
        );
      }
      return status;
    },

    async refundRequest(refund) {
      const { response, body } = await call(
        '/api/Transactions/RefundRequest',
        {
          method: 'POST',
          body: JSON.stringify({
            confirmation_code: refund.confirmationCode,
            amount: refund.amount,
            username: refund.username,
            remarks: refund.remarks,
          }),
        },
        'Pesapal refund',
      );
      if (!response.ok && response.status >= 500) {
        throw new ProviderError(`Pesapal refund: HTTP ${response.status}`, { unavailable: true });
      }
      const answer = (body ?? {}) as { status?: unknown; message?: unknown };
      const problem = pesapalProblem(body);
      if (response.ok && String(answer.status) === '200' && !problem) return null;
      // A refusal comes as status "500" with its reason in `message` (or an error object).
      return (
        problem?.message ||
        String(answer.message ?? '') ||
        describe(problem) ||
        `HTTP ${response.status}`
      );
    },
  };
}

function describe(problem: PesapalProblem | null): string {
  return problem ? [problem.type, problem.code, problem.message].filter(Boolean).join(' ') : '';
}

function tokenRefused(problem: PesapalProblem | null): boolean {
  return !!problem && /token|unauthori[sz]ed/i.test(`${problem.code} ${problem.message}`);
}

/** Seconds from now until Pesapal's expiryDate (about 5 minutes); 5 minutes when unreadable. */
function secondsUntil(expiryDate: unknown): number {
  const until = Date.parse(String(expiryDate ?? ''));
  const seconds = (until - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 300;
}
