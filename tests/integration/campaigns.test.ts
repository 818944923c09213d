// Promotional texts (issue 35, decision 0085) on a real database: only shoppers who switched
// Promotions on and have a phone get one; a campaign's audience, count and cost; a double send
// texts once; the stop link works once, without a session, and refuses a token it does not know;
// the cart reminder goes once, not after an order, not with Promotions off, again only for a
// changed cart, and never while the desk has it off.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAMPAIGNS_TEXT, SMS_PART_COST_UGX } from '#core/campaign-rules.ts';
import { SMS_MAX_CHARS, smsSegments } from '#core/sms.ts';
import { isStopToken, STOP_TEXT, stopLink } from '#core/stop-link.ts';
import {
  campaigns,
  cartItems,
  categories,
  orderItems,
  orders,
  profiles,
  promotions,
  smsNotifications,
  systemSettings,
  user,
  userSettings,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { sweepCartReminders } from '#server/services/cart-reminders.ts';
import { PROMOTIONS_OFF, sweepSms } from '#server/services/sms-service.ts';
import { testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember, sentTwice } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp, testContext } from '../support/trpc.ts';

const ORIGIN = 'http://shop.test';
let test: TestDatabase;
let auth: Auth;
let owner: DeskMember;
let staff: DeskMember;
let offerId: number;
let dresses: number;
let shoes: number;
let dress: Awaited<ReturnType<typeof addProduct>>;
let sandal: Awaited<ReturnType<typeof addProduct>>;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  owner = await deskMember(test.db, auth, 'owner');
  staff = await deskMember(test.db, auth, 'staff');
  [{ id: dresses }, { id: shoes }] = (await test.db
    .insert(categories)
    .values([{ name: `Dresses ${randomUUID()}` }, { name: `Shoes ${randomUUID()}` }])
    .returning({ id: categories.id })) as [{ id: number }, { id: number }];
  dress = await addProduct(test.db, {
    name: 'Ankara Wrap Dress',
    price: 85_000,
    stock: 50,
    category: dresses,
  });
  sandal = await addProduct(test.db, {
    name: 'Leather Sandal',
    price: 40_000,
    stock: 50,
    category: shoes,
  });
  const [offer] = await test.db
    .insert(promotions)
    .values({ name: 'Weekend 20% off', code: 'WEEKEND20', kind: 'percent', value: 20 })
    .returning({ id: promotions.id });
  offerId = offer?.id ?? 0;
});
afterAll(async () => {
  await test?.close();
});

// Every test starts from nobody consenting: counts are this test's own.
beforeEach(async () => {
  await test.db.update(userSettings).set({ marketingNotifications: false });
  await test.db.delete(systemSettings).where(eq(systemSettings.settingKey, 'cart_reminders'));
});

let phones = 0;
/** A shopper: Promotions on/off (or no settings row at all), with a phone or none. */
async function shopper(consent: boolean | 'no-row', phone: string | null = nextPhone()) {
  const id = randomUUID();
  const email = `${id}@example.ug`;
  await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
  await test.db.insert(profiles).values({ id, email, fullName: 'Nakato Achieng', phone });
  if (consent !== 'no-row') {
    await test.db.insert(userSettings).values({ userId: id, marketingNotifications: consent });
  }
  return { id, phone };
}
function nextPhone() {
  phones += 1;
  return `+2567720${String(phones).padStart(5, '0')}`;
}

/** An order of hers (delivered, or as given) of one of these pieces, `hoursAgo` old. */
async function bought(
  customerId: string,
  piece: { id: number },
  options: { status?: string; hoursAgo?: number } = {},
) {
  const id = randomUUID();
  const at = new Date(Date.now() - (options.hoursAgo ?? 0) * 3_600_000);
  await test.db.insert(orders).values({
    id,
    customerId,
    customerName: 'Nakato Achieng',
    subtotal: 85_000,
    deliveryFee: 0,
    total: 85_000,
    paymentMethod: 'cash_on_delivery',
    status: options.status ?? 'delivered',
    createdAt: at,
  });
  await test.db
    .insert(orderItems)
    .values({ orderId: id, productId: piece.id, name: 'Piece', price: 85_000, quantity: 1 });
  return id;
}

