// The shop's own details (issue 34; decision 0077), on PGlite and PostgreSQL: the owner's only
// (staff and customers 403), partial saves that leave the rest, each field's bad values refused
// with their texts, and the details reaching what shoppers meet: the pickup text (the spec's
// word for word until the owner changes it), the pickup option's words, the contact channels
// (footer, contact page, side menu, assistant), the home's LocalBusiness JSON-LD, the receipt's
// TIN, and the catalogue's version (the edge's key for anonymous pages).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannedAnswer } from '#core/chat-answers.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { DESK_STORE_DETAILS_TEXT as T } from '#core/desk-store-details.ts';
import { DEFAULT_HOURS, type WeekHours } from '#core/store-details.ts';
import { localBusinessJsonLd } from '#core/store-json-ld.ts';
import { deskRecords, profiles, smsNotifications, systemSettings, user } from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { CATALOGUE_VERSION_KEY, catalogueVersion } from '#server/services/catalogue-version.ts';
import { shopperContext } from '#server/services/chat/conversation.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { receiptFor } from '#server/services/orders-service.ts';
import { receiptPdf } from '#server/services/receipt-pdf.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let owner: DeskMember;
let staff: DeskMember;
let customer: Awaited<ReturnType<typeof signedInShopper>>;
let variantId = 0;
const background: Promise<unknown>[] = [];
const SOCIAL = [{ network: 'Instagram' as const, url: 'https://www.instagram.com/duuka.ug' }];
const extras = {
  background: (work: Promise<unknown>) => void background.push(work),
  social: SOCIAL,
};

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  owner = await deskMember(test.db, auth, 'owner');
  staff = await deskMember(test.db, auth, 'staff');
  customer = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  variantId = (await addProduct(test.db, { name: 'Kitenge Wrap', price: 50_000, stock: 100 }))
    .variantId;
});
afterAll(async () => {
  await Promise.allSettled(background);
  await test?.close();
});

const as = (person?: { cookie: string }) =>
  callerFor(test.db, new Headers(person ? { cookie: person.cookie } : {}), extras);
const desk = () => as(owner).desk;
const ref = (orderId: string) => `RCP-${orderId.slice(0, 8)}`;
const SPEC_PICKUP = (orderId: string) =>
  `duuka: Order ${ref(orderId)} is ready for pickup at our Kampala shop, 9AM-6PM daily. Bring your receipt.`;

async function settle() {
  while (background.length > 0) await Promise.allSettled(background.splice(0));
}

/** Clears every detail: today's shop again. */
const reset = () =>
  desk().saveStoreDetails({
    address: null,
    landmark: null,
    latitude: null,
    longitude: null,
    hours: null,
    pickupHours: null,
    socialLinks: null,
    tin: null,
    whatsappNumber: null,
  });

