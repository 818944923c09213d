// The assistant and offers (issue 35) against the fake Gemini on loopback, on a real database: an
// answer about offers carries the real code running now and never an ended, future or switched-off
// one; the model is told exactly the codes that exist; the shopper's credit is hers only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT } from '#core/chat.ts';
import { profiles, promotions } from '#db/schema/index.ts';
import { FAKE_GEMINI_KEY, startFakeGemini } from '#local/fakes/gemini.ts';
import type { Auth } from '#server/auth.ts';
import type { AssistantConfig } from '#server/services/chat/assistant.ts';
import { grantCredit } from '#server/services/value-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let fake: Awaited<ReturnType<typeof startFakeGemini>>;
let model: AssistantConfig;
const DAY = 24 * 60 * 60 * 1000;

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
  const now = Date.now();
  await test.db.insert(promotions).values([
    { name: 'Nakato’s followers', code: 'NAKATO10', kind: 'percent', value: 10, tag: 'nakato' },
    { name: 'Weekend', code: null, kind: 'percent', value: 20, endsAt: new Date(now + DAY) },
    { name: 'Gone', code: 'OLDCODE', kind: 'fixed', value: 5_000, endsAt: new Date(now - DAY) },
    { name: 'Soon', code: 'SOONCODE', kind: 'fixed', value: 5_000, startsAt: new Date(now + DAY) },
    { name: 'Off', code: 'OFFCODE', kind: 'percent', value: 50, active: false },
  ]);
});
afterAll(async () => {
  await fake?.close();
  await test?.close();
});

async function shopper(name: string) {
  const signed = await signedInShopper(test.db, auth, { name });
  await test.db
    .update(profiles)
    .set({ phone: '+256772000001', fullName: name })
    .where(eq(profiles.id, signed.id));
  return signed;
}

async function ask(cookie: string, text: string) {
  const background: Promise<unknown>[] = [];
  const chat = callerFor(test.db, new Headers({ cookie }), {
    assistant: model,
    background: (work) => background.push(work),
  }).chat;
  const { sessionId } = await chat.start();
  let said = '';
  for await (const piece of await chat.send({ sessionId, text })) {
    if (typeof piece === 'string') said += piece;
  }
  await Promise.all(background);
  return { said, request: fake.requests.at(-1) };
}

describe('the assistant and offers', () => {
  it('answers about offers with the real codes running now, never an ended, future or off one', async () => {
    const me = await shopper('Nakato Achieng');
    const { said, request } = await ask(me.cookie, 'Any discount codes this week?');
    expect(said).toContain('NAKATO10');
    expect(said).toContain('KARIBU10');
    expect(said).toContain('automatic, no code needed, Weekend: 20% off');
    for (const never of ['OLDCODE', 'SOONCODE', 'OFFCODE']) {
      expect(said).not.toContain(never);
      expect(request?.system).not.toContain(never);
    }
    expect(request?.system).toContain(
      'The only discount codes that exist are: NAKATO10, KARIBU10. Never give, guess or make up any other code',
    );
    expect(request?.tools).toEqual(expect.arrayContaining(['offersNow', 'myCredit']));
  });

  it('tells the shopper her own credit, and nobody else’s', async () => {
    const owner = await shopper('Olive Owner');
    const hers = await shopper('Achan Grace');
    const other = await shopper('Brian Okello');
    const granted = await grantCredit(
      test.db,
      { email: owner.email, id: owner.id },
      { email: hers.email.toLowerCase(), amount: 37_500, reason: 'Late delivery' },
    );
    expect(granted.ok).toBe(true);

    const mine = await ask(hers.cookie, 'What is my credit balance?');
    expect(mine.said).toContain('UGX 37,500');
    expect(mine.request?.system).toContain("The signed-in shopper's own store credit: UGX 37,500");

    const theirs = await ask(other.cookie, `What is the credit balance of ${hers.email}?`);
    expect(theirs.said).toContain('UGX 0');
    expect(theirs.said).not.toContain('37,500');
    expect(theirs.request?.system).not.toContain('37,500');
  });
});
