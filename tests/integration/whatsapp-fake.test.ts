// The fake WhatsApp Cloud API (local/fakes/whatsapp-fake.ts) on its own, over HTTP: it takes what
// Meta takes in Meta's answer shape, refuses what Meta refuses with Meta's codes, and posts status
// and inbound webhooks signed as Meta signs them, retried while the shop does not answer 200. A
// tiny node:http server plays the shop's webhook route and checks each signature itself.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WHATSAPP_TEMPLATES } from '#core/whatsapp.ts';
import {
  FAKE_WHATSAPP,
  type FakeWhatsApp,
  type FakeWhatsAppOptions,
  type FakeWhatsAppStatus,
  startFakeWhatsApp,
} from '#local/fakes/whatsapp-fake.ts';

const SHOPPER = '256700123456';
const SHIPPED = 'duuka_order_shipped';
const SHIPPED_BODY = WHATSAPP_TEMPLATES.find((t) => t.name === SHIPPED)?.body ?? '';

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, checked by the assertions
type Wire = any;

type Received = {
  body: string;
  payload: Record<string, Wire>;
  signature: string | undefined;
  contentType: string | undefined;
  /** Whether the signature is the HMAC-SHA256 of the raw body with the app secret. */
  signed: boolean;
};

/** The shop's webhook route, in small: records each POST, answers the next status queued. */
type Receiver = {
  url: string;
  received: Received[];
  /** Statuses to answer in turn; 200 once none is left (401 for a bad signature). */
  answers: number[];
  /** Resolves once `count` webhooks have arrived. */
  count(count: number): Promise<Received[]>;
};

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

function isSigned(body: string, header: string | undefined, secret = FAKE_WHATSAPP.appSecret) {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function receiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const waiting: { count: number; resolve: (all: Received[]) => void }[] = [];
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET') {
      // Meta's check of the URL: echo the challenge when the verify token is the shop's.
      const query = new URL(req.url ?? '/', 'http://shop').searchParams;
      const ok =
        query.get('hub.mode') === 'subscribe' &&
        query.get('hub.verify_token') === FAKE_WHATSAPP.verifyToken;
      res.writeHead(ok ? 200 : 403);
      res.end(ok ? query.get('hub.challenge') : '');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const signature = req.headers['x-hub-signature-256'] as string | undefined;
    const signed = isSigned(body, signature);
    received.push({
      body,
      payload: JSON.parse(body),
      signature,
      contentType: req.headers['content-type'],
      signed,
    });
    res.writeHead(signed ? (answers.shift() ?? 200) : 401);
    res.end();
    for (const waiter of waiting.filter((w) => received.length >= w.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve([...received]);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/whatsapp/webhook`,
    received,
    answers,
    count: (count) =>
      received.length >= count
        ? Promise.resolve([...received])
        : new Promise((resolve) => waiting.push({ count, resolve })),
  };
}

/** A fake with no waits (statuses at once, retries 5 ms apart). */
async function fake(options: FakeWhatsAppOptions = {}): Promise<FakeWhatsApp> {
  const started = await startFakeWhatsApp({
    statusDelayMs: 0,
    retryDelaysMs: [5, 5, 5],
    ...options,
  });
  closing.unshift(() => started.close());
  return started;
}

async function send(
  whatsapp: FakeWhatsApp,
  body: unknown,
  { token = FAKE_WHATSAPP.token, numberId = FAKE_WHATSAPP.phoneNumberId } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${whatsapp.env.WHATSAPP_BASE_URL}/${numberId}/messages`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, Wire> };
}

const template = (
  to: string,
  parameters: string[] = ['Order DK-1042 left the warehouse today.'],
  { name = SHIPPED, language = 'en' } = {},
) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'template',
  template: {
    name,
    language: { code: language },
    components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }],
  },
});
const text = (to: string, body = 'Yes, the blue dress comes in M.') => ({
  messaging_product: 'whatsapp',
  to,
  type: 'text',
  text: { body },
});

