import { Link } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useLessData } from '#app/light-page.ts';
import type { Product } from '#core/catalogue.ts';
import {
  AUTOPLAY_MS,
  DEFAULT_HOME_SLIDE,
  FADE_MS,
  FETCH_AHEAD_MS,
  type HomeSlide,
} from '#core/home-slides.ts';
import { formatUGX } from '#core/money.ts';
import { ProductImage } from './ProductImage';

/**
 * The home hero: fades between the slides the desk keeps (home_slides, issue 34), loops, pauses on
 * hover or focus, and stays still for people who prefer reduced motion or save data (issue 38:
 * the arrows and dots still move it, and its pictures are the small copies). Only the first
 * slide's picture comes with the page; each next one is fetched shortly before it shows, or when
 * the shopper moves to it, so a visit pays for the pictures it shows. A slide with its own
 * picture shows it; otherwise the newest pictured pieces stand in, in turn, and without one the
 * slide's drawn art. One slide: no arrows, no dots, nothing moves.
 */
export function HeroCarousel({
  slides: stored,
  products,
}: {
  slides: readonly HomeSlide[];
  products: Product[];
}) {
  // The server never sends none (core/home-slides.ts), but a hero is never empty.
  const slides = stored.length > 0 ? stored : [DEFAULT_HOME_SLIDE];
  const count = slides.length;
  const [active, setActive] = useState(0);
  // The slides whose pictures may load: the first, then each one about to show or moved to.
  const [fetched, setFetched] = useState<ReadonlySet<number>>(() => new Set([0]));
  const fetchPicture = (index: number) =>
    setFetched((now) => (now.has(index) ? now : new Set(now).add(index)));
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [reducedMotion, setReducedMotion] = useState(false);
  const images = products.filter((p) => p.image_url).slice(0, count);
  const lessData = useLessData();

  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    setReducedMotion(query.matches);
    const onChange = () => setReducedMotion(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const playing = count > 1 && !hovered && !focused && !reducedMotion && !lessData;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each slide change (also by hand) restarts the 5 s.
  useEffect(() => {
    if (!playing) return;
    const ahead = setTimeout(
      () => fetchPicture((active + 1) % count),
      AUTOPLAY_MS - FETCH_AHEAD_MS,
    );
    const timer = setTimeout(() => setActive((i) => (i + 1) % count), AUTOPLAY_MS);
    return () => {
      clearTimeout(ahead);
      clearTimeout(timer);
    };
  }, [playing, active]);

  const go = (index: number) => {
    const to = (index + count) % count;
    fetchPicture(to);
    setActive(to);
  };
  // A list shortened under a shown slide (a new page after a desk save) starts again.
  const shown = active < count ? active : 0;

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Highlights"
      data-playing={playing}
      className="relative isolate h-[calc(100dvh-4rem)] min-h-[560px] overflow-hidden bg-gradient-to-br from-paper-2 via-paper-2 to-paper"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      {slides.map((slide, index) => {
        const product = slide.imageUrl ? undefined : images[index];
        const current = index === shown;
        // Not fetched yet: the frame's own colour (the slide is not shown).
        const pictured = fetched.has(index) || current;
        return (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern: slides are groups.
          <div
            key={slide.id}
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${count}`}
            data-testid="hero-slide"
            aria-hidden={!current}
            inert={!current}
            data-active={current}
            style={{ transitionDuration: `${FADE_MS}ms` }}
            className={`absolute inset-0 transition-opacity ease-in-out ${current ? 'z-10 opacity-100' : 'opacity-0'}`}
          >
            {/* An editorial spread: the piece fills the right half edge to edge (the top half on a
                phone), the words sit on the calm left; the caption names the piece and links to it. */}
            <div className="grid h-full grid-rows-[minmax(0,1fr)_auto] pb-24 md:grid-cols-2 md:grid-rows-1 md:pb-0">
              <figure className="relative overflow-hidden bg-paper-2 md:order-last">
                {!pictured ? null : slide.imageUrl ? (
                  <ProductImage
                    src={slide.imageUrl}
                    widths={slide.imageWidths}
                    sizes="(min-width: 768px) 50vw, 100vw"
                    alt=""
                    priority={index === 0}
                    lessData={lessData}
                    fill
                    className="object-[50%_65%]"
                  />
                ) : product ? (
                  <ProductImage
                    src={product.image_url}
                    widths={product.imageWidths}
                    sizes="(min-width: 768px) 50vw, 100vw"
                    alt={product.name}
                    priority={index === 0}
                    lessData={lessData}
                    fill
                    className="object-[50%_65%]"
                  />
                ) : (
                  // No picture yet: the slide's own art stands in.
                  <img
                    src={slide.art ?? DEFAULT_HOME_SLIDE.art ?? ''}
                    alt=""
                    width={1600}
                    height={900}
                    className="absolute inset-0 size-full object-cover object-right"
                  />
                )}
                {product && (
                  <figcaption className="absolute right-4 bottom-4 left-4 hidden md:right-auto md:bottom-10 md:left-10 md:block">
                    <Link
                      to="/products/$slug"
                      params={{ slug: product.slug }}
                      className="flex items-center gap-6 bg-paper/95 px-5 py-4 text-sm shadow-lg shadow-ink/10 hover:bg-paper"
                    >
                      <span>
                        <span className="block text-[0.68rem] font-semibold tracking-[0.2em] text-ink-soft uppercase">
                          In this picture
                        </span>
                        <span className="mt-1 block font-display text-xl">{product.name}</span>
                      </span>
                      <span className="ml-auto whitespace-nowrap text-ink-soft">
                        {formatUGX(product.price)}
                      </span>
                    </Link>
                  </figcaption>
                )}
              </figure>
              <div className="flex items-center px-6 pt-6 md:px-10 md:py-10 lg:pl-[max(2.5rem,calc(50vw-37.5rem))]">
                <div className="max-w-xl">
                  <p className="eyebrow">duuka · Kampala</p>
                  <h2 className="mt-3 font-display text-5xl leading-[0.95] font-medium md:mt-4 md:text-7xl xl:text-8xl">
                    {slide.title}
                  </h2>
                  {slide.words && (
                    <p className="mt-4 max-w-md text-ink-soft md:mt-6 md:text-lg">{slide.words}</p>
                  )}
                  <SlideLink href={slide.linkUrl} className="btn btn-primary mt-6 md:mt-8">
                    {slide.linkLabel}
                  </SlideLink>
                </div>
              </div>
            </div>
          </div>
        );
      })}
      {count > 1 && (
        <div className="absolute bottom-8 left-0 z-20 flex items-center gap-3 px-6 md:px-10 lg:pl-[max(2.5rem,calc(50vw-37.5rem))]">
          <button
            type="button"
            onClick={() => go(shown - 1)}
            className="grid size-10 place-items-center border border-ink/30 bg-paper/70 hover:bg-paper"
            aria-label="Previous slide"
          >
            <ChevronLeft size={18} aria-hidden />
          </button>
          <button
            type="button"
            onClick={() => go(shown + 1)}
            className="grid size-10 place-items-center border border-ink/30 bg-paper/70 hover:bg-paper"
            aria-label="Next slide"
          >
            <ChevronRight size={18} aria-hidden />
          </button>
          <div className="ml-3 flex items-center">
            {slides.map((slide, index) => (
              <button
                key={slide.id}
                type="button"
                onClick={() => go(index)}
                aria-label={`Go to slide ${index + 1}: ${slide.title}`}
                aria-current={index === shown}
                className="grid size-10 place-items-center"
              >
                <span
                  className={`block h-0.5 transition-all ${index === shown ? 'w-8 bg-ink' : 'w-4 bg-ink/40'}`}
                />
              </button>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}

/**
 * A slide's button: a path on the shop (checked when saved, core/desk-home.ts), followed in the
 * app; one with a query or a fragment is an ordinary link, so the page reads it as it would
 * from the address bar.
 */
function SlideLink({
  href,
  className,
  children,
}: {
  href: string;
  className: string;
  children: ReactNode;
}) {
  if (/[?#]/.test(href)) {
    return (
      <a href={href} className={className}>
        {children}
      </a>
    );
  }
  return (
    <Link to={href as '/'} className={className}>
      {children}
    </Link>
  );
}
