// The desk's shop part (issue 22): who may do what (every desk.* procedure swept), the shop's
// settings and what they change for shoppers (admin texts, bank details, the contact, exchange
// rates, the assistant), their configuration fallback, staff, the record with its pages, request
// keys, the dashboard on known data, the demo seed and ADMIN_PHONE, and make-operator for real.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { SHOP_TEXT } from '#core/desk-shop.ts';
import { RETURN_SETTINGS_TEXT } from '#core/return-windows.ts';
import {
  deskRecords,
  orders,
  payments,
  products,
  profiles,
  smsNotifications,
  systemSettings,
  user,
} from '#db/schema/index.ts';
import { forgetSeededAdminPhone, seedDemoCatalogue } from '#db/seed.ts';
import { adminPhone as demoAdminPhone } from '#db/seed-data.ts';
import type { Auth } from '#server/auth.ts';
import { deskRouter } from '#server/routers/desk-router.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { dashboard } from '#server/services/dashboard.ts';
import { afterOrderPlaced } from '#server/services/order-events.ts';
import { setRole } from '#server/services/staff-service.ts';
import { lowStockVariants } from '#server/services/stock-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember, sentTwice } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, testContext } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let owner: DeskMember;
let staff: DeskMember;
let customer: Awaited<ReturnType<typeof signedInShopper>>;
const background: Promise<unknown>[] = [];

/** What the configuration says in these tests (the Worker's ADMIN_PHONE, BANK_TRANSFER_DETAILS…). */
const CONFIG = {
  sms: { gateway: null, adminPhone: '+256700999888' },
  bankDetails: 'Config Bank · A/C 111',
  assistant: {
    apiKey: null,
    model: 'gemini-2.5-flash',
    baseUrl: null,
    contact: { email: 'config@duuka.ug', phone: '+256700000001' },
  },
  background: (work: Promise<unknown>) => {
    background.push(work);
  },
};

const desk = (person: { cookie: string }) => deskCaller(test.db, person, CONFIG);
const shop = (person?: { cookie: string }) =>
  callerFor(test.db, new Headers(person ? { cookie: person.cookie } : {}), CONFIG);
const key = () => randomUUID();

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  // The demo catalogue, seeded as `npm start` does, before anything else is in this database.
  await seedDemoCatalogue(test.db);
  owner = await deskMember(test.db, auth, 'owner');
  staff = await deskMember(test.db, auth, 'staff');
  customer = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  await withPhone(customer, '+256772000101');
});

/** A shopper's profile with the phone the checkout asks for. */
async function withPhone(person: { id: string; email: string; name: string }, phone: string) {
  await test.db
    .insert(profiles)
    .values({ id: person.id, email: person.email, fullName: person.name, phone })
    .onConflictDoUpdate({ target: profiles.id, set: { phone } });
}
afterAll(async () => {
  await Promise.allSettled(background);
  await test?.close();
});

async function settle() {
  while (background.length > 0) await Promise.allSettled(background.splice(0));
}

async function clearSettings() {
  await test.db.execute(sql`delete from system_settings where setting_key in
    ('admin_phone', 'support_phone', 'support_email', 'bank_details', 'exchange_rates',
     'low_stock_threshold', 'return_days', 'exchange_days', 'return_pickup_fee')`);
}

async function recordsOf(action: string) {
  return test.db.select().from(deskRecords).where(eq(deskRecords.action, action));
}

/** Arguments that pass each procedure's input check, where one is needed. */
const INPUTS: Record<string, unknown> = {
  saveSettings: { requestKey: randomUUID() },
  addStaff: { email: 'someone@example.ug' },
  removeStaff: { email: 'someone@example.ug' },
};

describe('the demo seed and ADMIN_PHONE', () => {
  it('stores no admin number: a configured ADMIN_PHONE is the one the shop uses', async () => {
    expect(await test.db.select().from(products).limit(1)).toHaveLength(1); // seeded
    await clearSettings();
    await seedDemoCatalogue(test.db);
    const stored = await test.db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, 'admin_phone'));
    expect(stored).toEqual([]);
    expect((await desk(owner).settings()).values.adminPhone).toBe('+256700999888');
  });

  it('a local database seeded before forgets the demo number, not one the owner set', async () => {
    await test.db
      .insert(systemSettings)
      .values({ settingKey: 'admin_phone', settingValue: demoAdminPhone });
    await forgetSeededAdminPhone(test.db);
    expect((await desk(owner).settings()).sources.adminPhone).toBe('configuration');
    await desk(owner).saveSettings({ requestKey: key(), adminPhone: demoAdminPhone });
    await forgetSeededAdminPhone(test.db);
    expect((await desk(owner).settings()).values.adminPhone).toBe(demoAdminPhone);
    await clearSettings();
  });
});

