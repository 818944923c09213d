// The account router and the avatar route on a real database: each shopper reaches only their
// own profile, settings and picture; bad input is refused with a clear text and stored nowhere;
// deletion removes the person and keeps the shop's books.
import { randomUUID } from 'node:crypto';
import { neonConfig } from '@neondatabase/serverless';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_CUSTOMER_NAME, TEXT } from '#core/account.ts';
import { defaultSettings } from '#core/settings-rules.ts';
import {
  account,
  chatMessages,
  mailOutbox,
  orders,
  profiles,
  receipts,
  session,
  smsNotifications,
  user,
  userSettings,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { serveAvatar } from '#server/http/account-avatar.ts';
import { type AvatarStore, readAvatar } from '#server/services/avatar-service.ts';
import { authPost, signedInShopper, testAuth } from '../support/accounts.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
const stored = new Map<string, { bytes: Uint8Array; contentType?: string }>();
const avatars: AvatarStore = {
  async put(key, value, options) {
    stored.set(key, {
      bytes: new Uint8Array(value instanceof ArrayBuffer ? value : value.slice()),
      contentType: options?.httpMetadata?.contentType,
    });
  },
  async get(key) {
    const object = stored.get(key);
    if (!object) return null;
    return {
      body: new Response(object.bytes as Uint8Array<ArrayBuffer>).body as ReadableStream,
      httpEtag: `"${object.bytes.byteLength}"`,
      httpMetadata: { contentType: object.contentType },
    };
  },
  async delete(key) {
    stored.delete(key);
  },
};

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
});
afterAll(() => test.close());

type Shopper = Awaited<ReturnType<typeof signedInShopper>>;
const as = (shopper: Shopper | null) =>
  callerFor(test.db, new Headers(shopper ? { cookie: shopper.cookie } : {}), { auth, avatars });
const extras = (shopper: Shopper) => ({ auth, avatars, cookie: shopper.cookie });

async function profileRow(id: string) {
  const [row] = await test.db.select().from(profiles).where(eq(profiles.id, id));
  return row;
}

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
/** An upload to the avatar route, as the signed-in shopper's page sends it: its status and body. */
async function uploadAvatar(shopper: Shopper, bytes: Uint8Array, type = 'image/png') {
  const request = new Request('http://shop.test/api/account/avatar', {
    method: 'POST',
    headers: { cookie: shopper.cookie, 'content-type': type, origin: 'http://shop.test' },
    body: new Blob([new Uint8Array(bytes)]),
  });
  const deps = { db: test.db, auth, avatars, ownOrigins: ['http://shop.test'] };
  const response = await serveAvatar(deps, request);
  const body = (await response.json()) as { avatarUrl?: string; message?: string };
  return { status: response.status, ...body };
}

describe('signed out', () => {
  it('answers every account procedure with 401 User not authenticated', async () => {
    for (const path of ['account.profile', 'account.settings']) {
      const answer = await queryOverHttp(test.db, path, undefined, { auth, avatars });
      expect(answer.status, path).toBe(401);
      expect(answer.body.error?.message).toBe('User not authenticated');
    }
    const save = await mutateOverHttp(
      test.db,
      'account.updateProfile',
      { fullName: 'Nobody', phone: '', address: '' },
      { auth, avatars },
    );
    expect(save.status).toBe(401);
    await expect(as(null).account.session()).resolves.toBeNull();
  });
});

