// A fake Pesapal API 3.0 on loopback, speaking its real shapes (token with expiryDate, IPN
// registration, SubmitOrderRequest, GetTransactionStatus, errors as `{error, status}` often with
// HTTP 200), with a small payment page of its own where the shopper approves or declines. After
// a decision it sends the IPN to the registered URL and sends the browser back to callback_url,
// as Pesapal does, so a fresh clone can pay by card with no account anywhere.
// Test-only routes: GET /__requests (what arrived, IPNs sent and acknowledged as Pesapal requires,
// and each order's state);
// POST /__settle/{trackingId} {"status":"Completed"|"Failed"|"Invalid"|"Reversed", "amount"?,
// "currency"?, "notify"?: true} settles an order as Pesapal would (a short amount, a reversal...);
// POST /__mode {"mode":"normal"|"down"|"hang"} makes the whole API answer 500 or never answer;
// POST /__paid {"amount", "paymentMethod"?} makes a completed payment (its tracking id and
// confirmation code), as if a shopper had paid it.
// Refunds (issue 36): POST /api/Transactions/RefundRequest refuses what Pesapal refuses (a
// payment not COMPLETED, more than it collected, a second refund, part of a mobile-money payment)
// as {status:"500", message}; a refund it takes is approved by "finance" after `refundMs` (else
// when a test settles the order "Reversed"): a whole refund turns the payment REVERSED, which is
// how the shop reads it back.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalFake } from './index.ts';

export const FAKE_PESAPAL = {
  consumerKey: 'fake-pesapal-consumer-key',
  consumerSecret: 'fake-pesapal-consumer-secret',
};

const CURRENCIES = ['UGX', 'KES', 'TZS', 'USD'];

type Settled = 'Completed' | 'Failed' | 'Invalid' | 'Reversed';
const STATUS_CODES: Record<Settled, number> = { Invalid: 0, Completed: 1, Failed: 2, Reversed: 3 };

type FakeOrder = {
  trackingId: string;
  merchantReference: string;
  amount: number;
  currency: string;
  description: string;
  callbackUrl: string;
  notificationId: string;
  billing: Record<string, unknown>;
  /** null: not paid yet (Pesapal answers INVALID "Pending Payment"). */
  status: Settled | null;
  paidAmount: number;
  paidCurrency: string;
  confirmationCode: string;
  /** Card ('Visa') or a mobile-money wallet ('MTN UG Mobile Money'). */
  paymentMethod: string;
  /** The one refund Pesapal allows. */
  refund: { amount: number; username: string; remarks: string } | null;
};