describe('who may do what', () => {
  it('refuses a customer on every desk procedure there is', async () => {
    const names = Object.keys(deskRouter._def.procedures);
    expect(names).toEqual(
      expect.arrayContaining([
        'role',
        'dashboard',
        'settings',
        'saveSettings',
        'staff',
        'addStaff',
        'removeStaff',
        'record',
      ]),
    );
    const calls = desk(customer) as unknown as Record<
      string,
      (input?: unknown) => Promise<unknown>
    >;
    for (const name of names) {
      await expect(calls[name]?.(INPUTS[name] ?? {}), name).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: DESK_TEXT.deskOnly,
      });
    }
    // A visitor with no session: not signed in.
    await expect(shop().desk.dashboard()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses staff on staff management, the record and the money settings; the owner may', async () => {
    const ownerOnly = { code: 'FORBIDDEN', message: DESK_TEXT.ownerOnly };
    await expect(desk(staff).staff()).rejects.toMatchObject(ownerOnly);
    await expect(desk(staff).addStaff({ email: customer.email })).rejects.toMatchObject(ownerOnly);
    await expect(desk(staff).removeStaff({ email: owner.email })).rejects.toMatchObject(ownerOnly);
    await expect(desk(staff).record()).rejects.toMatchObject(ownerOnly);
    for (const money of [
      { bankDetails: 'Staff Bank 999' },
      { exchangeRates: { USD: 1, EUR: 1, GBP: 1 } },
      { adminPhone: '0772 000 999' },
    ]) {
      await expect(desk(staff).saveSettings({ requestKey: key(), ...money })).rejects.toMatchObject(
        ownerOnly,
      );
    }
    expect(
      (await test.db.select().from(systemSettings)).filter((r) =>
        ['bank_details', 'exchange_rates', 'admin_phone'].includes(r.settingKey),
      ),
    ).toEqual([]);
    // The rest is theirs; the money settings sent unchanged are no change.
    expect(
      await desk(staff).saveSettings({
        requestKey: key(),
        supportEmail: 'shopfloor@duuka.ug',
        lowStockThreshold: 4,
        bankDetails: null,
      }),
    ).toEqual({ changed: ['supportEmail', 'lowStockThreshold'] });
    expect((await desk(staff).settings()).values).toMatchObject({
      supportEmail: 'shopfloor@duuka.ug',
      lowStockThreshold: 4,
    });
    expect(await desk(staff).dashboard()).toHaveProperty('sales');
    expect(await desk(owner).staff()).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: owner.email, role: 'owner' })]),
    );
    await clearSettings();
  });
});

