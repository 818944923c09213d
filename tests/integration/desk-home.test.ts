// The home page on the desk (issue 34, decision 0078): the hero's slides and the categories saved
// whole and read back in order, by the shop (the home's one batch, the menu's list) as by the
// desk; hostile links and pictures refused with the desk's text; 1–6 slides; a retried save
// answers once; the catalogue's version moves with each save; customers get 403.
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_HOME_TEXT, isShopPath, isShopPicture } from '#core/desk-home.ts';
import { categories, deskRecords, homeSlides, productImages } from '#db/schema/index.ts';
import { tripsOf } from '#local/distance.ts';
import { catalogueVersion } from '#server/services/catalogue-version.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember, sentTwice } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, callOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let owner: DeskMember;
let staff: DeskMember;
let customer: Awaited<ReturnType<typeof signedInShopper>>;
/** A photo the shop holds (product_images), and the piece it shows. */
const photo = { url: '', productId: 0 };

beforeAll(async () => {
  test = await openTestDatabase();
  const auth = testAuth(test.db);
  owner = await deskMember(test.db, auth, 'owner');
  staff = await deskMember(test.db, auth, 'staff');
  customer = await signedInShopper(test.db, auth, { name: 'Nakato Home' });
  const piece = await addProduct(test.db, {
    name: 'Home Test Kaftan',
    price: 180_000,
    image: '/images/products/home-test-kaftan.jpg',
  });
  photo.url = '/images/products/home-test-kaftan.jpg';
  photo.productId = piece.id;
  await test.db.insert(productImages).values({
    productId: piece.id,
    url: photo.url,
    alt: 'A kaftan in indigo',
    widths: [400, 800],
    width: 1200,
    height: 1500,
    position: 0,
  });
});
afterAll(() => test?.close());

const desk = (person: { cookie: string }) => deskCaller(test.db, person);
const shop = () => callerFor(test.db);
const key = () => randomUUID();
const slide = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  words: `${title}, in a few words.`,
  linkLabel: 'Shop Now',
  linkUrl: '/shop',
  ...extra,
});

