// The staff's WhatsApp inbox (issue 37) against the fake Cloud API on loopback
// (local/fakes/whatsapp-fake.ts) through the real adapter and the shop's signed webhook, on a real
// database: threads newest first with their unread counts, a message Meta delivered twice shown
// once, a reply inside the window on the shopper's phone with who wrote it, nothing sent outside
// the window or after STOP, Meta's own refusal shown with its reason, a piece's card and a cart
// link, the shopper's account, cart and orders beside the thread; customers and visitors refused;
// hostile input refused with the catalogue's words.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DESK_INBOX_TEXT } from '#core/desk-inbox.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { WHATSAPP_TEXT, WHATSAPP_TEXT_MAX } from '#core/whatsapp.ts';
import {
  cartItems,
  deskRecords,
  productImages,
  profiles,
  whatsappContacts,
  whatsappMessages,
} from '#db/schema/index.ts';
import type { FakeWhatsApp } from '#local/fakes/whatsapp-fake.ts';
import type { Auth } from '#server/auth.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import type { SmsService } from '#server/services/sms-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember } from '../support/desk.ts';
import type { LoopbackHandler } from '../support/loopback-handler.ts';
import {
  type HeardRequest,
  openTestDatabase,
  type TestDatabase,
} from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp, testContext } from '../support/trpc.ts';
import { serveWebhook, settled, startQuickFakeWhatsApp, whatsAppOf } from '../support/whatsapp.ts';

const SHOP = 'https://duuka.test';
const T = DESK_INBOX_TEXT;

let test: TestDatabase;
let auth: Auth;
let meta: FakeWhatsApp;
let shop: LoopbackHandler;
let sms: SmsService;
let owner: DeskMember;
let staff: DeskMember;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;
const background: Promise<unknown>[] = [];
/** Every request the database received since the last `listen()`. */
let heard: HeardRequest[] = [];

const extras = (whatsapp = true) => ({
  sms: whatsapp ? sms : { gateway: null, adminPhone: null },
  payments: { providers: {}, callbackOrigin: SHOP },
  background: (work: Promise<unknown>) => {
    background.push(work);
  },
});
const desk = (person: DeskMember = staff, whatsapp = true) =>
  deskCaller(test.db, person, extras(whatsapp));

/** Runs what the requests left in the background, and waits for the fake's webhooks. */
const settle = () => settled(meta, background);

beforeAll(async () => {
  test = await openTestDatabase({ heard: (request) => heard.push(request) });
  auth = testAuth(test.db);
  meta = await startQuickFakeWhatsApp();
  sms = {
    gateway: null,
    whatsapp: whatsAppOf(meta),
    adminPhone: null,
  };
  shop = await serveWebhook(meta, () => testContext(test.db, new Headers(), extras()));
  owner = await deskMember(test.db, auth, 'owner', 'Olive Owner');
  staff = await deskMember(test.db, auth, 'staff', 'Sam Staff');
  shopper = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
});
afterAll(async () => {
  await Promise.allSettled(background);
  await meta?.close();
  await shop?.close();
  await test?.close();
});
beforeEach(async () => {
  await settle();
});

let numbers = 0;
/** A number of this file's own ('+25677201' and 4 digits). */
function aNumber() {
  numbers += 1;
  return `+25677201${String(numbers).padStart(4, '0')}`;
}

/** The shopper writes from her phone (a signed webhook, as Meta posts it). */
async function writes(phone: string, text: string, name?: string) {
  const answer = await meta.inbound(phone, text, name ? { name } : {});
  await settle();
  return answer;
}

const outbound = (phone: string) =>
  test.db
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.phone, phone), eq(whatsappMessages.direction, 'out')));