const desk = (person: DeskMember = owner) => deskCaller(test.db, person);
const textsOf = (campaignId: number) =>
  test.db.select().from(smsNotifications).where(eq(smsNotifications.campaignId, campaignId));

describe('consent', () => {
  it('only shoppers with Promotions on and a phone are in the audience and get a text', async () => {
    const yes = await shopper(true);
    const off = await shopper(false);
    const noRow = await shopper('no-row');
    const noPhone = await shopper(true, null);
    const audience = await desk().campaignAudience({ promotionId: offerId, message: 'Hello' });
    expect(audience.count).toBe(1);
    const sent = await desk().sendCampaign({
      promotionId: offerId,
      message: 'Kitenge Week: 20% off every dress!',
      requestKey: randomUUID(),
    });
    expect(sent.queued).toBe(1);
    const texts = await textsOf(sent.id);
    expect(texts.map((t) => t.recipientPhone)).toEqual([yes.phone]);
    const others = await test.db
      .select()
      .from(smsNotifications)
      .where(
        inArray(
          smsNotifications.recipientPhone,
          [off.phone, noRow.phone].filter((p): p is string => p !== null),
        ),
      );
    expect(others).toEqual([]);
    expect(noPhone.phone).toBeNull();
    // Her text: the message, the code, and her own stop link, in one GSM-7 part.
    const [text] = texts;
    const [settings] = await test.db
      .select({ token: userSettings.stopToken })
      .from(userSettings)
      .where(eq(userSettings.userId, yes.id));
    expect(isStopToken(settings?.token ?? '')).toBe(true);
    expect(text?.messageContent).toBe(
      `duuka: Kitenge Week: 20% off every dress! Use code WEEKEND20. Stop: ${stopLink(ORIGIN, settings?.token ?? '')}`,
    );
    expect(text?.messageContent.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(text?.kind).toBe('promotional');
    expect(text?.status).toBe('pending');
  });
});

describe('a campaign on the desk', () => {
  it('an audience by category counts only those who bought from it, and the cost is per text', async () => {
    const a = await shopper(true);
    const b = await shopper(true);
    const c = await shopper(true);
    const d = await shopper(false);
    await bought(a.id, dress);
    await bought(b.id, dress, { status: 'cancelled' });
    await bought(c.id, sandal);
    await bought(d.id, dress);
    const everyone = await desk(staff).campaignAudience({ promotionId: offerId });
    expect(everyone.count).toBe(3);
    expect(everyone.cost).toBe(3 * SMS_PART_COST_UGX);
    const dressBuyers = await desk(staff).campaignAudience({
      promotionId: offerId,
      categoryId: dresses,
      message: 'New dresses are in',
    });
    expect(dressBuyers).toMatchObject({ count: 1, cost: SMS_PART_COST_UGX });
    expect(dressBuyers.preview).toMatch(
      /^duuka: New dresses are in Use code WEEKEND20\. Stop: http:\/\/shop\.test\/duuka\/stop\/x{10}$/,
    );
    expect(smsSegments(dressBuyers.preview).segments).toBe(1);
    const sent = await desk(staff).sendCampaign({
      promotionId: offerId,
      categoryId: dresses,
      message: 'New dresses are in',
      requestKey: randomUUID(),
    });
    expect((await textsOf(sent.id)).map((t) => t.recipientPhone)).toEqual([a.phone]);
    const [row] = await test.db.select().from(campaigns).where(eq(campaigns.id, sent.id));
    expect(row).toMatchObject({
      promotionId: offerId,
      recipients: 1,
      cost: SMS_PART_COST_UGX,
      actor: staff.email,
      audience: { categoryId: dresses },
    });
    const page = await desk().campaigns();
    expect(page.campaigns[0]).toMatchObject({
      id: sent.id,
      recipients: 1,
      offer: 'Weekend 20% off',
    });
    expect(page.offers.map((o) => o.id)).toContain(offerId);
  });

  it('a double send under one key texts each shopper once; two accounts of one phone get one text', async () => {
    const one = await shopper(true);
    await shopper(true, one.phone);
    await shopper(true);
    const requestKey = randomUUID();
    const send = () => desk().sendCampaign({ promotionId: offerId, message: 'Twice?', requestKey });
    const [first, second] = await sentTwice(send, 5);
    expect(second).toEqual(first);
    expect(first.queued).toBe(2);
    const all = await test.db
      .select()
      .from(smsNotifications)
      .where(sql`${smsNotifications.messageContent} like 'duuka: Twice?%'`);
    expect(all).toHaveLength(2);
    expect(
      await test.db.select().from(campaigns).where(eq(campaigns.message, 'Twice?')),
    ).toHaveLength(1);
  });

  it('refuses an ended offer, an unknown category, a message too long, and an empty audience', async () => {
    const [ended] = await test.db
      .insert(promotions)
      .values({
        name: 'Last week',
        code: `OLD${randomUUID().slice(0, 6)}`,
        kind: 'percent',
        value: 10,
        endsAt: new Date(Date.now() - 60_000),
      })
      .returning({ id: promotions.id });
    await expect(
      desk().sendCampaign({ promotionId: ended?.id ?? 0, message: 'Hi', requestKey: randomUUID() }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: CAMPAIGNS_TEXT.offerNotFound });
    await expect(
      desk().campaignAudience({ promotionId: offerId, categoryId: 2_000_000_000 }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: CAMPAIGNS_TEXT.categoryNotFound });
    await shopper(true);
    const { room } = await desk().campaignAudience({ promotionId: offerId });
    await expect(
      desk().sendCampaign({
        promotionId: offerId,
        message: 'x'.repeat(room + 1),
        requestKey: randomUUID(),
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: CAMPAIGNS_TEXT.messageTooLong(room) });
    await test.db.update(userSettings).set({ marketingNotifications: false });
    await expect(
      desk().sendCampaign({ promotionId: offerId, message: 'Nobody', requestKey: randomUUID() }),
    ).rejects.toMatchObject({ message: CAMPAIGNS_TEXT.noAudience });
    expect(await test.db.select().from(campaigns).where(eq(campaigns.message, 'Nobody'))).toEqual(
      [],
    );
  });

  it('a send without its request key is refused (a double tap must not text twice)', async () => {
    await shopper(true);
    await expect(
      desk().sendCampaign({ promotionId: offerId, message: 'No key' } as never),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await test.db.select().from(campaigns).where(eq(campaigns.message, 'No key'))).toEqual(
      [],
    );
  });

  it('customers may not see or send campaigns; signed-out visitors neither', async () => {
    const customer = await callerFor(test.db).desk;
    await expect(customer.campaigns()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const over = await mutateOverHttp(test.db, 'desk.sendCampaign', {
      promotionId: offerId,
      message: 'Sneaky',
    });
    expect(over.status).toBe(401);
  });

  it('the SMS sweep sends order texts before a campaign’s', async () => {
    // Only this test's texts wait.
    await test.db.delete(smsNotifications);
    await shopper(true);
    await shopper(true);
    const sent = await desk().sendCampaign({
      promotionId: offerId,
      message: 'Bulk',
      requestKey: randomUUID(),
    });
    await test.db.insert(smsNotifications).values({
      recipientPhone: '+256772999999',
      recipientType: 'customer',
      kind: 'order-confirmation',
      messageContent: 'duuka: Thank you!',
    });
    const order: string[] = [];
    const gateway = {
      send: async (text: { number: string; message: string }) => {
        order.push(text.message);
        return { ok: true as const, messageId: randomUUID() };
      },
    };
    const ctx = testContext(test.db, new Headers(), {
      sms: { gateway, adminPhone: null, gapMs: 0 },
    });
    await sweepSms(ctx, 1);
    expect(order).toEqual(['duuka: Thank you!']);
    await sweepSms(ctx, 20);
    expect(order).toHaveLength(3);
    expect(order.slice(1).every((m) => m.startsWith('duuka: Bulk'))).toBe(true);
    expect((await textsOf(sent.id)).every((t) => t.status === 'sent')).toBe(true);
  });
  it('a shopper who switched Promotions off in her settings before her text went out gets none', async () => {
    await test.db.delete(smsNotifications);
    const her = await shopper(true);
    const other = await shopper(true);
    const sent = await desk().sendCampaign({
      promotionId: offerId,
      message: 'Changed mind',
      requestKey: randomUUID(),
    });
    await test.db
      .update(userSettings)
      .set({ marketingNotifications: false })
      .where(eq(userSettings.userId, her.id));
    const gone: string[] = [];
    const gateway = {
      send: async (text: { number: string; message: string }) => {
        gone.push(text.number);
        return { ok: true as const, messageId: randomUUID() };
      },
    };
    await sweepSms(
      testContext(test.db, new Headers(), { sms: { gateway, adminPhone: null, gapMs: 0 } }),
    );
    expect(gone).toEqual([other.phone]);
    const texts = await textsOf(sent.id);
    expect(texts.find((t) => t.recipientPhone === her.phone)).toMatchObject({
      status: 'failed',
      errorMessage: PROMOTIONS_OFF,
    });
  });
});

describe('the stop link', () => {
  async function tokenOf(id: string) {
    const [row] = await test.db
      .select({ token: userSettings.stopToken, on: userSettings.marketingNotifications })
      .from(userSettings)
      .where(eq(userSettings.userId, id));
    return row;
  }

  it('works without a session, once: the second use says they are off already', async () => {
    const her = await shopper(true);
    await desk().sendCampaign({
      promotionId: offerId,
      message: 'Stop me',
      requestKey: randomUUID(),
    });
    const token = (await tokenOf(her.id))?.token ?? '';
    const read = await queryOverHttp(test.db, 'stopLink.read', { token });
    expect(read.status).toBe(200);
    // Nothing of her but a first name.
    expect(JSON.stringify(read.body)).not.toMatch(/Achieng|@|\+256/);
    expect(read.body).toMatchObject({ result: { data: { firstName: 'Nakato', stopped: false } } });
    // The GET changed nothing (a link previewer fetching it stops nobody).
    expect((await tokenOf(her.id))?.on).toBe(true);
    // A queued text of hers not yet sent is withdrawn with the stop.
    const first = await mutateOverHttp(test.db, 'stopLink.stop', { token });
    expect(first).toMatchObject({ status: 200, body: { result: { data: { already: false } } } });
    expect((await tokenOf(her.id))?.on).toBe(false);
    const pending = await test.db
      .select()
      .from(smsNotifications)
      .where(
        and(
          eq(smsNotifications.recipientPhone, her.phone ?? ''),
          eq(smsNotifications.status, 'pending'),
        ),
      );
    expect(pending).toEqual([]);
    const second = await mutateOverHttp(test.db, 'stopLink.stop', { token });
    expect(second).toMatchObject({ status: 200, body: { result: { data: { already: true } } } });
    const again = await queryOverHttp(test.db, 'stopLink.read', { token });
    expect(again.body).toMatchObject({ result: { data: { stopped: true } } });
    // Out of the next campaign's audience.
    await shopper(true);
    const next = await desk().campaignAudience({ promotionId: offerId });
    expect(next.count).toBe(1);
  });

  it('refuses a token it does not know, a malformed one and a huge one, changing nothing', async () => {
    for (const token of ['abcdefghjk', 'ABC', 'x'.repeat(10_000), 'abc\u0000defgh', '']) {
      const stop = await mutateOverHttp(test.db, 'stopLink.stop', { token });
      expect(stop.status).toBeGreaterThanOrEqual(400);
      expect(stop.status).toBeLessThan(500);
      const read = await queryOverHttp(test.db, 'stopLink.read', { token });
      expect(read.status).toBeGreaterThanOrEqual(400);
      expect(read.status).toBeLessThan(500);
    }
    const unknown = await queryOverHttp(test.db, 'stopLink.read', { token: 'abcdefghjk' });
    expect(unknown).toMatchObject({ status: 404, body: { error: { message: STOP_TEXT.unknown } } });
  });

  it('a POST from another site is refused', async () => {
    const her = await shopper(true);
    await desk().sendCampaign({
      promotionId: offerId,
      message: 'Cross-site',
      requestKey: randomUUID(),
    });
    const token = (await tokenOf(her.id))?.token ?? '';
    const foreign = await mutateOverHttp(
      test.db,
      'stopLink.stop',
      { token },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect((await tokenOf(her.id))?.on).toBe(true);
  });
});

describe('the cart reminder', () => {
  const ctx = () => testContext(test.db, new Headers());
  const remindersOn = () => desk().setCartReminders({ on: true });
  const remindersTo = (phone: string | null) =>
    test.db
      .select()
      .from(smsNotifications)
      .where(
        and(
          eq(smsNotifications.kind, 'cart-reminder'),
          eq(smsNotifications.recipientPhone, phone ?? ''),
        ),
      );
  async function cartOf(userId: string, hoursAgo: number, variantId = dress.variantId) {
    await test.db
      .insert(cartItems)
      .values({
        userId,
        variantId,
        quantity: 2,
        addedAt: new Date(Date.now() - hoursAgo * 3_600_000),
      })
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.variantId],
        set: { addedAt: new Date(Date.now() - hoursAgo * 3_600_000) },
      });
  }

  it('is sent once, 24 hours after the newest line, with the cart and stop links', async () => {
    await remindersOn();
    const her = await shopper(true);
    const fresh = await shopper(true);
    await cartOf(her.id, 25);
    await cartOf(fresh.id, 23);
    await sweepCartReminders(ctx());
    const [text, ...more] = await remindersTo(her.phone);
    expect(more).toEqual([]);
    expect(text?.messageContent).toMatch(
      /^duuka: Your 2 pieces are still in your cart: http:\/\/shop\.test\/cart Stop: http:\/\/shop\.test\/duuka\/stop\/[a-z2-9]{10}$/,
    );
    expect(await remindersTo(fresh.phone)).toEqual([]);
    await sweepCartReminders(ctx());
    await Promise.all([sweepCartReminders(ctx()), sweepCartReminders(ctx())]);
    expect(await remindersTo(her.phone)).toHaveLength(1);
  });

  it('again only for a changed cart: a new line, then 24 hours', async () => {
    await remindersOn();
    const her = await shopper(true);
    await cartOf(her.id, 30);
    await sweepCartReminders(ctx());
    expect(await remindersTo(her.phone)).toHaveLength(1);
    // She came back and added a sandal (the mark is older than it): after 24 hours, once more.
    await test.db.execute(
      sql`update cart_reminders set sent_at = now() - interval '5 hours' where user_id = ${her.id}`,
    );
    await cartOf(her.id, 1, sandal.variantId);
    await sweepCartReminders(ctx());
    expect(await remindersTo(her.phone)).toHaveLength(1);
    await test.db.execute(
      sql`update cart_items set added_at = now() - interval '25 hours' where user_id = ${her.id}
          and variant_id = ${sandal.variantId}`,
    );
    await test.db.execute(
      sql`update cart_reminders set sent_at = now() - interval '26 hours' where user_id = ${her.id}`,
    );
    await sweepCartReminders(ctx());
    expect(await remindersTo(her.phone)).toHaveLength(2);
  });

  it('not after an order since the newest line, not with Promotions off, not without a phone', async () => {
    await remindersOn();
    const ordered = await shopper(true);
    const off = await shopper(false);
    const noRow = await shopper('no-row');
    const noPhone = await shopper(true, null);
    for (const person of [ordered, off, noRow, noPhone]) await cartOf(person.id, 26);
    await bought(ordered.id, sandal, { hoursAgo: 2 });
    expect(await sweepCartReminders(ctx())).toBe(0);
    for (const person of [ordered, off, noRow]) expect(await remindersTo(person.phone)).toEqual([]);
  });

  it('the desk’s switch off (the default) sends nothing', async () => {
    const her = await shopper(true);
    await cartOf(her.id, 48);
    expect(await sweepCartReminders(ctx())).toBe(0);
    expect((await desk().campaigns()).cartReminders).toBe(false);
    await desk(staff).setCartReminders({ on: true });
    expect((await desk().campaigns()).cartReminders).toBe(true);
    await desk(staff).setCartReminders({ on: false });
    expect(await sweepCartReminders(ctx())).toBe(0);
    expect(await remindersTo(her.phone)).toEqual([]);
  });
});