let shoppers = 0;
/** A shopper's pickup order (cash on delivery), and its shopper's id. */
async function pickupOrder() {
  shoppers += 1;
  const id = randomUUID();
  const email = `${id}@example.ug`;
  await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
  const phone = `+2567730${String(shoppers).padStart(5, '0')}`;
  await test.db.insert(profiles).values({ id, email, fullName: 'Nakato Achieng', phone });
  const placed = await placeOrder(
    test.db,
    { id, email, name: 'Nakato Achieng' },
    {
      orderId: randomUUID(),
      lines: [{ variantId, quantity: 1 }],
      paymentMethod: 'cash_on_delivery',
      delivery: { optionId: 'pickup' },
    },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return { orderId: placed.order.orderId, customerId: id };
}

/** The text a pickup order gets when the desk marks it ready. */
async function pickupText() {
  const { orderId } = await pickupOrder();
  await as(staff).desk.setStatus({ orderId, status: 'processing' });
  await as(staff).desk.setStatus({ orderId, status: 'ready_for_pickup' });
  await settle();
  const rows = await test.db
    .select()
    .from(smsNotifications)
    .where(eq(smsNotifications.orderId, orderId));
  const text = rows.find((row) => row.kind === 'ready-for-pickup')?.messageContent;
  return { orderId, text };
}

const pickupOption = async () =>
  (await as().checkout.deliveryOptions()).options.find((o) => o.kind === 'pickup');

const WEEK: WeekHours = {
  ...DEFAULT_HOURS,
  sat: { open: '09:00', close: '18:00' },
  sun: null,
};

describe('who may see and save the details', () => {
  it('the owner only: staff and customers are refused (403), anonymous 401', async () => {
    for (const person of [staff, customer]) {
      await expect(as(person).desk.storeDetails()).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(as(person).desk.saveStoreDetails({ tin: '1000123456' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    }
    await expect(as().desk.storeDetails()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await desk().storeDetails()).details.tin).toBeNull();
    expect(DESK_TEXT.ownerOnly).toBeTruthy();
  });
});

describe('defaults: today’s shop', () => {
  it('nothing set: the spec’s hours and pickup, the contact page’s address, no pin, no TIN; social links from configuration', async () => {
    const { details, sources } = await desk().storeDetails();
    expect(details).toEqual({
      address: 'Kampala, Uganda',
      landmark: null,
      latitude: null,
      longitude: null,
      hours: DEFAULT_HOURS,
      pickupHours: '9AM-6PM daily',
      socialLinks: SOCIAL,
      tin: null,
      whatsappNumber: null,
    });
    expect(Object.values(sources).every((source) => source === 'configuration')).toBe(true);
    // The footer, side menu and contact page as they have always read.
    const { store } = await as().contact.channels();
    expect(store.lines).toEqual([
      { days: 'Mon–Sat', time: '8AM–8PM' },
      { days: 'Sun', time: '10AM–6PM' },
    ]);
    expect(store.summary).toBe('Mon-Sat 8AM-8PM · Sun 10AM-6PM');
    expect(store).toMatchObject({ address: 'Kampala, Uganda', mapUrl: null });
  });

  it('the pickup text and the pickup option’s words are the spec’s, character for character', async () => {
    const { orderId, text } = await pickupText();
    expect(text).toBe(SPEC_PICKUP(orderId));
    expect((await pickupOption())?.details).toBe(
      'At the duuka boutique in Kampala, 9AM-6PM daily. We text you when it is ready.',
    );
  });
});

describe('saving', () => {
  it('a partial save changes what it names and leaves the rest; recorded, keyed, version raised', async () => {
    await desk().saveStoreDetails({
      address: 'Plot 14 Kampala Road, Kampala',
      landmark: 'Opposite the post office',
      tin: '1000123456',
    });
    const before = await catalogueVersion(test.db);
    const requestKey = randomUUID();
    const saved = await desk().saveStoreDetails({ requestKey, hours: WEEK });
    expect(saved.changed).toEqual(['storeHours']);
    expect(Number(await catalogueVersion(test.db))).toBe(Number(before) + 1);
    // The same key again: the first answer, nothing written twice.
    await expect(desk().saveStoreDetails({ requestKey, hours: WEEK })).resolves.toEqual(saved);
    expect(await catalogueVersion(test.db)).toBe(String(Number(before) + 1));

    const { details, sources } = await desk().storeDetails();
    expect(details).toMatchObject({
      address: 'Plot 14 Kampala Road, Kampala',
      landmark: 'Opposite the post office',
      tin: '1000123456',
      hours: WEEK,
      pickupHours: '9AM-6PM daily',
      latitude: null,
    });
    expect(sources).toMatchObject({
      address: 'desk',
      hours: 'desk',
      tin: 'desk',
      pickupHours: 'configuration',
    });
    const records = await test.db
      .select()
      .from(deskRecords)
      .where(eq(deskRecords.action, 'details.saved'));
    expect(records.map((r) => r.details)).toContainEqual({ changed: ['storeHours'] });
    expect(records.every((r) => r.actorEmail === owner.email)).toBe(true);
    // Saving the same again changes nothing, records nothing and keeps the version.
    const version = await catalogueVersion(test.db);
    await expect(desk().saveStoreDetails({ hours: WEEK })).resolves.toEqual({ changed: [] });
    expect(await catalogueVersion(test.db)).toBe(version);
  });

  it('the pin comes in pairs; social links replace the configuration’s; null gives the default back', async () => {
    await desk().saveStoreDetails({ latitude: 0.313611, longitude: 32.581111 });
    await desk().saveStoreDetails({
      socialLinks: ['https://www.tiktok.com/@duuka.ug', 'https://facebook.com/duuka'],
    });
    let { details } = await desk().storeDetails();
    expect(details).toMatchObject({ latitude: 0.313611, longitude: 32.581111 });
    expect(details.socialLinks.map((l) => l.network)).toEqual(['TikTok', 'Facebook']);
    expect((await as().contact.channels()).social.map((l) => l.network)).toEqual([
      'TikTok',
      'Facebook',
    ]);
    await desk().saveStoreDetails({ socialLinks: null, latitude: null, longitude: null });
    ({ details } = await desk().storeDetails());
    expect(details.socialLinks).toEqual(SOCIAL);
    expect(details.latitude).toBeNull();
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['a long address', { address: 'x'.repeat(201) }, T.addressTooLong],
    [
      'an address with NUL',
      { address: 'Plot 1\u0000' },
      'Address cannot contain invisible control characters.',
    ],
    [
      'an address of two lines',
      { address: 'Plot 1\nKampala' },
      'Address cannot contain invisible control characters.',
    ],
    ['a long landmark', { landmark: 'y'.repeat(201) }, T.landmarkTooLong],
    ['a number as address', { address: 12 }, T.notText('Address')],
    ['latitude alone', { latitude: 0.3 }, T.pinTogether],
    ['latitude 91', { latitude: 91, longitude: 32 }, T.latitudeInvalid],
    ['longitude -181', { latitude: 0.3, longitude: -181 }, T.longitudeInvalid],
    ['seven decimals', { latitude: 0.3136111, longitude: 32.5 }, T.latitudeInvalid],
    ['a text latitude', { latitude: '0.3', longitude: 32.5 }, T.latitudeInvalid],
    ['NaN', { latitude: Number.NaN, longitude: 32.5 }, T.latitudeInvalid],
    ['1e21', { latitude: 0.3, longitude: 1e21 }, T.longitudeInvalid],
    ['Infinity as text', { latitude: 'Infinity', longitude: 32.5 }, T.latitudeInvalid],
    [
      'closing before opening',
      { hours: { ...WEEK, mon: { open: '18:00', close: '09:00' } } },
      T.closeAfterOpen('Monday'),
    ],
    [
      '25:00',
      { hours: { ...WEEK, tue: { open: '08:00', close: '25:00' } } },
      T.timeInvalid('Tuesday'),
    ],
    ['a day missing', { hours: { mon: null } }, T.hoursInvalid],
    ['an eighth day', { hours: { ...WEEK, xyz: null } }, T.hoursInvalid],
    ['a long pickup line', { pickupHours: 'z'.repeat(61) }, T.pickupTooLong],
    ['an http link', { socialLinks: ['http://instagram.com/duuka'] }, T.socialInvalid],
    ['another site', { socialLinks: ['https://example.com/duuka'] }, T.socialInvalid],
    ['nine links', { socialLinks: Array(9).fill('https://x.com/duuka') }, T.socialTooMany],
    ['a TIN of nine digits', { tin: '100012345' }, T.tinInvalid],
    ['a TIN with letters', { tin: '10001234AB' }, T.tinInvalid],
    ['a WhatsApp number too short', { whatsappNumber: '0772 123' }, T.whatsappInvalid],
    ['a WhatsApp number of letters', { whatsappNumber: 'call me' }, T.whatsappInvalid],
    ['a WhatsApp number with letters', { whatsappNumber: '0772 12345O' }, T.whatsappInvalid],
    ['a WhatsApp number of 16 digits', { whatsappNumber: '+2567721234567890' }, T.whatsappInvalid],
    ['a WhatsApp number as a number', { whatsappNumber: 772123456 }, T.whatsappInvalid],
    ['an unknown field', { phone: '0772' }, T.invalid],
  ];
  it.each(refusals)('refuses %s with its text (400), changing nothing', async (_, input, text) => {
    const before = await test.db.select().from(systemSettings);
    await expect(desk().saveStoreDetails(input as never)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: text,
    });
    expect(await test.db.select().from(systemSettings)).toEqual(before);
  });

  it('a TIN typed with spaces is kept as its 10 digits', async () => {
    await desk().saveStoreDetails({ tin: '1000 123 456' });
    expect((await desk().storeDetails()).details.tin).toBe('1000123456');
  });
});

describe('where the details reach shoppers', () => {
  it('the pickup text and the pickup option name her hours and address; cleared, the spec’s again', async () => {
    await reset();
    await desk().saveStoreDetails({ pickupHours: 'Mon-Sat 10AM-5PM' });
    let { orderId, text } = await pickupText();
    expect(text).toBe(
      `duuka: Order ${ref(orderId)} is ready for pickup at our Kampala shop, Mon-Sat 10AM-5PM. Bring your receipt.`,
    );
    await desk().saveStoreDetails({ address: 'Plot 14 Kampala Road' });
    ({ orderId, text } = await pickupText());
    expect(text).toBe(
      `duuka: Order ${ref(orderId)} is ready for pickup at our shop, Plot 14 Kampala Road, Mon-Sat 10AM-5PM. Bring your receipt.`,
    );
    expect((text ?? '').length).toBeLessThanOrEqual(160);
    expect((await pickupOption())?.details).toBe(
      'At the duuka boutique at Plot 14 Kampala Road, Mon-Sat 10AM-5PM. We text you when it is ready.',
    );
    // A long address is clipped so the text stays one SMS.
    await desk().saveStoreDetails({ address: `Plot 14 ${'Kampala Road '.repeat(14).trim()}` });
    ({ text } = await pickupText());
    expect((text ?? '').length).toBeLessThanOrEqual(160);
    expect(text).toMatch(/\.\.\., Mon-Sat 10AM-5PM\. Bring your receipt\.$/);
    await reset();
    ({ orderId, text } = await pickupText());
    expect(text).toBe(SPEC_PICKUP(orderId));
  });

  it('the contact channels (footer, contact page, side menu) and the home’s JSON-LD carry them', async () => {
    await reset();
    await desk().saveStoreDetails({
      address: 'Plot 14 Kampala Road, Kampala',
      landmark: 'Opposite the post office',
      latitude: 0.313611,
      longitude: 32.581111,
      hours: WEEK,
      tin: '1000123456',
    });
    const channels = await as().contact.channels();
    expect(channels.store).toMatchObject({
      address: 'Plot 14 Kampala Road, Kampala',
      landmark: 'Opposite the post office',
      place: 'Plot 14 Kampala Road, Kampala · Opposite the post office',
      latitude: 0.313611,
      longitude: 32.581111,
      mapUrl: 'https://www.google.com/maps/search/?api=1&query=0.313611,32.581111',
      lines: [
        { days: 'Mon–Fri', time: '8AM–8PM' },
        { days: 'Sat', time: '9AM–6PM' },
        { days: 'Sun', time: 'Closed' },
      ],
      summary: 'Mon-Fri 8AM-8PM · Sat 9AM-6PM · Sun Closed',
    });
    expect(channels.store.days.map((d) => `${d.label} ${d.time}`)).toEqual([
      'Mon 8AM–8PM',
      'Tue 8AM–8PM',
      'Wed 8AM–8PM',
      'Thu 8AM–8PM',
      'Fri 8AM–8PM',
      'Sat 9AM–6PM',
      'Sun Closed',
    ]);
    // The TIN is for receipts, not the shop's every page.
    expect(JSON.stringify(channels)).not.toContain('1000123456');

    const ld = localBusinessJsonLd(channels.store, {
      ...channels.support,
      social: channels.social,
      url: 'https://duuka.ug/',
      image: 'https://duuka.ug/images/hero/share.jpg',
    });
    expect(ld).toMatchObject({
      '@type': 'ClothingStore',
      address: { '@type': 'PostalAddress', streetAddress: 'Plot 14 Kampala Road, Kampala' },
      geo: { '@type': 'GeoCoordinates', latitude: 0.313611, longitude: 32.581111 },
      hasMap: 'https://www.google.com/maps/search/?api=1&query=0.313611,32.581111',
      telephone: channels.support.phone,
    });
    expect(ld.openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '08:00',
        closes: '20:00',
      },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Saturday'],
        opens: '09:00',
        closes: '18:00',
      },
    ]);
  });

  it('the assistant knows the hours and the place', async () => {
    const context = await shopperContext(
      test.db,
      { id: customer.id, name: customer.name },
      { email: 'hello@duuka.ug', phone: '+256 759 301 488' },
    );
    expect(context.contact.hours).toBe('Mon-Fri 8AM-8PM, Sat 9AM-6PM, Sun Closed');
    expect(context.contact.place).toBe('Plot 14 Kampala Road, Kampala · Opposite the post office');
    expect(cannedAnswer('hello', context.contact, null)).toContain(
      'Mon-Fri 8AM-8PM, Sat 9AM-6PM, Sun Closed.',
    );
  });

  it('the receipt (view and PDF) shows the address and the TIN', async () => {
    const { orderId, customerId } = await pickupOrder();
    const receipt = await receiptFor(test.db, customerId, orderId);
    expect(receipt?.shop).toEqual({ address: 'Plot 14 Kampala Road, Kampala', tin: '1000123456' });
    const pdf = Buffer.from(await receiptPdf(receipt as NonNullable<typeof receipt>));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await desk().saveStoreDetails({ tin: null });
    expect((await receiptFor(test.db, customerId, orderId))?.shop?.tin).toBeNull();
  });

  it('the edge-cached anonymous pages’ key (the catalogue version) moves with a save', async () => {
    const read = async () =>
      (
        await test.db
          .select()
          .from(systemSettings)
          .where(eq(systemSettings.settingKey, CATALOGUE_VERSION_KEY))
      )[0]?.settingValue;
    const before = await read();
    await desk().saveStoreDetails({ landmark: 'Next to the old taxi park' });
    expect(Number(await read())).toBe(Number(before) + 1);
    // The TIN is on receipts only (never cached): its save leaves the cached pages be.
    await desk().saveStoreDetails({ tin: '1000999888' });
    expect(Number(await read())).toBe(Number(before) + 1);
  });
});

