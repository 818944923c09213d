// Product photos at the desk (issue 22, decision 0045): the upload route behind the Worker's front
// layer (own origin, 10 MB), the stored original and its row, desk.setPhotos, and what a shopper
// then sees and loads.
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeskPhoto, PHOTO_MAX_BYTES, PHOTO_TEXT } from '#core/desk-photos.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { pictureSources } from '#core/pictures.ts';
import { REQUEST_TEXT } from '#core/requests.ts';
import type { Db } from '#db/client.ts';
import { deskRecords, productImages, products } from '#db/schema/index.ts';
import { sharpImages } from '#local/fakes/images.ts';
import { type MemoryBucket, memoryBucket } from '#local/fakes/r2-bucket.ts';
import type { Auth } from '#server/auth.ts';
import { servePhoto, uploadPhoto } from '#server/http/photo-upload.ts';
import { serveShop } from '#server/http/shop-http.ts';
import { catalogueVersion } from '#server/services/catalogue-version.ts';
import type { PhotoImages } from '#server/services/photos-service.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { type DeskMember, deskCaller, deskMember, sentTwice } from '../support/desk.ts';
import { heic } from '../support/pictures.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, mutateOverHttp, TEST_SHOP_ORIGIN } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let staff: DeskMember;
let photos: MemoryBucket;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  photos = memoryBucket();
  staff = await deskMember(test.db, auth, 'staff');
});
afterAll(async () => {
  await test?.close();
});

const picture = (format: 'jpeg' | 'png' | 'webp', width = 1600, height = 2000) =>
  sharp({ create: { width, height, channels: 3, background: '#a0522d' } })
    [format]()
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer));

type Upload = {
  cookie?: string;
  origin?: string | null;
  type?: string;
  db?: Db;
  images?: PhotoImages | null;
  /** false: straight to the route's handler, as a path the front layer misread would go. */
  frontLayer?: boolean;
};

