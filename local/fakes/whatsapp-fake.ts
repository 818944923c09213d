// A fake of Meta's WhatsApp Cloud API on loopback, speaking the real API's shapes (docs:
// /work/shared/STACK-NOTES.md, "WhatsApp Cloud API"), with a page that plays the shopper's phone,
// so a fresh clone can send and receive WhatsApp messages with no Meta account.
//
// POST /v21.0/{phone-number-id}/messages (any version) answers as Meta does:
//   200 {messaging_product, contacts[{input, wa_id}], messages[{id: 'wamid.…'}]}
// and refuses, with Meta's body {error: {message, type, code, error_data?: {messaging_product,
// details}, fbtrace_id}}, what Meta refuses:
//   401 190    no token, or not this token (OAuthException)
//   400 100    another phone number id (GraphMethodException, subcode 33); bad JSON, a
//              messaging_product other than 'whatsapp', a missing or wrong field, a type other
//              than template, text, image or interactive, a text body empty or over 4096
//              characters (OAuthException, '(#100) Invalid parameter')
//   400 131009 `to` not 8 to 15 digits (one leading '+' allowed, as Meta allows)
//   404 132001 a template name not in WHATSAPP_TEMPLATES (#core/whatsapp.ts), or a language other
//              than 'en'
//   400 132000 a template's body parameters not as many as its {{n}} placeholders (or parameters
//              given to a header or button the template does not have)
//   400 131008 an empty template parameter
//   400 132018 a parameter with a new line, a tab or more than 4 spaces in a row
//   400 132005 a parameter over 1024 characters (or the filled-in body over 1024)
//   400 131047 anything but a template (text, image, interactive) to a number that has not
//              written to the shop within the last 24 hours (re-engagement message)
// A message taken is followed by status webhooks, signed (X-Hub-Signature-256: sha256=<hex
// HMAC-SHA256 of the raw body with the app secret>) and retried, as Meta does, while the shop does
// not answer 200 (`retryDelaysMs`, default three retries 200 ms apart): `sent` then `delivered`
// (then `read` when the phone's page is opened or `read(number)` is called). A phone set
// `delivers: 'silent'` only ever gets `sent` (it is off); `delivers: 'fails'` gets `failed` with
// error 131026 (undeliverable). Statuses carry Meta's per-message `pricing` (a template billable
// in its category, free text inside the window `free_customer_service`); a failed one carries
// `errors` and no pricing, as Meta charges nothing for it.
// Webhooks go to `webhookUrl` (or, `shopFromEnv`, {BETTER_AUTH_URL}/api/whatsapp/webhook);
// `verifyWebhook()` makes Meta's GET check of that URL with the verify token.
// The shopper's phone: GET /phone (pick a number), GET /phone/{digits} (the conversation; opening
// it reads the shop's messages), POST /phone/{digits}/send (text, name: a signed inbound message
// webhook to the shop, which opens the 24-hour window, then 303 back), GET /phone/{digits}/messages
// (the conversation as JSON).
// Test-only routes, for tests whose fake runs in another process (the browser tests' shops):
// GET /__sent[?number=], GET /__statuses, POST /__phone {number, delivers}, POST /__inbound
// {number, text, name?}, POST /__age {number, seconds}. In-process tests use the returned controls.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  WHATSAPP_LANGUAGE,
  WHATSAPP_OUTSIDE_WINDOW,
  WHATSAPP_PARAMETER_MAX,
  WHATSAPP_TEMPLATES,
  WHATSAPP_TEXT_MAX,
  WHATSAPP_WINDOW_S,
  type WhatsAppTemplate,
} from '#core/whatsapp.ts';
import type { LocalFake } from './index.ts';

/** Made-up but realistic credentials: Meta's ids are 15 digits, its tokens start with EAA. */
export const FAKE_WHATSAPP = {
  token: 'EAAJfakeDuukaWhatsAppSystemUserTokenZBlocalZCZD',
  phoneNumberId: '106540352242922',
  /** The WhatsApp Business Account: each webhook's entry[].id. */
  wabaId: '102290129340398',
  appSecret: 'fa4e0a9c2d1e5b7384c6a0e9d2b1c3f5',
  verifyToken: 'duuka-fake-verify-token',
  /** The shop's own WhatsApp number, as Meta reports it in each webhook's metadata. */
  displayNumber: '256709000100',
};