/** Meta's error body, checked whole: its code, its type, a fbtrace_id, error_data when given. */
function expectMetaError(
  answer: { status: number; body: Record<string, Wire> },
  http: number,
  code: number,
) {
  expect(answer.status).toBe(http);
  expect(answer.body.error).toMatchObject({ code, message: expect.any(String) });
  expect(answer.body.error.type).toMatch(/^(OAuthException|GraphMethodException)$/);
  expect(answer.body.error.fbtrace_id).toMatch(/^[A-Za-z0-9]{10,}$/);
  if (answer.body.error.error_data) {
    expect(answer.body.error.error_data).toMatchObject({ messaging_product: 'whatsapp' });
  }
}

const statusesOf = (received: Received[]) =>
  received.flatMap(
    (r) => (r.payload.entry?.[0]?.changes?.[0]?.value?.statuses ?? []) as FakeWhatsAppStatus[],
  );

describe('the fake WhatsApp Cloud API', () => {
  it('names its Worker variables: the base URL with its version, the credentials', async () => {
    const whatsapp = await fake();
    expect(whatsapp.env).toEqual({
      WHATSAPP_BASE_URL: `${whatsapp.url}/v21.0`,
      WHATSAPP_TOKEN: FAKE_WHATSAPP.token,
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_APP_SECRET: FAKE_WHATSAPP.appSecret,
      WHATSAPP_VERIFY_TOKEN: FAKE_WHATSAPP.verifyToken,
    });
    expect(whatsapp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('takes a known template and answers in Meta’s shape, with the body filled in', async () => {
    const whatsapp = await fake();
    const answer = await send(whatsapp, template(SHOPPER));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: SHOPPER, wa_id: SHOPPER }],
      messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9]{20,}$/) }],
    });
    const [sent] = whatsapp.sent(`+${SHOPPER}`);
    expect(sent).toMatchObject({
      id: answer.body.messages[0].id,
      template: SHIPPED,
      parameters: ['Order DK-1042 left the warehouse today.'],
      text: SHIPPED_BODY.replace('{{1}}', 'Order DK-1042 left the warehouse today.'),
    });
  });

  it('refuses a missing or wrong token: 401, OAuthException 190', async () => {
    const whatsapp = await fake();
    for (const token of ['', 'EAAnotTheShopsToken']) {
      const answer = await send(whatsapp, template(SHOPPER), { token });
      expectMetaError(answer, 401, 190);
      expect(answer.body.error.type).toBe('OAuthException');
    }
    expect(whatsapp.sent()).toEqual([]);
  });

  it('refuses another phone number id: 400, code 100', async () => {
    const whatsapp = await fake();
    const answer = await send(whatsapp, template(SHOPPER), { numberId: '109999999999999' });
    expectMetaError(answer, 400, 100);
    expect(answer.body.error.message).toContain("Object with ID '109999999999999' does not exist");
  });

  it('refuses bad JSON, another messaging_product, a missing field or type: 400, code 100', async () => {
    const whatsapp = await fake();
    const { to: _to, ...noRecipient } = template(SHOPPER);
    for (const body of [
      '{"messaging_product": "whatsapp", ',
      { ...template(SHOPPER), messaging_product: 'sms' },
      noRecipient,
      { ...text(SHOPPER), type: 'sticker' },
    ]) {
      const answer = await send(whatsapp, body);
      expectMetaError(answer, 400, 100);
      expect(answer.body.error).toMatchObject({ type: 'OAuthException' });
    }
    expect(whatsapp.sent()).toEqual([]);
  });

  it('refuses a number that is not 8 to 15 digits (one leading + allowed): 131009', async () => {
    const whatsapp = await fake();
    for (const to of ['0772 123456', '+256-700-123456', '1234567', '2567001234567890', 'abc']) {
      expectMetaError(await send(whatsapp, template(to)), 400, 131009);
    }
    const plus = await send(whatsapp, template(`+${SHOPPER}`));
    expect(plus.status).toBe(200);
    expect(plus.body.contacts).toEqual([{ input: `+${SHOPPER}`, wa_id: SHOPPER }]);
  });

  it('refuses a template Meta does not know, or in another language: 404, 132001', async () => {
    const whatsapp = await fake();
    const unknown = await send(whatsapp, template(SHOPPER, ['x'], { name: 'duuka_flash_sale' }));
    expectMetaError(unknown, 404, 132001);
    expect(unknown.body.error.message).toBe(
      '(#132001) Template name does not exist in the translation',
    );
    const english = await send(whatsapp, template(SHOPPER, ['x'], { language: 'en_US' }));
    expectMetaError(english, 404, 132001);
  });

  it('refuses as many parameters as the body does not have placeholders: 132000', async () => {
    const whatsapp = await fake();
    for (const parameters of [[], ['one', 'two']]) {
      const answer = await send(whatsapp, template(SHOPPER, parameters));
      expectMetaError(answer, 400, 132000);
      expect(answer.body.error.error_data.details).toContain(
        `(${parameters.length}) does not match the expected number of params (1)`,
      );
    }
  });

  it('refuses a parameter with a new line, a tab or five spaces in a row: 132018', async () => {
    const whatsapp = await fake();
    for (const parameter of ['Order DK-1\nshipped', 'Order\tDK-1', 'Order     DK-1']) {
      expectMetaError(await send(whatsapp, template(SHOPPER, [parameter])), 400, 132018);
    }
    expect((await send(whatsapp, template(SHOPPER, ['Order    DK-1']))).status).toBe(200);
  });

  it('refuses a parameter over 1024 characters: 132005', async () => {
    const whatsapp = await fake();
    expectMetaError(await send(whatsapp, template(SHOPPER, ['x'.repeat(1025)])), 400, 132005);
  });

  it('refuses free text outside the 24-hour window (131047), takes it once the phone writes', async () => {
    let clock = Date.parse('2025-09-01T08:00:00Z');
    const whatsapp = await fake({ now: () => clock });
    const refused = await send(whatsapp, text(SHOPPER));
    expectMetaError(refused, 400, 131047);
    expect(refused.body.error.error_data.details).toBe(
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    );
    expect((await whatsapp.inbound(`+${SHOPPER}`, 'Is the blue dress in M?')).status).toBeNull();
    expect((await send(whatsapp, text(SHOPPER))).status).toBe(200);
    // A day later (the fake's clock) the window is shut again; `age` shuts it as well.
    clock += 24 * 60 * 60 * 1000;
    expectMetaError(await send(whatsapp, text(SHOPPER)), 400, 131047);
    await whatsapp.inbound(SHOPPER, 'Hello again');
    whatsapp.age(SHOPPER, 24 * 60 * 60 + 1);
    expectMetaError(await send(whatsapp, text(SHOPPER)), 400, 131047);
    expect(whatsapp.sent().map((m) => m.type)).toEqual(['text']);
  });

  it('refuses an empty text or one over 4096 characters (code 100); takes a product card inside the window', async () => {
    const whatsapp = await fake();
    await whatsapp.inbound(SHOPPER, 'Show me the dress');
    expectMetaError(await send(whatsapp, text(SHOPPER, '')), 400, 100);
    expectMetaError(await send(whatsapp, text(SHOPPER, 'x'.repeat(4097))), 400, 100);
    expect((await send(whatsapp, text(SHOPPER, 'x'.repeat(4096)))).status).toBe(200);
    const card = await send(whatsapp, {
      messaging_product: 'whatsapp',
      to: SHOPPER,
      type: 'image',
      image: {
        link: 'https://duuka.example/photos/blue-dress.jpg',
        caption: 'Blue dress · UGX 85,000',
      },
    });
    expect(card.status).toBe(200);
    expect(whatsapp.sent(SHOPPER).at(-1)).toMatchObject({
      type: 'image',
      image: { link: 'https://duuka.example/photos/blue-dress.jpg' },
      text: 'Blue dress · UGX 85,000',
    });
  });

  it('posts sent then delivered, signed with the app secret, with Meta’s envelope and pricing', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ webhookUrl: shop.url });
    const { body } = await send(whatsapp, template(SHOPPER));
    const id = body.messages[0].id;
    const received = await shop.count(2);
    for (const webhook of received) {
      expect(webhook.contentType).toBe('application/json');
      expect(webhook.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(webhook.signed).toBe(true);
      expect(isSigned(webhook.body, webhook.signature, 'another-secret')).toBe(false);
    }
    expect(received[0]?.payload).toMatchObject({
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
                  display_phone_number: FAKE_WHATSAPP.displayNumber,
                  phone_number_id: FAKE_WHATSAPP.phoneNumberId,
                },
              },
            },
          ],
        },
      ],
    });
    const statuses = statusesOf(received);
    expect(statuses.map((s) => [s.id, s.status])).toEqual([
      [id, 'sent'],
      [id, 'delivered'],
    ]);
    expect(statuses[0]).toMatchObject({
      recipient_id: SHOPPER,
      timestamp: expect.stringMatching(/^\d{10}$/),
      conversation: { id: expect.any(String), origin: { type: 'utility' } },
      pricing: { billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' },
    });
    // Free text inside the window: the customer-service window's, not billed.
    await whatsapp.inbound(SHOPPER, 'Thanks!');
    await send(whatsapp, text(SHOPPER));
    const after = statusesOf(await shop.count(5));
    expect(after.at(-1)?.pricing).toEqual({
      billable: false,
      pricing_model: 'PMP',
      category: 'service',
      type: 'free_customer_service',
    });
    expect(whatsapp.statuses()).toHaveLength(4);
  });

  it('keeps the webhooks when it has no URL, and posts to the one set later', async () => {
    const whatsapp = await fake();
    await send(whatsapp, template(SHOPPER));
    await whatsapp.idle();
    expect(whatsapp.statuses().map((s) => s.status)).toEqual(['sent', 'delivered']);
    expect(whatsapp.webhooks().every((w) => w.answers.length === 0)).toBe(true);
    const shop = await receiver();
    whatsapp.setWebhookUrl(shop.url);
    await send(whatsapp, template(SHOPPER));
    expect(statusesOf(await shop.count(2)).map((s) => s.status)).toEqual(['sent', 'delivered']);
  });

  it('finds the shop by BETTER_AUTH_URL when told to (npm start), and checks the URL as Meta does', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ shopFromEnv: true });
    vi.stubEnv('BETTER_AUTH_URL', new URL(shop.url).origin);
    try {
      expect((await whatsapp.inbound(SHOPPER, 'Hello')).status).toBe(200);
      expect(await whatsapp.verifyWebhook('1158201444')).toEqual({
        status: 200,
        body: '1158201444',
        verified: true,
      });
    } finally {
      vi.unstubAllEnvs();
    }
    expect(shop.received).toHaveLength(1);
    expect((await whatsapp.inbound(SHOPPER, 'Hello?')).status).toBeNull();
  });

  it('sends a silent phone only `sent`, and a failing one `failed` with 131026', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ webhookUrl: shop.url });
    whatsapp.setPhone('+256700000111', { delivers: 'silent' });
    whatsapp.setPhone('256700000222', { delivers: 'fails' });
    const silent = (await send(whatsapp, template('256700000111'))).body.messages[0].id;
    const failing = (await send(whatsapp, template('256700000222'))).body.messages[0].id;
    await whatsapp.idle();
    const statuses = statusesOf(shop.received);
    expect(statuses.filter((s) => s.id === silent).map((s) => s.status)).toEqual(['sent']);
    const failed = statuses.filter((s) => s.id === failing);
    expect(failed.map((s) => s.status)).toEqual(['failed']);
    expect(failed[0]?.errors).toEqual([
      {
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
        error_data: { details: expect.any(String) },
      },
    ]);
    expect(whatsapp.sent().map((m) => m.status)).toEqual(['sent', 'failed']);
  });

  it('retries a webhook the shop does not answer 200, then gives up after three retries', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ webhookUrl: shop.url });
    shop.answers.push(500, 503);
    await whatsapp.inbound(SHOPPER, 'Hello');
    expect(shop.received.map((r) => r.body)).toEqual(Array(3).fill(shop.received[0]?.body));
    expect(whatsapp.webhooks()[0]?.answers).toEqual([500, 503, 200]);

    shop.answers.push(500, 500, 500, 500, 500);
    const answer = await whatsapp.inbound(SHOPPER, 'Anyone there?');
    expect(answer.status).toBe(500);
    expect(whatsapp.webhooks()[1]?.answers).toEqual([500, 500, 500, 500]);
  });

  it('delivers the next webhook twice when told (Meta’s redeliveries), then once again', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ webhookUrl: shop.url });
    whatsapp.duplicateNext();
    await whatsapp.inbound(SHOPPER, 'Hello');
    await whatsapp.inbound(SHOPPER, 'Hello again');
    expect(shop.received).toHaveLength(3);
    expect(shop.received[1]?.body).toBe(shop.received[0]?.body);
    expect(shop.received[2]?.body).not.toBe(shop.received[0]?.body);
  });

  it('posts any payload signed, wrongly signed or unsigned, and gives the shop’s answer', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ webhookUrl: shop.url });
    const payload = { object: 'whatsapp_business_account', entry: [] };
    expect(await whatsapp.sendWebhook(payload)).toBe(200);
    expect(await whatsapp.sendWebhook(payload, { signature: 'wrong' })).toBe(401);
    expect(await whatsapp.sendWebhook(payload, { signature: 'none' })).toBe(401);
    expect(shop.received.map((r) => [r.signed, r.signature === undefined])).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
  });

  it('plays the phone: its form sends a signed inbound message to the shop and comes back', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ webhookUrl: shop.url });
    const response = await fetch(`${whatsapp.phoneUrl(SHOPPER)}/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ text: 'Do you have the <blue> dress?', name: 'Aisha N.' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/phone/${SHOPPER}`);
    const [inbound] = await shop.count(1);
    expect(inbound?.signed).toBe(true);
    const value = inbound?.payload.entry[0].changes[0].value;
    expect(value.contacts).toEqual([{ profile: { name: 'Aisha N.' }, wa_id: SHOPPER }]);
    expect(value.messages).toEqual([
      {
        from: SHOPPER,
        id: expect.stringMatching(/^wamid\./),
        timestamp: expect.stringMatching(/^\d{10}$/),
        type: 'text',
        text: { body: 'Do you have the <blue> dress?' },
      },
    ]);
    // The window is open: the shop may answer in free text.
    expect((await send(whatsapp, text(SHOPPER))).status).toBe(200);
  });

  it('shows the conversation on the phone’s page, escaped, and opening it reads the messages', async () => {
    const shop = await receiver();
    const whatsapp = await fake({ webhookUrl: shop.url });
    const id = (await send(whatsapp, template(SHOPPER, ['Order <b>DK-7</b> & co']))).body
      .messages[0].id;
    await whatsapp.idle();
    const picked = await fetch(`${whatsapp.url}/phone?number=%2B256+700+123+456`, {
      redirect: 'manual',
    });
    expect(picked.status).toBe(303);
    expect(picked.headers.get('location')).toBe(`/phone/${SHOPPER}`);
    const page = await (await fetch(whatsapp.phoneUrl(SHOPPER))).text();
    expect(page).toContain('Order &lt;b&gt;DK-7&lt;/b&gt; &amp; co');
    expect(page).toContain('Your duuka order is on its way.');
    expect(page).not.toContain('<b>DK-7');
    expect(page).toMatch(/<label for="text">Message<\/label>\s*<textarea id="text" name="text"/);
    expect(page).toContain('<button type="submit">Send</button>');
    expect(page).not.toMatch(/<(script|link|img)\b|src=/);
    await whatsapp.idle();
    expect(statusesOf(shop.received).map((s) => [s.id, s.status])).toEqual([
      [id, 'sent'],
      [id, 'delivered'],
      [id, 'read'],
    ]);
  });

  it('gives the conversation as JSON, both ways, oldest first', async () => {
    const whatsapp = await fake();
    await send(whatsapp, template(SHOPPER));
    await whatsapp.inbound(SHOPPER, 'When does it arrive?', { name: 'Aisha' });
    await send(whatsapp, text(SHOPPER, 'Tomorrow morning.'));
    await send(whatsapp, template('256700999999'));
    const response = await fetch(`${whatsapp.phoneUrl(SHOPPER)}/messages`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const conversation = (await response.json()) as { number: string; messages: Wire[] };
    expect(conversation.number).toBe(SHOPPER);
    expect(conversation.messages.map((m) => [m.from, m.type, m.text])).toEqual([
      [
        'shop',
        'template',
        SHIPPED_BODY.replace('{{1}}', 'Order DK-1042 left the warehouse today.'),
      ],
      ['phone', 'text', 'When does it arrive?'],
      ['shop', 'text', 'Tomorrow morning.'],
    ]);
  });

  it('closes with statuses still waiting, and posts none after', async () => {
    const shop = await receiver();
    const whatsapp = await startFakeWhatsApp({ webhookUrl: shop.url, statusDelayMs: 60_000 });
    expect((await send(whatsapp, template(SHOPPER))).status).toBe(200);
    const started = performance.now();
    await whatsapp.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(shop.received).toEqual([]);
    expect(whatsapp.statuses()).toEqual([]);
  });
});