/** A POST as the desk's page sends it, through the Worker's front layer (serveShop). */
async function upload(productId: number | string, bytes: Uint8Array | null, options: Upload = {}) {
  const headers = new Headers({ 'content-type': options.type ?? 'image/jpeg' });
  if (options.cookie) headers.set('cookie', options.cookie);
  const origin = options.origin === undefined ? TEST_SHOP_ORIGIN : options.origin;
  if (origin) headers.set('origin', origin);
  const request = new Request(`${TEST_SHOP_ORIGIN}/api/desk/products/${productId}/photos`, {
    method: 'POST',
    headers,
    body: bytes as BodyInit | null,
  });
  const deps = {
    db: options.db ?? test.db,
    auth,
    ownerEmails: [],
    photos,
    images: options.images ?? null,
    ownOrigins: [TEST_SHOP_ORIGIN],
  };
  const route = (req: Request) => uploadPhoto(deps, req, String(productId));
  const response =
    options.frontLayer === false
      ? await route(request)
      : await serveShop(request, route, { dev: false, ownOrigins: [TEST_SHOP_ORIGIN] });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const rowsOf = (productId: number) =>
  test.db
    .select()
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(productImages.position);

const recordsOf = (action: string, subject: string) =>
  test.db
    .select()
    .from(deskRecords)
    .where(sql`${deskRecords.action} = ${action} and ${deskRecords.subject} = ${subject}`);

const productImageOf = async (productId: number) =>
  (
    await test.db
      .select({ image: products.productImage })
      .from(products)
      .where(eq(products.id, productId))
  )[0]?.image;

describe('the photo upload', () => {
  it('refuses what is not a picture, empty, too large, signed out, a customer, another site', async () => {
    const dress = await addProduct(test.db, { name: 'Refused Dress', price: 120_000 });
    const jpeg = await picture('jpeg');
    const keysBefore = photos.keys();
    const customer = await signedInShopper(test.db, auth);
    const cases: [
      string,
      Promise<{ status: number; body: Record<string, unknown> }>,
      number,
      string,
    ][] = [
      ['signed out', upload(dress.id, jpeg), 401, PHOTO_TEXT.signedOut],
      ['a customer', upload(dress.id, jpeg, { cookie: customer.cookie }), 403, DESK_TEXT.deskOnly],
      [
        'another site’s page',
        upload(dress.id, jpeg, { cookie: staff.cookie, origin: 'https://evil.example' }),
        403,
        REQUEST_TEXT.otherSite,
      ],
      [
        'a missing product',
        upload(999_999_999, jpeg, { cookie: staff.cookie }),
        404,
        DESK_TEXT.productNotFound,
      ],
      [
        'not a number',
        upload('abc', jpeg, { cookie: staff.cookie }),
        404,
        DESK_TEXT.productNotFound,
      ],
      [
        'a text file named .jpg',
        upload(dress.id, new TextEncoder().encode('not a picture, just words'), {
          cookie: staff.cookie,
        }),
        400,
        PHOTO_TEXT.notImage,
      ],
      [
        'a GIF',
        upload(dress.id, new TextEncoder().encode('GIF89a......'), { cookie: staff.cookie }),
        400,
        PHOTO_TEXT.notImage,
      ],
      [
        'an empty body',
        upload(dress.id, new Uint8Array(), { cookie: staff.cookie }),
        400,
        PHOTO_TEXT.empty,
      ],
      [
        'an 11 MB body',
        upload(dress.id, new Uint8Array(11 * 1024 * 1024).fill(0xff), { cookie: staff.cookie }),
        413,
        PHOTO_TEXT.tooLarge,
      ],
    ];
    for (const [name, answer, status, message] of cases) {
      const { status: got, body } = await answer;
      expect({ name, status: got, message: body.message }).toEqual({ name, status, message });
    }
    expect(photos.keys()).toEqual(keysBefore);
    expect(await rowsOf(dress.id)).toEqual([]);
    expect(await recordsOf('photo.added', dress.name)).toEqual([]);
  });

  it('the route refuses another site’s page itself, without the front layer (0038)', async () => {
    const dress = await addProduct(test.db, { name: 'Guarded Dress', price: 120_000 });
    const jpeg = await picture('jpeg');
    const keysBefore = photos.keys();
    for (const origin of ['http://127.0.0.1:4000', 'http://shop.test:8080', 'null']) {
      const refused = await upload(dress.id, jpeg, {
        cookie: staff.cookie,
        origin,
        frontLayer: false,
      });
      expect(refused, origin).toEqual({ status: 403, body: { message: REQUEST_TEXT.otherSite } });
    }
    expect(await rowsOf(dress.id)).toHaveLength(0);
    expect(photos.keys()).toEqual(keysBefore);
    // From the shop's own page it still goes in.
    const taken = await upload(dress.id, jpeg, { cookie: staff.cookie, frontLayer: false });
    expect(taken.status).toBe(200);
    expect(await rowsOf(dress.id)).toHaveLength(1);
  });

  it('refuses a HEIC picture where nothing can convert it', async () => {
    const dress = await addProduct(test.db, { name: 'Heic Dress', price: 120_000 });
    // An iPhone photo's boxes (sharp here has no HEVC decoder, as miniflare's Images).
    for (const images of [null, sharpImages()]) {
      const { status, body } = await upload(dress.id, heic(4032, 3024), {
        cookie: staff.cookie,
        images,
      });
      expect({ status, message: body.message }).toEqual({
        status: 400,
        message: PHOTO_TEXT.heicUnavailable,
      });
    }
    expect(await rowsOf(dress.id)).toEqual([]);
  });

  it('keeps a JPEG, a PNG and a WebP: the original, its row, the first as the product’s picture', async () => {
    const dress = await addProduct(test.db, { name: 'Kept Dress', price: 150_000 });
    const versionBefore = Number(await catalogueVersion(test.db));
    const answers: DeskPhoto[] = [];
    const originals = [await picture('jpeg'), await picture('png', 900), await picture('webp')];
    for (const bytes of originals) {
      const { status, body } = await upload(dress.id, bytes, { cookie: staff.cookie });
      expect(status).toBe(200);
      answers.push(body as DeskPhoto);
    }
    expect(answers.map((a) => a.url)).toEqual([
      expect.stringMatching(new RegExp(`^/photos/products/${dress.id}/[0-9a-f-]{36}\\.jpg$`)),
      expect.stringMatching(new RegExp(`^/photos/products/${dress.id}/[0-9a-f-]{36}\\.png$`)),
      expect.stringMatching(new RegExp(`^/photos/products/${dress.id}/[0-9a-f-]{36}\\.webp$`)),
    ]);
    expect(answers[0]).toEqual({
      id: expect.any(Number),
      url: answers[0]?.url,
      alt: 'Kept Dress',
      colour: null,
      widths: [400, 800, 1200],
      width: 1600,
      height: 2000,
    });
    const rows = await rowsOf(dress.id);
    expect(rows.map((r) => [r.id, r.url, r.position, r.width, r.height, r.widths])).toEqual([
      [answers[0]?.id, answers[0]?.url, 0, 1600, 2000, [400, 800, 1200]],
      // 900 px wide: no 1200 copy is offered, it would only be the 900 again.
      [answers[1]?.id, answers[1]?.url, 1, 900, 2000, [400, 800]],
      [answers[2]?.id, answers[2]?.url, 2, 1600, 2000, [400, 800, 1200]],
    ]);
    for (const [index, answer] of answers.entries()) {
      const stored = await photos.get(answer.url.replace('/photos/', ''));
      expect(new Uint8Array(await (stored as NonNullable<typeof stored>).arrayBuffer())).toEqual(
        originals[index],
      );
    }
    expect(await productImageOf(dress.id)).toBe(answers[0]?.url);
    expect(await recordsOf('photo.added', dress.name)).toHaveLength(3);
    expect(Number(await catalogueVersion(test.db))).toBe(versionBefore + 3);
  });

  it('refuses what does not read as a whole picture, and a photo too small, saying so', async () => {
    const dress = await addProduct(test.db, { name: 'Checked Dress', price: 120_000 });
    const jpeg = await picture('jpeg');
    const png = await picture('png');
    const html = new TextEncoder().encode('<!doctype html><script>alert(1)</script>');
    const jfif = jpeg.subarray(0, 20); // SOI and the JFIF segment: what a sniffer sees
    const withZeros = new Uint8Array(PHOTO_MAX_BYTES);
    withZeros.set(jfif);
    const keysBefore = photos.keys();
    const small = await sharp({
      create: { width: 300, height: 600, channels: 3, background: '#a0522d' },
    })
      .jpeg()
      .toBuffer();
    const cases: [string, Uint8Array, string][] = [
      ['a JPEG header followed by HTML', new Uint8Array([...jfif, ...html]), PHOTO_TEXT.unreadable],
      ['a JPEG header and 10 MB of zeros', withZeros, PHOTO_TEXT.unreadable],
      ['a PNG cut short', png.subarray(0, png.length - 100), PHOTO_TEXT.unreadable],
      [
        'a 300 × 600 photo',
        new Uint8Array(small),
        'This photo is 300 × 600 px. Use one at least 400 px on its short side.',
      ],
    ];
    for (const [name, bytes, message] of cases) {
      const { status, body } = await upload(dress.id, bytes, { cookie: staff.cookie });
      expect({ name, status, message: body.message }).toEqual({ name, status: 400, message });
    }
    expect(photos.keys()).toEqual(keysBefore);
    expect(await rowsOf(dress.id)).toEqual([]);

    // A real 800 × 1200 photo is kept, with its size; what followed its end is not.
    const photo = await picture('jpeg', 800, 1200);
    const { status, body } = await upload(dress.id, new Uint8Array([...photo, ...html]), {
      cookie: staff.cookie,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ width: 800, height: 1200, widths: [400, 800] });
    expect((await rowsOf(dress.id)).map((r) => [r.width, r.height])).toEqual([[800, 1200]]);
    const stored = await photos.get(String(body.url).replace('/photos/', ''));
    expect(new Uint8Array(await (stored as NonNullable<typeof stored>).arrayBuffer())).toEqual(
      photo,
    );
  });

  it('takes the stored original back out when the write fails', async () => {
    const dress = await addProduct(test.db, { name: 'Failed Dress', price: 150_000 });
    const failing = new Proxy(test.db, {
      get(target, name) {
        if (name === 'batch') return () => Promise.reject(new Error('connection dropped'));
        return Reflect.get(target, name);
      },
    });
    const before = photos.keys();
    await expect(
      upload(dress.id, await picture('jpeg'), { cookie: staff.cookie, db: failing }),
    ).rejects.toThrow('connection dropped');
    expect(photos.keys()).toEqual(before);
    expect(await rowsOf(dress.id)).toEqual([]);
  });
});

describe('desk.setPhotos', () => {
  async function dressWithPhotos(name: string, count: number) {
    const dress = await addProduct(test.db, {
      name,
      price: 180_000,
      options: [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Colour', values: ['Indigo', 'Terracotta'] },
      ],
    });
    const added: DeskPhoto[] = [];
    for (let i = 0; i < count; i++) {
      const { body } = await upload(dress.id, await picture('jpeg', 600 + i), {
        cookie: staff.cookie,
      });
      added.push(body as DeskPhoto);
    }
    return { dress, added };
  }
  const desk = () => deskCaller(test.db, staff, { photos });

  it('orders, describes, colours and removes, with the product’s picture following the first', async () => {
    const { dress, added } = await dressWithPhotos('Ordered Dress', 3);
    const [first, second, third] = added as [DeskPhoto, DeskPhoto, DeskPhoto];
    const versionBefore = Number(await catalogueVersion(test.db));
    const answer = await desk().setPhotos({
      productId: dress.id,
      photos: [
        { id: third.id, alt: 'Ordered Dress, the back', colour: 'Terracotta' },
        { id: first.id, alt: '  Ordered Dress, the front  ', colour: null },
      ],
      removed: [second.id],
    });
    expect(answer.photos.map((p) => [p.id, p.alt, p.colour])).toEqual([
      [third.id, 'Ordered Dress, the back', 'Terracotta'],
      [first.id, 'Ordered Dress, the front', null],
    ]);
    const rows = await rowsOf(dress.id);
    expect(rows.map((r) => [r.id, r.position, r.alt, r.colour])).toEqual([
      [third.id, 0, 'Ordered Dress, the back', 'Terracotta'],
      [first.id, 1, 'Ordered Dress, the front', null],
    ]);
    expect(await productImageOf(dress.id)).toBe(third.url);
    // The photo removed: its row and its original are gone.
    expect(photos.keys()).not.toContain(second.url.replace('/photos/', ''));
    expect(photos.keys()).toContain(third.url.replace('/photos/', ''));
    const [record] = await recordsOf('photos.set', dress.name);
    expect(record).toMatchObject({ actorEmail: staff.email, action: 'photos.set' });
    expect(Number(await catalogueVersion(test.db))).toBe(versionBefore + 1);
    // The desk's panel reads the same.
    const shown = await desk().photos({ productId: dress.id });
    expect(shown.colours).toEqual(['Indigo', 'Terracotta']);
    expect(shown.photos.map((p) => p.id)).toEqual([third.id, first.id]);
  });

  it('keeps a photo another person uploaded while the list was open, after the listed ones', async () => {
    const { dress, added } = await dressWithPhotos('Shared Dress', 2);
    const [first, second] = added as [DeskPhoto, DeskPhoto];
    // The desk read [first, second]; a colleague uploads a third; the save names only the two.
    const { body } = await upload(dress.id, await picture('jpeg', 900), { cookie: staff.cookie });
    const meanwhile = body as DeskPhoto;
    const answer = await desk().setPhotos({
      productId: dress.id,
      photos: [
        { id: second.id, alt: 'Shared Dress, the back', colour: null },
        { id: first.id, alt: 'Shared Dress, the front', colour: null },
      ],
    });
    expect(answer.photos.map((p) => p.id)).toEqual([second.id, first.id, meanwhile.id]);
    expect((await rowsOf(dress.id)).map((r) => [r.id, r.position])).toEqual([
      [second.id, 0],
      [first.id, 1],
      [meanwhile.id, 2],
    ]);
    expect(photos.keys()).toContain(meanwhile.url.replace('/photos/', ''));
    // Removing names a photo of this product, never listed too.
    await expect(
      desk().setPhotos({
        productId: dress.id,
        photos: [{ id: first.id, alt: 'x', colour: null }],
        removed: [first.id],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: PHOTO_TEXT.repeated });
  });

  it('refuses another product’s photo, a colour the product lacks, bad alt text, repeats', async () => {
    const { dress, added } = await dressWithPhotos('Guarded Dress', 1);
    const other = await dressWithPhotos('Other Dress', 1);
    const mine = added[0] as DeskPhoto;
    const theirs = other.added[0] as DeskPhoto;
    const refused = async (photosList: { id: number; alt: string; colour: string | null }[]) =>
      desk()
        .setPhotos({ productId: dress.id, photos: photosList })
        .then(() => null)
        .catch((error: { code?: string; message: string }) => error.message);
    expect(await refused([{ id: theirs.id, alt: 'x', colour: null }])).toBe(
      PHOTO_TEXT.otherProduct,
    );
    expect(await refused([{ id: mine.id, alt: 'x', colour: 'Purple' }])).toBe(PHOTO_TEXT.badColour);
    expect(await refused([{ id: mine.id, alt: '   ', colour: null }])).toBe(PHOTO_TEXT.altRequired);
    expect(await refused([{ id: mine.id, alt: 'a'.repeat(201), colour: null }])).toBe(
      PHOTO_TEXT.altTooLong,
    );
    expect(await refused([{ id: mine.id, alt: 'nul\u0000here', colour: null }])).toBe(
      PHOTO_TEXT.altPlain,
    );
    expect(
      await refused([
        { id: mine.id, alt: 'a', colour: null },
        { id: mine.id, alt: 'b', colour: null },
      ]),
    ).toBe(PHOTO_TEXT.repeated);
    await expect(desk().setPhotos({ productId: 999_999_999, photos: [] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: DESK_TEXT.productNotFound,
    });
    // Nothing changed, and the other product's photo is still there.
    expect((await rowsOf(dress.id)).map((r) => [r.id, r.alt])).toEqual([
      [mine.id, 'Guarded Dress'],
    ]);
    expect((await rowsOf(other.dress.id)).map((r) => r.id)).toEqual([theirs.id]);
    expect(await recordsOf('photos.set', dress.name)).toEqual([]);
    const customer = await signedInShopper(test.db, auth);
    await expect(
      deskCaller(test.db, customer, { photos }).setPhotos({ productId: dress.id, photos: [] }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('answers wrong types with a clear text over HTTP, never the input', async () => {
    const { dress, added } = await dressWithPhotos('Typed Dress', 1);
    const mine = added[0] as DeskPhoto;
    const huge = 'x'.repeat(100_000);
    const inputs = [
      { productId: String(dress.id), photos: [] },
      { productId: dress.id, photos: huge },
      { productId: dress.id, photos: [{ id: mine.id, alt: huge, colour: null }] },
      { productId: dress.id, photos: [{ id: String(mine.id), alt: 'a', colour: null }] },
      { productId: dress.id, photos: [{ id: mine.id, alt: 'a', colour: 7 }] },
      { productId: dress.id, photos: [{ id: mine.id, alt: 'a', colour: null, url: '/x' }] },
      { productId: dress.id, photos: [], requestKey: 'again' },
    ];
    for (const input of inputs) {
      const { status, body } = await mutateOverHttp(test.db, 'desk.setPhotos', input, {
        cookie: staff.cookie,
        photos,
      });
      expect(status).toBe(400);
      expect(body.error?.message.length).toBeLessThan(200);
      expect(body.error?.message).not.toContain('xxxx');
      expect(body.error?.message).not.toMatch(/received|expected/i);
    }
    expect((await rowsOf(dress.id)).map((r) => r.alt)).toEqual(['Typed Dress']);
  });

  it('saves once for a request key sent twice', async () => {
    const { dress, added } = await dressWithPhotos('Keyed Dress', 2);
    const [a, b] = added as [DeskPhoto, DeskPhoto];
    const requestKey = crypto.randomUUID();
    const save = { productId: dress.id, requestKey };
    const first = await desk().setPhotos({
      ...save,
      photos: [
        { id: b.id, alt: 'Keyed, back', colour: null },
        { id: a.id, alt: 'Keyed, front', colour: 'Indigo' },
      ],
    });
    const again = await desk().setPhotos({
      ...save,
      photos: [{ id: a.id, alt: 'A retry must not change this', colour: null }],
    });
    expect(again).toEqual(first);
    expect(await recordsOf('photos.set', dress.name)).toHaveLength(1);
    expect((await rowsOf(dress.id)).map((r) => r.alt)).toEqual(['Keyed, back', 'Keyed, front']);
  });

  it('saves once for a double submit, the second sent while the first is being written', async () => {
    // Each pair removes one photo; the second of a pair (once) read the photos after the first
    // had removed it, and was refused as naming another product's photo.
    const pairs = 10;
    const { dress, added } = await dressWithPhotos('Double Dress', pairs + 1);
    for (let pair = 0; pair < pairs; pair++) {
      const save = {
        productId: dress.id,
        requestKey: crypto.randomUUID(),
        photos: added.slice(pair + 1).map((p) => ({ id: p.id, alt: p.alt, colour: null })),
        removed: [(added[pair] as DeskPhoto).id],
      };
      const answers = await sentTwice(() => desk().setPhotos(save), pair);
      expect(answers[1]).toEqual(answers[0]);
    }
    expect(await recordsOf('photos.set', dress.name)).toHaveLength(pairs);
    expect((await rowsOf(dress.id)).map((r) => r.id)).toEqual([(added[pairs] as DeskPhoto).id]);
  });
});

describe('a shopper', () => {
  it('sees the photos on the product page, and each source loads as a picture', async () => {
    const { body } = await upload(
      (await addProduct(test.db, { name: 'Seen Dress', price: 99_000 })).id,
      await picture('png'),
      { cookie: staff.cookie },
    );
    const photo = body as DeskPhoto;
    const [[row]] = await test.db.batch([
      test.db
        .select({ slug: products.slug })
        .from(products)
        .where(
          sql`${products.id} = (select product_id from product_images where id = ${photo.id})`,
        ),
    ]);
    const page = await callerFor(test.db).catalogue.productBySlug({ slug: row?.slug ?? '' });
    expect(page.images.map((i) => [i.url, i.alt, i.widths])).toEqual([
      [photo.url, 'Seen Dress', [400, 800, 1200]],
    ]);
    const sources = pictureSources(page.images[0] as DeskPhoto);
    expect(sources.src).toBe(`${photo.url}?w=800`);
    expect(sources.webpSrcSet).toBe(
      `${photo.url}?w=400 400w, ${photo.url}?w=800 800w, ${photo.url}?w=1200 1200w`,
    );

    const serve = (path: string, accept: string, images: PhotoImages | null) =>
      servePhoto(
        { photos, images },
        new Request(`${TEST_SHOP_ORIGIN}${path}`, { headers: { accept } }),
        new URL(`${TEST_SHOP_ORIGIN}${path}`).pathname.replace('/photos/', ''),
      );
    // With Images: a copy at the width asked, in the format the browser takes.
    const images = sharpImages();
    const webp = await serve(`${photo.url}?w=400`, 'image/avif,image/webp,*/*', images);
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/avif');
    expect(webp.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(webp.headers.get('vary')).toBe('Accept');
    const small = await sharp(Buffer.from(await webp.arrayBuffer())).metadata();
    expect(small.width).toBe(400);
    const jpeg = await serve(sources.src, '*/*', images);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata()).width).toBe(800);
    // Without Images (transformations off): the original, still a picture.
    const original = await serve(sources.src, 'image/webp,*/*', null);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await original.arrayBuffer())).metadata()).format).toBe('png');
    // Keys the shop did not make are not found.
    for (const path of ['/photos/avatars/x', `${photo.url.replace(/\.png$/, '.gif')}`]) {
      expect((await serve(path, '*/*', images)).status).toBe(404);
    }
  });

  it('gets the original for five minutes only, never kept, when Images makes no copy', async () => {
    const dress = await addProduct(test.db, { name: 'Fallback Dress', price: 99_000 });
    const { body } = await upload(dress.id, await picture('jpeg'), { cookie: staff.cookie });
    const key = String(body.url).replace('/photos/', '');
    const failing: PhotoImages = {
      input: () => ({
        transform() {
          return this;
        },
        output: () => Promise.reject(new Error('ERROR 9422: transformations are off')),
      }),
    };
    // Where transformations are off, Images hands the original back.
    const passing: PhotoImages = {
      input: (stream) => ({
        transform() {
          return this;
        },
        output: async () => ({ image: () => stream, contentType: () => 'image/jpeg' }),
      }),
    };
    for (const [name, images] of [
      ['no Images', null],
      ['Images failing', failing],
      ['Images off', passing],
      ['Images on', sharpImages()],
    ] as const) {
      const kept: string[] = [];
      const response = await servePhoto(
        {
          photos,
          images,
          cache: {
            match: async () => undefined,
            put: async (request) =>
              void kept.push(String(request instanceof Request ? request.url : request)),
          },
          keep: (work) => void work,
        },
        new Request(`${TEST_SHOP_ORIGIN}/photos/${key}?w=400`, { headers: { accept: '*/*' } }),
        key,
      );
      const width = (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width;
      const resized = name === 'Images on';
      expect({ name, cache: response.headers.get('cache-control'), kept, width }).toEqual({
        name,
        cache: resized ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        kept: resized ? [`${TEST_SHOP_ORIGIN}/photos/${key}?w=400&f=jpeg`] : [],
        width: resized ? 400 : 1600,
      });
    }
  });

  it('keeps the demo’s static pictures as they were', () => {
    expect(
      pictureSources({ url: '/images/products/drawn-dress/piece.jpg', widths: [400, 800] }),
    ).toEqual({
      src: '/images/products/drawn-dress/piece.jpg',
      webpSrcSet:
        '/images/products/drawn-dress/piece-400.webp 400w, /images/products/drawn-dress/piece-800.webp 800w',
    });
  });
});