describe('profile', () => {
  it('is created at registration and, when missing, once under racing first visits', async () => {
    const shopper = await signedInShopper(test.db, auth, { name: 'Grace Atim' });
    expect((await profileRow(shopper.id))?.fullName).toBe('Grace Atim');
    await test.db.delete(profiles).where(eq(profiles.id, shopper.id));
    const reads = await Promise.all(Array.from({ length: 8 }, () => as(shopper).account.profile()));
    expect(new Set(reads.map((r) => r.created_at)).size).toBe(1);
    expect(reads[0]).toMatchObject({
      id: shopper.id,
      email: shopper.email,
      full_name: 'Grace Atim',
    });
    const rows = await test.db.select().from(profiles).where(eq(profiles.id, shopper.id));
    expect(rows).toHaveLength(1);
  });

  it('saves the edit: phone normalised to +256, empty stored as null, name follows', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const saved = await as(shopper).account.updateProfile({
      fullName: '  Daniel Ssemwogerere ',
      phone: '0772 123 456',
      address: '   ',
    });
    expect(saved).toMatchObject({
      full_name: 'Daniel Ssemwogerere',
      phone: '+256772123456',
      address: null,
    });
    expect(await as(shopper).account.session()).toMatchObject({ name: 'Daniel Ssemwogerere' });
    const cleared = await as(shopper).account.updateProfile({
      fullName: 'Daniel S',
      phone: '',
      address: 'Plot 4, Kampala Road, Kampala',
    });
    expect(cleared).toMatchObject({ phone: null, address: 'Plot 4, Kampala Road, Kampala' });
  });

  it.each([
    [{ fullName: 'x'.repeat(101) }, 'Full name must be at most 100 characters.'],
    [{ fullName: '   ' }, 'Full name is required'],
    [{ fullName: 12 }, 'Full name must be text'],
    [{ fullName: '<script>alert(1)</script>' }, 'Full name cannot contain < or >.'],
    [{ phone: 'call me' }, TEXT.invalidPhone],
    [{ phone: '+256 7' }, TEXT.invalidPhone],
    [{ phone: ['0772123456'] }, 'Phone must be text'],
    [{ address: 'a'.repeat(501) }, 'Address must be at most 500 characters.'],
    [{ address: '<img src=x onerror=alert(1)>' }, 'Address cannot contain < or >.'],
    [{ id: 'someone-else' }, 'Unexpected profile field'],
  ])('refuses %j with a clear error and stores nothing', async (change, message) => {
    const shopper = await signedInShopper(test.db, auth, { name: 'Stays Unchanged' });
    const before = await profileRow(shopper.id);
    const answer = await mutateOverHttp(
      test.db,
      'account.updateProfile',
      { fullName: 'Valid Name', phone: '0772123456', address: 'Kampala', ...change },
      extras(shopper),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toBe(message);
    expect(JSON.stringify(answer.body)).not.toContain('stack');
    expect(await profileRow(shopper.id)).toEqual(before);
  });

  it('lets shopper B read and change only B: no input names a person', async () => {
    const a = await signedInShopper(test.db, auth, { name: 'Shopper A' });
    const b = await signedInShopper(test.db, auth, { name: 'Shopper B' });
    await as(a).account.updateProfile({ fullName: 'Shopper A', phone: '0700000001', address: 'A' });
    expect((await as(b).account.profile()).id).toBe(b.id);
    await as(b).account.updateProfile({ fullName: 'B again', phone: '', address: '' });
    expect(await profileRow(a.id)).toMatchObject({ fullName: 'Shopper A', phone: '+256700000001' });
    const smuggled = await mutateOverHttp(
      test.db,
      'account.updateProfile',
      { id: a.id, fullName: 'Hijacked', phone: '', address: '' },
      extras(b),
    );
    expect(smuggled.status).toBe(400);
    expect((await profileRow(a.id))?.fullName).toBe('Shopper A');
  });
});

/** How many HTTP requests the Neon driver sends (each one a round trip to the database). */
async function roundTrips(run: () => Promise<unknown>): Promise<number> {
  let requests = 0;
  const previous = neonConfig.fetchFunction;
  neonConfig.fetchFunction = (...args: Parameters<typeof fetch>) => {
    requests += 1;
    return (previous ?? fetch)(...args);
  };
  try {
    await run();
  } finally {
    neonConfig.fetchFunction = previous;
  }
  return requests;
}

describe('profile round trips to the database', () => {
  // What the profile work costs on top of reading the session (measured side by side).
  async function beyondSession(shopper: Shopper, run: () => Promise<unknown>) {
    const session = await roundTrips(() => as(shopper).account.session());
    return (await roundTrips(run)) - session;
  }

  it('reads an existing profile in one request, writing nothing', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const before = await profileRow(shopper.id);
    const session = await roundTrips(() => as(shopper).account.session());
    const reads = await beyondSession(shopper, () => as(shopper).account.profile());
    console.info(`round trips: session ${session}, existing profile read ${reads} beyond it`);
    expect(reads).toBe(1);
    expect(await profileRow(shopper.id)).toEqual(before);
  });

  it('creates a missing profile on the first read, and saves an edit in one request', async () => {
    const shopper = await signedInShopper(test.db, auth, { name: 'Sanyu' });
    await test.db.delete(profiles).where(eq(profiles.id, shopper.id));
    const first = await beyondSession(shopper, () => as(shopper).account.profile());
    const save = await beyondSession(shopper, () =>
      as(shopper).account.updateProfile({ fullName: 'Sanyu N', phone: '', address: 'Gulu' }),
    );
    await test.db.delete(profiles).where(eq(profiles.id, shopper.id));
    const firstSave = await beyondSession(shopper, () =>
      as(shopper).account.updateProfile({ fullName: 'Sanyu N', phone: '', address: 'Gulu' }),
    );
    console.info(
      `round trips: first profile read ${first}, profile save ${save}, save without a profile ${firstSave}`,
    );
    expect(first).toBeLessThanOrEqual(2);
    expect(save).toBe(1);
    expect(firstSave).toBe(1);
    expect(await profileRow(shopper.id)).toMatchObject({ fullName: 'Sanyu N', address: 'Gulu' });
  });
});

