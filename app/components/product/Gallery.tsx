import { Maximize2 } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { ProductImage } from '#app/components/ProductImage.tsx';
import type { ProductImage as Picture } from '#core/catalogue.ts';
import { GALLERY_SIZES } from '#core/pictures.ts';
import { PictureArrows } from './PictureArrows';

// The full-screen view loads when first opened: the page ships without it.
const ZoomView = lazy(() => import('./ZoomView'));

const reducedMotion = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * A product's pictures: a strip that swipes on a phone (CSS scroll snap, the browser's own touch
 * scrolling), thumbnails in step with it, arrows and the arrow keys, and a full-screen view
 * (a modal <dialog>: Escape closes it and focus returns). The first picture is the page's LCP.
 */
export function Gallery({
  pictures,
  name,
  priority = false,
}: {
  pictures: readonly Picture[];
  /** The product's name, for the labels. */
  name: string;
  /** The first picture is the page's largest: fetched first. */
  priority?: boolean;
}) {
  const strip = useRef<HTMLUListElement>(null);
  const [current, setCurrent] = useState(0);
  const [zoomed, setZoomed] = useState(false);
  const count = pictures.length;

  // The shown picture follows the strip's scroll (a swipe, a keyboard scroll, a thumbnail).
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const width = el.clientWidth || 1;
        setCurrent(Math.min(count - 1, Math.max(0, Math.round(el.scrollLeft / width))));
      });
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [count]);

  const show = useCallback(
    (index: number) => {
      const el = strip.current;
      const to = (index + count) % count;
      setCurrent(to);
      el?.scrollTo({ left: to * el.clientWidth, behavior: reducedMotion() ? 'auto' : 'smooth' });
    },
    [count],
  );

  if (count === 0) {
    return <ProductImage src={null} alt={name} priority={priority} />;
  }
  const shown = pictures[current] ?? pictures[0];
  return (
    <section
      aria-label={`Pictures of ${name}`}
      className="product-gallery flex flex-col gap-3 md:sticky md:top-24 md:self-start"
      data-current-alt={shown?.alt}
      data-current-colour={shown?.colour ?? ''}
    >
      <div className="group/gallery relative">
        <ul
          ref={strip}
          className="scroller flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain bg-paper-2"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the strip scrolls; arrow keys move through it.
          tabIndex={0}
          aria-label={`${count === 1 ? 'Picture' : `${count} pictures`}: swipe or use the arrow keys`}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
              event.preventDefault();
              show(current + (event.key === 'ArrowRight' ? 1 : -1));
            } else if (event.key === 'Enter') {
              setZoomed(true);
            }
          }}
          // A click (a tap on a phone; a swipe is no click) enlarges; keyboards have Enter.
          onClick={() => setZoomed(true)}
          data-testid="gallery-strip"
        >
          {pictures.map((picture, index) => (
            <li
              key={picture.url}
              className="relative w-full shrink-0 snap-center snap-always"
              aria-hidden={index !== current || undefined}
              data-colour={picture.colour ?? ''}
            >
              <div className="cursor-zoom-in">
                <ProductImage
                  src={picture.url}
                  widths={picture.widths}
                  sizes={GALLERY_SIZES}
                  alt={picture.alt}
                  priority={priority && index === 0}
                  eager={index === 0}
                />
              </div>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="gallery-control absolute right-3 bottom-3"
          onClick={() => setZoomed(true)}
          aria-label="Enlarge picture"
          aria-haspopup="dialog"
        >
          <Maximize2 size={18} aria-hidden />
        </button>
        {count > 1 && (
          <>
            <PictureArrows
              at={current}
              onShow={show}
              place="absolute max-md:hidden md:opacity-0 md:group-hover/gallery:opacity-100 md:focus-visible:opacity-100"
            />
            <p
              className="pointer-events-none absolute bottom-4 left-3 bg-paper/90 px-2 py-0.5 text-xs font-semibold tabular-nums md:hidden"
              aria-live="polite"
            >
              {current + 1} / {count}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="flex gap-2 px-4 sm:px-6 md:px-0" aria-label="Choose a picture">
          {pictures.map((picture, index) => (
            <li key={picture.url} className="w-16 shrink-0 sm:w-20">
              <button
                type="button"
                onClick={() => show(index)}
                aria-label={`Picture ${index + 1} of ${count}: ${picture.alt}`}
                aria-current={index === current || undefined}
                className="gallery-thumb block w-full"
              >
                <ProductImage src={picture.url} widths={picture.widths} sizes="80px" alt="" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {zoomed && shown && (
        <Suspense fallback={null}>
          <ZoomView
            pictures={pictures}
            index={current}
            name={name}
            onShow={show}
            onClose={() => setZoomed(false)}
          />
        </Suspense>
      )}
    </section>
  );
}
