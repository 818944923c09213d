// The assistant's delivery answers follow the shop's settings (issue 23): the prompt the fake
// Gemini server received (local/fakes/gemini.ts records each request's systemInstruction) carries
// the delivery options, fees and threshold read with the shopper's context in its one batch; the
// canned answers (no key, a failed model) say the same; and when the context cannot be read the
// assistant states no delivery fee, time or offer at all.
import { neonConfig } from '@neondatabase/serverless';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { cannedAnswer } from '#core/chat-answers.ts';
import { DELIVERY_UNKNOWN, FREE_DELIVERY_KEY } from '#core/delivery-rules.ts';
import { deliveryOptions, profiles, systemSettings } from '#db/schema/index.ts';
import { FAKE_GEMINI_KEY, startFakeGemini } from '#local/fakes/gemini.ts';
import type { Auth } from '#server/auth.ts';
import type { AssistantConfig } from '#server/services/chat/assistant.ts';
import { shopperContext } from '#server/services/chat/conversation.ts';
import { deliveryChoices } from '#server/services/delivery-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakeGemini>>;
let model: AssistantConfig;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  fake = await startFakeGemini();
  model = {
    apiKey: FAKE_GEMINI_KEY,
    model: 'gemini-2.5-flash',
    baseUrl: fake.env.GEMINI_BASE_URL ?? null,
    contact: DEFAULT_SUPPORT,
  };
});
afterAll(async () => {
  await fake?.close();
  await test?.close();
});

async function shopper() {
  const signed = await signedInShopper(test.db, auth);
  await test.db
    .update(profiles)
    .set({ phone: '+256772000001', fullName: 'Nakato Achieng' })
    .where(eq(profiles.id, signed.id));
  return signed;
}

const background: Promise<unknown>[] = [];

/** Sends a message through chat.send and answers the reply's text. */
async function send(cookie: string, text: string, assistant: AssistantConfig = model) {
  const chat = callerFor(test.db, new Headers({ cookie }), {
    assistant,
    background: (work) => background.push(work),
  }).chat;
  const { sessionId } = await chat.start();
  let said = '';
  for await (const piece of await chat.send({ sessionId, text })) {
    if (typeof piece === 'string') said += piece;
  }
  await Promise.all(background.splice(0));
  return said;
}

/** The system instruction of the last request the fake model received. */
function lastPrompt(): string {
  const prompt = fake.requests.at(-1)?.system;
  if (!prompt) throw new Error('the fake model received no prompt');
  return prompt;
}

/** Sends every request whose SQL names `table` to a failing network, the rest as usual. */
async function withTableUnreachable<T>(table: string, work: () => Promise<T>): Promise<T> {
  const original = neonConfig.fetchFunction;
  neonConfig.fetchFunction = (url: string, init: RequestInit) =>
    String(init.body).includes(table)
      ? Promise.reject(new TypeError('fetch failed'))
      : fetch(url, init);
  try {
    return await work();
  } finally {
    neonConfig.fetchFunction = original;
  }
}