describe('settings', () => {
  it('reads null before the first save, then what was saved', async () => {
    const shopper = await signedInShopper(test.db, auth);
    expect(await as(shopper).account.settings()).toBeNull();
    const wanted = defaultSettings('Nakato');
    wanted.appearance = { darkMode: true, language: 'lg', currency: 'USD', lessData: true };
    wanted.notifications.promotions = true;
    wanted.privacy.profileVisibility = 'friends';
    await as(shopper).account.saveSettings(wanted);
    expect(await as(shopper).account.settings()).toEqual(wanted);
    // Back to the device's scheme (System): stored as null, read back as null.
    wanted.appearance.darkMode = null;
    await as(shopper).account.saveSettings(wanted);
    expect((await as(shopper).account.settings())?.appearance.darkMode).toBeNull();
  });

  it.each([
    [
      { appearance: { darkMode: 'yes', language: 'en', currency: 'UGX' } },
      'Dark mode must be on or off',
    ],
    [
      { appearance: { darkMode: false, language: 'en', currency: 'UGX', lessData: 'on' } },
      'Use less data must be on or off',
    ],
    [
      { appearance: { darkMode: false, language: 'en', currency: 'UGX', lessData: null } },
      'Use less data must be on or off',
    ],
    [
      { appearance: { darkMode: false, language: 'xx', currency: 'UGX' } },
      'Please choose one of the offered languages',
    ],
    [
      { appearance: { darkMode: false, language: 'en', currency: 'BTC' } },
      'Please choose one of the offered currencies',
    ],
    [
      { privacy: { profileVisibility: 'everyone', dataSharing: false, analytics: true } },
      'Please choose public, private or friends only',
    ],
    [
      { account: { displayName: '<b>x</b>', twoFactorAuth: false } },
      'Display name cannot contain < or >.',
    ],
    [
      { account: { displayName: 'x'.repeat(101), twoFactorAuth: false } },
      'Display name must be at most 100 characters.',
    ],
    [{ userId: 'someone-else' }, 'Unexpected settings field'],
  ])('refuses %j and stores nothing', async (change, message) => {
    const shopper = await signedInShopper(test.db, auth);
    const answer = await mutateOverHttp(
      test.db,
      'account.saveSettings',
      { ...defaultSettings('X'), ...change },
      extras(shopper),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toBe(message);
    const rows = await test.db
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, shopper.id));
    expect(rows).toEqual([]);
  });

  describe('the order updates’ channel (issue 37)', () => {
    const WHATSAPP = {
      api: { send: async () => ({ ok: true as const, messageId: 'wamid.x' }) },
      appSecret: 's',
      verifyToken: 'v',
    };
    /** The shopper's caller in a shop that has WhatsApp (WHATSAPP_* configured). */
    const withWhatsApp = (shopper: Shopper) =>
      callerFor(test.db, new Headers({ cookie: shopper.cookie }), {
        auth,
        avatars,
        sms: { gateway: null, adminPhone: null, whatsapp: WHATSAPP },
      });
    const channelOf = async (shopper: Shopper) =>
      (
        await test.db
          .select({ channel: userSettings.notificationChannel })
          .from(userSettings)
          .where(eq(userSettings.userId, shopper.id))
      )[0]?.channel;

    it('SMS until she chooses WhatsApp; saved and read back; SMS again when she says so', async () => {
      const shopper = await signedInShopper(test.db, auth);
      const saved = await withWhatsApp(shopper).account.saveSettings(defaultSettings('Achan'));
      expect(saved.notifications.channel).toBe('sms');
      const wanted = defaultSettings('Achan');
      wanted.notifications.channel = 'whatsapp';
      await expect(withWhatsApp(shopper).account.saveSettings(wanted)).resolves.toEqual(wanted);
      expect(await withWhatsApp(shopper).account.settings()).toEqual(wanted);
      expect(await channelOf(shopper)).toBe('whatsapp');
      wanted.notifications.channel = 'sms';
      await withWhatsApp(shopper).account.saveSettings(wanted);
      expect((await as(shopper).account.settings())?.notifications.channel).toBe('sms');
    });

    it('a save without the channel (an older page) keeps what is stored; a first one starts at SMS', async () => {
      const shopper = await signedInShopper(test.db, auth);
      const wanted = defaultSettings('Nabirye');
      wanted.notifications.channel = 'whatsapp';
      await withWhatsApp(shopper).account.saveSettings(wanted);
      const { channel: _, ...older } = wanted.notifications;
      const answer = await mutateOverHttp(
        test.db,
        'account.saveSettings',
        { ...wanted, notifications: { ...older, promotions: true } },
        extras(shopper),
      );
      expect(answer.status).toBe(200);
      const read = await as(shopper).account.settings();
      expect(read?.notifications).toEqual({ ...older, promotions: true, channel: 'whatsapp' });
      // Even where the shop has no WhatsApp now: leaving the channel out is not choosing it.
      await as(shopper).account.saveSettings({ ...wanted, notifications: older });
      expect(await channelOf(shopper)).toBe('whatsapp');

      const newcomer = await signedInShopper(test.db, auth);
      await as(newcomer).account.saveSettings({ ...wanted, notifications: older });
      expect((await as(newcomer).account.settings())?.notifications.channel).toBe('sms');
    });

    it('WhatsApp is refused with its text where the shop has no WhatsApp, and nothing is stored', async () => {
      const shopper = await signedInShopper(test.db, auth);
      const wanted = defaultSettings('Akello');
      wanted.notifications.channel = 'whatsapp';
      const answer = await mutateOverHttp(test.db, 'account.saveSettings', wanted, extras(shopper));
      expect(answer.status).toBe(400);
      expect(answer.body.error?.message).toBe(
        'Order updates on WhatsApp are not available in this shop.',
      );
      expect(answer.body.error?.message).toBe(TEXT.whatsappUnavailable);
      expect(await channelOf(shopper)).toBeUndefined();
      // Stored before the shop lost WhatsApp: a save that says WhatsApp again is refused too,
      // and the stored choice stays.
      await withWhatsApp(shopper).account.saveSettings(wanted);
      wanted.notifications.promotions = true;
      await expect(as(shopper).account.saveSettings(wanted)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: TEXT.whatsappUnavailable,
      });
      expect((await as(shopper).account.settings())?.notifications).toMatchObject({
        promotions: false,
        channel: 'whatsapp',
      });
    });

    it.each([
      ['email', 'email'],
      ['a number', 1],
      ['true', true],
      ['null', null],
      ['WhatsApp in capitals', 'WHATSAPP'],
    ])('a channel of %s is refused with the catalogue’s text', async (_, channel) => {
      const shopper = await signedInShopper(test.db, auth);
      const settings = defaultSettings('X');
      const answer = await mutateOverHttp(
        test.db,
        'account.saveSettings',
        { ...settings, notifications: { ...settings.notifications, channel } },
        { ...extras(shopper), sms: { gateway: null, adminPhone: null, whatsapp: WHATSAPP } },
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error?.message).toBe(TEXT.channelInvalid);
      expect(answer.body.error?.message).toBe('Please choose SMS or WhatsApp for order updates');
      expect(await channelOf(shopper)).toBeUndefined();
    });
  });

  it('a save without "Use less data" (an older page) keeps what is stored; a first one is off', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const wanted = defaultSettings('Namuli');
    wanted.appearance.lessData = true;
    await as(shopper).account.saveSettings(wanted);
    const { lessData: _, ...older } = wanted.appearance;
    const answer = await mutateOverHttp(
      test.db,
      'account.saveSettings',
      { ...wanted, appearance: { ...older, darkMode: true } },
      extras(shopper),
    );
    expect(answer.status).toBe(200);
    expect((await as(shopper).account.settings())?.appearance).toEqual({
      ...older,
      darkMode: true,
      lessData: true,
    });
    // Turned off, it is off.
    await as(shopper).account.saveSettings({
      ...wanted,
      appearance: { ...wanted.appearance, lessData: false },
    });
    expect((await as(shopper).account.settings())?.appearance.lessData).toBe(false);

    const newcomer = await signedInShopper(test.db, auth);
    await as(newcomer).account.saveSettings({ ...wanted, appearance: older });
    expect((await as(newcomer).account.settings())?.appearance.lessData).toBe(false);
  });

  it('keeps A and B apart', async () => {
    const a = await signedInShopper(test.db, auth);
    const b = await signedInShopper(test.db, auth);
    const dark = defaultSettings('A');
    dark.appearance.darkMode = true;
    await as(a).account.saveSettings(dark);
    expect(await as(b).account.settings()).toBeNull();
    await as(b).account.saveSettings(defaultSettings('B'));
    expect((await as(a).account.settings())?.appearance.darkMode).toBe(true);
  });
});

