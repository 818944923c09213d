// The assistant on WhatsApp and "Verify on WhatsApp" (issue 37), against the fake Cloud API and
// the fake Gemini on loopback, on a real database: it answers only when the owner turned it on;
// anyone gets the catalogue, a shopper's orders only once her number is verified on her account;
// "talk to a person" hands the thread to staff.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptNumber } from '#core/order-rules.ts';
import {
  VERIFICATION_TEMPLATE,
  WHATSAPP_ASSISTANT_TEXT,
  WHATSAPP_VERIFY_TEXT,
} from '#core/whatsapp.ts';
import { profiles, whatsappContacts, whatsappVerifications } from '#db/schema/index.ts';
import { FAKE_GEMINI_KEY, startFakeGemini } from '#local/fakes/gemini.ts';
import type { FakeWhatsApp } from '#local/fakes/whatsapp-fake.ts';
import type { Auth } from '#server/auth.ts';
import type { Context } from '#server/context.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import type { SmsService } from '#server/services/sms-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import type { LoopbackHandler } from '../support/loopback-handler.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, testContext } from '../support/trpc.ts';
import { serveWebhook, settled, startQuickFakeWhatsApp, whatsAppOf } from '../support/whatsapp.ts';

let test: TestDatabase;
let auth: Auth;
let meta: FakeWhatsApp;
let gemini: Awaited<ReturnType<typeof startFakeGemini>>;
let shop: LoopbackHandler;
let sms: SmsService;
const background: Promise<unknown>[] = [];

const extras = (): Partial<Context> => ({
  sms,
  background: (work) => background.push(work),
  assistant: {
    apiKey: FAKE_GEMINI_KEY,
    model: 'gemini-2.5-flash',
    baseUrl: gemini.env.GEMINI_BASE_URL ?? null,
    contact: { email: 'hello@duuka.ug', phone: '+256759301488' },
  },
});

const settle = () => settled(meta, background);

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  meta = await startQuickFakeWhatsApp();
  gemini = await startFakeGemini();
  sms = {
    gateway: null,
    whatsapp: whatsAppOf(meta),
    adminPhone: null,
  };
  shop = await serveWebhook(meta, () => testContext(test.db, new Headers(), extras()));
});
afterAll(async () => {
  await Promise.allSettled(background);
  await meta?.close();
  await gemini?.close();
  await shop?.close();
  await test?.close();
});

/** What the shop wrote to a number on WhatsApp, free text only (not templates). */
const answers = (phone: string) =>
  meta
    .sent(phone)
    .filter((m) => m.type === 'text')
    .map((m) => m.text);

let owner: DeskMember | undefined;
async function assistantMode(mode: 'off' | 'always' | 'after_hours') {
  owner ??= await deskMember(test.db, auth, 'owner');
  await deskCaller(test.db, owner, extras()).setWhatsAppAssistant({ mode });
}

