// The desk's offers (issue 35), on PGlite and PostgreSQL: saves (new and edited, the version
// bumped), the code unique in any case, bad input refused with its text, roles (owner and staff
// may; a customer 403, a visitor 401), and the figures per code counting only placed, not
// cancelled orders.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productJsonLd } from '#app/seo.ts';
import { DESK_OFFERS_TEXT as T } from '#core/offer-form.ts';
import {
  categories,
  deskRecords,
  orderOffers,
  orders,
  profiles,
  promotions,
  user,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { catalogueVersion } from '#server/services/catalogue-version.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
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
let dresses = 0;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  owner = await deskMember(test.db, auth, 'owner');
  staff = await deskMember(test.db, auth, 'staff');
  customer = await signedInShopper(test.db, auth, { name: 'Nakato Achieng' });
  const [category] = await test.db
    .insert(categories)
    .values({ name: `Dresses ${randomUUID().slice(0, 6)}` })
    .returning({ id: categories.id });
  dresses = category?.id ?? 0;
  variantId = (await addProduct(test.db, { name: 'Kitenge Wrap', price: 50_000, stock: 100 }))
    .variantId;
});
afterAll(() => test?.close());

const as = (person?: { cookie: string }) =>
  callerFor(test.db, new Headers(person ? { cookie: person.cookie } : {}));
const weekend = {
  name: 'Weekend sale',
  code: null,
  kind: 'percent' as const,
  value: 20,
  appliesTo: { categoryIds: [0] },
  startsAt: '2026-11-28T00:00:00+03:00',
  endsAt: '2026-11-30T00:00:00+03:00',
  combinable: false,
  active: true,
};
const code = () => `NAKATO${randomUUID().replace(/-/g, '').slice(0, 6)}`;
async function stored(id: number) {
  const [row] = await test.db.select().from(promotions).where(eq(promotions.id, id));
  if (!row) throw new Error(`no promotion ${id}`);
  return row;
}