describe('avatar', () => {
  it('stores a picture for its owner only and gives back its URL and the picture', async () => {
    const a = await signedInShopper(test.db, auth);
    const b = await signedInShopper(test.db, auth);
    const upload = await uploadAvatar(a, PNG);
    expect(upload).toEqual({
      status: 200,
      avatarUrl: expect.stringMatching(/^\/api\/account\/avatar\?v=\d+$/),
    });
    const { avatarUrl } = upload as { avatarUrl: string };
    expect((await profileRow(a.id))?.avatarUrl).toBe(avatarUrl);
    expect((await as(a).account.session())?.image).toBe(avatarUrl);
    expect((await as(a).account.profile()).avatar_url).toBe(avatarUrl);

    const own = await readAvatar({ avatars }, a);
    expect(own?.httpMetadata?.contentType).toBe('image/png');
    expect(new Uint8Array(await new Response(own?.body).arrayBuffer())).toEqual(PNG);

    // B has no picture: B never gets A's.
    await expect(readAvatar({ avatars }, b)).resolves.toBeNull();
    const gif = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);
    expect(await uploadAvatar(b, gif, 'image/gif')).toMatchObject({ status: 200 });
    expect(stored.get(`avatars/${a.id}`)?.bytes).toEqual(PNG);
    expect(stored.get(`avatars/${b.id}`)?.contentType).toBe('image/gif');
  });

  it.each([
    ['a non-image type', new TextEncoder().encode('hello'), 'text/plain', TEXT.avatarType],
    [
      'HTML dressed as a PNG',
      new TextEncoder().encode('<html><script>x</script>'),
      'image/png',
      TEXT.avatarType,
    ],
    ['2 MB or more', new Uint8Array(2 * 1024 * 1024), 'image/jpeg', TEXT.avatarSize],
    [
      'an SVG (scripts inside)',
      new TextEncoder().encode('<svg/>'),
      'image/svg+xml',
      TEXT.avatarType,
    ],
  ])('refuses %s with the spec text and stores nothing', async (_, body, type, message) => {
    const shopper = await signedInShopper(test.db, auth);
    await expect(uploadAvatar(shopper, body, type)).resolves.toEqual({ status: 400, message });
    expect(stored.has(`avatars/${shopper.id}`)).toBe(false);
    expect((await profileRow(shopper.id))?.avatarUrl).toBeNull();
  });
});