describe('the assistant on WhatsApp', () => {
  it('stays quiet while the owner has it off', async () => {
    await assistantMode('off');
    await meta.inbound('+256772000931', 'Do you have a dress for a wedding?');
    await settle();
    expect(answers('+256772000931')).toEqual([]);
  });

  it('answers catalogue questions for anyone, and names the pieces with their links', async () => {
    await assistantMode('always');
    await addProduct(test.db, { name: 'Gomesi Wedding Dress', price: 240_000, stock: 3 });
    await meta.inbound('+256772000932', 'Do you have a wedding dress?');
    await settle();
    const [answer] = answers('+256772000932');
    expect(answer).toContain('Gomesi Wedding Dress');
    expect(answer).toMatch(/\/products\/[\w-]+/);
    const asked = gemini.requests.at(-1);
    expect(asked?.tools).not.toContain('trackOrder');
    expect(asked?.system).toContain('not verified');
  });

  it('refuses an unverified number her orders, and tells them once she verified it on her account', async () => {
    await assistantMode('always');
    const phone = '+256772000933';
    const shopper = await signedInShopper(test.db, auth);
    await test.db.update(profiles).set({ phone }).where(eq(profiles.id, shopper.id));
    const dress = await addProduct(test.db, { name: 'Kitenge Midi', price: 95_000, stock: 4 });
    const placed = await placeOrder(
      test.db,
      { id: shopper.id, email: shopper.email, name: shopper.name },
      {
        orderId: randomUUID(),
        lines: [{ variantId: dress.variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
      },
    );
    if (!placed.ok) throw new Error('order refused');
    const reference = receiptNumber(placed.order.orderId);

    // From the number alone: no order tool, nothing of hers in the answer.
    await meta.inbound(phone, `Where is my order ${reference}?`);
    await settle();
    const before = gemini.requests.at(-1);
    expect(before?.tools).not.toContain('trackOrder');
    expect(before?.system).not.toContain(reference);
    expect(answers(phone).join('\n')).not.toMatch(/pending|processing|95,000/i);

    // She verifies the number on the site: the code comes as the authentication template.
    const her = callerFor(test.db, new Headers({ cookie: shopper.cookie }), extras());
    expect(await her.account.whatsapp()).toEqual({ available: true, phone, verified: false });
    const sent = await her.account.sendWhatsAppCode();
    expect(sent.message).toBe(WHATSAPP_VERIFY_TEXT.sent(phone));
    const template = meta.sent(phone).find((m) => m.template === VERIFICATION_TEMPLATE.name);
    const code = template?.parameters?.[0] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '111111' : '000000';
    await expect(her.account.verifyWhatsApp({ code: wrong })).rejects.toThrow(
      WHATSAPP_VERIFY_TEXT.codeWrong,
    );
    await expect(her.account.verifyWhatsApp({ code: 'abc' })).rejects.toThrow(
      WHATSAPP_VERIFY_TEXT.codeInvalid,
    );
    expect(
      await her.account.verifyWhatsApp({ code: ` ${code.slice(0, 3)} ${code.slice(3)} ` }),
    ).toMatchObject({
      phone,
    });
    expect(await her.account.whatsapp()).toMatchObject({ verified: true });
    // The code is spent.
    await expect(her.account.verifyWhatsApp({ code })).rejects.toThrow(
      WHATSAPP_VERIFY_TEXT.codeExpired,
    );

    await meta.inbound(phone, `Where is my order ${reference}?`);
    await settle();
    const after = gemini.requests.at(-1);
    expect(after?.tools).toContain('trackOrder');
    expect(answers(phone).at(-1)).toContain(reference);
  });

  it('hands the thread to a person on request and says so; then stays quiet', async () => {
    await assistantMode('always');
    const phone = '+256772000934';
    await meta.inbound(phone, 'Can I talk to a person please');
    await settle();
    expect(answers(phone)).toEqual([WHATSAPP_ASSISTANT_TEXT.handedOver]);
    const [contact] = await test.db
      .select()
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, phone));
    expect(contact?.handedOverAt).toBeInstanceOf(Date);
    const asked = gemini.requests.length;
    await meta.inbound(phone, 'Do you have a wedding dress?');
    await settle();
    expect(answers(phone)).toHaveLength(1);
    expect(gemini.requests.length).toBe(asked);
  });

  it('a verification code: 5 tries, 10 minutes, one account per number', async () => {
    const phone = '+256772000935';
    const first = await signedInShopper(test.db, auth);
    const second = await signedInShopper(test.db, auth);
    for (const shopper of [first, second]) {
      await test.db.update(profiles).set({ phone }).where(eq(profiles.id, shopper.id));
    }
    const codeFor = async (shopper: typeof first) => {
      const caller = callerFor(test.db, new Headers({ cookie: shopper.cookie }), extras());
      await caller.account.sendWhatsAppCode();
      const code =
        meta
          .sent(phone)
          .filter((m) => m.template === VERIFICATION_TEMPLATE.name)
          .at(-1)?.parameters?.[0] ?? '';
      return { caller, code };
    };
    const a = await codeFor(first);
    await a.caller.account.verifyWhatsApp({ code: a.code });
    const b = await codeFor(second);
    await b.caller.account.verifyWhatsApp({ code: b.code });
    // The number is the second account's now.
    const verified = await test.db
      .select({ userId: whatsappVerifications.userId })
      .from(whatsappVerifications)
      .where(eq(whatsappVerifications.phone, phone));
    expect(verified).toEqual([{ userId: second.id }]);
    expect(await a.caller.account.whatsapp()).toMatchObject({ verified: false });

    const c = await codeFor(first);
    const wrong = c.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      await expect(c.caller.account.verifyWhatsApp({ code: wrong })).rejects.toThrow(
        WHATSAPP_VERIFY_TEXT.codeWrong,
      );
    }
    await expect(c.caller.account.verifyWhatsApp({ code: c.code })).rejects.toThrow(
      WHATSAPP_VERIFY_TEXT.tooManyTries,
    );
    const d = await codeFor(first);
    await test.db
      .update(whatsappVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(whatsappVerifications.userId, first.id));
    await expect(d.caller.account.verifyWhatsApp({ code: d.code })).rejects.toThrow(
      WHATSAPP_VERIFY_TEXT.codeExpired,
    );
  });

  it('no phone on the profile, or no WhatsApp in the shop: a clear refusal, nothing sent', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const caller = callerFor(test.db, new Headers({ cookie: shopper.cookie }), extras());
    await expect(caller.account.sendWhatsAppCode()).rejects.toThrow(WHATSAPP_VERIFY_TEXT.noPhone);
    const without = callerFor(test.db, new Headers({ cookie: shopper.cookie }), {
      ...extras(),
      sms: { gateway: null, adminPhone: null },
    });
    expect(await without.account.whatsapp()).toMatchObject({ available: false });
    await expect(without.account.sendWhatsAppCode()).rejects.toThrow(
      'WhatsApp is not set up for this shop.',
    );
  });
});
