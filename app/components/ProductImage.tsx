import { useEffect, useRef, useState } from 'react';
import { PLACEHOLDER_IMAGE } from '#core/catalogue.ts';

/** A product image (4:5, or filling its frame) that never shifts the layout and falls back to the
 * placeholder if it breaks. */
export function ProductImage({
  src,
  alt,
  className = '',
  eager = false,
  priority = false,
  fill = false,
}: {
  src: string | null;
  alt: string;
  className?: string;
  eager?: boolean;
  /** The page's largest image (its LCP): fetched first, before scripts and other images. */
  priority?: boolean;
  /** Fill a positioned frame (cropped to it) instead of keeping 4:5. */
  fill?: boolean;
}) {
  const [broken, setBroken] = useState(!src);
  const ref = useRef<HTMLImageElement>(null);
  // An image that failed before hydration fired its error event before React listened.
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) setBroken(true);
  }, []);
  return (
    <img
      ref={ref}
      src={broken || !src ? PLACEHOLDER_IMAGE : src}
      alt={alt}
      width={800}
      height={1000}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onError={() => setBroken(true)}
      className={`${fill ? 'absolute inset-0 size-full' : 'aspect-[4/5] w-full'} bg-paper-2 object-cover ${className}`}
    />
  );
}
