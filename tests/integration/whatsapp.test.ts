// WhatsApp order updates and Meta's webhook (issue 37) against the fake Cloud API on loopback
// (local/fakes/whatsapp-fake.ts) through the real adapter, with the fake EgoSMS for the fallback,
// on a real database: signatures, Meta's retries, templates, statuses, the fallback to SMS exactly
// once, STOP.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { receiptNumber } from '#core/order-rules.ts';
import { ORDER_UPDATE_TEMPLATES, WHATSAPP_TEXT } from '#core/whatsapp.ts';
import {
  profiles,
  smsNotifications,
  user,
  userSettings,
  whatsappContacts,
  whatsappMessages,
} from '#db/schema/index.ts';
import { FAKE_EGOSMS, startFakeEgoSms } from '#local/fakes/egosms-fake.ts';
import { type FakeWhatsApp, webhookEnvelope } from '#local/fakes/whatsapp-fake.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { egoSms } from '#server/services/sms/egosms.ts';
import { queueStatusText, type SmsService, sweepSms } from '#server/services/sms-service.ts';
import { addProduct } from '../support/catalogue.ts';
import type { LoopbackHandler } from '../support/loopback-handler.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { testContext } from '../support/trpc.ts';
import { serveWebhook, settled, startQuickFakeWhatsApp, whatsAppOf } from '../support/whatsapp.ts';

let test: TestDatabase;
let egosms: Awaited<ReturnType<typeof startFakeEgoSms>>;
let meta: FakeWhatsApp;
let shop: LoopbackHandler;
let sms: SmsService;
const background: Promise<unknown>[] = [];

const ctx = () =>
  testContext(test.db, new Headers(), { sms, background: (work) => background.push(work) });

const settle = () => settled(meta, background);

beforeAll(async () => {
  test = await openTestDatabase();
  egosms = await startFakeEgoSms();
  meta = await startQuickFakeWhatsApp();
  sms = {
    gateway: egoSms({
      url: egosms.env.EGOSMS_URL ?? '',
      username: FAKE_EGOSMS.username,
      password: FAKE_EGOSMS.password,
      sender: 'duuka',
      timeoutMs: 2000,
    }),
    whatsapp: whatsAppOf(meta),
    adminPhone: null,
    gapMs: 5,
  };
  shop = await serveWebhook(meta, ctx);
});
afterAll(async () => {
  await Promise.allSettled(background);
  await meta?.close();
  await shop?.close();
  await egosms?.close();
  await test?.close();
});
beforeEach(async () => {
  await settle();
});

