// The desk's pictures (issue 22): what a photo from a phone may be, where it is kept and served,
// the texts staff read, and desk.setPhotos's input. Pure: no I/O.
import * as v from 'valibot';
import { sniffImageType } from './account.ts';
import { idSchema } from './bounds.ts';
import { requestKey } from './desk-roles.ts';
import { readPhotoFile } from './photo-file.ts';
import { isUploadedPhoto, PHOTOS_PATH } from './pictures.ts';

/** A phone's photo: up to 10 MB (a 48-megapixel HEIC or JPEG is 3–8 MB). */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** The widths shoppers get copies at (srcset): a card, a phone's gallery, a wide screen's. */
export const PHOTO_WIDTHS = [400, 800, 1200] as const;
export const ALT_MAX = 200;
/** A photo's short side at least this (the smallest copy shoppers get is 400 wide). */
export const PHOTO_MIN_SIDE = 400;
/** What Cloudflare Images resizes: 12,000 px a side, 100 megapixels (its documented limits). */
export const PHOTO_MAX_SIDE = 12_000;
export const PHOTO_MAX_PIXELS = 100_000_000;

/** The types a photo may be, read from its bytes, with the extension its key gets. */
export const PHOTO_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
} as const;
export type PhotoType = keyof typeof PHOTO_TYPES;

export const PHOTO_TEXT = {
  notImage: 'Please select an image file (JPEG, PNG, WebP or HEIC)',
  empty: 'Please select an image file: this one is empty',
  tooLarge: 'Image size must be less than 10MB',
  unreadable:
    'This picture could not be read: the file is damaged or is not a photo. Please choose another (JPEG, PNG, WebP or HEIC).',
  tooSmall: (width: number, height: number) =>
    `This photo is ${width} × ${height} px. Use one at least ${PHOTO_MIN_SIDE} px on its short side.`,
  tooBig: (width: number, height: number) =>
    `This photo is ${width} × ${height} px. Use one at most ${PHOTO_MAX_SIDE.toLocaleString('en-US')} px on its long side and ${PHOTO_MAX_PIXELS / 1_000_000} megapixels.`,
  heicUnavailable:
    'HEIC pictures can’t be converted here. Please choose a JPEG (on an iPhone: Settings › Camera › Formats › Most Compatible).',
  signedOut: 'User not authenticated',
  failed: 'The picture could not be saved. Please try again.',
  saved: 'Photos saved',
  badPhotos: 'Send the product’s photos as a list.',
  badPhotoId: 'A photo could not be matched. Reload the page and try again.',
  altRequired: 'Please describe each photo (alt text).',
  altTooLong: `Alt text must be at most ${ALT_MAX} characters.`,
  altPlain: 'Alt text must be plain text.',
  badColour: 'Choose one of the product’s colours, or all colours.',
  otherProduct: 'A photo in the list belongs to another product. Reload the page and try again.',
  repeated: 'A photo is in the list twice. Reload the page and try again.',
} as const;

/**
 * The photo's type read from its first bytes: JPEG, PNG, WebP, or HEIC/HEIF (an ISO media file,
 * `ftyp`, whose brand is one of Apple's or HEIF's). Anything else (a GIF, a text file named .jpg):
 * null. The name and the declared type are never trusted.
 */
export function sniffPhotoType(bytes: Uint8Array): PhotoType | null {
  const sniffed = sniffImageType(bytes);
  if (sniffed === 'image/jpeg' || sniffed === 'image/png' || sniffed === 'image/webp') {
    return sniffed;
  }
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) {
      return 'image/heic';
    }
  }
  return null;
}

/** A photo that may be stored: its type, its size as shown, and its bytes up to its own end. */
export type CheckedPhoto = {
  ok: true;
  type: PhotoType;
  width: number;
  height: number;
  bytes: Uint8Array;
};

/**
 * Reads the picture whole from its own structure (core/photo-file.ts): refused when it is not a
 * picture, not a whole one, smaller than 400 px on its short side or larger than Images resizes.
 * What follows the picture's own end is left out of `bytes`.
 */