describe('the shop’s WhatsApp number (issue 37)', () => {
  const WHATSAPP = {
    api: { send: async () => ({ ok: true as const, messageId: 'wamid.x' }) },
    appSecret: 's',
    verifyToken: 'v',
  };
  /** A visitor's contact channels in a shop that has WhatsApp (WHATSAPP_* configured). */
  const channelsWithWhatsApp = () =>
    callerFor(test.db, new Headers(), {
      ...extras,
      sms: { gateway: null, adminPhone: null, whatsapp: WHATSAPP },
    }).contact.channels();

  it('the owner saves it as typed and it is kept as +256…; the desk says whether the shop has WhatsApp', async () => {
    await desk().saveStoreDetails({ whatsappNumber: null });
    expect(await desk().storeDetails()).toMatchObject({
      details: { whatsappNumber: null },
      sources: { whatsappNumber: 'configuration' },
      whatsappConfigured: false,
    });
    const saved = await desk().saveStoreDetails({ whatsappNumber: ' 0772 123-456 ' });
    expect(saved.changed).toEqual(['whatsappNumber']);
    expect(await desk().storeDetails()).toMatchObject({
      details: { whatsappNumber: '+256772123456' },
      sources: { whatsappNumber: 'desk' },
    });
    const rows = await test.db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, 'whatsapp_number'));
    expect(rows.map((row) => row.settingValue)).toEqual(['+256772123456']);
    // The same number typed another way is no change.
    await expect(desk().saveStoreDetails({ whatsappNumber: '+256 772 123 456' })).resolves.toEqual({
      changed: [],
    });
    const configured = callerFor(test.db, new Headers({ cookie: owner.cookie }), {
      ...extras,
      sms: { gateway: null, adminPhone: null, whatsapp: WHATSAPP },
    });
    expect((await configured.desk.storeDetails()).whatsappConfigured).toBe(true);
  });

  it('staff and customers may not set it (403), and nothing changes', async () => {
    for (const person of [staff, customer]) {
      await expect(
        as(person).desk.saveStoreDetails({ whatsappNumber: '0700 999 888' }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await desk().storeDetails()).details.whatsappNumber).toBe('+256772123456');
  });

  it('refuses a number that is not one with its text (400), keeping the one set', async () => {
    for (const typed of ['12345', 'wa.me/256772123456', '0772 123 456 ext 2']) {
      await expect(desk().saveStoreDetails({ whatsappNumber: typed })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: T.whatsappInvalid,
      });
    }
    expect(T.whatsappInvalid).toBe(
      'WhatsApp number must be a phone number: +256 and 9 digits, or 10 to 15 digits, e.g. 0772 123 456.',
    );
    expect((await desk().storeDetails()).details.whatsappNumber).toBe('+256772123456');
  });

  it('shoppers see it only where the shop has WhatsApp and a number is set', async () => {
    // A number, but no WhatsApp configured: nothing of WhatsApp.
    expect((await as().contact.channels()).whatsapp).toBeNull();
    // Both: the number, and order updates on WhatsApp offered.
    expect((await channelsWithWhatsApp()).whatsapp).toEqual({
      number: '+256772123456',
      orderUpdates: true,
    });
    // WhatsApp configured, the number cleared (a blank field): nothing again.
    await desk().saveStoreDetails({ whatsappNumber: '  ' });
    expect((await desk().storeDetails()).details.whatsappNumber).toBeNull();
    expect((await channelsWithWhatsApp()).whatsapp).toBeNull();
    expect((await as().contact.channels()).whatsapp).toBeNull();
  });

  it('a save of the number moves the edge-cached pages’ key: they carry the link', async () => {
    const before = await catalogueVersion(test.db);
    await desk().saveStoreDetails({ whatsappNumber: '0772123456' });
    expect(Number(await catalogueVersion(test.db))).toBe(Number(before) + 1);
    await desk().saveStoreDetails({ whatsappNumber: null });
  });
});
