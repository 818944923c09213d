import { useEffect, useRef, useState } from 'react';
import { PLACEHOLDER_IMAGE } from '#core/catalogue.ts';
import { pictureSources } from '#core/pictures.ts';

/**
 * A product image (4:5, or filling its frame) that never shifts the layout and falls back to the
 * placeholder if it breaks. A picture stored with WebP copies (`widths`) is a <picture>: the
 * browser takes the WebP width that fits `sizes`, the JPEG `src` where WebP is unknown.
 */
export function ProductImage({
  src,
  widths = [],
  sizes,
  alt,
  className = '',
  eager = false,
  priority = false,
  fill = false,
  lessData = false,
}: {
  src: string | null;
  /** The widths of its WebP copies (core/pictures.ts); none: the URL alone. */
  widths?: readonly number[];
  /** How wide it shows (CARD_SIZES, GALLERY_SIZES); without it the browser assumes the viewport. */
  sizes?: string;
  alt: string;
  className?: string;
  eager?: boolean;
  /** The page's largest image (its LCP): fetched first, before scripts and other images. */
  priority?: boolean;
  /** Fill a positioned frame (cropped to it) instead of keeping 4:5. */
  fill?: boolean;
  /** Saving data (app/light-page.ts): the small copy only, whatever the screen. */
  lessData?: boolean;
}) {
  const [broken, setBroken] = useState(!src);
  const ref = useRef<HTMLImageElement>(null);
  // An image that failed before hydration fired its error event before React listened.
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) setBroken(true);
  }, []);
  const sources =
    !broken && src ? pictureSources({ url: src, widths: [...widths] }, lessData) : null;
  const img = (
    <img
      ref={ref}
      src={sources ? sources.src : PLACEHOLDER_IMAGE}
      alt={alt}
      width={800}
      height={1000}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding={priority ? undefined : 'async'}
      onError={() => setBroken(true)}
      className={`${fill ? 'absolute inset-0 size-full' : 'aspect-[4/5] w-full'} bg-paper-2 object-cover ${className}`}
    />
  );
  if (!sources?.webpSrcSet) return img;
  return (
    <picture className="contents">
      {/* Not drawn: under `contents` a <source> would take a cell of the parent's grid (the
          checkout's and the cart's lines), pushing the picture out of its column. */}
      <source
        type="image/webp"
        srcSet={sources.webpSrcSet}
        sizes={sizes ?? '100vw'}
        className="hidden"
      />
      {img}
    </picture>
  );
}