describe('desk.saveOffer', () => {
  it('saves a new offer, recorded, the catalogue’s version raised', async () => {
    const before = Number(await catalogueVersion(test.db));
    const { id } = await as(owner).desk.saveOffer({
      ...weekend,
      appliesTo: { categoryIds: [dresses] },
    });
    const row = await stored(id);
    expect(row).toMatchObject({
      name: 'Weekend sale',
      code: null,
      kind: 'percent',
      value: 20,
      categoryIds: [dresses],
      productIds: null,
      version: 1,
    });
    expect(row.startsAt?.toISOString()).toBe('2026-11-27T21:00:00.000Z');
    expect(row.endsAt?.toISOString()).toBe('2026-11-29T21:00:00.000Z');
    expect(Number(await catalogueVersion(test.db))).toBe(before + 1);
    const records = await test.db
      .select()
      .from(deskRecords)
      .where(eq(deskRecords.action, 'offer.saved'));
    expect(records.some((r) => (r.details as { id?: number }).id === id)).toBe(true);
  });

  it('an edit bumps the version and the time; staff may edit too', async () => {
    const { id } = await as(owner).desk.saveOffer({ ...weekend, appliesTo: null, code: code() });
    const first = await stored(id);
    const again = await as(staff).desk.saveOffer({
      ...weekend,
      id,
      appliesTo: null,
      code: first.code,
      value: 25,
      tag: 'Nakato',
    });
    expect(again).toEqual({ id });
    const edited = await stored(id);
    expect(edited).toMatchObject({ value: 25, tag: 'Nakato', version: 2 });
    expect(edited.updatedAt.getTime()).toBeGreaterThanOrEqual(first.updatedAt.getTime());
    await expect(
      as(owner).desk.saveOffer({ ...weekend, id: 2_000_000_000, appliesTo: null }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: T.notFound });
  });

  it('a code is unique in any case: the clash is a clear text, nothing written', async () => {
    const typed = code();
    await as(owner).desk.saveOffer({ ...weekend, appliesTo: null, code: typed });
    const count = (await test.db.select().from(promotions)).length;
    await expect(
      as(owner).desk.saveOffer({ ...weekend, appliesTo: null, code: typed.toLowerCase() }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: T.codeTaken(typed.toLowerCase()) });
    expect((await test.db.select().from(promotions)).length).toBe(count);
    // Two saves racing for one code: one wins, the other is told.
    const racing = code();
    const answers = await Promise.allSettled([
      as(owner).desk.saveOffer({ ...weekend, appliesTo: null, code: racing }),
      as(staff).desk.saveOffer({ ...weekend, appliesTo: null, code: racing.toLowerCase() }),
    ]);
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
  });

  it('the same request key twice saves once', async () => {
    const requestKey = randomUUID();
    const name = `Tap twice ${randomUUID().slice(0, 6)}`;
    const first = await as(owner).desk.saveOffer({ ...weekend, appliesTo: null, name, requestKey });
    const second = await as(owner).desk.saveOffer({
      ...weekend,
      appliesTo: null,
      name,
      requestKey,
    });
    expect(second).toEqual(first);
    expect(await test.db.select().from(promotions).where(eq(promotions.name, name))).toHaveLength(
      1,
    );
  });

  it('refuses bad input with its text', async () => {
    const refused = (input: unknown, message: string) =>
      expect(as(owner).desk.saveOffer(input as never)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message,
      });
    const ok = { ...weekend, appliesTo: null };
    await refused({ ...ok, value: '20' }, T.valueInvalid);
    await refused({ ...ok, value: 120 }, T.percentInvalid);
    await refused({ ...ok, kind: 'fixed', value: 0 }, T.fixedInvalid);
    await refused({ ...ok, kind: 'buy_x_get_y', value: 50 }, T.quantitiesNeeded);
    await refused(
      { ...ok, name: 'Sale\u0000' },
      'Name cannot contain invisible control characters.',
    );
    await refused({ ...ok, name: 'x'.repeat(100_000) }, T.nameTooLong);
    await refused({ ...ok, code: 'NA\u0000KATO' }, T.codeInvalid);
    await refused({ ...ok, code: 'x'.repeat(100_000) }, T.codeInvalid);
    await refused({ ...ok, usageLimit: 1e21 }, T.usageLimitInvalid);
    await refused({ ...ok, minSubtotal: -1 }, T.minSubtotalInvalid);
    await refused({ ...ok, id: 'abc' }, T.idInvalid);
    await refused(
      { ...ok, startsAt: '2026-11-30T00:00:00Z', endsAt: '2026-11-28T00:00:00Z' },
      T.endBeforeStart,
    );
    await refused({ ...ok, appliesTo: { categoryIds: [2_000_000_000] } }, T.categoryGone);
    await refused({ ...ok, appliesTo: { productIds: [2_000_000_000] } }, T.productGone);
    await refused({ ...ok, appliesTo: { categoryIds: 'all' } }, T.targetsInvalid);
  });

  it('total uses cannot go below the uses already taken', async () => {
    const { id } = await as(owner).desk.saveOffer({ ...weekend, appliesTo: null, code: code() });
    await test.db.update(promotions).set({ used: 5 }).where(eq(promotions.id, id));
    const row = await stored(id);
    await expect(
      as(owner).desk.saveOffer({ ...weekend, id, appliesTo: null, code: row.code, usageLimit: 3 }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: T.limitBelowUsed(5) });
  });

  it('is the desk’s: a customer gets FORBIDDEN, a visitor UNAUTHORIZED', async () => {
    await expect(as(customer).desk.offers()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      as(customer).desk.saveOffer({ ...weekend, appliesTo: null }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(as().desk.offers()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(as().desk.saveOffer({ ...weekend, appliesTo: null })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});

describe('desk.offers', () => {
  let shoppers = 0;
  /** A placed order given this offer (as the checkout's write records it), and its total. */
  async function orderWith(promotionId: number) {
    shoppers += 1;
    const id = randomUUID();
    const email = `${id}@example.ug`;
    await test.db.insert(user).values({ id, name: 'Nakato Achieng', email, emailVerified: true });
    const phone = `+2567731${String(shoppers).padStart(5, '0')}`;
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
    const orderId = placed.order.orderId;
    await test.db
      .insert(orderOffers)
      .values({ orderId, promotionId, code: 'X', name: 'X', amount: 0, shopper: id });
    // The use the checkout's write counts with it (the trigger gives it back on cancelling).
    await test.db
      .update(promotions)
      .set({ used: sql`${promotions.used} + 1` })
      .where(eq(promotions.id, promotionId));
    const [row] = await test.db
      .select({ total: orders.total })
      .from(orders)
      .where(eq(orders.id, orderId));
    return { orderId, total: row?.total ?? 0 };
  }

  it('lists each offer with its state, uses and figures (cancelled orders aside)', async () => {
    const typed = code();
    const { id } = await as(owner).desk.saveOffer({
      ...weekend,
      appliesTo: null,
      code: typed,
      startsAt: null,
      endsAt: null,
      tag: 'Nakato',
      usageLimit: 50,
    });
    const a = await orderWith(id);
    const b = await orderWith(id);
    const cancelled = await orderWith(id);
    await test.db
      .update(orders)
      .set({ status: 'cancelled' })
      .where(eq(orders.id, cancelled.orderId));
    const { offers, categories: listed } = await as(staff).desk.offers();
    const offer = offers.find((o) => o.id === id);
    expect(offer).toMatchObject({
      code: typed,
      tag: 'Nakato',
      state: 'running',
      orders: 2,
      sales: a.total + b.total,
      usageLimit: 50,
      used: 2,
    });
    expect(listed.some((c) => c.id === dresses)).toBe(true);
  });

  it('tells running, scheduled, ended, used up and off apart', async () => {
    const now = Date.now();
    const save = async (over: object) =>
      (await as(owner).desk.saveOffer({ ...weekend, appliesTo: null, code: code(), ...over })).id;
    const scheduled = await save({
      startsAt: new Date(now + 86_400_000).toISOString(),
      endsAt: null,
    });
    const ended = await save({
      startsAt: new Date(now - 2 * 86_400_000).toISOString(),
      endsAt: new Date(now - 86_400_000).toISOString(),
    });
    const off = await save({ startsAt: null, endsAt: null, active: false });
    const usedUp = await save({ startsAt: null, endsAt: null, usageLimit: 1 });
    await test.db.update(promotions).set({ used: 1 }).where(eq(promotions.id, usedUp));
    const { offers } = await as(owner).desk.offers();
    const state = (id: number) => offers.find((o) => o.id === id)?.state;
    expect([state(scheduled), state(ended), state(off), state(usedUp)]).toEqual([
      'scheduled',
      'ended',
      'off',
      'used-up',
    ]);
  });
});

describe('offers on the shop', () => {
  const now = Date.now();
  const running = {
    ...weekend,
    startsAt: new Date(now - 3_600_000).toISOString(),
    endsAt: new Date(now + 3 * 86_400_000).toISOString(),
  };
  let dress: Awaited<ReturnType<typeof addProduct>>;
  let top: Awaited<ReturnType<typeof addProduct>>;
  let skirts = 0;

  beforeAll(async () => {
    // The offers the tests above left running would cover these pieces too.
    await test.db.update(promotions).set({ active: false });
    const [category] = await test.db
      .insert(categories)
      .values({ name: `Skirts ${randomUUID().slice(0, 6)}` })
      .returning({ id: categories.id });
    skirts = category?.id ?? 0;
    dress = await addProduct(test.db, { name: 'Busuuti Dress', price: 85_000, category: dresses });
    top = await addProduct(test.db, { name: 'Linen Top', price: 40_000, category: skirts });
  });

  const shop = () => as();
  const cardOf = <P extends { id: number }>(products: P[], id: number) =>
    products.find((p) => p.id === id);

  it('a running automatic offer shows on the pieces it covers, with its price', async () => {
    await as(owner).desk.saveOffer({ ...running, appliesTo: { categoryIds: [dresses] } });
    const listing = await shop().catalogue.list({ categoryId: dresses });
    expect(cardOf(listing.products, dress.id)?.offer).toMatchObject({ price: 68_000 });
    expect(cardOf(listing.products, dress.id)?.offer?.label).toMatch(/^20% off until /);
    const others = await shop().catalogue.list({ categoryId: skirts });
    expect(cardOf(others.products, top.id)?.offer).toBeUndefined();
    const found = await shop().catalogue.search({ term: 'Busuuti' });
    expect(cardOf(found.products, dress.id)?.offer).toMatchObject({ price: 68_000 });
    const home = await shop().catalogue.home();
    expect(cardOf(home.newArrivals, dress.id)?.offer).toMatchObject({ price: 68_000 });
    const page = await shop().catalogue.productBySlug({ slug: dress.slug });
    expect(page.offer?.price).toBe(68_000);
    expect(page.offerPrices).toMatchObject({
      byVariant: { [dress.variantId]: 68_000 },
      forEveryone: true,
      validUntil: running.endsAt,
    });
    const ld = productJsonLd(page, 'https://duuka.ug') as { offers: Record<string, unknown>[] };
    expect(ld.offers[0]).toMatchObject({ price: 68_000, priceValidUntil: running.endsAt });
  });

  it('a code, a scheduled or a switched-off offer shows nothing; a limited one keeps its price out of the JSON-LD', async () => {
    await test.db.update(promotions).set({ active: false });
    await as(owner).desk.saveOffer({ ...running, appliesTo: null, code: code() });
    await as(owner).desk.saveOffer({
      ...running,
      appliesTo: null,
      startsAt: new Date(now + 86_400_000).toISOString(),
    });
    await as(owner).desk.saveOffer({ ...running, appliesTo: null, active: false });
    const page = await shop().catalogue.productBySlug({ slug: top.slug });
    expect(page.offer).toBeUndefined();
    expect(page.offerPrices).toBeUndefined();

    await as(owner).desk.saveOffer({
      ...running,
      appliesTo: { productIds: [top.id] },
      kind: 'fixed',
      value: 5_000,
      usageLimit: 100,
    });
    // A fixed amount is taken once per order: its words, no price per piece, none in the JSON-LD.
    const limited = await shop().catalogue.productBySlug({ slug: top.slug });
    expect(limited.offer).toMatchObject({
      label: expect.stringMatching(/^UGX 5,000 off/),
      price: null,
    });
    expect(limited.offerPrices).toBeUndefined();
    const ld = productJsonLd(limited, 'https://duuka.ug') as { offers: Record<string, unknown>[] };
    expect(ld.offers[0]).toMatchObject({ price: 40_000 });
    expect(ld.offers[0]).not.toHaveProperty('priceValidUntil');
  });
});
