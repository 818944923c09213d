import { describe, expect, it } from 'vitest';
import { photoFormatFor, servedWidth, sniffPhotoType } from './desk-photos.ts';

const isoMedia = (brand: string) => {
  const bytes = new Uint8Array(32);
  bytes.set([0, 0, 0, 0x18, ...new TextEncoder().encode(`ftyp${brand}`)]);
  return bytes;
};

describe('sniffPhotoType', () => {
  it('reads JPEG, PNG, WebP and an iPhone’s HEIC from the bytes', () => {
    expect(sniffPhotoType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffPhotoType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
      'image/png',
    );
    expect(sniffPhotoType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    for (const brand of ['heic', 'heix', 'mif1']) {
      expect(sniffPhotoType(isoMedia(brand))).toBe('image/heic');
    }
  });

  it('refuses a GIF, a video, text and nothing', () => {
    expect(sniffPhotoType(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(sniffPhotoType(isoMedia('mp42'))).toBeNull();
    expect(sniffPhotoType(new TextEncoder().encode('just words, named photo.jpg'))).toBeNull();
    expect(sniffPhotoType(new Uint8Array())).toBeNull();
  });
});

describe('serving', () => {
  it('serves the smallest stored width that covers the one asked, the largest by default', () => {
    expect([1, 400, 401, 800, 1000, 5000, null, -3, Number.NaN].map(servedWidth)).toEqual([
      400, 400, 800, 800, 1200, 1200, 1200, 1200, 1200,
    ]);
  });

  it('picks AVIF, then WebP, by what the browser accepts, else JPEG', () => {
    expect(photoFormatFor('image/avif,image/webp,image/apng,*/*;q=0.8')).toBe('image/avif');
    expect(photoFormatFor('image/webp,*/*')).toBe('image/webp');
    expect(photoFormatFor('*/*')).toBe('image/jpeg');
    expect(photoFormatFor(null)).toBe('image/jpeg');
  });
});