/** Moves the shopper's last message back (the shop's record and the fake's). */
async function lastWroteAgo(phone: string, seconds: number) {
  meta.age(phone, seconds);
  await test.db
    .update(whatsappContacts)
    .set({ lastInboundAt: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(whatsappContacts.phone, phone));
}

describe('desk.inbox', () => {
  it('lists one thread per number, newest first, with unread counts; Meta’s retry shown once', async () => {
    const aisha = aNumber();
    const brenda = aNumber();
    await writes(aisha, 'Hello, is the Ankara dress in M?', 'Aisha');
    meta.duplicateNext(); // Meta delivers this one twice
    await writes(brenda, 'Do you deliver to Ntinda?', 'Brenda');
    await writes(brenda, 'Today if possible');
    expect(meta.webhooks().some((w) => w.answers.length === 2)).toBe(true);

    heard = [];
    const { threads } = await desk().inbox();
    // One statement read the threads (the session's own reads aside).
    expect(heard.filter((r) => r.some((s) => s.query.includes('whatsapp_messages')))).toHaveLength(
      1,
    );
    const mine = threads.filter((t) => t.phone === aisha || t.phone === brenda);
    expect(mine.map((t) => [t.phone, t.name, t.unread, t.lastMessage.body])).toEqual([
      [brenda, 'Brenda', 2, 'Today if possible'],
      [aisha, 'Aisha', 1, 'Hello, is the Ankara dress in M?'],
    ]);
    expect(mine[0]?.lastMessage).toMatchObject({ direction: 'in', type: 'text' });
    expect(Date.parse(mine[0]?.lastAt ?? '')).toBeGreaterThan(Date.parse(mine[1]?.lastAt ?? ''));
    // Newest first throughout.
    const times = threads.map((t) => Date.parse(t.lastAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // The thread holds each message once, oldest first.
    const thread = await desk().thread({ phone: brenda });
    expect(thread.messages.map((m) => [m.direction, m.body])).toEqual([
      ['in', 'Do you deliver to Ntinda?'],
      ['in', 'Today if possible'],
    ]);
    expect(thread.contact).toMatchObject({ name: 'Brenda', stopped: false, windowOpen: true });

    // Read: no unread until she writes again.
    expect(await desk().readThread({ phone: brenda })).toEqual({ read: true });
    const unreadOf = async (phone: string) =>
      (await desk().inbox()).threads.find((t) => t.phone === phone)?.unread;
    expect(await unreadOf(brenda)).toBe(0);
    await writes(brenda, 'Hello?');
    expect(await unreadOf(brenda)).toBe(1);
    // Brenda wrote last: her thread is first again.
    expect((await desk().inbox()).threads[0]?.phone).toBe(brenda);
  });

  it('names the account the number belongs to', async () => {
    const phone = aNumber();
    await test.db
      .insert(profiles)
      .values({ id: shopper.id, email: shopper.email, fullName: 'Nakato Achieng', phone })
      .onConflictDoUpdate({ target: profiles.id, set: { fullName: 'Nakato Achieng', phone } });
    await writes(phone, 'Hi, it’s Nakato');
    const thread = (await desk().inbox()).threads.find((t) => t.phone === phone);
    expect(thread?.customer).toEqual({
      id: shopper.id,
      name: 'Nakato Achieng',
      email: shopper.email,
    });
    const stranger = aNumber();
    await writes(stranger, 'Hello');
    expect((await desk().inbox()).threads.find((t) => t.phone === stranger)?.customer).toBeNull();
  });
});

describe('the assistant on WhatsApp and the inbox', () => {
  it('a shopper who asked for a person is marked until staff answer; the assistant’s messages are named', async () => {
    const phone = aNumber();
    await writes(phone, 'Talk to a person please', 'Grace');
    // The assistant handed the thread over and said so (as server/services/whatsapp-assistant.ts).
    await test.db
      .update(whatsappContacts)
      .set({ handedOverAt: sql`now()` })
      .where(eq(whatsappContacts.phone, phone));
    await test.db.insert(whatsappMessages).values({
      phone,
      direction: 'out',
      type: 'text',
      body: 'A person from duuka will answer you here soon.',
      status: 'delivered',
      byAssistant: true,
    });
    const listed = async () => (await desk().inbox()).threads.find((t) => t.phone === phone);
    expect((await listed())?.asksForPerson).toBe(true);
    expect((await desk().thread({ phone })).contact.asksForPerson).toBe(true);
    expect((await desk().thread({ phone })).messages.map((m) => m.sentBy)).toEqual([
      null,
      WHATSAPP_TEXT.sentByAssistant,
    ]);
    await desk(staff).reply({ phone, text: 'Hello Grace, Sam here. How can I help?' });
    expect((await listed())?.asksForPerson).toBe(false);
    const thread = await desk().thread({ phone });
    expect(thread.contact.asksForPerson).toBe(false);
    expect(thread.messages.map((m) => m.sentBy)).toEqual([
      null,
      WHATSAPP_TEXT.sentByAssistant,
      'Sam Staff',
    ]);
  });

  it('a staff reply takes the thread from the assistant for 24 hours', async () => {
    const phone = aNumber();
    await writes(phone, 'Hello');
    const before = await test.db
      .select({ at: whatsappContacts.handedOverAt })
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, phone));
    expect(before[0]?.at).toBeNull();
    await desk(staff).reply({ phone, text: 'Hello! How can I help?' });
    const [after] = await test.db
      .select({ at: whatsappContacts.handedOverAt })
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, phone));
    expect(after?.at).toBeInstanceOf(Date);
    // The order updates' own messages are the shop's.
    await test.db.insert(whatsappMessages).values({
      phone,
      direction: 'out',
      type: 'template',
      body: 'Your duuka order is on its way.',
      status: 'sent',
    });
    expect((await desk().thread({ phone })).messages.at(-1)?.sentBy).toBe(WHATSAPP_TEXT.sentByShop);
  });
});