describe('settings', () => {
  it('fall back to the configuration, and say so, while the desk has set none', async () => {
    await clearSettings();
    const { values, sources } = await desk(owner).settings();
    expect(values).toEqual({
      adminPhone: '+256700999888',
      supportPhone: '+256700000001',
      supportEmail: 'config@duuka.ug',
      bankDetails: 'Config Bank · A/C 111',
      exchangeRates: null,
      lowStockThreshold: 3,
      // Issue 36: the shop's promise until the owner sets others.
      returnDays: 14,
      exchangeDays: 7,
      returnPickupFee: 'zone',
    });
    expect(Object.values(sources)).toEqual(Array(9).fill('configuration'));
    expect(await shop().contact.channels()).toMatchObject({
      support: { phone: '+256700000001', email: 'config@duuka.ug' },
    });
    expect(await shop(customer).checkout.bankTransfer()).toEqual({
      details: 'Config Bank · A/C 111',
    });
  });

  it('refuse bad input with clear texts, and write nothing', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ adminPhone: '12345' }, SHOP_TEXT.phoneInvalid('Admin phone')],
      [{ adminPhone: '+254 712 345 678' }, SHOP_TEXT.phoneInvalid('Admin phone')],
      [
        { supportPhone: '0772\u0000123456' },
        'Support phone cannot contain invisible control characters.',
      ],
      [{ supportEmail: 'not-an-email' }, SHOP_TEXT.emailInvalid],
      [{ supportEmail: `${'a'.repeat(250)}@x.ug` }, SHOP_TEXT.emailTooLong],
      [{ bankDetails: 'x'.repeat(501) }, SHOP_TEXT.bankTooLong],
      [
        { bankDetails: 'Stanbic\u0007' },
        'Bank transfer details cannot contain invisible control characters.',
      ],
      [{ exchangeRates: { USD: 3800, EUR: 4100 } }, SHOP_TEXT.ratesTogether],
      [{ exchangeRates: { USD: 3800.5, EUR: 4100, GBP: 4800 } }, SHOP_TEXT.rateInvalid('USD')],
      [{ exchangeRates: { USD: -1, EUR: 4100, GBP: 4800 } }, SHOP_TEXT.rateInvalid('USD')],
      [{ lowStockThreshold: 1001 }, SHOP_TEXT.thresholdInvalid],
      [{ lowStockThreshold: '5' }, SHOP_TEXT.thresholdInvalid],
      [{ returnDays: 0 }, RETURN_SETTINGS_TEXT.badDays('Return window')],
      [{ returnDays: 91 }, RETURN_SETTINGS_TEXT.badDays('Return window')],
      [{ returnDays: '14' }, RETURN_SETTINGS_TEXT.badDays('Return window')],
      [{ exchangeDays: 1.5 }, RETURN_SETTINGS_TEXT.badDays('Exchange window')],
      [{ returnPickupFee: 'always' }, RETURN_SETTINGS_TEXT.badPickupRule],
      [{ surprise: true }, SHOP_TEXT.settingsInvalid],
      [{}, SHOP_TEXT.settingsInvalid],
      [{ requestKey: 'again' }, DESK_TEXT.badRequestKey],
    ];
    const saves = (await recordsOf('settings.saved')).length;
    for (const [input, message] of bad) {
      const withKey =
        'requestKey' in input || Object.keys(input).length === 0
          ? input
          : { requestKey: key(), ...input };
      await expect(
        desk(owner).saveSettings(withKey as never),
        JSON.stringify(input).slice(0, 80),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', message });
    }
    expect(await recordsOf('settings.saved')).toHaveLength(saves);
  });

  it('change what the shop shows: admin texts, bank details, the contact, prices, the assistant', async () => {
    const requestKey = key();
    const answer = await desk(owner).saveSettings({
      requestKey,
      adminPhone: '0782 555 111',
      supportPhone: '0701 234 567',
      supportEmail: 'Desk@Duuka.ug',
      bankDetails: 'Desk Bank, Kampala Road · A/C 9030012345678',
      exchangeRates: { USD: 3700, EUR: 4000, GBP: 4700 },
      lowStockThreshold: 5,
      returnDays: 10,
      exchangeDays: 5,
      returnPickupFee: 'free',
    });
    expect(answer.changed).toEqual([
      'adminPhone',
      'supportPhone',
      'supportEmail',
      'bankDetails',
      'exchangeRates',
      'lowStockThreshold',
      'returnDays',
      'exchangeDays',
      'returnPickupFee',
    ]);
    const { values, sources } = await desk(owner).settings();
    expect(values).toMatchObject({
      adminPhone: '+256782555111',
      supportPhone: '+256701234567',
      supportEmail: 'Desk@Duuka.ug',
      exchangeRates: { USD: 3700, EUR: 4000, GBP: 4700 },
      lowStockThreshold: 5,
      returnDays: 10,
      exchangeDays: 5,
      returnPickupFee: 'free',
    });
    expect(values.exchangeRates?.setOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.values(sources)).toEqual(Array(9).fill('desk'));

    // Contact page and footer; the assistant; the approximate prices.
    expect(await shop().contact.channels()).toMatchObject({
      support: { phone: '+256701234567', email: 'Desk@Duuka.ug' },
    });
    expect(await shop().catalogue.rates()).toMatchObject({ USD: 3700, EUR: 4000, GBP: 4700 });
    const chat = shop(customer).chat;
    const { sessionId } = await chat.start();
    let said = '';
    for await (const piece of await chat.send({ sessionId, text: 'hello' })) {
      if (typeof piece === 'string') said += piece;
    }
    expect(said).toContain('Desk@Duuka.ug');
    expect(said).not.toContain('config@duuka.ug');

    // A bank-transfer order: the checkout's details, the receipt's, the customer's text; the
    // admin's text to the new number.
    expect(await shop(customer).checkout.bankTransfer()).toEqual({
      details: 'Desk Bank, Kampala Road · A/C 9030012345678',
    });
    const piece = await addProduct(test.db, { name: 'Gomesi Desk Test', price: 90_000, stock: 8 });
    const placed = await placeOrder(test.db, customer, {
      orderId: randomUUID(),
      lines: [{ variantId: piece.variantId, quantity: 1 }],
      paymentMethod: 'bank_transfer',
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
    await afterOrderPlaced(testContext(test.db, new Headers(), CONFIG), {
      ...placed.order,
      created: true,
    });
    await settle();
    const receipt = await shop(customer).orders.receipt({ orderId: placed.order.orderId });
    expect(receipt.payment).toMatchObject({
      state: 'unpaid',
      bankTransfer: { details: 'Desk Bank, Kampala Road · A/C 9030012345678' },
    });
    const texts = await test.db
      .select()
      .from(smsNotifications)
      .where(eq(smsNotifications.orderId, placed.order.orderId));
    expect(texts.find((t) => t.recipientType === 'admin')?.recipientPhone).toBe('+256782555111');
    expect(texts.find((t) => t.recipientType === 'customer')?.messageContent).toContain(
      'Desk Bank, Kampala Road',
    );
    // 7 left is above 5: no low-stock text; the owner's threshold, not the old fixed 3, decides.
    expect(texts.find((t) => t.kind === 'low-stock')).toBeUndefined();

    // Recorded: the names changed, never the values (no bank account in the record).
    const [record] = (await recordsOf('settings.saved')).filter((r) => r.requestKey === requestKey);
    expect(record).toMatchObject({ actorEmail: owner.email, subject: 'Shop settings' });
    expect(JSON.stringify(record?.details)).not.toContain('9030012345678');

    // Cleared: the configuration's again.
    await desk(owner).saveSettings({ requestKey: key(), bankDetails: '', supportEmail: null });
    const after = await desk(owner).settings();
    expect(after.values.bankDetails).toBe('Config Bank · A/C 111');
    expect(after.sources).toMatchObject({
      bankDetails: 'configuration',
      supportEmail: 'configuration',
    });
  });

  it('saves once per request key: a retry answers the first save and writes nothing more', async () => {
    const requestKey = key();
    const first = await desk(owner).saveSettings({ requestKey, supportPhone: '0772 111 222' });
    const retry = await desk(owner).saveSettings({ requestKey, supportPhone: '0772 333 444' });
    expect(retry).toEqual(first);
    const race = key();
    const both = await Promise.all([
      desk(owner).saveSettings({ requestKey: race, lowStockThreshold: 9 }),
      desk(owner).saveSettings({ requestKey: race, lowStockThreshold: 9 }),
    ]);
    expect(both[0]).toEqual(both[1]);
    expect(
      await test.db.select().from(deskRecords).where(eq(deskRecords.requestKey, requestKey)),
    ).toHaveLength(1);
    expect(
      await test.db.select().from(deskRecords).where(eq(deskRecords.requestKey, race)),
    ).toHaveLength(1);
    expect((await desk(owner).settings()).values.supportPhone).toBe('+256772111222');
  });
});

