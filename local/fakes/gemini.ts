// A fake Gemini API on loopback with the real REST shape: POST /v1beta/models/{model}:
// streamGenerateContent?alt=sse (key in x-goog-api-key) answered as server-sent events, each
// `data:` a GenerateContentResponse with text parts or a functionCall, so the shop's tools run for
// real against its database. A little script decides the answer from the last user message:
//   a piece asked for in a size ("Do you have the Ankara wrap dress in M?", "… in size 38 in
//   Black?") → a productAvailability call with the piece, the size and any colour;
//   mentions of products (show, dress, new arrival, looking for) → a searchProducts call;
//   return / refund / exchange → a myReturns call (with the RCP- reference when one is given);
//   track / order / RCP- → a trackOrder call; offer / discount / promo / code / sale → offersNow;
//   credit / balance → myCredit; recommend → recommendations; categories → categories;
//   after a tool's result → a short reply naming what the tool returned;
//   "[fake:429]" → HTTP 429, "[fake:500]" → HTTP 500, "[fake:hang]" → no answer,
//   "[fake:slow]" → a long reply, one word every 150 ms; anything else → a friendly echo.
// A request with the key 'bad-key' gets Google's 400 API_KEY_INVALID.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalFake } from './index.ts';

export const FAKE_GEMINI_KEY = 'fake-gemini-key';

type Part = {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: unknown };
};
type Content = { role: string; parts: Part[] };

export type FakeGeminiRequest = {
  model: string;
  contents: Content[];
  tools: string[];
  system: string;
  /** The last user message's text. */
  asked: string;
  /** How the answer ended: written whole, or cut off because the shop hung up mid-way. */
  outcome: 'answering' | 'complete' | 'cut-off';
  /** Text pieces written before it ended. */
  pieces: number;
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const chunk = (parts: Part[], finish?: string) => ({
  candidates: [
    { content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) },
  ],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: 'fake-gemini',
});

const SIZE_ASKED =
  /\s+in\s+(?:size\s+)?(xxl|xl|xs|s|m|l|small|medium|large|(?:eu\s*)?\d{2})\b(?:\s+in\s+([a-z]+))?/i;

/** "Do you have the Ankara wrap dress in M (in Indigo)?" → the piece, its size and colour. */
function availabilityCall(text: string): Part['functionCall'] | null {
  const question =
    /\b(?:do you have|have you got|is there|is the|are there|got)\s+(?:(?:the|a|an|any|this)\s+)?(.+)$/i.exec(
      text.trim(),
    );
  const size = question?.[1] ? SIZE_ASKED.exec(question[1]) : null;
  if (!question?.[1] || !size?.[1]) return null;
  const product = question[1].slice(0, size.index).trim();
  if (!product) return null;
  return {
    name: 'productAvailability',
    args: { product, size: size[1], ...(size[2] ? { colour: size[2] } : {}) },
  };
}

function toolCall(text: string): Part['functionCall'] | null {
  const lower = text.toLowerCase();
  const availability = availabilityCall(text);
  if (availability) return availability;
  const ref = /rcp-[0-9a-f]{4,8}/i.exec(text)?.[0];
  if (/\b(return|returns|refund|refunds|exchange(?! rate))\b/.test(lower)) {
    return { name: 'myReturns', args: ref ? { reference: ref } : {} };
  }
  if (ref || /\btrack|my order/.test(lower))
    return { name: 'trackOrder', args: { reference: ref ?? text } };
  if (/\boffers?\b|discount|promo|coupon|\bcodes?\b|\bsale\b/.test(lower))
    return { name: 'offersNow', args: {} };
  if (/\bcredit\b|\bbalance\b/.test(lower)) return { name: 'myCredit', args: {} };
  if (/recommend|suggest/.test(lower)) return { name: 'recommendations', args: {} };
  if (/categor/.test(lower)) return { name: 'categories', args: {} };
  if (/show me|dress|new arrival|looking for|do you have/.test(lower)) {
    return { name: 'searchProducts', args: { query: text } };
  }
  return null;
}