describe('desk.thread', () => {
  it('shows the window until when it is open, and beside the thread her account, cart and orders, in one batch', async () => {
    const phone = aNumber();
    await test.db
      .insert(profiles)
      .values({ id: shopper.id, email: shopper.email, fullName: 'Nakato Achieng', phone })
      .onConflictDoUpdate({ target: profiles.id, set: { fullName: 'Nakato Achieng', phone } });
    const dress = await addProduct(test.db, { name: 'Inbox Kitenge Dress', price: 85_000 });
    const placed = await placeOrder(
      test.db,
      { id: shopper.id, email: shopper.email, name: 'Nakato Achieng' },
      {
        orderId: randomUUID(),
        lines: [{ variantId: dress.variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
      },
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
    // After the order (which takes what it bought out of her cart): two more in the cart.
    await test.db.delete(cartItems).where(eq(cartItems.userId, shopper.id));
    await test.db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: dress.variantId, quantity: 2 });
    await writes(phone, 'Where is my order?', 'Nakato');
    const [contact] = await test.db
      .select()
      .from(whatsappContacts)
      .where(eq(whatsappContacts.phone, phone));

    heard = [];
    const thread = await desk().thread({ phone });
    const reads = heard.filter((r) => r.some((s) => s.query.includes('whatsapp_messages')));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.some((s) => s.query.includes('cart_items'))).toBe(true);
    expect(reads[0]?.some((s) => s.query.includes('"orders"'))).toBe(true);

    expect(thread.contact.windowOpen).toBe(true);
    expect(Date.parse(thread.contact.windowUntil ?? '')).toBe(
      (contact?.lastInboundAt?.getTime() ?? 0) + 24 * 3_600_000,
    );
    expect(thread.customer).toMatchObject({
      id: shopper.id,
      name: 'Nakato Achieng',
      email: shopper.email,
    });
    expect(
      thread.customer?.cart.productsInCart.map((line) => [line.name, line.quantity, line.price]),
    ).toEqual([['Inbox Kitenge Dress', 2, 85_000]]);
    expect(thread.customer?.orders[0]).toMatchObject({
      id: placed.order.orderId,
      status: 'pending',
      pieces: 1,
      paymentMethod: 'cash_on_delivery',
    });
  });

  it('reads a number nobody wrote from as an empty thread; marking it read marks nothing', async () => {
    const phone = aNumber();
    expect(await desk().thread({ phone })).toEqual({
      phone,
      contact: {
        name: null,
        stopped: false,
        windowOpen: false,
        windowUntil: null,
        readAt: null,
        asksForPerson: false,
      },
      messages: [],
      customer: null,
    });
    expect(await desk().readThread({ phone })).toEqual({ read: false });
    // Any spelling of a Ugandan number reads the same thread.
    expect((await desk().thread({ phone: `0${phone.slice(4)}` })).phone).toBe(phone);
  });
});