describe('a request key belongs to who saved it and to what they saved', () => {
  const refusedKey = { code: 'CONFLICT', message: DESK_TEXT.badRequestKey };

  it('staff sending the owner’s key are refused (409), never answered the owner’s save', async () => {
    await clearSettings();
    const requestKey = key();
    const first = await desk(owner).saveSettings({
      requestKey,
      bankDetails: 'Owner Bank · A/C 222',
    });
    expect(first).toEqual({ changed: ['bankDetails'] });
    // A money setting (owner-only) and one staff may change: neither replays the owner's answer.
    for (const change of [
      { bankDetails: 'Staff Bank · A/C 333' },
      { supportPhone: '0772 444 555' },
    ]) {
      await expect(desk(staff).saveSettings({ requestKey, ...change })).rejects.toMatchObject(
        refusedKey,
      );
    }
    expect((await desk(owner).settings()).values).toMatchObject({
      bankDetails: 'Owner Bank · A/C 222',
      supportPhone: CONFIG.assistant.contact.phone,
    });
    expect(
      await test.db.select().from(deskRecords).where(eq(deskRecords.requestKey, requestKey)),
    ).toHaveLength(1);
    // Without the owner's key, staff meet the owner-only refusal as before.
    await expect(
      desk(staff).saveSettings({ requestKey: key(), bankDetails: 'Staff Bank · A/C 333' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: DESK_TEXT.ownerOnly });
  });

  it('a delivery save’s key sent to the settings is refused (409) and changes nothing', async () => {
    await clearSettings();
    const { options, freeDeliveryOver } = await desk(owner).deliveryOptions();
    const requestKey = key();
    const delivery = await desk(owner).saveDeliveryOptions({
      requestKey,
      freeDeliveryOver,
      options: options.map(
        ({ id, kind, name, fee, minDays, maxDays, details, cashOnDelivery, active }) => ({
          id,
          kind,
          name,
          fee,
          minDays,
          maxDays,
          details,
          cashOnDelivery,
          active,
        }),
      ),
    });
    expect(delivery).toEqual({ changed: [], added: [] });
    await expect(
      desk(owner).saveSettings({ requestKey, lowStockThreshold: 7 }),
    ).rejects.toMatchObject(refusedKey);
    expect((await desk(owner).settings()).values.lowStockThreshold).not.toBe(7);
  });

  it('a settings key sent to any other keyed save is refused (409), whoever sends it', async () => {
    const requestKey = key();
    await desk(owner).saveSettings({ requestKey, supportPhone: '0772 555 666' });
    const piece = await addProduct(test.db, { name: 'Barkcloth Tote', price: 60_000, stock: 4 });
    const saves = {
      addStaff: () => desk(owner).addStaff({ email: staff.email, requestKey }),
      removeStaff: () => desk(owner).removeStaff({ email: staff.email, requestKey }),
      adjustStock: () =>
        desk(owner).adjustStock({
          variantId: piece.variantId,
          delta: 1,
          reason: 'received',
          requestKey,
        }),
      setPhotos: () => desk(owner).setPhotos({ productId: piece.id, photos: [], requestKey }),
      saveProduct: () =>
        desk(owner).saveProduct({
          requestKey,
          name: 'Barkcloth Tote Two',
          description: '',
          categoryIds: [],
          status: 'draft',
          options: [],
          variants: [{ options: {}, sku: `KEY-${key().slice(0, 8)}`, price: 60_000, stock: 1 }],
        }),
      importProducts: () => desk(owner).importProducts({ csv: '', requestKey }),
      importByStaff: () => desk(staff).importProducts({ csv: '', requestKey }),
    };
    for (const [name, save] of Object.entries(saves)) {
      await expect(save(), name).rejects.toMatchObject(refusedKey);
    }
    expect(
      await test.db.select().from(deskRecords).where(eq(deskRecords.requestKey, requestKey)),
    ).toHaveLength(1);
    expect((await desk(owner).staff()).find((m) => m.email === staff.email)?.role).toBe('staff');
  });

  it('one product’s photos key sent for another product is refused (409)', async () => {
    const [first, second] = [
      await addProduct(test.db, { name: 'Kitenge Scarf', price: 30_000 }),
      await addProduct(test.db, { name: 'Kitenge Scarf Wide', price: 35_000 }),
    ];
    const requestKey = key();
    expect(await desk(staff).setPhotos({ productId: first.id, photos: [], requestKey })).toEqual({
      photos: [],
    });
    await expect(
      desk(staff).setPhotos({ productId: second.id, photos: [], requestKey }),
    ).rejects.toMatchObject(refusedKey);
  });

  it('the same person’s same save again answers the first: a double submit stays harmless', async () => {
    await clearSettings();
    const requestKey = key();
    const save = () => desk(staff).saveSettings({ requestKey, supportPhone: '0772 777 888' });
    const [once, twice] = await sentTwice(save, 5);
    expect(twice).toEqual(once);
    expect(await save()).toEqual(once);
    expect(
      await test.db.select().from(deskRecords).where(eq(deskRecords.requestKey, requestKey)),
    ).toHaveLength(1);
  });
});

describe('staff', () => {
  it('the owner adds someone who has an account, and takes the desk away again', async () => {
    const newcomer = await signedInShopper(test.db, auth, { name: 'Aisha Namuli' });
    await expect(desk(owner).addStaff({ email: 'nobody@example.ug' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: SHOP_TEXT.noAccount('nobody@example.ug'),
    });
    const requestKey = key();
    expect(await desk(owner).addStaff({ email: newcomer.email.toUpperCase(), requestKey })).toEqual(
      { email: newcomer.email, role: 'staff' },
    );
    // A double submit: the same answer, one record.
    expect(await desk(owner).addStaff({ email: newcomer.email, requestKey })).toEqual({
      email: newcomer.email,
      role: 'staff',
    });
    expect(await desk(newcomer).role()).toEqual({
      role: 'staff',
      email: newcomer.email,
      whatsapp: false,
    });
    const list = await desk(owner).staff();
    expect(list).toEqual(
      expect.arrayContaining([
        { email: newcomer.email, name: 'Aisha Namuli', role: 'staff', fromConfiguration: false },
      ]),
    );
    const removal = key();
    const removed = { email: newcomer.email, role: 'staff', removed: true };
    expect(await desk(owner).removeStaff({ email: newcomer.email, requestKey: removal })).toEqual(
      removed,
    );
    // A double tap on Remove: the same answer, no second record.
    expect(await desk(owner).removeStaff({ email: newcomer.email, requestKey: removal })).toEqual(
      removed,
    );
    // Their very next request is refused.
    await expect(desk(newcomer).dashboard()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(desk(owner).removeStaff({ email: newcomer.email })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: SHOP_TEXT.notStaff(newcomer.email),
    });
    expect(
      (await recordsOf('staff.added')).filter((r) => r.subject === newcomer.email),
    ).toHaveLength(1);
    expect(
      (await recordsOf('staff.removed')).filter((r) => r.subject === newcomer.email),
    ).toMatchObject([{ actorEmail: owner.email, details: removed }]);
    // An owner may be added too.
    await desk(owner).addStaff({ email: newcomer.email, role: 'owner' });
    expect((await desk(newcomer).role()).role).toBe('owner');
    await setRole(test.db, newcomer.email, 'customer');
  });

  it('answers a double tap on Remove as one, the second sent while the first is written', async () => {
    // The second once read the account after the first had taken its role: "not staff".
    const twice = await signedInShopper(test.db, auth, { name: 'Sarah Twice' });
    const removed = { email: twice.email, role: 'staff', removed: true };
    for (let pair = 0; pair < 12; pair++) {
      await desk(owner).addStaff({ email: twice.email });
      const tap = { email: twice.email, requestKey: key() };
      const answers = await sentTwice(() => desk(owner).removeStaff(tap), pair / 2);
      expect(answers).toEqual([removed, removed]);
    }
    expect(
      (await recordsOf('staff.removed')).filter((r) => r.subject === twice.email),
    ).toHaveLength(12);
  });

  it('refuses removing yourself or a configured owner, and lists the configured owners', async () => {
    await expect(desk(owner).removeStaff({ email: owner.email })).rejects.toMatchObject({
      message: SHOP_TEXT.notYourself,
    });
    const bootstrap = await signedInShopper(test.db, auth, { name: 'Olivia Operator' });
    const ownerEmails = [bootstrap.email, 'not-signed-up@duuka.ug'];
    const asBootstrap = deskCaller(test.db, bootstrap, { ...CONFIG, ownerEmails });
    await expect(
      asBootstrap.removeStaff({ email: 'not-signed-up@duuka.ug' }),
    ).rejects.toMatchObject({
      message: SHOP_TEXT.configuredOwner('not-signed-up@duuka.ug'),
    });
    const asOwner = deskCaller(test.db, owner, { ...CONFIG, ownerEmails });
    await expect(asOwner.removeStaff({ email: bootstrap.email })).rejects.toMatchObject({
      message: SHOP_TEXT.configuredOwner(bootstrap.email),
    });
    const list = await asOwner.staff();
    expect(
      list
        .slice(0, 2)
        .map((m) => [m.email, m.role, m.fromConfiguration])
        .sort(),
    ).toEqual(
      [
        [bootstrap.email, 'owner', true],
        ['not-signed-up@duuka.ug', 'owner', true],
      ].sort(),
    );
    expect(list).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: staff.email, role: 'staff' })]),
    );
    await expect(desk(owner).addStaff({ email: 'x\u0000@y.ug' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: SHOP_TEXT.staffEmailInvalid,
    });
    await expect(
      desk(owner).addStaff({ email: staff.email, role: 'admin' as never }),
    ).rejects.toMatchObject({ message: SHOP_TEXT.staffRoleInvalid });
  });
});