describe('the hero’s slides', () => {
  it('the migration’s three slides are the home’s until the desk saves others', async () => {
    const home = await shop().catalogue.home();
    expect(home.slides.map((s) => [s.title, s.linkLabel, s.linkUrl])).toEqual([
      ['New Collection', 'Shop Now', '/shop'],
      ['Premium Quality', 'Explore', '/shop'],
      ['Limited Edition', 'Shop Now', '/shop'],
    ]);
    expect(home.slides[0]?.art).toBe('/images/hero/new-collection.svg');
  });

  it('saves the list in order (moved, edited, added, removed) and the home reads it back in its one trip', async () => {
    const before = await desk(owner).homeSlides();
    expect(before.pictures.map((p) => p.url)).toContain(photo.url);
    const [first, second, third] = before.slides;
    const version = await catalogueVersion(test.db);
    // Third first with a picture, the first edited second, a new one last; the second removed.
    const saved = await desk(staff).saveHomeSlides({
      requestKey: key(),
      slides: [
        { ...slide(third?.title ?? ''), id: third?.id, imageUrl: photo.url },
        { ...slide('Rainy Season'), id: first?.id, words: 'Light coats for the afternoon rain.' },
        slide('Gift Edit', { linkLabel: 'Explore', linkUrl: '/products?category=1' }),
      ],
    });
    expect(saved).toEqual({ slides: 3, titles: ['Limited Edition', 'Rainy Season', 'Gift Edit'] });
    expect(Number(await catalogueVersion(test.db))).toBeGreaterThan(Number(version));

    const trips = tripsOf(test.databaseUrl);
    const mark = await trips.mark();
    const home = await shop().catalogue.home();
    expect((await trips.since(mark)).count).toBe(1);
    expect(home.slides.map((s) => s.title)).toEqual([
      'Limited Edition',
      'Rainy Season',
      'Gift Edit',
    ]);
    expect(home.slides[0]).toMatchObject({ imageUrl: photo.url, imageWidths: [400, 800] });
    expect(home.slides[1]).toMatchObject({
      id: first?.id,
      words: 'Light coats for the afternoon rain.',
      imageUrl: null,
      imageWidths: [],
    });
    expect(home.slides[2]).toMatchObject({ linkUrl: '/products?category=1', linkLabel: 'Explore' });
    // A new slide gets a drawn art for the look without a picture.
    expect(home.slides[2]?.art).toMatch(/^\/images\/hero\/.+\.svg$/);
    const ids = (await test.db.select({ id: homeSlides.id }).from(homeSlides)).map((r) => r.id);
    expect(ids).not.toContain(second?.id);
    expect((await desk(owner).homeSlides()).slides).toEqual(home.slides);

    const [record] = await test.db
      .select()
      .from(deskRecords)
      .where(eq(deskRecords.action, 'home.slides.saved'));
    expect(record).toMatchObject({ actorEmail: staff.email, subject: 'Home page' });
  });

  it('refuses links off the shop and pictures it does not hold, with the desk’s text', async () => {
    const stored = (await desk(owner).homeSlides()).slides;
    for (const linkUrl of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'shop',
      '/shop\u0000',
      '/sh op',
      `/${'a'.repeat(300)}`,
      '',
    ]) {
      await expect(
        desk(owner).saveHomeSlides({ requestKey: key(), slides: [slide('Evil', { linkUrl })] }),
        linkUrl,
      ).rejects.toThrow(DESK_HOME_TEXT.linkInvalid);
    }
    for (const imageUrl of [
      'https://evil.example/a.jpg',
      '//evil.example/a.jpg',
      'javascript:alert(1)',
      '/images/../secret.jpg',
      '/api/desk/orders.csv',
      'data:image/png;base64,AAAA',
    ]) {
      await expect(
        desk(owner).saveHomeSlides({ requestKey: key(), slides: [slide('Evil', { imageUrl })] }),
        imageUrl,
      ).rejects.toThrow(DESK_HOME_TEXT.pictureInvalid);
    }
    // A path of the shop's shape that is no photo it holds.
    await expect(
      desk(owner).saveHomeSlides({
        requestKey: key(),
        slides: [slide('Ghost', { imageUrl: '/photos/products/1/nothing.jpg' })],
      }),
    ).rejects.toThrow(DESK_HOME_TEXT.pictureUnknown);
    // Nothing of these was written.
    expect((await desk(owner).homeSlides()).slides).toEqual(stored);
  });

  it('takes 1 to 6 slides, no more, no fewer; a slide that is not there is refused', async () => {
    await expect(desk(owner).saveHomeSlides({ requestKey: key(), slides: [] })).rejects.toThrow(
      DESK_HOME_TEXT.tooFewSlides,
    );
    const seven = Array.from({ length: 7 }, (_, i) => slide(`Slide ${i + 1}`));
    await expect(desk(owner).saveHomeSlides({ requestKey: key(), slides: seven })).rejects.toThrow(
      DESK_HOME_TEXT.tooManySlides,
    );
    await expect(
      desk(owner).saveHomeSlides({ requestKey: key(), slides: [slide('Lost', { id: 999_999 })] }),
    ).rejects.toThrow(DESK_HOME_TEXT.unknownSlide);
    await expect(
      desk(owner).saveHomeSlides({ requestKey: key(), slides: [slide('')] }),
    ).rejects.toThrow(DESK_HOME_TEXT.titleNeeded);

    await desk(owner).saveHomeSlides({ requestKey: key(), slides: seven.slice(0, 6) });
    expect((await shop().catalogue.home()).slides).toHaveLength(6);
    await desk(owner).saveHomeSlides({ requestKey: key(), slides: [slide('Only One')] });
    expect((await shop().catalogue.home()).slides.map((s) => s.title)).toEqual(['Only One']);
  });

  it('a retried save (the same key) answers once: one record, one change', async () => {
    const requestKey = key();
    const records = async () =>
      (await test.db.select().from(deskRecords).where(eq(deskRecords.requestKey, requestKey)))
        .length;
    const save = () =>
      desk(owner).saveHomeSlides({ requestKey, slides: [slide('Twice A'), slide('Twice B')] });
    const [one, two] = await sentTwice(save, 5);
    expect(two).toEqual(one);
    expect(await save()).toEqual(one);
    expect(await records()).toBe(1);
    expect((await shop().catalogue.home()).slides.map((s) => s.title)).toEqual([
      'Twice A',
      'Twice B',
    ]);
    // Someone else's key is not theirs to replay.
    await expect(
      desk(staff).saveHomeSlides({ requestKey, slides: [slide('Staff')] }),
    ).rejects.toThrow('This save could not be matched');
  });

  it('no slide stored: the home shows one default slide, never an empty hero', async () => {
    await test.db.delete(homeSlides);
    const home = await shop().catalogue.home();
    expect(home.slides.map((s) => s.title)).toEqual(['New Collection']);
    await desk(owner).saveHomeSlides({ requestKey: key(), slides: [slide('Back Again')] });
  });
});