describe('desk.reply', () => {
  it('inside the window: on her phone, kept with who wrote it and in the desk’s record; a retry sends once', async () => {
    const phone = aNumber();
    await writes(phone, 'Is the Ankara dress in M?', 'Aisha');
    const requestKey = randomUUID();
    const sent = await desk(staff).reply({
      phone,
      text: '  Yes, M is in stock.\nShall I hold it?  ',
      requestKey,
    });
    expect(sent.status).toBe('sent');
    // The same key again (a double tap): the same message, nothing sent twice.
    expect(
      await desk(staff).reply({ phone, text: 'Yes, M is in stock.\nShall I hold it?', requestKey }),
    ).toEqual({ messageId: sent.messageId, status: expect.any(String) });
    await settle();
    expect(meta.sent(phone).map((m) => [m.type, m.text])).toEqual([
      ['text', 'Yes, M is in stock.\nShall I hold it?'],
    ]);
    const [row] = await outbound(phone);
    expect(row).toMatchObject({
      id: sent.messageId,
      sentBy: staff.id,
      type: 'text',
      body: 'Yes, M is in stock.\nShall I hold it?',
      status: 'delivered',
      wamid: meta.sent(phone)[0]?.id,
    });
    const records = await test.db
      .select()
      .from(deskRecords)
      .where(eq(deskRecords.requestKey, requestKey));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actorEmail: staff.email,
      action: 'whatsapp.replied',
      subject: `WhatsApp ${phone}`,
    });
    expect(records[0]?.details).toMatchObject({ phone, messageId: sent.messageId });
    // The thread: who answered, and what became of it.
    const thread = await desk(owner).thread({ phone });
    expect(thread.messages.map((m) => [m.direction, m.sentBy, m.status])).toEqual([
      ['in', null, 'received'],
      ['out', 'Sam Staff', 'delivered'],
    ]);
    // Another staff member's key is not hers to replay.
    await expect(
      desk(owner).reply({ phone, text: 'Hello again', requestKey }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: DESK_TEXT.badRequestKey });
  });

  it('outside the window (or never written): refused with the text, and nothing reaches Meta', async () => {
    const phone = aNumber();
    await writes(phone, 'Thanks!');
    await lastWroteAgo(phone, 24 * 3600 + 60);
    const before = meta.sent().length;
    for (const send of [
      () => desk().reply({ phone, text: 'Any news?' }),
      () => desk().sendCartLink({ phone, items: [{ variantId: 1, quantity: 1 }] }),
      () => desk().reply({ phone: aNumber(), text: 'Hello, this is duuka' }),
    ]) {
      await expect(send()).rejects.toMatchObject({
        code: 'CONFLICT',
        message: WHATSAPP_TEXT.outsideWindow,
      });
    }
    await settle();
    expect(meta.sent().length).toBe(before);
    expect(await outbound(phone)).toEqual([]);
    const thread = await desk().thread({ phone });
    expect(thread.contact.windowOpen).toBe(false);
    // Written again: open again.
    await writes(phone, 'Hello?');
    expect((await desk().reply({ phone, text: 'Hello! How can I help?' })).status).toBe('sent');
  });

  it('a number that sent STOP: refused, nothing sent but the one acknowledgement', async () => {
    const phone = aNumber();
    await writes(phone, 'STOP');
    expect(meta.sent(phone).map((m) => m.text)).toEqual([WHATSAPP_TEXT.stopped]);
    await expect(desk().reply({ phone, text: 'Sorry to see you go' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: WHATSAPP_TEXT.stoppedNumber,
    });
    await settle();
    expect(meta.sent(phone)).toHaveLength(1);
    expect((await desk().thread({ phone })).contact.stopped).toBe(true);
  });

  it('Meta refusing it when sent: shown with the reason, kept as failed in the thread', async () => {
    const phone = aNumber();
    await writes(phone, 'Hello');
    // The shop's record says the window is open; Meta's clock says it has shut.
    meta.age(phone, 24 * 3600 + 60);
    const refused = desk().reply({ phone, text: 'Hello! Yes.' });
    await expect(refused).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: WHATSAPP_TEXT.sendRefused('Outside the 24-hour window (131047)'),
    });
    const [row] = await outbound(phone);
    expect(row).toMatchObject({ status: 'failed', wamid: null, sentBy: staff.id });
    expect(row?.error).toContain('131047');
    const thread = await desk().thread({ phone });
    expect(thread.messages.at(-1)).toMatchObject({ status: 'failed', sentBy: 'Sam Staff' });
  });

  it('with WhatsApp not set up: every send refused with the text', async () => {
    const phone = aNumber();
    await writes(phone, 'Hello');
    for (const send of [
      () => desk(staff, false).reply({ phone, text: 'Hi' }),
      () => desk(staff, false).sendPiece({ phone, productId: 1 }),
      () => desk(staff, false).sendCartLink({ phone, items: [{ variantId: 1, quantity: 1 }] }),
    ]) {
      await expect(send()).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: WHATSAPP_TEXT.notConfigured,
      });
    }
    expect(meta.sent(phone)).toEqual([]);
    expect(await deskCaller(test.db, staff, extras(false)).role()).toMatchObject({
      whatsapp: false,
    });
    expect(await desk(staff).role()).toMatchObject({ whatsapp: true });
  });
});