export function checkPhoto(bytes: Uint8Array): CheckedPhoto | { ok: false; problem: string } {
  const type = sniffPhotoType(bytes);
  if (!type) return { ok: false, problem: PHOTO_TEXT.notImage };
  const file = readPhotoFile(bytes, type);
  if (!file) return { ok: false, problem: PHOTO_TEXT.unreadable };
  const { width, height } = file;
  if (Math.min(width, height) < PHOTO_MIN_SIDE) {
    return { ok: false, problem: PHOTO_TEXT.tooSmall(width, height) };
  }
  if (Math.max(width, height) > PHOTO_MAX_SIDE || width * height > PHOTO_MAX_PIXELS) {
    return { ok: false, problem: PHOTO_TEXT.tooBig(width, height) };
  }
  return { ok: true, type, width, height, bytes: bytes.subarray(0, file.length) };
}

/** The widths of copies worth listing (srcset): those the photo is at least as wide as. */
export const photoWidthsFor = (width: number) => PHOTO_WIDTHS.filter((w) => w <= width);

/** The R2 key of a product's photo: products/{productId}/{uuid}.{ext}. Never reused. */
export const photoKey = (productId: number, id: string, type: PhotoType) =>
  `products/${productId}/${id}.${PHOTO_TYPES[type]}`;

/** Keys this shop makes; anything else under /photos/ is not found. */
export const PHOTO_KEY = /^products\/\d{1,10}\/[0-9a-f-]{36}\.(jpg|png|webp|heic)$/;

export const photoUrl = (key: string) => `${PHOTOS_PATH}${key}`;

/** Where the desk sends a product's new photo. */
export const photoUploadPath = (productId: number) => `/api/desk/products/${productId}/photos`;

/** The key inside an uploaded photo's URL (null for the demo's static pictures). */
export const keyOfPhotoUrl = (url: string) =>
  isUploadedPhoto(url) ? url.slice(PHOTOS_PATH.length) : null;

/** The copy to serve for a requested width: the smallest stored width that covers it. */
export function servedWidth(requested: number | null): number {
  const widths: readonly number[] = PHOTO_WIDTHS;
  if (requested === null || !Number.isFinite(requested) || requested <= 0) {
    return widths[widths.length - 1] as number;
  }
  return widths.find((width) => width >= requested) ?? (widths[widths.length - 1] as number);
}

/** The format a browser gets, by what it says it accepts: AVIF, WebP, else JPEG. */
export function photoFormatFor(accept: string | null): 'image/avif' | 'image/webp' | 'image/jpeg' {
  const types = (accept ?? '').toLowerCase();
  if (types.includes('image/avif')) return 'image/avif';
  if (types.includes('image/webp')) return 'image/webp';
  return 'image/jpeg';
}

const photoId = idSchema(PHOTO_TEXT.badPhotoId);

/**
 * desk.setPhotos: the product's photos in the order shown, and those the desk removed. A photo
 * the list does not name (uploaded by someone else meanwhile) is kept, after the listed ones.
 */
export const setPhotosInput = v.strictObject(
  {
    productId: idSchema('Product not found'),
    photos: v.pipe(
      v.array(
        v.strictObject(
          {
            id: photoId,
            alt: v.pipe(
              v.string(PHOTO_TEXT.altRequired),
              v.trim(),
              v.nonEmpty(PHOTO_TEXT.altRequired),
              v.maxLength(ALT_MAX, PHOTO_TEXT.altTooLong),
              // Plain text: no markup, no control characters (NUL among them).
              // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters refused
              v.regex(/^[^<>\u0000-\u001f\u007f]*$/, PHOTO_TEXT.altPlain),
            ),
            colour: v.nullable(
              v.pipe(v.string(PHOTO_TEXT.badColour), v.maxLength(100, PHOTO_TEXT.badColour)),
            ),
          },
          PHOTO_TEXT.badPhotos,
        ),
        PHOTO_TEXT.badPhotos,
      ),
      v.maxLength(50, PHOTO_TEXT.badPhotos),
    ),
    removed: v.optional(
      v.pipe(v.array(photoId, PHOTO_TEXT.badPhotos), v.maxLength(50, PHOTO_TEXT.badPhotos)),
      [],
    ),
    requestKey: v.optional(requestKey),
  },
  PHOTO_TEXT.badPhotos,
);
export type SetPhotosInput = v.InferOutput<typeof setPhotosInput>;

/** A product's photo as the desk and the answer of an upload show it. */
export type DeskPhoto = {
  id: number;
  url: string;
  alt: string;
  colour: string | null;
  widths: number[];
  /** The picture's own size as shown; null for photos stored before sizes were kept. */
  width: number | null;
  height: number | null;
};