export type FakeWhatsAppOptions = {
  /** Where status and inbound webhooks go (the shop's /api/whatsapp/webhook); none: kept only. */
  webhookUrl?: string;
  /** With no webhook URL: {BETTER_AUTH_URL}/api/whatsapp/webhook when that is set at the time
   * (`npm start`, as the mobile-money fake finds the shop). */
  shopFromEnv?: boolean;
  token?: string;
  phoneNumberId?: string;
  appSecret?: string;
  verifyToken?: string;
  displayNumber?: string;
  /** The clock (ms) the 24-hour window and the timestamps read. */
  now?: () => number;
  /** The waits before each retry of a webhook the shop did not answer 200 (default 3 × 200 ms). */
  retryDelaysMs?: number[];
  /** The wait before `sent`, and again before `delivered` (default 250 ms: the shop stores the id
   * it was answered before the first status arrives, as with Meta). */
  statusDelayMs?: number;
  /** Post every webhook twice (a redelivery, as Meta does now and then). */
  duplicateWebhooks?: boolean;
};

/** What a phone does with the shop's messages: gets them, is off (never delivered), refuses. */
export type FakePhoneDelivers = 'yes' | 'silent' | 'fails';

export type FakeWhatsAppPricing = {
  billable: boolean;
  pricing_model: 'PMP';
  category: 'utility' | 'authentication' | 'marketing' | 'service';
  type: 'regular' | 'free_customer_service';
};