describe('desk.sendPiece and desk.sendCartLink', () => {
  it('a piece’s card: its picture, name, price in UGX and page; a draft is refused', async () => {
    const phone = aNumber();
    await writes(phone, 'Show me the wrap dress');
    const dress = await addProduct(test.db, {
      name: 'Inbox Wrap Dress',
      price: 120_000,
      image: '/images/products/inbox-wrap-dress.jpg',
      options: [{ name: 'Size', values: ['M', 'L'] }],
      stock: { M: 2, L: 1 },
    });
    // Its photos come before the older picture column: the first by position.
    await test.db.insert(productImages).values([
      {
        productId: dress.id,
        url: '/images/products/inbox-wrap/back.jpg',
        alt: 'Back',
        position: 1,
      },
      {
        productId: dress.id,
        url: '/images/products/inbox-wrap/front.jpg',
        alt: 'Front',
        position: 0,
      },
    ]);
    const variantId = dress.variants.L as number;
    const sent = await desk().sendPiece({ phone, productId: dress.id, variantId });
    await settle();
    const [card] = meta.sent(phone);
    const caption = `Inbox Wrap Dress (L)\nUGX 120,000\n${SHOP}/products/${dress.slug}?variant=${variantId}`;
    expect(card).toMatchObject({
      type: 'image',
      image: { link: `${SHOP}/images/products/inbox-wrap/front.jpg`, caption },
    });
    const [row] = await outbound(phone);
    expect(row).toMatchObject({
      id: sent.messageId,
      type: 'image',
      body: caption,
      sentBy: staff.id,
    });

    // A piece without a picture WhatsApp shows goes as text; a draft is not sent at all.
    const svg = await addProduct(test.db, {
      name: 'Inbox Beaded Clutch',
      price: 45_000,
      image: '/images/products/clutch.svg',
    });
    await desk().sendPiece({ phone, productId: svg.id });
    await settle();
    expect(meta.sent(phone).at(-1)).toMatchObject({
      type: 'text',
      text: `Inbox Beaded Clutch\nUGX 45,000\n${SHOP}/products/${svg.slug}?variant=${svg.variantId}`,
    });
    await test.db.execute(sql`update products set status = 'draft' where id = ${svg.id}`);
    await expect(desk().sendPiece({ phone, productId: svg.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: T.pieceUnavailable,
    });
    // Another product's variant is not this product's.
    await expect(
      desk().sendPiece({ phone, productId: dress.id, variantId: svg.variantId }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(meta.sent(phone)).toHaveLength(2);
  });

  it('a cart link: the pieces named and the shop’s absolute /cart?add= link', async () => {
    const phone = aNumber();
    await writes(phone, 'Please send me the link');
    const top = await addProduct(test.db, { name: 'Inbox Linen Top', price: 60_000 });
    const skirt = await addProduct(test.db, {
      name: 'Inbox Pleated Skirt',
      price: 75_000,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      stock: { S: 3, M: 3 },
    });
    const m = skirt.variants.M as number;
    await desk(owner).sendCartLink({
      phone,
      items: [
        { variantId: top.variantId, quantity: 2 },
        { variantId: m, quantity: 1 },
      ],
    });
    await settle();
    expect(meta.sent(phone).map((s) => s.text)).toEqual([
      `Your duuka cart, ready to open:\n2 × Inbox Linen Top\n1 × Inbox Pleated Skirt (M)\n\n${SHOP}/cart?add=${top.variantId}x2,${m}x1`,
    ]);
    const [row] = await outbound(phone);
    expect(row?.sentBy).toBe(owner.id);
    // A piece not on sale: refused; a piece named twice: refused.
    await test.db.execute(sql`update products set status = 'archived' where id = ${top.id}`);
    await expect(
      desk().sendCartLink({ phone, items: [{ variantId: top.variantId, quantity: 1 }] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: T.pieceUnavailable });
    const twice = await mutateOverHttp(
      test.db,
      'desk.sendCartLink',
      {
        phone,
        items: [
          { variantId: m, quantity: 1 },
          { variantId: m, quantity: 2 },
        ],
      },
      { cookie: staff.cookie, ...extras() },
    );
    expect([twice.status, twice.body.error?.message]).toEqual([400, T.twiceInLink]);
    expect(meta.sent(phone)).toHaveLength(1);
  });
});

describe('who may use the inbox, and what it takes', () => {
  const PROCEDURES = [
    ['inbox', 'query', undefined],
    ['thread', 'query', { phone: '+256772019999' }],
    ['readThread', 'mutation', { phone: '+256772019999' }],
    ['reply', 'mutation', { phone: '+256772019999', text: 'Hi' }],
    ['sendPiece', 'mutation', { phone: '+256772019999', productId: 1 }],
    [
      'sendCartLink',
      'mutation',
      { phone: '+256772019999', items: [{ variantId: 1, quantity: 1 }] },
    ],
  ] as const;

  it('a customer is FORBIDDEN and a visitor UNAUTHORIZED, for every procedure', async () => {
    const answers: Record<string, [number, number]> = {};
    for (const [name, kind, input] of PROCEDURES) {
      const call = kind === 'query' ? queryOverHttp : mutateOverHttp;
      const asCustomer = await call(test.db, `desk.${name}`, input, {
        cookie: shopper.cookie,
        ...extras(),
      });
      expect(asCustomer.body.error?.message).toBe(DESK_TEXT.deskOnly);
      const signedOut = await call(test.db, `desk.${name}`, input, extras());
      answers[name] = [asCustomer.status, signedOut.status];
    }
    expect(answers).toEqual(Object.fromEntries(PROCEDURES.map(([name]) => [name, [403, 401]])));
    // In-process (as SSR calls them) alike.
    const visitor = callerFor(test.db, new Headers(), extras()).desk;
    await expect(visitor.inbox()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const customer = callerFor(test.db, new Headers({ cookie: shopper.cookie }), extras()).desk;
    await expect(customer.reply({ phone: '+256772019999', text: 'Hi' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('refuses wrong types, huge text, NUL and bad numbers with the catalogue’s words; sends nothing', async () => {
    const phone = aNumber();
    await writes(phone, 'Hello');
    const reply = (input: unknown) =>
      mutateOverHttp(test.db, 'desk.reply', input, { cookie: staff.cookie, ...extras() });
    const cases: [unknown, string][] = [
      [{ phone, text: 42 }, WHATSAPP_TEXT.replyNotText],
      [{ phone, text: null }, WHATSAPP_TEXT.replyNotText],
      [{ phone, text: '   \n ' }, WHATSAPP_TEXT.replyEmpty],
      [{ phone, text: 'x'.repeat(WHATSAPP_TEXT_MAX + 1) }, WHATSAPP_TEXT.replyTooLong],
      [{ phone, text: 'x'.repeat(200_000) }, WHATSAPP_TEXT.replyTooLong],
      [{ phone, text: 'Yes\u0000' }, WHATSAPP_TEXT.replyInvisible],
      [{ phone, text: 'a\u202e\u0007b' }, WHATSAPP_TEXT.replyInvisible],
      [{ phone: 'not a number', text: 'Hi' }, T.badPhone],
      [{ phone: 12345678, text: 'Hi' }, T.badPhone],
      [{ phone: '+1', text: 'Hi' }, T.badPhone],
      [{ phone: `${phone}\u0000`, text: 'Hi' }, T.badPhone],
      [{ phone, text: 'Hi', sentBy: owner.id }, T.badInput],
      [{ phone, text: 'Hi', requestKey: 'again' }, DESK_TEXT.badRequestKey],
      ['Hi', T.badInput],
    ];
    const refused: unknown[] = [];
    for (const [input, message] of cases) {
      const answer = await reply(input);
      if (answer.status !== 400 || answer.body.error?.message !== message) {
        refused.push({ input: JSON.stringify(input).slice(0, 60), answer: answer.body.error });
      }
    }
    expect(refused).toEqual([]);
    // Exactly 4,096 characters is Meta's limit, and goes.
    expect((await reply({ phone, text: 'y'.repeat(WHATSAPP_TEXT_MAX) })).status).toBe(200);
    for (const input of [
      { phone, productId: 'abc' },
      { phone, productId: 2 ** 31 },
      { phone, productId: 1, variantId: -1 },
      { phone, items: [] },
      { phone, items: [{ variantId: 1, quantity: 0 }] },
      { phone, items: Array.from({ length: 21 }, (_, i) => ({ variantId: i + 1, quantity: 1 })) },
    ]) {
      const path = 'items' in input ? 'desk.sendCartLink' : 'desk.sendPiece';
      const answer = await mutateOverHttp(test.db, path, input, {
        cookie: staff.cookie,
        ...extras(),
      });
      expect([path, answer.status]).toEqual([path, 400]);
    }
    await settle();
    expect(meta.sent(phone).map((m) => m.text.length)).toEqual([WHATSAPP_TEXT_MAX]);
  });
});