describe('the categories', () => {
  const names = async () => (await shop().catalogue.categories()).map((c) => c.name);

  it('follow the desk’s order (then their name) everywhere the shop lists them', async () => {
    await test.db.insert(categories).values([
      { name: 'Dresses', position: 1 },
      { name: 'Bags', position: 2 },
      { name: 'Accessories', position: 2 },
    ]);
    expect(await names()).toEqual(['Dresses', 'Accessories', 'Bags']);
    const listed = (await desk(staff).categories()).categories;
    expect(listed.map((c) => c.name)).toEqual(['Dresses', 'Accessories', 'Bags']);
  });

  it('saves order, renames (a swap too), pictures and new ones; the version moves', async () => {
    const listed = (await desk(owner).categories()).categories;
    const id = (name: string) => listed.find((c) => c.name === name)?.id as number;
    const version = await catalogueVersion(test.db);
    const saved = await desk(staff).saveCategories({
      requestKey: key(),
      categories: [
        // Bags up to first, with a picture; Dresses and Accessories swap names.
        { id: id('Bags'), name: 'Bags', imageUrl: photo.url },
        { id: id('Dresses'), name: 'Accessories' },
        { id: id('Accessories'), name: 'Dresses' },
        { name: 'Kitenge' },
      ],
    });
    expect(saved).toEqual({
      names: ['Bags', 'Accessories', 'Dresses', 'Kitenge'],
      added: ['Kitenge'],
      removed: [],
    });
    expect(Number(await catalogueVersion(test.db))).toBeGreaterThan(Number(version));
    expect(await names()).toEqual(['Bags', 'Accessories', 'Dresses', 'Kitenge']);
    const rows = await test.db.select().from(categories).orderBy(asc(categories.position));
    expect(rows.map((r) => [r.name, r.position, r.imageUrl])).toEqual([
      ['Bags', 1, photo.url],
      ['Accessories', 2, null],
      ['Dresses', 3, null],
      ['Kitenge', 4, null],
    ]);
    expect(rows[1]?.id).toBe(id('Dresses'));
  });

  it('refuses to remove a category pieces are filed under, naming how many; removes an empty one', async () => {
    const listed = (await desk(owner).categories()).categories;
    const id = (name: string) => listed.find((c) => c.name === name)?.id as number;
    await addProduct(test.db, { name: 'Filed Dress A', price: 90_000, category: id('Dresses') });
    await addProduct(test.db, { name: 'Filed Dress B', price: 95_000, category: id('Dresses') });
    const keep = (name: string) => ({ id: id(name), name });
    await expect(
      desk(owner).saveCategories({
        requestKey: key(),
        categories: [keep('Bags'), keep('Accessories'), keep('Kitenge')],
      }),
    ).rejects.toThrow(DESK_HOME_TEXT.categoryInUse('Dresses', 2));
    expect(await names()).toEqual(['Bags', 'Accessories', 'Dresses', 'Kitenge']);
    const saved = await desk(owner).saveCategories({
      requestKey: key(),
      categories: [keep('Dresses'), keep('Bags'), keep('Accessories')],
    });
    expect(saved.removed).toEqual(['Kitenge']);
    expect(await names()).toEqual(['Dresses', 'Bags', 'Accessories']);
    expect(
      (await desk(owner).categories()).categories.find((c) => c.name === 'Dresses')?.pieces,
    ).toBe(2);
  });

  it('refuses names twice, ids it does not have, pictures off the shop; a retry answers once', async () => {
    const listed = (await desk(owner).categories()).categories;
    const all = listed.map((c) => ({ id: c.id, name: c.name }));
    await expect(
      desk(owner).saveCategories({
        requestKey: key(),
        categories: [...all, { name: ' dresses ' }],
      }),
    ).rejects.toThrow(DESK_HOME_TEXT.namesUnique('dresses'));
    await expect(
      desk(owner).saveCategories({
        requestKey: key(),
        categories: [...all, { id: 999_999, name: 'X' }],
      }),
    ).rejects.toThrow(DESK_HOME_TEXT.unknownCategory);
    await expect(
      desk(owner).saveCategories({
        requestKey: key(),
        categories: [
          { ...(all[0] as { id: number; name: string }), imageUrl: 'https://evil.example/x.jpg' },
          ...all.slice(1),
        ],
      }),
    ).rejects.toThrow(DESK_HOME_TEXT.pictureInvalid);
    await expect(desk(owner).saveCategories({ requestKey: key(), categories: [] })).rejects.toThrow(
      DESK_HOME_TEXT.categoriesNeeded,
    );
    await expect(
      desk(owner).saveCategories({ requestKey: key(), categories: [{ name: 'Nul\u0000Name' }] }),
    ).rejects.toThrow('Name cannot contain invisible control characters.');

    const requestKey = key();
    const save = () =>
      desk(owner).saveCategories({ requestKey, categories: [...all, { name: 'Shoes' }] });
    const [one, two] = await sentTwice(save, 5);
    expect(two).toEqual(one);
    expect((await names()).filter((n) => n === 'Shoes')).toHaveLength(1);
  });
});

