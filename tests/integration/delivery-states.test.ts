// Delivery on the desk and the order's way (issue 23), on PGlite and PostgreSQL: the owner's
// delivery settings (saved with their record and the catalogue's version, keyed, refused to staff,
// what the checkout then offers), the desk's pickup and delivery states (refused where they do
// not fit the order, the rider kept) and the texts they queue, word for word.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TEXT, FREE_DELIVERY_KEY } from '#core/delivery-rules.ts';
import { DESK_DELIVERY_TEXT } from '#core/desk-delivery.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import {
  deliveryOptions,
  deskRecords,
  orders,
  profiles,
  smsNotifications,
  systemSettings,
  user,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { CATALOGUE_VERSION_KEY } from '#server/services/catalogue-version.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { queueOrderTexts } from '#server/services/sms-service.ts';
import { testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, testContext } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let owner: DeskMember;
let staff: DeskMember;
let variantId = 0;
const background: Promise<unknown>[] = [];
const extras = { background: (work: Promise<unknown>) => void background.push(work) };

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  owner = await deskMember(test.db, auth, 'owner');
  staff = await deskMember(test.db, auth, 'staff');
  variantId = (await addProduct(test.db, { name: 'Kitenge Wrap', price: 50_000, stock: 100 }))
    .variantId;
});
afterAll(async () => {
  await Promise.allSettled(background);
  await test?.close();
});

const as = (person: { cookie: string }) =>
  callerFor(test.db, new Headers({ cookie: person.cookie }), extras);
const ref = (orderId: string) => `RCP-${orderId.slice(0, 8)}`;

let shoppers = 0;
/** A shopper's order by the given option (Kampala ones name an area). */
async function order(optionId: string, paymentMethod: 'cash_on_delivery' | 'mobile_money') {
  shoppers += 1;
  const id = randomUUID();
  const email = `${id}@example.ug`;
  await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
  const phone = `+2567720${String(shoppers).padStart(5, '0')}`;
  await test.db.insert(profiles).values({ id, email, fullName: 'Nakato Achieng', phone });
  const placed = await placeOrder(
    test.db,
    { id, email, name: 'Nakato Achieng' },
    {
      orderId: randomUUID(),
      lines: [{ variantId, quantity: 1 }],
      paymentMethod,
      delivery: { optionId, area: optionId === 'pickup' ? undefined : 'Ntinda' },
    },
  );
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  return { orderId: placed.order.orderId, phone };
}

const customerTexts = async (orderId: string) =>
  (await test.db.select().from(smsNotifications).where(eq(smsNotifications.orderId, orderId)))
    .filter((row) => row.recipientType === 'customer')
    .map((row) => [row.kind, row.messageContent]);

const statusOf = async (orderId: string) =>
  (await test.db.select().from(orders).where(eq(orders.id, orderId)))[0];

async function settle() {
  while (background.length > 0) await Promise.allSettled(background.splice(0));
}