export type FakeWhatsAppStatus = {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** Unix seconds, as a string (Meta's form). */
  timestamp: string;
  recipient_id: string;
  conversation?: { id: string; origin: { type: string } };
  pricing?: FakeWhatsAppPricing;
  errors?: {
    code: number;
    title: string;
    message: string;
    error_data: { details: string };
  }[];
};

/** One message of a conversation: sent by the shop through the API, or by the phone. */
export type FakeWhatsAppMessage = {
  /** The wamid. */
  id: string;
  from: 'shop' | 'phone';
  /** The phone's number, digits only. */
  number: string;
  /** When (ms, the fake's clock). */
  at: number;
  type: 'template' | 'text' | 'image' | 'interactive';
  /** What the phone shows: a template's body with its parameters filled in, a caption... */
  text: string;
  template?: string;
  parameters?: string[];
  image?: { link: string; caption?: string };
  /** The shop's request, parsed. */
  request?: Record<string, unknown>;
  /** The shop's messages: the last status reported ('accepted' before any). */
  status?: 'accepted' | FakeWhatsAppStatus['status'];
  pricing?: FakeWhatsAppPricing;
};

/** A webhook the fake posted (or kept, with no webhook URL): its exact body and the answers. */
export type FakeWhatsAppWebhook = {
  payload: unknown;
  body: string;
  /** The X-Hub-Signature-256 header sent; null: none. */
  signature: string | null;
  /** The shop's HTTP status for each attempt, in order (0: no answer). */
  answers: number[];
};

export type FakeWhatsApp = LocalFake & {
  /** http://127.0.0.1:{port} */
  url: string;
  /** The phone's page for a number (+256… or 256…). */
  phoneUrl(number: string): string;
  /** What the shop sent, oldest first (to one number when given). */
  sent(number?: string): FakeWhatsAppMessage[];
  /** A number's conversation, both ways, oldest first. */
  conversation(number: string): FakeWhatsAppMessage[];
  /** The status objects reported, in order (posted, or kept with no webhook URL). */
  statuses(): FakeWhatsAppStatus[];
  /** Every webhook, with its exact body, its signature and the shop's answers. */
  webhooks(): FakeWhatsAppWebhook[];
  /** Where webhooks go from now on; null: kept only. */
  setWebhookUrl(url: string | null): void;
  setPhone(number: string, options: { delivers: FakePhoneDelivers }): void;
  /** Moves a number's last message back by `seconds` (past 86400: the window is shut). */
  age(number: string, seconds: number): void;
  /** The phone writes: a signed inbound webhook (retried); the wamid and the shop's last answer. */
  inbound(
    number: string,
    text: string,
    options?: { name?: string },
  ): Promise<{ id: string; status: number | null }>;
  /** The phone reads what it was delivered (as opening its page does). */
  read(number: string): Promise<void>;
  /** The next webhook goes twice (the same body and signature), as Meta's redeliveries. */
  duplicateNext(): void;
  /**
   * Posts any payload (an object, or a raw string) to the shop once, no retry: signed, signed
   * with the wrong secret, or unsigned. The shop's HTTP status (0: no answer).
   */
  sendWebhook(payload: unknown, options?: { signature?: 'wrong' | 'none' }): Promise<number>;
  /** Meta's check of the webhook URL: GET ?hub.mode=subscribe&hub.verify_token&hub.challenge. */
  verifyWebhook(challenge?: string): Promise<{ status: number; body: string; verified: boolean }>;
  /** Resolves once every pending status, retry and webhook is done. */
  idle(): Promise<void>;
};

type Refusal = {
  http: number;
  code: number;
  message: string;
  type?: string;
  subcode?: number;
  details?: string;
};

const TEMPLATES = new Map<string, WhatsAppTemplate>(WHATSAPP_TEMPLATES.map((t) => [t.name, t]));
/** Meta's form of a recipient: digits, one leading '+' allowed, 8 to 15 digits. */
const RECIPIENT = /^\+?\d{8,15}$/;

const invalid = (details: string): Refusal => ({
  http: 400,
  code: 100,
  message: '(#100) Invalid parameter',
  details,
});
const noTemplate = (name: string, language: string): Refusal => ({
  http: 404,
  code: 132001,
  message: '(#132001) Template name does not exist in the translation',
  details: `template name (${name}) does not exist in ${language}`,
});
const tooLong = (details: string): Refusal => ({
  http: 400,
  code: 132005,
  message: '(#132005) Translated text too long',
  details,
});

const digitsOf = (number: string) => number.replace(/\D/g, '');
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const base64ish = (bytes: Buffer) => bytes.toString('base64').replace(/[=/+]/g, '');
const wamid = (digits: string) =>
  `wamid.HBgM${base64ish(Buffer.concat([Buffer.from(digits), randomBytes(18)]))}`;
const fbtraceId = () => base64ish(randomBytes(18)).slice(0, 23);
const placeholders = (body: string) => new Set(body.match(/\{\{\d+\}\}/g) ?? []).size;
const fill = (body: string, parameters: string[]) =>
  body.replace(/\{\{(\d+)\}\}/g, (all, n: string) => parameters[Number(n) - 1] ?? all);

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Meta's error body, with the HTTP status Meta gives it. */
function refuse(res: ServerResponse, refusal: Refusal) {
  json(res, refusal.http, {
    error: {
      message: refusal.message,
      type: refusal.type ?? 'OAuthException',
      code: refusal.code,
      ...(refusal.subcode ? { error_subcode: refusal.subcode } : {}),
      ...(refusal.details
        ? { error_data: { messaging_product: 'whatsapp', details: refusal.details } }
        : {}),
      fbtrace_id: fbtraceId(),
    },
  });
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A message the API took, before its id and time. */
type Draft = Omit<FakeWhatsAppMessage, 'id' | 'from' | 'at' | 'status'> & { free: boolean };

/** What the Cloud API refuses in a message's JSON (the window aside), or the message it takes. */
function draftOf(body: Record<string, unknown>): Refusal | Draft {
  if (body.messaging_product !== 'whatsapp') {
    return invalid('The parameter messaging_product is required and must be whatsapp.');
  }
  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
    return invalid('recipient_type must be individual.');
  }
  if (typeof body.to !== 'string' || body.to === '') {
    return invalid('The parameter to is required.');
  }
  if (!RECIPIENT.test(body.to)) {
    return {
      http: 400,
      code: 131009,
      message: '(#131009) Parameter value is not valid',
      details: `The phone number ${body.to} is not valid: 8 to 15 digits, country code first.`,
    };
  }
  const number = digitsOf(body.to);
  const base = { number, request: body };
  if (body.type === 'template') {
    const template = body.template;
    if (!isObject(template) || typeof template.name !== 'string') {
      return invalid('The parameter template[name] is required.');
    }
    const language = isObject(template.language) ? template.language.code : undefined;
    if (typeof language !== 'string') {
      return invalid('The parameter template[language][code] is required.');
    }
    const known = TEMPLATES.get(template.name);
    if (!known || language !== WHATSAPP_LANGUAGE) return noTemplate(template.name, language);
    const components = template.components ?? [];
    if (!Array.isArray(components) || !components.every(isObject)) {
      return invalid('template[components] must be a list of components.');
    }
    const parameters: unknown[] = [];
    for (const component of components) {
      const given = component.parameters ?? [];
      if (!Array.isArray(given)) return invalid('A component’s parameters must be a list.');
      if (component.type === 'body') parameters.push(...given);
      else if (given.length > 0) {
        // Our templates have a body only: a header's or a button's parameter has no place.
        return {
          http: 400,
          code: 132000,
          message: '(#132000) Number of parameters does not match the expected number of params',
          details: `${String(component.type)}: number of localizable_params (${given.length}) does not match the expected number of params (0)`,
        };
      }
    }
    const expected = placeholders(known.body);
    if (parameters.length !== expected) {
      return {
        http: 400,
        code: 132000,
        message: '(#132000) Number of parameters does not match the expected number of params',
        details: `body: number of localizable_params (${parameters.length}) does not match the expected number of params (${expected})`,
      };
    }
    const texts: string[] = [];
    for (const parameter of parameters) {
      if (!isObject(parameter) || parameter.type !== 'text' || typeof parameter.text !== 'string') {
        return invalid('Each body parameter must be {type: "text", text}.');
      }
      if (parameter.text === '') {
        return {
          http: 400,
          code: 131008,
          message: '(#131008) Required parameter is missing',
          details: 'Parameter text is empty.',
        };
      }
      if (/[\n\t]| {5,}/.test(parameter.text)) {
        return {
          http: 400,
          code: 132018,
          message: '(#132018) There was an issue with the parameters in your template.',
          details:
            'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
        };
      }
      if (parameter.text.length > WHATSAPP_PARAMETER_MAX) {
        return tooLong(`Param text is over ${WHATSAPP_PARAMETER_MAX} characters.`);
      }
      texts.push(parameter.text);
    }
    const text = fill(known.body, texts);
    if (text.length > 1024) return tooLong('The body is over 1024 characters once filled in.');
    const pricingCategory = known.category.toLowerCase() as FakeWhatsAppPricing['category'];
    return {
      ...base,
      type: 'template',
      text,
      template: known.name,
      parameters: texts,
      free: false,
      pricing: { billable: true, pricing_model: 'PMP', category: pricingCategory, type: 'regular' },
    };
  }
  const service: FakeWhatsAppPricing = {
    billable: false,
    pricing_model: 'PMP',
    category: 'service',
    type: 'free_customer_service',
  };
  if (body.type === 'text') {
    const text = isObject(body.text) ? body.text.body : undefined;
    if (typeof text !== 'string' || text.length === 0) {
      return invalid('The parameter text[body] is required.');
    }
    if (text.length > WHATSAPP_TEXT_MAX) {
      return invalid(`Param text['body'] must be at most ${WHATSAPP_TEXT_MAX} characters long.`);
    }
    return { ...base, type: 'text', text, free: true, pricing: service };
  }
  if (body.type === 'image') {
    const image = body.image;
    if (!isObject(image) || typeof image.link !== 'string' || !/^https?:\/\//.test(image.link)) {
      return invalid('The parameter image[link] is required and must be an http(s) URL.');
    }
    const caption = image.caption;
    if (caption !== undefined && (typeof caption !== 'string' || caption.length > 1024)) {
      return invalid('image[caption] must be text of at most 1024 characters.');
    }
    return {
      ...base,
      type: 'image',
      text: caption ?? '',
      image: { link: image.link, ...(caption ? { caption } : {}) },
      free: true,
      pricing: service,
    };
  }
  if (body.type === 'interactive') {
    const interactive = body.interactive;
    if (!isObject(interactive) || typeof interactive.type !== 'string') {
      return invalid('The parameter interactive[type] is required.');
    }
    const text = isObject(interactive.body) ? interactive.body.text : undefined;
    return {
      ...base,
      type: 'interactive',
      text: typeof text === 'string' ? text : '',
      free: true,
      pricing: service,
    };
  }
  return invalid(`The parameter type (${String(body.type)}) is not supported.`);
}

/** A webhook's body as Meta wraps it: the business account's entry, one `messages` change. */
export function webhookEnvelope(
  value: Record<string, unknown>,
  ids = {
    displayNumber: FAKE_WHATSAPP.displayNumber,
    phoneNumberId: FAKE_WHATSAPP.phoneNumberId,
  },
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: FAKE_WHATSAPP.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: ids.displayNumber,
                phone_number_id: ids.phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export async function startFakeWhatsApp(options: FakeWhatsAppOptions = {}): Promise<FakeWhatsApp> {
  const token = options.token ?? FAKE_WHATSAPP.token;
  const phoneNumberId = options.phoneNumberId ?? FAKE_WHATSAPP.phoneNumberId;
  const appSecret = options.appSecret ?? FAKE_WHATSAPP.appSecret;
  const verifyToken = options.verifyToken ?? FAKE_WHATSAPP.verifyToken;
  const displayNumber = options.displayNumber ?? FAKE_WHATSAPP.displayNumber;
  const now = options.now ?? Date.now;
  const retryDelaysMs = options.retryDelaysMs ?? [200, 200, 200];
  const statusDelayMs = options.statusDelayMs ?? 250;
  let webhookUrl = options.webhookUrl ?? null;
  let duplicateNext = false;

  const messages: FakeWhatsAppMessage[] = [];
  const webhooks: FakeWhatsAppWebhook[] = [];
  const statuses: FakeWhatsAppStatus[] = [];
  /** Each number's last inbound message (ms): the 24-hour window. */
  const lastInbound = new Map<string, number>();
  const phones = new Map<string, FakePhoneDelivers>();
  /** The name each phone last wrote under (its WhatsApp profile). */
  const names = new Map<string, string>();
  /** Meta's conversation ids, one per number and category. */
  const conversations = new Map<string, string>();

  // Everything the fake still has to do (webhooks in flight, waits before a status or a retry):
  // `idle()` waits for it, `close()` cuts the waits short and aborts the posts.
  let closed = false;
  const stopping = new AbortController();
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const work = new Set<Promise<unknown>>();
  let chain: Promise<unknown> = Promise.resolve();

  function wait(ms: number): Promise<void> {
    if (closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          timers.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      entry.timer.unref();
      timers.add(entry);
    });
  }
  function track<T>(promise: Promise<T>): Promise<T> {
    work.add(promise);
    promise.then(
      () => work.delete(promise),
      () => work.delete(promise),
    );
    return promise;
  }

  const seconds = () => String(Math.floor(now() / 1000));
  const sign = (body: string, secret = appSecret) =>
    `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const windowOpen = (number: string) => {
    const last = lastInbound.get(number);
    return last !== undefined && now() - last < WHATSAPP_WINDOW_S * 1000;
  };
  const envelope = (value: Record<string, unknown>) =>
    webhookEnvelope(value, { displayNumber, phoneNumberId });

  /** Where webhooks go now: the URL set, else the shop named by BETTER_AUTH_URL (shopFromEnv). */
  function currentWebhookUrl(): string | null {
    if (webhookUrl) return webhookUrl;
    const shop = options.shopFromEnv ? process.env.BETTER_AUTH_URL?.trim() : undefined;
    return shop ? `${shop.replace(/\/+$/, '')}/api/whatsapp/webhook` : null;
  }

  /** One POST of a webhook to the shop; its HTTP status, 0 when it did not answer. */
  async function postOnce(url: string, body: string, signature: string | null): Promise<number> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'facebookexternalua',
    };
    if (signature) headers['x-hub-signature-256'] = signature;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(5_000)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    } catch {
      return 0;
    }
  }

  /** Posts a webhook until the shop answers 200 or the retries run out; the last answer. */
  async function post(webhook: FakeWhatsAppWebhook, times: number): Promise<number | null> {
    let status: number | null = null;
    for (let round = 0; round < times; round++) {
      const url = currentWebhookUrl();
      if (!url || closed) return status;
      status = await postOnce(url, webhook.body, webhook.signature);
      webhook.answers.push(status);
      for (const delay of retryDelaysMs) {
        if (status === 200) break;
        await wait(delay);
        if (closed) return status;
        status = await postOnce(url, webhook.body, webhook.signature);
        webhook.answers.push(status);
      }
    }
    return status;
  }

  /** Signs a webhook and posts it after those before it (in order, as a phone's statuses are). */
  function deliver(payload: unknown): Promise<number | null> {
    const body = JSON.stringify(payload);
    const webhook: FakeWhatsAppWebhook = { payload, body, signature: sign(body), answers: [] };
    webhooks.push(webhook);
    const times = options.duplicateWebhooks || duplicateNext ? 2 : 1;
    duplicateNext = false;
    const result = chain.then(() => post(webhook, times));
    chain = result.catch(() => undefined);
    return track(result);
  }

  function reportStatus(message: FakeWhatsAppMessage, status: FakeWhatsAppStatus['status']) {
    const report: FakeWhatsAppStatus = {
      id: message.id,
      status,
      timestamp: seconds(),
      recipient_id: message.number,
    };
    if (status === 'failed') {
      report.errors = [
        {
          code: 131026,
          title: 'Message undeliverable',
          message: 'Message undeliverable',
          error_data: {
            details: 'Message Undeliverable: not on WhatsApp, or cannot receive this message.',
          },
        },
      ];
    } else if (message.pricing) {
      const category = message.pricing.category;
      const key = `${message.number}:${category}`;
      const id = conversations.get(key) ?? randomBytes(16).toString('hex');
      conversations.set(key, id);
      report.conversation = { id, origin: { type: category } };
      report.pricing = message.pricing;
    }
    message.status = status;
    statuses.push(report);
    return deliver(envelope({ statuses: [report] }));
  }

  /** What follows a message taken: the phone's mode decides. */
  async function afterSend(message: FakeWhatsAppMessage) {
    await wait(statusDelayMs);
    if (closed) return;
    const delivers = phones.get(message.number) ?? 'yes';
    if (delivers === 'fails') {
      await reportStatus(message, 'failed');
      return;
    }
    await reportStatus(message, 'sent');
    if (delivers === 'silent') return;
    await wait(statusDelayMs);
    if (closed) return;
    await reportStatus(message, 'delivered');
  }

  /** The phone reads what it was delivered (its page opened). */
  async function read(number: string): Promise<void> {
    const digits = digitsOf(number);
    const unread = messages.filter(
      (m) => m.from === 'shop' && m.number === digits && m.status === 'delivered',
    );
    await Promise.all(unread.map((message) => reportStatus(message, 'read')));
  }

  /** The phone writes to the shop: a signed inbound webhook; it opens the 24-hour window. */
  async function inbound(
    number: string,
    text: string,
    inboundOptions: { name?: string } = {},
  ): Promise<{ id: string; status: number | null }> {
    const digits = digitsOf(number);
    const name = inboundOptions.name?.trim() || names.get(digits) || 'Shopper';
    names.set(digits, name);
    const at = now();
    const message: FakeWhatsAppMessage = {
      id: wamid(digits),
      from: 'phone',
      number: digits,
      at,
      type: 'text',
      text,
    };
    messages.push(message);
    lastInbound.set(digits, at);
    const status = await deliver(
      envelope({
        contacts: [{ profile: { name }, wa_id: digits }],
        messages: [
          {
            from: digits,
            id: message.id,
            timestamp: String(Math.floor(at / 1000)),
            type: 'text',
            text: { body: text },
          },
        ],
      }),
    );
    return { id: message.id, status };
  }

  async function sendMessage(req: IncomingMessage, res: ServerResponse, numberId: string) {
    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${token}`) {
      return refuse(res, {
        http: 401,
        code: 190,
        message: auth
          ? 'Invalid OAuth access token - Cannot parse access token'
          : 'An active access token must be used to query information about the current user.',
      });
    }
    if (numberId !== phoneNumberId) {
      return refuse(res, {
        http: 400,
        code: 100,
        type: 'GraphMethodException',
        subcode: 33,
        message: `Unsupported post request. Object with ID '${numberId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(await bodyOf(req));
    } catch {
      return refuse(res, invalid('The request body is not valid JSON.'));
    }
    if (!isObject(body)) return refuse(res, invalid('The request body must be a JSON object.'));
    const draft = draftOf(body);
    if ('code' in draft) return refuse(res, draft);
    const { free, ...taken } = draft;
    if (free && !windowOpen(taken.number)) {
      return refuse(res, {
        http: 400,
        code: WHATSAPP_OUTSIDE_WINDOW,
        message: `(#${WHATSAPP_OUTSIDE_WINDOW}) Re-engagement message`,
        details:
          'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      });
    }
    const message: FakeWhatsAppMessage = {
      ...taken,
      id: wamid(taken.number),
      from: 'shop',
      at: now(),
      status: 'accepted',
    };
    messages.push(message);
    json(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: taken.number }],
      messages: [{ id: message.id }],
    });
    track(afterSend(message));
  }

  const conversation = (digits: string) => messages.filter((m) => m.number === digits);

  function html(res: ServerResponse, status: number, title: string, main: string) {
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; padding: 0 1rem; font: 16px/1.45 system-ui, sans-serif; background: #efeae2;
    color: #111b21; }
  main { max-width: 30rem; margin: 1.5rem auto; }
  h1 { font-size: 1.1rem; margin: 0 0 .25rem; color: #075e54; }
  .note { margin: 0 0 1rem; font-size: .85rem; color: #54656f; }
  ol { list-style: none; margin: 0 0 1rem; padding: 0; display: grid; gap: .5rem; }
  li { max-width: 85%; padding: .5rem .75rem; border-radius: 8px; background: #fff;
    box-shadow: 0 1px 1px rgba(0,0,0,.1); }
  li.phone { justify-self: end; background: #d9fdd3; }
  .text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  .meta { margin: .25rem 0 0; font-size: .75rem; color: #667781; }
  form { display: grid; gap: .5rem; background: #fff; padding: .75rem; border-radius: 8px; }
  label { font-size: .85rem; color: #54656f; }
  input, textarea, button { font: inherit; padding: .5rem; border-radius: 6px;
    border: 1px solid #d1d7db; }
  button { background: #008069; color: #fff; border-color: #008069; cursor: pointer; }
</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>`);
  }

  function bubble(message: FakeWhatsAppMessage) {
    const time = new Date(message.at).toISOString().slice(11, 16);
    const parts: string[] = [];
    if (message.image) {
      parts.push(
        `<p class="text">Photo: <a href="${escapeHtml(message.image.link)}">${escapeHtml(message.image.link)}</a></p>`,
      );
    }
    if (message.text) parts.push(`<p class="text">${escapeHtml(message.text)}</p>`);
    const about =
      message.from === 'shop'
        ? [message.template ? `template ${message.template}` : message.type, message.status]
        : ['you'];
    const meta = [...about, `${time} UTC`].filter(Boolean).join(' · ');
    return `<li class="${message.from}" data-id="${escapeHtml(message.id)}">${parts.join('')}<p class="meta">${escapeHtml(meta)}</p></li>`;
  }

  function phonePage(res: ServerResponse, digits: string) {
    const shown = conversation(digits);
    const list = shown.length
      ? `<ol aria-label="Conversation">${shown.map(bubble).join('\n')}</ol>`
      : '<p class="note">No messages yet.</p>';
    html(
      res,
      200,
      `WhatsApp (test) · +${digits}`,
      `<h1>WhatsApp (test) · +${escapeHtml(digits)}</h1>
<p class="note">A local stand-in for the shopper's phone, chatting with duuka (${escapeHtml(displayNumber)}). <a href="/phone">Another number</a></p>
${list}
<form method="post" action="/phone/${escapeHtml(digits)}/send">
  <label for="text">Message</label>
  <textarea id="text" name="text" rows="3" required></textarea>
  <label for="name">Your name</label>
  <input id="name" name="name" value="${escapeHtml(names.get(digits) ?? '')}" autocomplete="name">
  <button type="submit">Send</button>
</form>`,
    );
  }

  function pickPage(res: ServerResponse, status = 200, problem = '') {
    const known = [...new Set(messages.map((m) => m.number))];
    const links = known.length
      ? `<ul>${known.map((n) => `<li><a href="/phone/${escapeHtml(n)}">+${escapeHtml(n)}</a></li>`).join('')}</ul>`
      : '';
    html(
      res,
      status,
      'WhatsApp (test) · Pick a phone',
      `<h1>WhatsApp (test)</h1>
<p class="note">Play a shopper's phone: open a number's conversation with duuka.</p>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="get" action="/phone">
  <label for="number">Phone number</label>
  <input id="number" name="number" inputmode="tel" placeholder="+256 700 123 456" required>
  <button type="submit">Open the phone</button>
</form>
${links}`,
    );
  }

  async function phone(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (url.pathname === '/phone' || url.pathname === '/phone/') {
      const asked = url.searchParams.get('number');
      if (asked === null) return pickPage(res);
      const digits = digitsOf(asked);
      if (!/^\d{8,15}$/.test(digits)) return pickPage(res, 400, 'A number has 8 to 15 digits.');
      res.writeHead(303, { location: `/phone/${digits}` });
      return res.end();
    }
    const match = /^\/phone\/(\d{8,15})(\/send|\/messages)?$/.exec(url.pathname);
    const digits = match?.[1];
    if (!digits) return pickPage(res, 404, 'No such phone: a number has 8 to 15 digits.');
    if (match[2] === '/messages' && req.method === 'GET') {
      return json(res, 200, { number: digits, messages: conversation(digits) });
    }
    if (match[2] === '/send' && req.method === 'POST') {
      const form = new URLSearchParams(await bodyOf(req));
      const text = form.get('text')?.trim() ?? '';
      if (!text) return pickPage(res, 400, 'Write a message first.');
      await inbound(digits, text, { name: form.get('name') ?? undefined });
      res.writeHead(303, { location: `/phone/${digits}` });
      return res.end();
    }
    if (!match[2] && req.method === 'GET') {
      // Opening the conversation reads it; the page shows it at once (the statuses go after).
      track(read(digits));
      return phonePage(res, digits);
    }
    res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8' });
    return res.end('Method not allowed');
  }

  async function hooks(req: IncomingMessage, res: ServerResponse, url: URL) {
    const path = url.pathname;
    if (req.method === 'GET' && path === '/__sent') {
      return json(res, 200, sent(url.searchParams.get('number') ?? undefined));
    }
    if (req.method === 'GET' && path === '/__statuses') return json(res, 200, statuses);
    const body = JSON.parse((await bodyOf(req)) || '{}') as Record<string, unknown>;
    const number = String(body.number ?? '');
    if (req.method === 'POST' && path === '/__phone') {
      setPhone(number, { delivers: body.delivers as FakePhoneDelivers });
      return json(res, 200, { number: digitsOf(number), delivers: body.delivers });
    }
    if (req.method === 'POST' && path === '/__inbound') {
      const name = typeof body.name === 'string' ? body.name : undefined;
      return json(res, 200, await inbound(number, String(body.text ?? ''), { name }));
    }
    if (req.method === 'POST' && path === '/__age') {
      age(number, Number(body.seconds));
      return json(res, 200, { number: digitsOf(number) });
    }
    return json(res, 404, { message: 'not found' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const handle = async () => {
      if (url.pathname.startsWith('/__')) return hooks(req, res, url);
      if (url.pathname === '/phone' || url.pathname.startsWith('/phone/')) {
        return phone(req, res, url);
      }
      const send = /^\/v\d+\.\d+\/([^/]+)\/messages$/.exec(url.pathname);
      if (send && req.method === 'POST') return sendMessage(req, res, send[1] ?? '');
      return refuse(res, {
        http: 400,
        code: 100,
        type: 'GraphMethodException',
        message: `Unknown path components: ${url.pathname}`,
      });
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** What the shop sent, oldest first (to one number when given, +256… or 256…). */
  function sent(number?: string): FakeWhatsAppMessage[] {
    const digits = number === undefined ? undefined : digitsOf(number);
    return messages.filter((m) => m.from === 'shop' && (!digits || m.number === digits));
  }
  function setPhone(number: string, phoneOptions: { delivers: FakePhoneDelivers }) {
    phones.set(digitsOf(number), phoneOptions.delivers);
  }
  /** Moves a number's last message back by `seconds` (past 86400: the window is shut). */
  function age(number: string, by: number) {
    const digits = digitsOf(number);
    const last = lastInbound.get(digits);
    if (last !== undefined) lastInbound.set(digits, last - by * 1000);
  }

  const env = {
    WHATSAPP_BASE_URL: `${url}/v21.0`,
    WHATSAPP_TOKEN: token,
    WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
    WHATSAPP_APP_SECRET: appSecret,
    WHATSAPP_VERIFY_TOKEN: verifyToken,
  };
  /** Stops the server, cuts every wait short and aborts the webhooks in flight. */
  async function close() {
    closed = true;
    stopping.abort();
    for (const entry of timers) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    timers.clear();
    await Promise.allSettled([...work]);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  return {
    env,
    close,
    url,
    phoneUrl: (number: string) => `${url}/phone/${digitsOf(number)}`,
    sent,
    conversation: (number: string) => conversation(digitsOf(number)),
    statuses: (): FakeWhatsAppStatus[] => [...statuses],
    webhooks: (): FakeWhatsAppWebhook[] => [...webhooks],
    setWebhookUrl: (next: string | null) => {
      webhookUrl = next;
    },
    setPhone,
    age,
    inbound,
    read,
    duplicateNext: () => {
      duplicateNext = true;
    },
    sendWebhook: async (
      payload: unknown,
      sendOptions: { signature?: 'wrong' | 'none' } = {},
    ): Promise<number> => {
      const url = currentWebhookUrl();
      if (!url) throw new Error('The fake WhatsApp has no webhook URL (setWebhookUrl).');
      const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
      const signature =
        sendOptions.signature === 'none'
          ? null
          : sign(body, sendOptions.signature === 'wrong' ? `not-${appSecret}` : appSecret);
      const webhook: FakeWhatsAppWebhook = { payload, body, signature, answers: [] };
      webhooks.push(webhook);
      const status = await track(postOnce(url, body, signature));
      webhook.answers.push(status);
      return status;
    },
    verifyWebhook: async (challenge = String(Math.floor(Math.random() * 1e9))) => {
      const url = currentWebhookUrl();
      if (!url) throw new Error('The fake WhatsApp has no webhook URL (setWebhookUrl).');
      const check = new URL(url);
      check.searchParams.set('hub.mode', 'subscribe');
      check.searchParams.set('hub.verify_token', verifyToken);
      check.searchParams.set('hub.challenge', challenge);
      const response = await fetch(check, { signal: AbortSignal.timeout(5_000) });
      const body = await response.text();
      return {
        status: response.status,
        body,
        verified: response.status === 200 && body === challenge,
      };
    },
    idle: async () => {
      while (work.size > 0) await Promise.allSettled([...work]);
    },
  };
}