describe('the assistant’s delivery facts', () => {
  it('the prompt carries the shop’s defaults: Kampala 5,000, free pickup, upcountry 15,000 without cash, no free delivery', async () => {
    const me = await shopper();
    await send(me.cookie, 'Hi there');
    const prompt = lastPrompt();
    expect(prompt).toContain('Kampala delivery: UGX 5,000, 1–3 days; cash on delivery accepted.');
    expect(prompt).toContain('Pick up at the boutique: free, the same or the next day to be ready');
    expect(prompt).toContain(
      'Upcountry by bus courier: UGX 15,000, 3–5 days; cash on delivery not accepted.',
    );
    expect(prompt).toContain('There is no free delivery: every order pays its option’s fee.');
    // The old hard-coded promises are gone; the other business claims stay.
    expect(prompt).not.toContain('100,000');
    expect(prompt).not.toContain('nationwide');
    expect(prompt).toContain('Returns within 14 days for unworn items with tags.');
    expect(prompt).toContain('Opening hours: Mon-Sat 8AM-8PM, Sun 10AM-6PM.');
  });

  it('reads the delivery in the context’s one batch: one round trip', async () => {
    const me = await shopper();
    const sent: string[] = [];
    const original = neonConfig.fetchFunction;
    neonConfig.fetchFunction = (url: string, init: RequestInit) => {
      sent.push(String(init.body));
      return fetch(url, init);
    };
    try {
      const context = await shopperContext(test.db, me, DEFAULT_SUPPORT);
      expect(context.delivery?.options.map((o) => o.id)).toEqual([
        'kampala',
        'pickup',
        'upcountry',
      ]);
    } finally {
      neonConfig.fetchFunction = original;
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('delivery_options');
  });

  it('after the owner sets a threshold and a new upcountry fee, the next prompt and the canned answers say so', async () => {
    const me = await shopper();
    // What the desk writes: the option's fee, and the threshold's system_settings row.
    await test.db
      .update(deliveryOptions)
      .set({ fee: 20_000 })
      .where(eq(deliveryOptions.id, 'upcountry'));
    await test.db
      .insert(systemSettings)
      .values({ settingKey: FREE_DELIVERY_KEY, settingValue: '200000' });
    try {
      await send(me.cookie, 'Hello again');
      const prompt = lastPrompt();
      expect(prompt).toContain(
        'Upcountry by bus courier: UGX 20,000, 3–5 days; cash on delivery not accepted.',
      );
      expect(prompt).toContain('Delivery is free on orders of UGX 200,000 or more.');
      expect(prompt).toContain('Kampala delivery: UGX 5,000');
      expect(prompt).not.toContain('UGX 15,000');
      expect(prompt).not.toContain('There is no free delivery');

      // No key: the canned answer reads the same settings.
      const offline = await send(me.cookie, 'How long does delivery take?', {
        ...model,
        apiKey: null,
      });
      expect(offline).toBe(
        cannedAnswer('delivery', DEFAULT_SUPPORT, await deliveryChoices(test.db)),
      );
      expect(offline).toContain('Upcountry by bus courier: UGX 20,000, 3–5 days');
      expect(offline).toContain('Delivery is free on orders of UGX 200,000 or more.');
      expect(offline).not.toContain('UGX 15,000');
      // The model failing: the canned total names the fees as set.
      const failed = await send(me.cookie, 'How much is my order total? [fake:500]');
      expect(failed).toContain('Upcountry by bus courier UGX 20,000');
      expect(failed).toContain('free on orders of UGX 200,000 or more');
      expect(failed).not.toContain('UGX 5,000 delivery fee');

      // A retired option is no longer offered, so no longer promised.
      await test.db
        .update(deliveryOptions)
        .set({ active: false })
        .where(eq(deliveryOptions.id, 'upcountry'));
      await send(me.cookie, 'And now?');
      expect(lastPrompt()).not.toContain('Upcountry');
    } finally {
      await test.db
        .update(deliveryOptions)
        .set({ fee: 15_000, active: true })
        .where(eq(deliveryOptions.id, 'upcountry'));
      await test.db.delete(systemSettings).where(eq(systemSettings.settingKey, FREE_DELIVERY_KEY));
    }
    await send(me.cookie, 'Back to the defaults?');
    expect(lastPrompt()).toContain('There is no free delivery');
  });

  it('when the context cannot be read, it invents no delivery fact and points to the checkout', async () => {
    const me = await shopper();
    await withTableUnreachable('delivery_options', () => send(me.cookie, 'Hi'));
    const prompt = lastPrompt();
    expect(prompt).toContain('you do not know the shop');
    expect(prompt).toContain(DELIVERY_UNKNOWN);
    expect(prompt).not.toMatch(/UGX \d|\d+–\d+ days|free delivery in|is free on/i);
    // The shopper's name was not read either: the account's name stands in.
    expect(prompt).toContain(me.name);

    for (const asked of ['How long does delivery take?', 'What is my order total?']) {
      const offline = await withTableUnreachable('delivery_options', () =>
        send(me.cookie, asked, { ...model, apiKey: null }),
      );
      expect(offline).toContain(DELIVERY_UNKNOWN);
      expect(offline).not.toMatch(/UGX \d|days|free/i);
    }
  });
});
