// A return's photos (issue 36): the shopper's upload under the desk's photo rules (own origin,
// 10 MB, a whole picture), kept under a key naming her, and served to her and the desk only.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_TEXT } from '#core/desk-photos.ts';
import { REQUEST_TEXT } from '#core/requests.ts';
import { isReturnPhotoOf, RETURN_PHOTO_KEY, returnPhotoUrl } from '#core/returns.ts';
import { type MemoryBucket, memoryBucket } from '#local/fakes/r2-bucket.ts';
import type { Auth } from '#server/auth.ts';
import { serveReturnPhoto, uploadReturnPhoto } from '#server/http/return-photos.ts';
import { serveShop } from '#server/http/shop-http.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { type DeskMember, deskMember } from '../support/desk.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { TEST_SHOP_ORIGIN } from '../support/trpc.ts';

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

const jpeg = () =>
  sharp({ create: { width: 900, height: 1200, channels: 3, background: '#3b5b8c' } })
    .jpeg()
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer));

const deps = () => ({
  auth,
  ownerEmails: [],
  photos,
  images: null,
  ownOrigins: [TEST_SHOP_ORIGIN],
});

/** A POST as the return form sends it, through the Worker's front layer. */
async function upload(bytes: Uint8Array, options: { cookie?: string; origin?: string } = {}) {
  const headers = new Headers({ 'content-type': 'image/jpeg' });
  if (options.cookie) headers.set('cookie', options.cookie);
  headers.set('origin', options.origin ?? TEST_SHOP_ORIGIN);
  const request = new Request(`${TEST_SHOP_ORIGIN}/api/returns/photos`, {
    method: 'POST',
    headers,
    body: bytes as BodyInit,
  });
  const response = await serveShop(request, (req) => uploadReturnPhoto(deps(), req), {
    dev: false,
    ownOrigins: [TEST_SHOP_ORIGIN],
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function view(key: string, cookie?: string) {
  const request = new Request(`${TEST_SHOP_ORIGIN}/${returnPhotoUrl(key).slice(1)}?w=800`, {
    headers: cookie ? { cookie } : {},
  });
  const response = await serveReturnPhoto(deps(), request, key);
  return { status: response.status, cache: response.headers.get('cache-control') };
}

describe('a return’s photo', () => {
  it('is kept for the signed-in shopper under a key naming her', async () => {
    const amina = await signedInShopper(test.db, auth);
    const { status, body } = await upload(await jpeg(), { cookie: amina.cookie });
    expect(status).toBe(200);
    const key = String(body.key);
    expect(key).toMatch(RETURN_PHOTO_KEY);
    expect(key.startsWith(`returns/${amina.id}/`)).toBe(true);
    expect(isReturnPhotoOf(key, amina.id)).toBe(true);
    expect(body.url).toBe(`/api/${key}`);
    expect(photos.keys()).toContain(key);
  });

  it('refuses signed out, another site, not a picture, empty, too small and too large', async () => {
    const amina = await signedInShopper(test.db, auth);
    const before = photos.keys();
    const tiny = new Uint8Array(
      await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer(),
    );
    const cases: [
      string,
      Promise<{ status: number; body: Record<string, string> }>,
      number,
      string,
    ][] = [
      ['signed out', upload(await jpeg()), 401, PHOTO_TEXT.signedOut],
      [
        'another site',
        upload(await jpeg(), { cookie: amina.cookie, origin: 'https://evil.example' }),
        403,
        REQUEST_TEXT.otherSite,
      ],
      [
        'words named .jpg',
        upload(new TextEncoder().encode('not a picture'), { cookie: amina.cookie }),
        400,
        PHOTO_TEXT.notImage,
      ],
      ['empty', upload(new Uint8Array(), { cookie: amina.cookie }), 400, PHOTO_TEXT.empty],
      ['200 px', upload(tiny, { cookie: amina.cookie }), 400, PHOTO_TEXT.tooSmall(200, 200)],
      [
        '11 MB',
        upload(new Uint8Array(11 * 1024 * 1024).fill(0xff), { cookie: amina.cookie }),
        413,
        PHOTO_TEXT.tooLarge,
      ],
    ];
    for (const [name, answer, status, message] of cases) {
      const got = await answer;
      expect({ name, status: got.status, message: got.body.message }).toEqual({
        name,
        status,
        message,
      });
    }
    expect(photos.keys()).toEqual(before);
  });

  it('the route itself refuses another site without the front layer', async () => {
    const amina = await signedInShopper(test.db, auth);
    const request = new Request(`${TEST_SHOP_ORIGIN}/api/returns/photos`, {
      method: 'POST',
      headers: {
        cookie: amina.cookie,
        origin: 'http://shop.test:8080',
        'content-type': 'image/jpeg',
      },
      body: (await jpeg()) as BodyInit,
    });
    const response = await uploadReturnPhoto(deps(), request);
    expect(response.status).toBe(403);
  });

  it('is shown to her and the desk, never to another shopper or a visitor', async () => {
    const amina = await signedInShopper(test.db, auth);
    const other = await signedInShopper(test.db, auth);
    const key = String((await upload(await jpeg(), { cookie: amina.cookie })).body.key);
    expect(await view(key, amina.cookie)).toEqual({
      status: 200,
      cache: 'private, max-age=86400',
    });
    expect((await view(key, staff.cookie)).status).toBe(200);
    expect((await view(key, other.cookie)).status).toBe(404);
    expect((await view(key)).status).toBe(401);
    // A product photo's key, a path out of returns/, an unknown picture: not found.
    for (const other of [
      'products/1/00000000-0000-4000-8000-000000000000.jpg',
      `returns/${amina.id}/../x.jpg`,
      `returns/${amina.id}/00000000-0000-4000-8000-000000000000.jpg`,
    ]) {
      expect((await view(other, amina.cookie)).status, other).toBe(404);
    }
  });
});
