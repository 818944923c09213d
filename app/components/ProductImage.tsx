import { useEffect, useRef, useState } from 'react';
import { PLACEHOLDER_IMAGE } from '#core/catalogue.ts';

/** A 4:5 product image that never shifts the layout and falls back to the placeholder if it breaks. */
export function ProductImage({
  src,
  alt,
  className = '',
  eager = false,
}: {
  src: string | null;
  alt: string;
  className?: string;
  eager?: boolean;
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
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onError={() => setBroken(true)}
      className={`aspect-[4/5] w-full bg-paper-2 object-cover ${className}`}
    />
  );
}
