// The one small interface every mobile-money provider's adapter implements (MTN MoMo, Airtel
// Money; an aggregator such as Flutterwave or Pesapal would be one more file). The adapters only
// speak the provider's HTTP API; what a payment means for the order is server/services/payments/service.ts.
import type { FailureReason, Network } from '#core/mobile-money.ts';
import type { RefundFailure } from '#core/returns.ts';

export type PaymentRequest = {
  /** Our payment id: the reference the provider knows this payment by. */
  reference: string;
  orderId: string;
  /** Whole UGX. */
  amount: number;
  /** The payer, +256…. */
  phone: string;
  /** Where the provider may call back (a hint only; the status read is the truth). */
  callbackUrl: string;
};

export type ProviderStatus =
  | { state: 'pending' }
  | { state: 'successful'; transactionId: string }
  | { state: 'failed'; reason: FailureReason }
  /** The provider has never heard of this reference (the request did not reach it). */
  | { state: 'unknown' };

export interface MobileMoneyProvider {
  readonly network: Network;
  /** Asks the provider to collect; throws ProviderError when it refused or did not answer. */
  requestPayment(request: PaymentRequest): Promise<void>;
  /** The provider's answer for one reference: the truth about a payment. */
  paymentStatus(reference: string): Promise<ProviderStatus>;
  /**
   * The reference a callback body names, or null for a body of the wrong shape (or, when the
   * provider signs its callbacks, a wrong or missing signature).
   */
  parseCallback(body: unknown): Promise<{ reference: string | null } | null>;
}

/**
 * A provider did not take a request. `refused` carries the reason when it answered with one (a
 * number it does not know); `uncertain` means it may have got the request (a time-out), so the
 * payment stays pending until a status read tells.
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  readonly outcome: { refused: FailureReason } | { uncertain: true } | { unavailable: true };
  constructor(message: string, outcome: ProviderError['outcome']) {
    super(message);
    this.outcome = outcome;
  }
}

/** fetch with a deadline: a hanging provider becomes a ProviderError, never a stuck request. */
export async function providerFetch(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  what: string,
): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ProviderError(
      `${what}: ${timedOut ? `no answer within ${timeoutMs} ms` : String(error)}`,
      timedOut ? { uncertain: true } : { unavailable: true },
    );
  }
}

/** An access token kept until shortly before it expires (one per adapter, i.e. per isolate). */
export class TokenCache {
  #token: { value: string; until: number } | null = null;
  #pending: Promise<string> | null = null;
  readonly #fetchToken: () => Promise<{ token: string; expiresIn: number }>;

  constructor(fetchToken: () => Promise<{ token: string; expiresIn: number }>) {
    this.#fetchToken = fetchToken;
  }

  async get(now = Date.now()): Promise<string> {
    if (this.#token && now < this.#token.until) return this.#token.value;
    this.#pending ??= this.#fetchToken()
      .then(({ token, expiresIn }) => {
        // A minute's margin (or a tenth of a short lifetime) before the provider's expiry.
        const margin = Math.min(60, expiresIn / 10) * 1000;
        this.#token = { value: token, until: Date.now() + expiresIn * 1000 - margin };
        return token;
      })
      .finally(() => {
        this.#pending = null;
      });
    return this.#pending;
  }

  /** The provider refused the token (401): fetch a new one next time. */
  forget(): void {
    this.#token = null;
  }

  /**
   * A call to the provider with a bearer token: one more try with a fresh token when the kept
   * one was refused (by default HTTP 401: revoked or expired early; a provider may say so in its
   * body too).
   */
  async call<Answer = Response>(
    send: (bearer: string) => Promise<Answer>,
    refused: (answer: Answer) => boolean = (answer) => (answer as Response).status === 401,
  ): Promise<Answer> {
    const answer = await send(`Bearer ${await this.get()}`);
    if (!refused(answer)) return answer;
    this.forget();
    return send(`Bearer ${await this.get()}`);
  }
}

/**
 * An OAuth2 client-credentials answer (MTN, Airtel): the token and its lifetime in seconds
 * (`expires_in`, a number or a string, else `lifetimeS`). A refusal with one of `refusedStatuses`
 * means the shop's credentials are wrong (set-up); anything else, the provider is unavailable.
 */
export async function oauthToken(
  response: Response,
  what: string,
  options: { refusedStatuses: number[]; lifetimeS: number },
): Promise<{ token: string; expiresIn: number }> {
  if (!response.ok) {
    const refused = options.refusedStatuses.includes(response.status);
    throw new ProviderError(
      `${what}: HTTP ${response.status}`,
      refused ? { refused: 'setup' } : { unavailable: true },
    );
  }
  const body = (await response.json()) as { access_token?: string; expires_in?: number | string };
  if (!body.access_token)
    throw new ProviderError(`${what}: no access_token`, { unavailable: true });
  return { token: body.access_token, expiresIn: Number(body.expires_in) || options.lifetimeS };
}

// --- Refunds (issue 36): money sent back through the provider that took it ------------------

/** One refund as an adapter sends it: the refund's own reference and the payment it returns. */
export type RefundOrder = {
  /** The refund's provider_reference: MTN's X-Reference-Id, Airtel's transaction id. */
  reference: string;
  orderId: string;
  /** Whole UGX. */
  amount: number;
  /** The payment's payer, +256… (mobile money); who gets the money back. */
  phone: string | null;
  /** The payment refunded: what it took, its transaction id (Pesapal's confirmation code) and
   * the provider's id of it (Pesapal's order tracking id). */
  payment: { amount: number; transactionId: string | null; providerReference: string | null };
  /** Who asked for it (Pesapal's `username`). */
  actor: string;
};

/** What a provider says about one refund. */
export type RefundStatus =
  | { state: 'pending' }
  | { state: 'successful'; reference: string }
  | { state: 'failed'; reason: RefundFailure }
  /** The provider has never heard of this refund (the send did not reach it). */
  | { state: 'unknown' };

/** A provider's refund calls: MTN and Airtel disbursements, Pesapal's RefundRequest. */
export interface RefundSender {
  /**
   * Asks the provider to send the money back. Throws RefundRefused when the provider refused it
   * (nothing was sent), ProviderError when it did not answer (uncertain: it may have it).
   */
  sendRefund(refund: RefundOrder): Promise<void>;
  refundStatus(refund: RefundOrder): Promise<RefundStatus>;
}

/** The provider refused a refund: nothing was sent; `reason` tells the staff what to do. */
export class RefundRefused extends Error {
  override name = 'RefundRefused';
  readonly reason: RefundFailure;
  constructor(message: string, reason: RefundFailure) {
    super(message);
    this.reason = reason;
  }
}