/** The reply after a tool ran: names what came back, like a model summing it up. */
function summary(name: string, result: unknown): string {
  const output = (result as { content?: unknown; output?: unknown })?.content ?? result;
  if (name === 'productAvailability') return availabilitySummary(output);
  const list = Array.isArray(output) ? output : (output as { value?: unknown })?.value;
  const items = Array.isArray(list) ? list : [];
  if (items.length === 0) {
    if (name === 'offersNow') return 'There are no offers running right now.';
    return name === 'trackOrder'
      ? "I couldn't find an order of yours with that reference. You can see all your orders under My Orders."
      : "I couldn't find anything matching that right now. Try another word, or browse the Shop.";
  }
  // Every return and refund is told: which one the shopper means is hers to say.
  const names = items
    .slice(0, name === 'myReturns' ? items.length : 4)
    .map((item) =>
      typeof item === 'string'
        ? item
        : [
            (item as { name?: string; reference?: string }).name ??
              (item as { reference?: string }).reference,
            (item as { price?: string; status?: string }).price ??
              (item as { status?: string }).status,
          ]
            .filter(Boolean)
            .join(', '),
    );
  const lead =
    name === 'trackOrder'
      ? 'Here is what I found on your orders'
      : name === 'offersNow'
        ? 'Running now'
        : name === 'myCredit'
          ? 'Here it is'
          : name === 'myReturns'
            ? 'Here is where your returns and refunds stand'
            : name === 'categories'
              ? 'We have'
              : 'Here are some pieces you may like';
  return `${lead}: ${names.join('; ')}. Would you like to know more about any of them?`;
}

/** The reply after productAvailability: each variant's stock, as the tool said it. */
function availabilitySummary(output: unknown): string {
  const answer = ((output as { value?: unknown })?.value ?? output) as {
    name?: string;
    price?: string;
    variants?: { variant: string; stock: string }[];
    note?: string;
  };
  if (!answer?.name) {
    return "I couldn't find a piece by that name. Try another word, or browse the Shop.";
  }
  const variants = answer.variants ?? [];
  const lines = variants.map((v) => `${v.variant}: ${v.stock}`).join('; ');
  return [
    `The ${answer.name} (${answer.price})`,
    lines ? ` — ${lines}.` : '.',
    answer.note ? ` ${answer.note}` : '',
    ' Would you like me to tell you more about it?',
  ].join('');
}

export async function startFakeGemini(): Promise<
  LocalFake & { url: string; requests: FakeGeminiRequest[] }
> {
  const requests: FakeGeminiRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const handle = async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/__requests') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const seen = requests.map(({ asked, outcome, pieces, model }) => ({
          asked,
          outcome,
          pieces,
          model,
        }));
        return res.end(JSON.stringify(seen));
      }
      const match = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/.exec(url.pathname);
      if (req.method !== 'POST' || !match) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } }),
        );
      }
      const key = req.headers['x-goog-api-key'];
      const body = JSON.parse((await bodyOf(req)) || '{}') as {
        contents?: Content[];
        tools?: { functionDeclarations?: { name: string }[] }[];
        systemInstruction?: { parts?: Part[] };
      };
      const contents = body.contents ?? [];
      const record: FakeGeminiRequest = {
        model: match[1] ?? '',
        contents,
        tools: (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)),
        system: (body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n'),
        asked: (contents.at(-1)?.parts ?? []).map((p) => p.text ?? '').join(' '),
        outcome: 'answering',
        pieces: 0,
      };
      requests.push(record);
      if (key !== FAKE_GEMINI_KEY) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            error: {
              code: 400,
              message: 'API key not valid. Please pass a valid API key.',
              status: 'INVALID_ARGUMENT',
              details: [
                { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' },
              ],
            },
          }),
        );
      }
      const last = contents.at(-1);
      const lastText = (last?.parts ?? []).map((p) => p.text ?? '').join(' ');
      if (lastText.includes('[fake:429]')) {
        res.writeHead(429, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            error: {
              code: 429,
              message: 'Resource has been exhausted',
              status: 'RESOURCE_EXHAUSTED',
            },
          }),
        );
      }
      if (lastText.includes('[fake:500]')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ error: { code: 500, message: 'Internal error', status: 'INTERNAL' } }),
        );
      }
      if (lastText.includes('[fake:hang]')) {
        hanging.add(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
      const response = (last?.parts ?? []).find((p) => p.functionResponse)?.functionResponse;
      const call = response ? null : toolCall(lastText);
      if (call) {
        send(chunk([{ functionCall: call }], 'STOP'));
        record.outcome = 'complete';
        return res.end();
      }
      const text = response
        ? summary(response.name, response.response)
        : lastText.includes('[fake:slow]')
          ? Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(' ')
          : `Hello! Thanks for your message. I can help you find pieces, follow your orders and answer questions about delivery and returns.`;
      const pause = lastText.includes('[fake:slow]') ? 150 : 40;
      const words = text.match(/\S+\s*/g) ?? [text];
      for (let i = 0; i < words.length; i += 2) {
        if (res.destroyed || res.writableEnded) {
          record.outcome = 'cut-off';
          return;
        }
        record.pieces += 1;
        send(
          chunk(
            [{ text: words.slice(i, i + 2).join('') }],
            i + 2 >= words.length ? 'STOP' : undefined,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      record.outcome = 'complete';
      res.end();
    };
    handle().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    env: { GEMINI_BASE_URL: `${url}/v1beta`, GOOGLE_GENERATIVE_AI_API_KEY: FAKE_GEMINI_KEY },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