describe('account deletion', () => {
  async function withHistory(shopper: Shopper, phone = '0772000111') {
    const stored = `+256${phone.slice(1)}`;
    await as(shopper).account.updateProfile({
      fullName: 'Amara',
      phone,
      address: 'Ntinda',
    });
    await as(shopper).account.saveSettings(defaultSettings('Amara'));
    await uploadAvatar(shopper, PNG);
    const orderId = randomUUID();
    await test.db.insert(orders).values({
      id: orderId,
      customerId: shopper.id,
      customerName: 'Amara',
      subtotal: 90_000,
      deliveryFee: 5_000,
      total: 95_000,
      paymentMethod: 'mobile_money',
      deliveryArea: 'Ntinda',
      deliveryLandmark: 'Behind Capital Shoppers',
      deliveryPhone: stored,
      deliveryNotes: 'Blue gate, ask for Amara',
    });
    await test.db.insert(receipts).values({
      receiptNumber: `RCP-${orderId.slice(0, 8)}`,
      orderId,
      customerId: shopper.id,
      subtotal: 90_000,
      deliveryFee: 5_000,
      totalAmount: 95_000,
      paymentMethod: 'mobile_money',
      receiptData: {
        receiptNumber: 'x',
        customerInfo: { name: 'Amara', email: shopper.email, phone: stored },
        total: 95_000,
        delivery: {
          option: 'Kampala delivery',
          kind: 'delivery',
          area: 'Ntinda',
          landmark: 'Behind Capital Shoppers',
          phone: stored,
          notes: 'Blue gate, ask for Amara',
        },
      },
    });
    // A "back in stock" text: tied to no order, only to their number.
    await test.db.insert(smsNotifications).values({
      recipientPhone: stored,
      recipientType: 'customer',
      kind: 'back-in-stock',
      messageContent: 'duuka: Good news! Amara, your dress is back',
    });
    await test.db
      .insert(chatMessages)
      .values({ userId: shopper.id, sessionId: `${shopper.id}-1`, role: 'user', content: 'Hello' });
    return orderId;
  }

  it('refuses a wrong password and keeps everything', async () => {
    const shopper = await signedInShopper(test.db, auth);
    await withHistory(shopper);
    const answer = await mutateOverHttp(
      test.db,
      'account.deleteAccount',
      { password: 'not-my-password' },
      extras(shopper),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toBe('Password is incorrect');
    const empty = await mutateOverHttp(
      test.db,
      'account.deleteAccount',
      { password: '' },
      extras(shopper),
    );
    expect(empty.body.error?.message).toBe('Password is incorrect');
    expect(await profileRow(shopper.id)).toBeDefined();
    expect(stored.has(`avatars/${shopper.id}`)).toBe(true);
  });

  it('removes the person and keeps their orders detached and anonymised', async () => {
    const shopper = await signedInShopper(test.db, auth);
    const bystander = await signedInShopper(test.db, auth);
    const orderId = await withHistory(shopper, '0772000333');
    await withHistory(bystander, '0772000222');

    await expect(
      as(shopper).account.deleteAccount({ password: shopper.password }),
    ).resolves.toEqual({
      deleted: true,
    });

    for (const [table, column] of [
      [user, user.id],
      [session, session.userId],
      [account, account.userId],
      [profiles, profiles.id],
      [userSettings, userSettings.userId],
      [chatMessages, chatMessages.userId],
    ] as const) {
      expect(await test.db.select().from(table).where(eq(column, shopper.id))).toEqual([]);
    }
    expect(
      await test.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, shopper.email)),
    ).toEqual([]);
    expect(stored.has(`avatars/${shopper.id}`)).toBe(false);
    const [order] = await test.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      customerId: null,
      customerName: DELETED_CUSTOMER_NAME,
      total: 95_000,
    });
    const [receipt] = await test.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    expect(receipt?.customerId).toBeNull();
    expect(JSON.stringify(receipt?.receiptData)).not.toContain(shopper.email);
    expect(JSON.stringify(receipt?.receiptData)).not.toContain('+256772000333');
    // Where the rider went goes too; what was bought and how it was sent stays for the books.
    expect(order).toMatchObject({
      deliveryArea: '',
      deliveryLandmark: '',
      deliveryPhone: null,
      deliveryNotes: '',
    });
    expect(JSON.stringify(receipt?.receiptData)).not.toMatch(/Ntinda|Capital|Blue gate/);
    expect((receipt?.receiptData as { delivery?: object } | undefined)?.delivery).toMatchObject({
      option: 'Kampala delivery',
      kind: 'delivery',
    });
    const texts = await test.db
      .select({ phone: smsNotifications.recipientPhone, text: smsNotifications.messageContent })
      .from(smsNotifications)
      .where(eq(smsNotifications.kind, 'back-in-stock'));
    const numbers = texts.map((t) => t.phone);
    expect(numbers).toContain('+256772000222'); // the bystander's stays
    expect(numbers).not.toContain('+256772000333');
    expect(texts.find((t) => t.phone === 'removed')?.text).toBe(
      '[removed: the customer deleted their account]',
    );

    // The old cookie reads no one, and the login now fails.
    await expect(as(shopper).account.session()).resolves.toBeNull();
    const login = await authPost(auth, '/sign-in/email', {
      email: shopper.email,
      password: shopper.password,
    });
    expect(login.status).toBe(401);

    // The bystander keeps everything.
    expect(await profileRow(bystander.id)).toMatchObject({ fullName: 'Amara' });
    expect(stored.has(`avatars/${bystander.id}`)).toBe(true);
    const theirs = await test.db.select().from(orders).where(eq(orders.customerId, bystander.id));
    expect(theirs).toHaveLength(1);
  });
});