describe('who may', () => {
  it('customers and visitors are refused every home procedure (403 / 401)', async () => {
    const calls = [
      ['query', 'desk.homeSlides', undefined],
      ['mutation', 'desk.saveHomeSlides', { requestKey: key(), slides: [slide('Mine')] }],
      ['query', 'desk.categories', undefined],
      ['mutation', 'desk.saveCategories', { requestKey: key(), categories: [{ name: 'Mine' }] }],
    ] as const;
    for (const [kind, path, input] of calls) {
      const asCustomer = await callOverHttp(test.db, kind, path, input, {
        cookie: customer.cookie,
      });
      expect(asCustomer.status, path).toBe(403);
      const asNobody = await callOverHttp(test.db, kind, path, input);
      expect(asNobody.status, path).toBe(401);
    }
    expect((await shop().catalogue.home()).slides.map((s) => s.title)).not.toContain('Mine');
    expect(
      await (async () => (await shop().catalogue.categories()).map((c) => c.name))(),
    ).not.toContain('Mine');
  });
});

describe('the rules, alone', () => {
  it('a link is a path on the shop; a picture one of its own paths', () => {
    for (const ok of ['/', '/shop', '/products?category=3', '/products/kaftan#size', '/about'])
      expect(isShopPath(ok), ok).toBe(true);
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil',
      'javascript:x',
      'mailto:a@b',
      '/a b',
      '/<script>',
    ])
      expect(isShopPath(bad), bad).toBe(false);
    for (const ok of ['/images/products/a.jpg', '/photos/products/1/ab-cd.webp'])
      expect(isShopPicture(ok), ok).toBe(true);
    for (const bad of [
      '/images/../x.jpg',
      '/images//x.jpg',
      '/api/x',
      'https://x/images/a.jpg',
      '/images/a.jpg?x=1',
    ])
      expect(isShopPicture(bad), bad).toBe(false);
  });
});
