// Product pictures at the width a screen shows (decision 0039). A picture is stored as a JPEG
// fallback (`url`) with WebP copies beside it at `widths`: `{stem}-{width}.webp`, where the stem
// is the URL without `.jpg`. A picture without widths (an older upload, an SVG) is its URL alone.
// A photo uploaded at the desk (under /photos/, decision 0045) is served at a width in the format
// the browser accepts: `{url}?w={width}` (AVIF or WebP where the browser takes them, else JPEG).
import type { ProductImage } from './catalogue.ts';
import { LESS_DATA_WIDTH } from './less-data.ts';

/** Where photos uploaded on the desk are served: `/photos/{key}?w=800` (decision 0045). Kept
 * here, not in core/desk-photos.ts, so every card's picture does not load the desk's inputs. */
export const PHOTOS_PATH = '/photos/';
export const isUploadedPhoto = (url: string) => url.startsWith(PHOTOS_PATH);

export type PictureSources = {
  /** The fallback every browser can show. */
  src: string;
  /** The WebP copies for `<source type="image/webp">`; null when there are none. */
  webpSrcSet: string | null;
};

const stemOf = (url: string) => url.replace(/\.(jpe?g)$/i, '');

/** The width an uploaded photo's `src` asks for where srcset is not read. */
const PHOTO_SRC_WIDTH = 800;

/** The widths offered: all, or when saving data (core/less-data.ts) the small ones only (the
 * smallest there is when none is that small), so the browser has nothing bigger to choose. */
function offeredWidths(widths: readonly number[], lessData: boolean): number[] {
  const sorted = [...widths].sort((a, b) => a - b);
  if (!lessData) return sorted;
  const small = sorted.filter((width) => width <= LESS_DATA_WIDTH);
  return small.length > 0 ? small : sorted.slice(0, 1);
}

export function pictureSources(
  image: Pick<ProductImage, 'url' | 'widths'>,
  lessData = false,
): PictureSources {
  if (isUploadedPhoto(image.url)) {
    const widths = offeredWidths(image.widths, lessData);
    const at = (width: number) => `${image.url}?w=${width}`;
    const srcWidth = widths.find((w) => w >= PHOTO_SRC_WIDTH) ?? widths.at(-1) ?? PHOTO_SRC_WIDTH;
    return {
      src: at(srcWidth),
      // Negotiated by Accept: a browser that reads <source type="image/webp"> gets WebP or AVIF.
      webpSrcSet: widths.length > 0 ? widths.map((w) => `${at(w)} ${w}w`).join(', ') : null,
    };
  }
  if (image.widths.length === 0 || !/\.jpe?g$/i.test(image.url)) {
    return { src: image.url, webpSrcSet: null };
  }
  const stem = stemOf(image.url);
  return {
    src: image.url,
    webpSrcSet: offeredWidths(image.widths, lessData)
      .map((width) => `${stem}-${width}.webp ${width}w`)
      .join(', '),
  };
}

/** `sizes` for a card in a grid: two columns on a phone, up to four on a wide screen. */
export const CARD_SIZES = '(min-width: 1280px) 300px, (min-width: 768px) 33vw, 50vw';
/** `sizes` for the product page's main picture: the full width on a phone, half beside text. */
export const GALLERY_SIZES = '(min-width: 1024px) 600px, 100vw';

/** The pictures to show for a colour: that colour's own and those of no colour; all if none. */
export function picturesFor<T extends { colour: string | null }>(
  images: readonly T[],
  colour: string | null | undefined,
): T[] {
  if (!colour) return [...images];
  const chosen = images.filter((image) => image.colour === colour || image.colour === null);
  return chosen.some((image) => image.colour === colour) ? chosen : [...images];
}