describe('the record', () => {
  it('is every desk write, newest first, a page at a time', async () => {
    for (let i = 0; i < 52; i += 1) {
      await desk(owner).saveSettings({ requestKey: key(), lowStockThreshold: i % 2 });
    }
    const first = await desk(owner).record();
    expect(first.records).toHaveLength(50);
    expect(first.records[0]).toMatchObject({ action: 'settings.saved', actorEmail: owner.email });
    const ids = first.records.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(first.next).toBe(ids.at(-1));
    const second = await desk(owner).record({ before: first.next as number });
    expect(second.records.length).toBeGreaterThan(0);
    expect(Math.max(...second.records.map((r) => r.id))).toBeLessThan(ids.at(-1) as number);
    const all = await test.db.select({ n: sql<number>`count(*)::int` }).from(deskRecords);
    let seen = first.records.length;
    let next: number | null = first.next;
    while (next !== null) {
      const page = await desk(owner).record({ before: next });
      seen += page.records.length;
      next = page.next;
    }
    expect(seen).toBe(all[0]?.n);
    await expect(desk(owner).record({ before: -1 })).rejects.toMatchObject({
      message: SHOP_TEXT.badCursor,
    });
  });
});

describe('the dashboard', () => {
  it('counts sales by Kampala’s day, week and month, and what needs the owner', async () => {
    // Wednesday 5 March 2031, 08:00 in Kampala (05:00 UTC): far from every other order here.
    const now = new Date('2031-03-05T05:00:00Z');
    const before = await dashboard(test.db, now);
    const piece = await addProduct(test.db, {
      name: 'Busuuti Dashboard',
      price: 10_000,
      stock: 50,
    });
    const at = async (
      iso: string,
      total: number,
      status = 'processing',
      method = 'mobile_money',
    ) => {
      const id = randomUUID();
      await test.db.insert(orders).values({
        id,
        customerName: 'Known Customer',
        subtotal: total,
        deliveryFee: 0,
        total,
        paymentMethod: method,
        status,
        createdAt: new Date(iso),
      });
      return id;
    };
    await at('2031-03-04T21:00:00Z', 1_000); // 00:00 on the 5th in Kampala: today
    await at('2031-03-04T20:59:59Z', 2_000); // 23:59:59 on the 4th: this week, not today
    await at('2031-03-02T21:00:00Z', 4_000); // Monday 00:00: this week
    await at('2031-03-02T20:59:00Z', 8_000); // Sunday 23:59: this month only
    await at('2031-02-28T20:59:00Z', 16_000); // 28 February 23:59: none
    await at('2031-03-05T04:00:00Z', 32_000, 'cancelled'); // cancelled: never counted
    const sales = (await dashboard(test.db, now)).sales;
    // None of them paid: placed but unpaid (issue 34; tests/integration/desk-today.test.ts).
    expect([sales.today.unpaid, sales.week.unpaid, sales.month.unpaid]).toEqual([
      { orders: 1, total: 1_000 },
      { orders: 3, total: 7_000 },
      { orders: 4, total: 15_000 },
    ]);
    expect(sales.month.paid).toEqual({ orders: 0, total: 0 });

    // Orders by status, money waiting, short payments and refunds due, failed texts: what changed.
    const bank = await at(new Date().toISOString(), 50_000, 'pending', 'bank_transfer');
    await at(new Date().toISOString(), 20_000, 'shipped', 'cash_on_delivery');
    const short = await at(new Date().toISOString(), 30_000, 'pending', 'mobile_money');
    await test.db.insert(payments).values([
      {
        id: randomUUID(),
        orderId: short,
        callbackSecret: randomUUID(),
        amount: 30_000,
        receivedAmount: 25_000,
        status: 'short',
        network: 'mtn',
        phone: '+256772000001',
      },
      {
        id: randomUUID(),
        orderId: bank,
        callbackSecret: randomUUID(),
        amount: 50_000,
        status: 'refund_due',
        network: 'mtn',
        phone: '+256772000001',
      },
    ] as never);
    await test.db.insert(smsNotifications).values([
      {
        recipientPhone: '+256772000001',
        recipientType: 'customer',
        kind: 'order-confirmation',
        messageContent: 'x',
        status: 'failed',
      },
      {
        recipientPhone: '+256772000002',
        recipientType: 'customer',
        kind: 'order-confirmation',
        messageContent: 'y',
        status: 'failed',
        createdAt: new Date(Date.now() - 8 * 86_400_000),
      },
    ] as never);
    const later = await dashboard(test.db, now);
    const grew = (a: number | undefined, b: number | undefined) => (b ?? 0) - (a ?? 0);
    expect(grew(before.ordersByStatus.pending, later.ordersByStatus.pending)).toBe(2);
    expect(grew(before.ordersByStatus.cancelled, later.ordersByStatus.cancelled)).toBe(1);
    expect(grew(before.awaiting.bankTransfers.orders, later.awaiting.bankTransfers.orders)).toBe(1);
    expect(grew(before.awaiting.cash.total, later.awaiting.cash.total)).toBe(20_000);
    expect(later.shortPayments.payments - before.shortPayments.payments).toBe(1);
    expect(later.shortPayments.amount - before.shortPayments.amount).toBe(5_000);
    expect(later.refundsDue.payments - before.refundsDue.payments).toBe(1);
    expect(later.textsFailed.count - before.textsFailed.count).toBe(1);

    // Top pieces of the last 30 days, by units with their revenue; low stock at the threshold.
    const buyer = await signedInShopper(test.db, auth);
    await withPhone(buyer, '+256772000102');
    const placed = await placeOrder(test.db, buyer, {
      orderId: randomUUID(),
      lines: [{ variantId: piece.variantId, quantity: 47 }],
      paymentMethod: 'cash_on_delivery',
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
    await desk(owner).saveSettings({ requestKey: key(), lowStockThreshold: 3 });
    const board = await desk(staff).dashboard();
    expect(board.topPieces[0]).toMatchObject({
      productId: piece.id,
      name: 'Busuuti Dashboard',
      units: 47,
      revenue: 470_000,
    });
    // Low stock: the service's list at the owner's threshold, read in the same trip.
    expect(board.lowStock).toEqual(await lowStockVariants(test.db, 3, 8));
    expect(board.lowStock.every((row) => row.stock <= 3)).toBe(true);
    await desk(owner).saveSettings({ requestKey: key(), lowStockThreshold: 0 });
    const none = (await desk(staff).dashboard()).lowStock;
    expect(none).toEqual(await lowStockVariants(test.db, 0, 8));
    expect(none.every((row) => row.stock === 0)).toBe(true);
    expect(none.map((row) => row.productId)).not.toContain(piece.id);
  });
});

describe('npm run make-operator', () => {
  function makeOperator(args: string[]) {
    const child = spawn(
      process.execPath,
      ['scripts/run.mjs', 'scripts/make-operator.ts', ...args],
      {
        cwd: process.cwd(),
        env: { ...process.env, NEON_DATABASE_URL: test.databaseUrl, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('exit', (code) => resolve({ code, stdout, stderr })),
    );
  }
  const roleOf = async (email: string) =>
    (await test.db.select({ role: user.role }).from(user).where(eq(user.email, email)))[0]?.role;
  const ownLines = (text: string) =>
    text.split('\n').filter((line) => line.trim() && !line.startsWith('duuka: Node'));

  it('gives a role, makes an owner, takes it away, on the database it is pointed at', async () => {
    const person = await signedInShopper(test.db, auth, { name: 'Moses Kato' });
    const made = await makeOperator([person.email]);
    expect(made).toMatchObject({ code: 0 });
    expect(made.stdout).toContain(`${person.email} is now staff at the desk`);
    expect(await roleOf(person.email)).toBe('staff');
    expect((await makeOperator([person.email.toUpperCase(), '--owner'])).code).toBe(0);
    expect(await roleOf(person.email)).toBe('owner');
    const removed = await makeOperator([person.email, '--remove']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('no longer works at the desk');
    expect(await roleOf(person.email)).toBe('customer');
  }, 60_000);

  it('refuses an unknown email and a wrong usage in one clear line, exit 1', async () => {
    const unknown = await makeOperator(['nobody-here@example.ug']);
    expect(unknown.code).toBe(1);
    expect(ownLines(unknown.stderr)).toEqual([
      'No account has the email nobody-here@example.ug. Ask them to sign up on the shop first, then run this again.',
    ]);
    for (const args of [
      [],
      ['not-an-email'],
      ['a@b.ug', '--boss'],
      ['a@b.ug', 'c@d.ug'],
      ['a@b.ug', '--owner', '--remove'],
    ]) {
      const usage = await makeOperator(args);
      expect(usage.code, args.join(' ')).toBe(1);
      expect(ownLines(usage.stderr)).toEqual([
        'Usage: npm run make-operator -- email [--owner] [--remove]',
      ]);
    }
  }, 120_000);
});