let counter = 0;
/** A shopper with this phone who chose `channel`, and her order of one piece (cash on delivery). */
async function orderFor(phone: string, channel: 'sms' | 'whatsapp') {
  counter += 1;
  const id = randomUUID();
  const email = `${id}@example.ug`;
  await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
  await test.db.insert(profiles).values({ id, email, fullName: 'Nakato Achieng', phone });
  await test.db.insert(userSettings).values({ userId: id, notificationChannel: channel });
  const dress = await addProduct(test.db, {
    name: `Ankara Dress ${counter}`,
    price: 85_000,
    stock: 5,
  });
  const placed = await placeOrder(
    test.db,
    { id, email, name: 'Nakato Achieng' },
    {
      orderId: randomUUID(),
      lines: [{ variantId: dress.variantId, quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
    },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return placed.order.orderId;
}

const rowOf = async (orderId: string, kind = 'shipped') => {
  const rows = await test.db
    .select()
    .from(smsNotifications)
    .where(sql`${smsNotifications.orderId} = ${orderId} and ${smsNotifications.kind} = ${kind}`);
  expect(rows).toHaveLength(1);
  return rows[0] as typeof smsNotifications.$inferSelect;
};
const texted = (phone: string) => egosms.sent.filter((s) => s.number === phone.replace(/^\+/, ''));
const messagesIn = (phone: string) =>
  test.db.select().from(whatsappMessages).where(eq(whatsappMessages.phone, phone));

describe('the webhook', () => {
  it("answers Meta's verification with the challenge only for the shop's verify token", async () => {
    expect(await meta.verifyWebhook('1158201444')).toMatchObject({
      status: 200,
      body: '1158201444',
      verified: true,
    });
    const wrong = await fetch(
      `${shop.url}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`,
    );
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain('1158201444');
  });

  it('refuses a wrong or missing signature with 401 and stores nothing', async () => {
    const payload = webhookEnvelope({
      contacts: [{ profile: { name: 'Forger' }, wa_id: '256772000901' }],
      messages: [
        {
          from: '256772000901',
          id: 'wamid.forged-1',
          timestamp: '1764400000',
          type: 'text',
          text: { body: 'Hello' },
        },
      ],
    });
    expect(await meta.sendWebhook(payload, { signature: 'wrong' })).toBe(401);
    expect(await meta.sendWebhook(payload, { signature: 'none' })).toBe(401);
    expect(await meta.sendWebhook('{"entry":[', {})).toBe(400);
    expect(await messagesIn('+256772000901')).toEqual([]);
    // The same body, signed with the app secret, is taken.
    expect(await meta.sendWebhook(payload)).toBe(200);
    expect((await messagesIn('+256772000901')).map((m) => m.body)).toEqual(['Hello']);
  });

  it("keeps a message once however often Meta delivers it, and the sender's name", async () => {
    meta.duplicateNext();
    await meta.inbound('+256772000902', 'Is the Ankara dress in M?', { name: 'Aisha' });
    await settle();
    const kept = await messagesIn('+256772000902');
    expect(kept.map((m) => [m.direction, m.body, m.status])).toEqual([
      ['in', 'Is the Ankara dress in M?', 'received'],
    ]);
    expect(meta.webhooks().at(-1)?.answers).toEqual([200, 200]); // delivered twice, kept once
    const [contact] = await test.db
      .select()
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, '+256772000902'));
    expect(contact).toMatchObject({ name: 'Aisha', stoppedAt: null });
    expect(contact?.lastInboundAt).toBeInstanceOf(Date);
  });
});

describe('order updates on WhatsApp', () => {
  it("go as the kind's template with the text as its parameter; statuses are recorded, pricing too", async () => {
    const phone = '+256772000911';
    const orderId = await orderFor(phone, 'whatsapp');
    await queueStatusText(ctx(), orderId, { status: 'shipped', tracking: 'KLA-1' });
    await settle();
    const row = await rowOf(orderId);
    const message = row.messageContent;
    expect(message).toContain(`Order ${receiptNumber(orderId)} has shipped (tracking KLA-1).`);
    expect(row).toMatchObject({
      channel: 'whatsapp',
      status: 'sent',
      whatsappStatus: 'delivered',
      fallbackReason: null,
    });
    const [sent] = meta.sent(phone);
    expect(sent).toMatchObject({
      type: 'template',
      template: ORDER_UPDATE_TEMPLATES.shipped.name,
      parameters: [message],
      id: row.whatsappMessageId,
    });
    expect(texted(phone)).toEqual([]); // never both
    // The thread shows it as the shopper read it; Meta's pricing is kept.
    const [kept] = await messagesIn(phone);
    expect(kept).toMatchObject({
      direction: 'out',
      type: 'template',
      status: 'delivered',
      smsId: row.id,
      billable: true,
      pricingCategory: 'utility',
    });
    expect(kept?.body).toContain(message);
    // Read on the phone; a late `delivered` (Meta's retry) never undoes it.
    await meta.read(phone);
    await settle();
    expect((await rowOf(orderId)).whatsappStatus).toBe('read');
    const late = webhookEnvelope({
      statuses: [
        {
          id: row.whatsappMessageId,
          status: 'delivered',
          timestamp: '1764400000',
          recipient_id: phone.slice(1),
        },
      ],
    });
    expect(await meta.sendWebhook(late)).toBe(200);
    expect((await rowOf(orderId)).whatsappStatus).toBe('read');
    expect((await messagesIn(phone))[0]?.status).toBe('read');
  });

  it('a shopper who kept SMS gets an SMS', async () => {
    const phone = '+256772000912';
    const orderId = await orderFor(phone, 'sms');
    await queueStatusText(ctx(), orderId, { status: 'shipped' });
    await settle();
    expect(await rowOf(orderId)).toMatchObject({ channel: 'sms', status: 'sent' });
    expect(meta.sent(phone)).toEqual([]);
    expect(texted(phone)).toHaveLength(1);
  });

  it('a failed message is texted instead, exactly once, however often Meta reports the failure', async () => {
    const phone = '+256772000913';
    meta.setPhone(phone, { delivers: 'fails' });
    meta.duplicateNext(); // the first status webhook (sent) comes twice
    const orderId = await orderFor(phone, 'whatsapp');
    await queueStatusText(ctx(), orderId, { status: 'shipped' });
    await settle();
    const row = await rowOf(orderId);
    expect(row).toMatchObject({ channel: 'sms', status: 'sent', whatsappStatus: 'failed' });
    expect(row.fallbackReason).toMatch(/^WhatsApp failed \(131026 .*\): sent by SMS instead$/);
    expect(texted(phone).map((s) => s.message)).toEqual([row.messageContent]);
    // Meta delivers the `failed` webhook again: nothing more is sent.
    const failed = meta.webhooks().find((w) => w.body.includes('"failed"'));
    if (!failed) throw new Error('the fake reported the failure');
    expect(await meta.sendWebhook(failed.payload)).toBe(200);
    await settle();
    expect(texted(phone)).toHaveLength(1);
    expect(await sweepSms(ctx())).toBeGreaterThanOrEqual(0);
    await settle();
    expect(texted(phone)).toHaveLength(1);
  });

  it('a message not delivered within 10 minutes is texted by the sweep, once; a delivered one is not', async () => {
    const silent = '+256772000914';
    const heard = '+256772000915';
    meta.setPhone(silent, { delivers: 'silent' });
    const quiet = await orderFor(silent, 'whatsapp');
    const fine = await orderFor(heard, 'whatsapp');
    await queueStatusText(ctx(), quiet, { status: 'shipped' });
    await queueStatusText(ctx(), fine, { status: 'shipped' });
    await settle();
    expect(await rowOf(quiet)).toMatchObject({ channel: 'whatsapp', whatsappStatus: 'sent' });
    // Nine minutes on: still waiting.
    const wentOut = (minutes: number, orderId: string) =>
      test.db
        .update(smsNotifications)
        .set({ whatsappSentAt: sql`now() - make_interval(mins => ${minutes})` })
        .where(eq(smsNotifications.orderId, orderId));
    await wentOut(9, quiet);
    await wentOut(11, fine);
    await sweepSms(ctx());
    await settle();
    expect(texted(silent)).toEqual([]);
    await wentOut(11, quiet);
    await Promise.all([sweepSms(ctx()), sweepSms(ctx())]);
    await settle();
    const row = await rowOf(quiet);
    expect(row).toMatchObject({
      channel: 'sms',
      status: 'sent',
      fallbackReason: WHATSAPP_TEXT.fallbackSilent,
    });
    expect(texted(silent)).toHaveLength(1);
    await sweepSms(ctx());
    await settle();
    expect(texted(silent)).toHaveLength(1);
    expect(texted(heard)).toEqual([]);
    expect(await rowOf(fine)).toMatchObject({ channel: 'whatsapp', whatsappStatus: 'delivered' });
  });

  it("STOP turns a number's WhatsApp off, acknowledged once; its order updates go by SMS; START turns it on", async () => {
    const phone = '+256772000916';
    const orderId = await orderFor(phone, 'whatsapp');
    await meta.inbound(phone, 'STOP');
    await meta.inbound(phone, ' stop ');
    await settle();
    const acknowledgements = meta.sent(phone).filter((m) => m.text === WHATSAPP_TEXT.stopped);
    expect(acknowledgements).toHaveLength(1);
    expect(acknowledgements[0]?.type).toBe('text');
    await queueStatusText(ctx(), orderId, { status: 'shipped' });
    await settle();
    expect(await rowOf(orderId)).toMatchObject({ channel: 'sms', status: 'sent' });
    expect(meta.sent(phone).filter((m) => m.type === 'template')).toEqual([]);
    expect(texted(phone)).toHaveLength(1);

    await meta.inbound(phone, 'START');
    await settle();
    expect(meta.sent(phone).filter((m) => m.text === WHATSAPP_TEXT.started)).toHaveLength(1);
    await queueStatusText(ctx(), orderId, { status: 'delivered' });
    await settle();
    expect(await rowOf(orderId, 'delivered')).toMatchObject({ channel: 'whatsapp' });
  });

  it('Meta refusing the template (a bad token) sends the SMS at once, with the reason', async () => {
    const phone = '+256772000917';
    const orderId = await orderFor(phone, 'whatsapp');
    const refusing: SmsService = {
      ...sms,
      whatsapp: whatsAppOf(meta, 'expired-token'),
    };
    await queueStatusText(
      testContext(test.db, new Headers(), {
        sms: refusing,
        background: (work) => background.push(work),
      }),
      orderId,
      { status: 'shipped' },
    );
    await settle();
    const row = await rowOf(orderId);
    expect(row).toMatchObject({ channel: 'sms', status: 'sent', whatsappMessageId: null });
    expect(row.fallbackReason).toMatch(/^WhatsApp refused it \(WhatsApp answered HTTP 401 \(190\)/);
    expect(texted(phone)).toHaveLength(1);
  });
});
