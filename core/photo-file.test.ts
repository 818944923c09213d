import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PICTURE_SIZE, PICTURE_WIDTHS, products, seedPictures } from '#db/seed-data.ts';
import { heic, picture } from '../tests/support/pictures.ts';
import { checkPhoto, PHOTO_TEXT } from './desk-photos.ts';
import { readPhotoFile } from './photo-file.ts';

const html = new TextEncoder().encode('<!doctype html><script>alert(document.cookie)</script>');
const joined = (...parts: ArrayLike<number>[]) => {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
};

describe('readPhotoFile', () => {
  it('reads the size of a whole JPEG, PNG, WebP (lossy, lossless, with alpha) and HEIC', async () => {
    const jpeg = await picture('jpeg', 800, 1200);
    const progressive = new Uint8Array(
      await sharp(jpeg).jpeg({ progressive: true, quality: 70 }).toBuffer(),
    );
    const png = await picture('png', 640, 480);
    const webp = await picture('webp', 1201, 999);
    const lossless = new Uint8Array(await sharp(png).webp({ lossless: true }).toBuffer());
    const alpha = new Uint8Array(
      await sharp({ create: { width: 500, height: 700, channels: 4, background: '#0008' } })
        .webp()
        .toBuffer(),
    );
    const cases: [string, Uint8Array, Parameters<typeof readPhotoFile>[1], number, number][] = [
      ['jpeg', jpeg, 'image/jpeg', 800, 1200],
      ['progressive jpeg', progressive, 'image/jpeg', 800, 1200],
      ['png', png, 'image/png', 640, 480],
      ['webp', webp, 'image/webp', 1201, 999],
      ['lossless webp', lossless, 'image/webp', 640, 480],
      ['webp with alpha (VP8X)', alpha, 'image/webp', 500, 700],
      ['heic', heic(4032, 3024), 'image/heic', 4032, 3024],
    ];
    for (const [name, bytes, type, width, height] of cases) {
      expect({ name, read: readPhotoFile(bytes, type) }).toEqual({
        name,
        read: { width, height, length: bytes.length },
      });
    }
  });

  it('gives the size as shown: a phone’s JPEG turned by its Exif orientation, a turned HEIC', async () => {
    const turned = new Uint8Array(
      await sharp(await picture('jpeg', 1200, 800))
        .withMetadata({ orientation: 6 })
        .toBuffer(),
    );
    expect(readPhotoFile(turned, 'image/jpeg')).toMatchObject({ width: 800, height: 1200 });
    expect(readPhotoFile(heic(4032, 3024, { turned: true }), 'image/heic')).toMatchObject({
      width: 3024,
      height: 4032,
    });
  });

  it('refuses a header followed by HTML or zeros, a cut file, a changed byte, a wrong RIFF size', async () => {
    const jpeg = await picture('jpeg', 800, 1200);
    const png = await picture('png', 800, 1200);
    const webp = await picture('webp', 800, 1200);
    const jfifHeader = jpeg.subarray(0, 20); // SOI and the JFIF segment
    const changed = png.slice();
    changed.set([~(png.at(-20) as number) & 0xff], png.length - 20); // in the last IDAT: its CRC fails
    const wrongRiff = webp.slice();
    new DataView(wrongRiff.buffer).setUint32(4, webp.length + 100, true);
    const cases: [string, Uint8Array, Parameters<typeof readPhotoFile>[1]][] = [
      ['JPEG header then HTML', joined([0xff, 0xd8, 0xff, 0xe0], html), 'image/jpeg'],
      ['JFIF header then HTML', joined(jfifHeader, html), 'image/jpeg'],
      [
        'JFIF header then 10 MiB of zeros',
        joined(jfifHeader, new Uint8Array(10 << 20)),
        'image/jpeg',
      ],
      ['a JPEG cut in its scan', jpeg.subarray(0, jpeg.length - 200), 'image/jpeg'],
      ['a JPEG without its frame', joined([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg'],
      ['a PNG cut short', png.subarray(0, png.length - 30), 'image/png'],
      ['a PNG signature then HTML', joined(png.subarray(0, 8), html), 'image/png'],
      ['a PNG with a changed byte', changed, 'image/png'],
      ['a WebP whose RIFF size is past its end', wrongRiff, 'image/webp'],
      ['a WebP cut short', webp.subarray(0, webp.length - 10), 'image/webp'],
      [
        'RIFF WEBP then HTML',
        joined(new TextEncoder().encode('RIFF\x40\0\0\0WEBP'), html),
        'image/webp',
      ],
      ['a HEIC cut short', heic(4032, 3024).subarray(0, 200), 'image/heic'],
      ['an ftyp box then HTML', joined(heic(4032, 3024).subarray(0, 24), html), 'image/heic'],
    ];
    for (const [name, bytes, type] of cases) {
      expect({ name, read: readPhotoFile(bytes, type) }).toEqual({ name, read: null });
    }
  });

  it('ends the picture where its format ends it: what follows is left out', async () => {
    const jpeg = await picture('jpeg', 800, 1200);
    const png = await picture('png', 800, 1200);
    expect(readPhotoFile(joined(jpeg, html), 'image/jpeg')?.length).toBe(jpeg.length);
    expect(readPhotoFile(joined(png, new Uint8Array(4096)), 'image/png')?.length).toBe(png.length);
  });

  it('reads every demo picture at the size the seed stores', () => {
    const largest = PICTURE_WIDTHS.at(-1);
    for (const product of products.slice(0, 6)) {
      for (const { url } of seedPictures(product)) {
        const stem = `public${url.replace(/\.jpg$/, '')}`;
        const webp = new Uint8Array(readFileSync(`${stem}-${largest}.webp`));
        expect(readPhotoFile(webp, 'image/webp')).toMatchObject(PICTURE_SIZE);
        const jpeg = new Uint8Array(readFileSync(`public${url}`));
        expect(readPhotoFile(jpeg, 'image/jpeg')).toMatchObject({ width: 800, height: 1000 });
      }
    }
  });
});

describe('checkPhoto', () => {
  it('keeps a real 800 × 1200 photo with its size', async () => {
    const jpeg = await picture('jpeg', 800, 1200);
    expect(checkPhoto(jpeg)).toEqual({
      ok: true,
      type: 'image/jpeg',
      width: 800,
      height: 1200,
      bytes: jpeg,
    });
  });

  it('refuses a picture under 400 px on its short side, or past what Images resizes, saying so', async () => {
    expect(checkPhoto(await picture('png', 300, 600))).toEqual({
      ok: false,
      problem: 'This photo is 300 × 600 px. Use one at least 400 px on its short side.',
    });
    expect(checkPhoto(await picture('jpeg', 640, 399))).toEqual({
      ok: false,
      problem: PHOTO_TEXT.tooSmall(640, 399),
    });
    expect(checkPhoto(heic(16_320, 12_240))).toEqual({
      ok: false,
      problem:
        'This photo is 16320 × 12240 px. Use one at most 12,000 px on its long side and 100 megapixels.',
    });
  });

  it('names what is not a picture, and what is not a whole one', async () => {
    expect(checkPhoto(html)).toEqual({ ok: false, problem: PHOTO_TEXT.notImage });
    expect(checkPhoto(joined([0xff, 0xd8, 0xff, 0xe0], html))).toEqual({
      ok: false,
      problem: PHOTO_TEXT.unreadable,
    });
  });
});