const isMobileMoney = (method: string) => /mobile|mpesa|airtel|mtn/i.test(method);

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Pesapal's error body; it comes with HTTP 200 unless told otherwise. */
function pesapalError(res: ServerResponse, code: string, message: string, http = 200) {
  json(res, http, { error: { error_type: 'api_error', code, message }, status: '500' });
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const money = (currency: string, amount: number) =>
  `${currency} ${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(amount)}`;

export async function startFakePesapal(
  options: { tokenSeconds?: number; refundMs?: number | null } = {},
): Promise<LocalFake & { url: string }> {
  const tokenSeconds = options.tokenSeconds ?? 300;
  const refundMs =
    options.refundMs === undefined
      ? Number(process.env.FAKE_PESAPAL_REFUND_MS ?? 3000)
      : options.refundMs;
  const tokens = new Map<string, number>();
  const ipns = new Map<string, { url: string; type: 'GET' | 'POST' }>();
  const orders = new Map<string, FakeOrder>();
  const counts = {
    tokens: 0,
    ipnRegistrations: 0,
    submitted: 0,
    statusReads: 0,
    ipnsSent: 0,
    /** IPNs the shop answered as Pesapal requires (echoing what was sent, status 200). */
    ipnsAcknowledged: 0,
  };
  const hanging = new Set<ServerResponse>();
  let mode: 'normal' | 'down' | 'hang' = 'normal';

  /** The bearer token's state: Pesapal refuses a missing or unknown one and an expired one. */
  function tokenState(req: IncomingMessage): 'ok' | 'expired' | 'missing' {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const until = token ? tokens.get(token) : undefined;
    if (until === undefined) return 'missing';
    return Date.now() < until ? 'ok' : 'expired';
  }

  /** Tells the shop's IPN URL that the order changed, as Pesapal does (and waits briefly). */
  async function notify(order: FakeOrder) {
    const ipn = ipns.get(order.notificationId);
    if (!ipn) return;
    counts.ipnsSent += 1;
    const params = {
      OrderTrackingId: order.trackingId,
      OrderMerchantReference: order.merchantReference,
      OrderNotificationType: 'IPNCHANGE',
    };
    const url = new URL(ipn.url);
    const init: RequestInit = { signal: AbortSignal.timeout(5_000) };
    if (ipn.type === 'GET') {
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    } else {
      Object.assign(init, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
      });
    }
    // Pesapal counts an IPN delivered only when the answer echoes its type and ids, status 200.
    const answer = (await fetch(url, init)
      .then((response) => response.json())
      .catch(() => null)) as Record<string, unknown> | null;
    if (
      answer?.orderNotificationType === params.OrderNotificationType &&
      answer.orderTrackingId === params.OrderTrackingId &&
      answer.orderMerchantReference === params.OrderMerchantReference &&
      answer.status === 200
    ) {
      counts.ipnsAcknowledged += 1;
    }
  }

  function settle(
    order: FakeOrder,
    status: Settled,
    paid?: { amount?: number; currency?: string },
  ) {
    order.status = status;
    order.paidAmount = paid?.amount ?? order.amount;
    order.paidCurrency = paid?.currency ?? order.currency;
    if (status === 'Completed' && !order.confirmationCode) {
      order.confirmationCode = `PSP${Math.floor(1e9 + Math.random() * 9e9)}`;
    }
  }

  function statusOf(order: FakeOrder) {
    if (!order.status) {
      // What Pesapal answers before the shopper has paid.
      return {
        payment_method: '',
        amount: order.amount,
        created_date: new Date().toISOString(),
        confirmation_code: '',
        payment_status_description: 'INVALID',
        description: 'Pending Payment',
        message: 'Request processed successfully',
        payment_account: '',
        call_back_url: order.callbackUrl,
        status_code: 0,
        merchant_reference: order.merchantReference,
        payment_status_code: '',
        currency: order.currency,
        error: {
          error_type: 'api_error',
          code: 'payment_details_not_found',
          message: 'Pending Payment',
          call_back_url: order.callbackUrl,
        },
        status: '500',
      };
    }
    return {
      payment_method: order.paymentMethod,
      amount: order.paidAmount,
      created_date: new Date().toISOString(),
      confirmation_code: order.status === 'Completed' ? order.confirmationCode : '',
      payment_status_description: order.status,
      description: order.status === 'Failed' ? 'Insufficient funds or card declined' : '',
      message: 'Request processed successfully',
      payment_account: '476173**0010',
      call_back_url: order.callbackUrl,
      status_code: STATUS_CODES[order.status],
      merchant_reference: order.merchantReference,
      payment_status_code: '',
      currency: order.paidCurrency,
      error: { error_type: null, code: null, message: null, call_back_url: null },
      status: '200',
    };
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL) {
    const path = url.pathname;
    if (req.method === 'POST' && path === '/api/Auth/RequestToken') {
      counts.tokens += 1;
      const body = JSON.parse((await bodyOf(req)) || '{}') as Record<string, unknown>;
      if (
        body.consumer_key !== FAKE_PESAPAL.consumerKey ||
        body.consumer_secret !== FAKE_PESAPAL.consumerSecret
      ) {
        return json(res, 200, {
          token: null,
          expiryDate: '0001-01-01T00:00:00',
          error: {
            error_type: 'api_error',
            code: 'invalid_consumer_key_or_secret_provided',
            message: '',
          },
          status: '500',
          message: null,
        });
      }
      const token = randomUUID().replace(/-/g, '');
      const expiresAt = Date.now() + tokenSeconds * 1000;
      tokens.set(token, expiresAt);
      return json(res, 200, {
        token,
        expiryDate: new Date(expiresAt).toISOString(),
        error: null,
        status: '200',
        message: 'Request processed successfully',
      });
    }

    const token = tokenState(req);
    if (token === 'missing') {
      return pesapalError(res, 'invalid_token', 'Authorization token is invalid', 401);
    }
    if (token === 'expired') return pesapalError(res, 'token_expired', 'Token has expired');

    if (req.method === 'POST' && path === '/api/URLSetup/RegisterIPN') {
      counts.ipnRegistrations += 1;
      const body = JSON.parse((await bodyOf(req)) || '{}') as Record<string, unknown>;
      const type = body.ipn_notification_type;
      if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) {
        return pesapalError(res, 'invalid_ipn_url', 'A valid IPN URL is required');
      }
      if (type !== 'GET' && type !== 'POST') {
        return pesapalError(res, 'invalid_notification_type', 'ipn_notification_type: GET or POST');
      }
      const ipnId = randomUUID();
      ipns.set(ipnId, { url: body.url, type });
      return json(res, 200, {
        url: body.url,
        created_date: new Date().toISOString(),
        ipn_id: ipnId,
        notification_type: type === 'GET' ? 0 : 1,
        ipn_notification_type_description: type,
        ipn_status: 1,
        ipn_status_description: 'Active',
        error: null,
        status: '200',
      });
    }

    if (req.method === 'POST' && path === '/api/Transactions/SubmitOrderRequest') {
      const body = JSON.parse((await bodyOf(req)) || '{}') as Record<string, unknown>;
      const billing = (body.billing_address ?? {}) as Record<string, unknown>;
      const refusal = orderRefusal(body, billing);
      if (refusal) return pesapalError(res, refusal[0], refusal[1]);
      counts.submitted += 1;
      const trackingId = randomUUID();
      const order: FakeOrder = {
        trackingId,
        merchantReference: String(body.id),
        amount: Number(body.amount),
        currency: String(body.currency),
        description: String(body.description),
        callbackUrl: String(body.callback_url),
        notificationId: String(body.notification_id),
        billing,
        status: null,
        paidAmount: 0,
        paidCurrency: String(body.currency),
        confirmationCode: '',
        paymentMethod: 'Visa',
        refund: null,
      };
      orders.set(trackingId, order);
      return json(res, 200, {
        order_tracking_id: trackingId,
        merchant_reference: order.merchantReference,
        redirect_url: `${baseUrl}/pay/${trackingId}`,
        error: null,
        status: '200',
      });
    }

    if (req.method === 'GET' && path === '/api/Transactions/GetTransactionStatus') {
      counts.statusReads += 1;
      const order = orders.get(url.searchParams.get('orderTrackingId') ?? '');
      if (!order) return pesapalError(res, 'order_not_found', 'Order tracking id not found');
      return json(res, 200, statusOf(order));
    }
    if (req.method === 'POST' && path === '/api/Transactions/RefundRequest') {
      const body = JSON.parse((await bodyOf(req)) || '{}') as Record<string, unknown>;
      const refused = refundRefusal(body);
      if (refused) return json(res, 200, { status: '500', message: refused });
      const order = [...orders.values()].find(
        (known) => known.confirmationCode === body.confirmation_code,
      ) as FakeOrder;
      const amount = Number(body.amount);
      order.refund = { amount, username: String(body.username), remarks: String(body.remarks) };
      // Finance approves it: a whole refund reverses the payment; a part leaves it COMPLETED.
      if (refundMs !== null && amount === order.paidAmount) {
        setTimeout(() => settle(order, 'Reversed'), refundMs).unref();
      }
      return json(res, 200, { status: '200', message: 'Refund request successfully' });
    }
    return json(res, 404, { error: { error_type: 'api_error', code: 'not_found' }, status: '404' });
  }

  /** What Pesapal refuses in a refund request, in its words; null: taken. */
  function refundRefusal(body: Record<string, unknown>): string | null {
    for (const field of ['confirmation_code', 'username', 'remarks']) {
      if (typeof body[field] !== 'string' || body[field] === '') return `${field} is required`;
    }
    const amount = Number(body.amount);
    if (!(amount > 0)) return 'amount is required';
    const order = [...orders.values()].find(
      (known) => known.confirmationCode === body.confirmation_code,
    );
    if (order?.status !== 'Completed') {
      return 'Only payments with the status COMPLETED can be refunded';
    }
    if (order.refund) return 'Multiple refunds are not allowed: this payment already has a refund';
    if (amount > order.paidAmount) {
      return 'You cannot refund more than what was originally collected';
    }
    if (isMobileMoney(order.paymentMethod) && amount !== order.paidAmount) {
      return 'A mobile money payment can only be refunded in full';
    }
    return null;
  }

  /** What Pesapal refuses in an order: [code, message], or null. */
  function orderRefusal(
    body: Record<string, unknown>,
    billing: Record<string, unknown>,
  ): [string, string] | null {
    const id = body.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 50) {
      return ['invalid_merchant_reference', 'id is required, at most 50 characters'];
    }
    if (typeof body.currency !== 'string' || !CURRENCIES.includes(body.currency)) {
      return ['invalid_currency', `Currency not supported: ${String(body.currency)}`];
    }
    if (typeof body.amount !== 'number' || !(body.amount > 0)) {
      return ['invalid_amount', 'amount must be a number above 0'];
    }
    const description = body.description;
    if (typeof description !== 'string' || description.length === 0 || description.length > 100) {
      return ['invalid_description', 'description is required, at most 100 characters'];
    }
    if (typeof body.callback_url !== 'string' || !/^https?:\/\//.test(body.callback_url)) {
      return ['invalid_callback_url', 'A valid callback_url is required'];
    }
    if (typeof body.notification_id !== 'string' || !ipns.has(body.notification_id)) {
      return ['invalid_notification_id', 'notification_id is not a registered IPN'];
    }
    const email = typeof billing.email_address === 'string' ? billing.email_address : '';
    const phone = typeof billing.phone_number === 'string' ? billing.phone_number : '';
    if (!email && !phone) {
      return ['invalid_billing_address', 'billing_address needs email_address or phone_number'];
    }
    return null;
  }

  /** The hosted payment page: the merchant, the amount, Approve or Decline. */
  function page(res: ServerResponse, order: FakeOrder) {
    const amount = money(order.currency, order.amount);
    const done = order.status
      ? `<p class="done">This payment is ${escapeHtml(order.status.toLowerCase())}.</p>`
      : `<form method="post">
        <button type="submit" name="decision" value="approve" class="approve">Approve payment</button>
        <button type="submit" name="decision" value="decline" class="decline">Decline payment</button>
      </form>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pesapal (test) · Pay ${escapeHtml(amount)}</title>
<style>
  body { margin: 0; padding: 0 1rem; font: 16px/1.5 system-ui, sans-serif; background: #f3f5f7;
    color: #1d2530; }
  main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 12px;
    box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { margin: 0 0 .25rem; font-size: 1.1rem; color: #0b6e4f; }
  .note { margin: 0 0 1.5rem; font-size: .85rem; color: #5b6573; }
  dl { margin: 0 0 1.5rem; } dt { font-size: .8rem; color: #5b6573; } dd { margin: 0 0 .75rem; }
  .amount { font-size: 1.6rem; font-weight: 600; }
  form { display: grid; gap: .75rem; }
  button { font: inherit; padding: .8rem 1rem; border-radius: 8px; border: 1px solid #0b6e4f; cursor: pointer; }
  .approve { background: #0b6e4f; color: #fff; }
  .decline { background: #fff; color: #8a1c1c; border-color: #8a1c1c; }
  .done { font-weight: 600; }
</style>
</head>
<body>
<main>
  <h1>Pesapal (test)</h1>
  <p class="note">A local stand-in for Pesapal's payment page: no card, no money.</p>
  <dl>
    <dt>Merchant</dt><dd>duuka</dd>
    <dt>For</dt><dd>${escapeHtml(order.description)}</dd>
    <dt>Amount</dt><dd class="amount">${escapeHtml(amount)}</dd>
  </dl>
  ${done}
</main>
</body>
</html>`);
  }

  function backToShop(res: ServerResponse, order: FakeOrder) {
    const back = new URL(order.callbackUrl);
    back.searchParams.set('OrderTrackingId', order.trackingId);
    back.searchParams.set('OrderMerchantReference', order.merchantReference);
    back.searchParams.set('OrderNotificationType', 'CALLBACKURL');
    res.writeHead(302, { location: back.toString(), 'cache-control': 'no-store' });
    res.end();
  }

  async function payPage(req: IncomingMessage, res: ServerResponse, trackingId: string) {
    const order = orders.get(trackingId);
    if (!order) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Pesapal (test): no such payment.');
    }
    if (req.method === 'GET') return page(res, order);
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST' });
      return res.end();
    }
    const decision = new URLSearchParams(await bodyOf(req)).get('decision');
    if (!order.status && (decision === 'approve' || decision === 'decline')) {
      settle(order, decision === 'approve' ? 'Completed' : 'Failed');
      await notify(order);
    }
    return backToShop(res, order);
  }

  async function hooks(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method === 'GET' && path === '/__requests') {
      return json(res, 200, { ...counts, orders: [...orders.values()] });
    }
    if (req.method === 'POST' && path === '/__mode') {
      const body = JSON.parse((await bodyOf(req)) || '{}') as { mode?: typeof mode };
      mode = body.mode ?? 'normal';
      return json(res, 200, { mode });
    }
    if (req.method === 'POST' && path === '/__paid') {
      const body = JSON.parse((await bodyOf(req)) || '{}') as {
        amount: number;
        currency?: string;
        paymentMethod?: string;
      };
      const trackingId = randomUUID();
      const order: FakeOrder = {
        trackingId,
        merchantReference: randomUUID(),
        amount: body.amount,
        currency: body.currency ?? 'UGX',
        description: 'Paid order',
        callbackUrl: 'http://shop.test/',
        notificationId: '',
        billing: {},
        status: null,
        paidAmount: 0,
        paidCurrency: body.currency ?? 'UGX',
        confirmationCode: '',
        paymentMethod: body.paymentMethod ?? 'Visa',
        refund: null,
      };
      settle(order, 'Completed');
      orders.set(trackingId, order);
      return json(res, 200, order);
    }
    const settling = /^\/__settle\/([^/]+)$/.exec(path);
    if (req.method === 'POST' && settling) {
      const order = orders.get(settling[1] ?? '');
      if (!order) return json(res, 404, { message: 'unknown tracking id' });
      const body = JSON.parse((await bodyOf(req)) || '{}') as {
        status: Settled;
        amount?: number;
        currency?: string;
        notify?: boolean;
      };
      settle(order, body.status, body);
      if (body.notify) await notify(order);
      return json(res, 200, order);
    }
    return json(res, 404, { message: 'not found' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const handle = async () => {
      if (url.pathname.startsWith('/__')) return hooks(req, res, url.pathname);
      const pay = /^\/pay\/([^/]+)$/.exec(url.pathname);
      if (pay) return payPage(req, res, pay[1] ?? '');
      if (mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (mode === 'down') {
        res.writeHead(500, { 'content-type': 'text/html' });
        return res.end('<h1>500 Internal Server Error</h1>');
      }
      return api(req, res, url);
    };
    handle().catch((error: unknown) => json(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    env: {
      PESAPAL_BASE_URL: baseUrl,
      PESAPAL_CONSUMER_KEY: FAKE_PESAPAL.consumerKey,
      PESAPAL_CONSUMER_SECRET: FAKE_PESAPAL.consumerSecret,
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