describe('pickup and delivery states', () => {
  it('a pickup order: ready for pickup sends the spec’s text word for word; collected sends none', async () => {
    const { orderId } = await order('pickup', 'cash_on_delivery');
    await as(staff).desk.setStatus({ orderId, status: 'processing' });
    await as(staff).desk.setStatus({ orderId, status: 'ready_for_pickup' });
    await as(staff).desk.setStatus({ orderId, status: 'collected' });
    await settle();
    expect((await statusOf(orderId))?.status).toBe('collected');
    const texts = await customerTexts(orderId);
    expect(texts.filter(([kind]) => kind !== 'order-confirmation')).toEqual([
      [
        'ready-for-pickup',
        `duuka: Order ${ref(orderId)} is ready for pickup at our Kampala shop, 9AM-6PM daily. Bring your receipt.`,
      ],
    ]);
  });

  it('a pickup order is never sent out; a delivery is never ready for pickup or collected', async () => {
    const pickup = await order('pickup', 'cash_on_delivery');
    for (const status of ['out_for_delivery', 'shipped'] as const) {
      await expect(
        as(staff).desk.setStatus({
          orderId: pickup.orderId,
          status,
          riderName: 'Okello',
          riderPhone: '0772 123 456',
        }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: DELIVERY_TEXT.deliveryOnly });
    }
    const kampala = await order('kampala', 'cash_on_delivery');
    for (const status of ['ready_for_pickup', 'collected'] as const) {
      await expect(
        as(staff).desk.setStatus({ orderId: kampala.orderId, status }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: DELIVERY_TEXT.pickupOnly });
    }
    expect((await statusOf(pickup.orderId))?.status).toBe('pending');
    expect((await statusOf(kampala.orderId))?.status).toBe('pending');
    await settle();
    expect(
      (await customerTexts(kampala.orderId)).filter(([kind]) => kind !== 'order-confirmation'),
    ).toEqual([]);
    await expect(
      as(staff).desk.setStatus({ orderId: randomUUID(), status: 'collected' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('out for delivery needs the rider: kept on the order, named in the text', async () => {
    const { orderId } = await order('kampala', 'cash_on_delivery');
    const send = (rider: { riderName?: string; riderPhone?: string }) =>
      as(staff).desk.setStatus({ orderId, status: 'out_for_delivery', ...rider });
    await expect(send({})).rejects.toThrow(DELIVERY_TEXT.riderNeeded);
    await expect(send({ riderName: 'Okello', riderPhone: '' })).rejects.toThrow(
      DELIVERY_TEXT.riderNeeded,
    );
    await expect(send({ riderName: '  ', riderPhone: '0772 123 456' })).rejects.toThrow(
      DELIVERY_TEXT.riderNeeded,
    );
    await expect(send({ riderName: 'Okello', riderPhone: '12345' })).rejects.toThrow(
      DELIVERY_TEXT.riderPhoneInvalid,
    );
    await expect(send({ riderName: 'O'.repeat(61), riderPhone: '0772 123 456' })).rejects.toThrow(
      DELIVERY_TEXT.riderNameTooLong,
    );
    expect(await statusOf(orderId)).toMatchObject({ status: 'pending', riderName: null });

    await send({ riderName: ' Okello ', riderPhone: '0772 123 456' });
    expect(await statusOf(orderId)).toMatchObject({
      status: 'out_for_delivery',
      riderName: 'Okello',
      riderPhone: '+256772123456',
    });
    await as(staff).desk.setStatus({ orderId, status: 'delivered' });
    await settle();
    expect(await customerTexts(orderId)).toEqual(
      expect.arrayContaining([
        [
          'out-for-delivery',
          `duuka: Order ${ref(orderId)} is out for delivery with Okello (0772 123 456). Please keep your phone on.`,
        ],
        [
          'delivered',
          `duuka: Order ${ref(orderId)} was delivered. Enjoy it! Returns within 14 days, unworn with tags.`,
        ],
      ]),
    );
    // The desk's row shows the option, the area and the rider.
    const row = (await as(staff).desk.orders()).orders.find((o) => o.id === orderId);
    expect(row).toMatchObject({
      deliveryOption: 'Kampala delivery',
      deliveryKind: 'delivery',
      deliveryArea: 'Ntinda',
      riderName: 'Okello',
      riderPhone: '+256772123456',
    });
  });

  it('shipped upcountry promises the option’s days; the confirmation names the option', async () => {
    const { orderId } = await order('upcountry', 'mobile_money');
    await as(staff).desk.setStatus({ orderId, status: 'shipped', tracking: 'BUS-771' });
    const pickup = await order('pickup', 'cash_on_delivery');
    const kampala = await order('kampala', 'cash_on_delivery');
    const ctx = testContext(test.db, new Headers(), extras);
    for (const id of [orderId, pickup.orderId, kampala.orderId]) await queueOrderTexts(ctx, id);
    await settle();
    expect(await customerTexts(orderId)).toEqual(
      expect.arrayContaining([
        [
          'shipped',
          `duuka: Order ${ref(orderId)} has shipped (tracking BUS-771). Expect it in 3-5 days.`,
        ],
        // Naming the option would not fit one SMS here: the confirmation goes without it.
        [
          'order-confirmation',
          `duuka: Thank you! Order ${ref(orderId)} (1 item, UGX 65,000) is received. We will confirm when your payment arrives.`,
        ],
      ]),
    );
    expect(await customerTexts(pickup.orderId)).toEqual([
      [
        'order-confirmation',
        `duuka: Thank you! Order ${ref(pickup.orderId)} (1 item, UGX 50,000) is received. Pay when you collect it. Pick up at the boutique: we will text you when it is ready.`,
      ],
    ]);
    expect(await customerTexts(kampala.orderId)).toEqual([
      [
        'order-confirmation',
        `duuka: Thank you! Order ${ref(kampala.orderId)} (1 item, UGX 55,000) is received. Pay on delivery. Kampala delivery: we will text you when it ships.`,
      ],
    ]);
  });
});

/** The defaults as the page sends them back, with the owner's changes. */
async function sentOptions() {
  const { options } = await as(owner).desk.deliveryOptions();
  return options.map(
    ({ id, kind, name, fee, minDays, maxDays, details, cashOnDelivery, active }) => ({
      id: id as string | undefined,
      kind,
      name,
      fee,
      minDays,
      maxDays,
      details,
      cashOnDelivery,
      active,
    }),
  );
}

const version = async () =>
  (
    await test.db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, CATALOGUE_VERSION_KEY))
  )[0]?.settingValue ?? '0';

const records = () =>
  test.db.select().from(deskRecords).where(eq(deskRecords.action, 'delivery.saved'));

describe('delivery settings on the desk', () => {
  it('staff read every option and the threshold, and are refused a save', async () => {
    const read = await as(staff).desk.deliveryOptions();
    expect(read.options.map((o) => [o.id, o.fee, o.active])).toEqual([
      ['kampala', 5000, true],
      ['pickup', 0, true],
      ['upcountry', 15000, true],
    ]);
    expect(read.freeDeliveryOver).toBeNull();
    const options = (await sentOptions()).map((o) => ({ ...o, fee: 1 }));
    await expect(
      as(staff).desk.saveDeliveryOptions({
        requestKey: randomUUID(),
        options,
        freeDeliveryOver: 1,
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: DESK_TEXT.ownerOnly });
    expect((await as(staff).checkout.deliveryOptions()).options.map((o) => o.fee)).toEqual([
      5000, 0, 15000,
    ]);
    expect(await records()).toHaveLength(0);
  });

  it('the owner’s save is what the checkout offers, recorded once with the version raised; the key makes a retry harmless', async () => {
    const before = Number(await version());
    const options = await sentOptions();
    const upcountry = options.find((o) => o.id === 'upcountry');
    if (!upcountry) throw new Error('no upcountry');
    upcountry.fee = 20_000;
    const sent = [
      ...options,
      {
        id: undefined,
        kind: 'delivery' as const,
        name: 'Nakawa',
        fee: 7_000,
        minDays: 1,
        maxDays: 2,
        details: 'By boda to Nakawa division.',
        cashOnDelivery: true,
        active: true,
      },
    ].map(({ id, ...rest }) => (id ? { id, ...rest } : rest));
    const requestKey = randomUUID();
    const save = () =>
      as(owner).desk.saveDeliveryOptions({ requestKey, options: sent, freeDeliveryOver: 150_000 });
    const answer = await save();
    expect(answer).toEqual({
      changed: ['Upcountry by bus courier', 'Nakawa (new)', 'Free delivery over'],
      added: ['nakawa'],
    });
    expect(await save()).toEqual(answer);
    expect(await records()).toHaveLength(1);
    expect((await records())[0]).toMatchObject({ actorEmail: owner.email, requestKey });
    expect(Number(await version())).toBe(before + 1);

    const offered = await as(staff).checkout.deliveryOptions();
    expect(offered.freeDeliveryOver).toBe(150_000);
    expect(offered.options.map((o) => [o.id, o.name, o.fee])).toEqual([
      ['kampala', 'Kampala delivery', 5000],
      ['pickup', 'Pick up at the boutique', 0],
      ['upcountry', 'Upcountry by bus courier', 20000],
      ['nakawa', 'Nakawa', 7000],
    ]);
    // A second zone with a name whose slug is taken gets its own id.
    const again = await sentOptions();
    const nakawa = again.find((o) => o.id === 'nakawa');
    if (!nakawa) throw new Error('no Nakawa');
    const { id: _taken, ...zone } = { ...nakawa, name: 'NAKAWA!' };
    const added = await as(owner).desk.saveDeliveryOptions({
      requestKey: randomUUID(),
      options: [...again, zone],
      freeDeliveryOver: 150_000,
    });
    // 'NAKAWA!' and 'Nakawa' are different names; its slug 'nakawa' is taken.
    expect(added).toEqual({ changed: ['NAKAWA! (new)'], added: ['nakawa-2'] });
  });

  it('retiring keeps the option for the desk and its orders; clearing the threshold removes it', async () => {
    const options = (await sentOptions()).map((o) =>
      o.id === 'upcountry' ? { ...o, active: false } : o,
    );
    await as(owner).desk.saveDeliveryOptions({
      requestKey: randomUUID(),
      options,
      freeDeliveryOver: null,
    });
    expect((await as(staff).checkout.deliveryOptions()).options.map((o) => o.id)).not.toContain(
      'upcountry',
    );
    expect(
      (await as(staff).desk.deliveryOptions()).options.find((o) => o.id === 'upcountry'),
    ).toMatchObject({ active: false, fee: 20_000 });
    expect(
      await test.db
        .select()
        .from(systemSettings)
        .where(eq(systemSettings.settingKey, FREE_DELIVERY_KEY)),
    ).toEqual([]);
    expect((await as(staff).checkout.deliveryOptions()).freeDeliveryOver).toBeNull();
    expect(await test.db.select().from(deliveryOptions)).toHaveLength(5);
  });

  it('refuses with a clear text: no option offered, a name twice, a fee, days, an unknown id', async () => {
    const options = await sentOptions();
    const save = (sent: unknown[], freeDeliveryOver: number | null = null) =>
      as(owner).desk.saveDeliveryOptions({
        requestKey: randomUUID(),
        options: sent as typeof options,
        freeDeliveryOver,
      });
    const first = options[0];
    if (!first) throw new Error('no options');
    await expect(save(options.map((o) => ({ ...o, active: false })))).rejects.toThrow(
      DESK_DELIVERY_TEXT.oneOffered,
    );
    await expect(save([first, { ...first, id: 'pickup' }])).rejects.toThrow(
      DESK_DELIVERY_TEXT.namesUnique('Kampala delivery'),
    );
    // A name shared with an option the page did not send is refused too.
    await expect(
      save([{ ...first, id: undefined, name: 'pick up at the Boutique' }]),
    ).rejects.toThrow(DESK_DELIVERY_TEXT.namesUnique('Pick up at the boutique'));
    await expect(save([{ ...first, fee: 5000.5 }])).rejects.toThrow(
      'Fee must be a whole number of shillings, from 0 to 1,000,000.',
    );
    await expect(save([{ ...first, fee: -1 }])).rejects.toThrow(DESK_DELIVERY_TEXT.feeInvalid);
    await expect(save([{ ...first, minDays: 3, maxDays: 2 }])).rejects.toThrow(
      DESK_DELIVERY_TEXT.daysOrder,
    );
    await expect(save([{ ...first, maxDays: 61 }])).rejects.toThrow(DESK_DELIVERY_TEXT.daysInvalid);
    await expect(save([{ ...first, name: '' }])).rejects.toThrow(DESK_DELIVERY_TEXT.nameNeeded);
    await expect(save([{ ...first, name: 'x'.repeat(61) }])).rejects.toThrow(
      DESK_DELIVERY_TEXT.nameTooLong,
    );
    await expect(save([{ ...first, details: 'x'.repeat(201) }])).rejects.toThrow(
      DESK_DELIVERY_TEXT.detailsTooLong,
    );
    await expect(save([{ ...first, id: 'entebbe' }])).rejects.toThrow(
      DESK_DELIVERY_TEXT.unknownOption,
    );
    await expect(save([first], 0)).rejects.toThrow(DESK_DELIVERY_TEXT.thresholdInvalid);
    expect((await sentOptions()).map((o) => o.fee)).toEqual(options.map((o) => o.fee));
  });
});
