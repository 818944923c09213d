import { Link } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Product } from '#core/catalogue.ts';
import { formatUGX } from '#core/money.ts';
import { ProductImage } from './ProductImage';

/** Spec §9: 3 slides, autoplay every 5000 ms, 800 ms fade, infinite. */
export const AUTOPLAY_MS = 5000;
export const FADE_MS = 800;

const SLIDES = [
  {
    title: 'New Collection',
    text: 'Kitenge tailoring, soft leather and hand-finished jewellery, new this season.',
    cta: 'Shop Now',
    art: '/images/hero/new-collection.svg',
  },
  {
    title: 'Premium Quality',
    text: 'Natural fibres, careful finishing and cuts made to be worn for years.',
    cta: 'Explore',
    art: '/images/hero/premium-quality.svg',
  },
  {
    title: 'Limited Edition',
    text: 'Small runs from Kampala ateliers. When they are gone, they are gone.',
    cta: 'Shop Now',
    art: '/images/hero/limited-edition.svg',
  },
] as const;

/**
 * The home hero: fades between three slides, loops, pauses on hover or focus, and stays still
 * for people who prefer reduced motion. Slide images are the first products that have one.
 */
export function HeroCarousel({ products }: { products: Product[] }) {
  const [active, setActive] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [reducedMotion, setReducedMotion] = useState(false);
  const images = products.filter((p) => p.image_url).slice(0, SLIDES.length);

  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    setReducedMotion(query.matches);
    const onChange = () => setReducedMotion(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const playing = !hovered && !focused && !reducedMotion;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each slide change (also by hand) restarts the 5 s.
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => setActive((i) => (i + 1) % SLIDES.length), AUTOPLAY_MS);
    return () => clearTimeout(timer);
  }, [playing, active]);

  const go = (index: number) => setActive((index + SLIDES.length) % SLIDES.length);

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
      {SLIDES.map((slide, index) => {
        const product = images[index];
        const current = index === active;
        return (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern: slides are groups.
          <div
            key={slide.title}
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${SLIDES.length}`}
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
                {product ? (
                  <ProductImage
                    src={product.image_url}
                    widths={product.imageWidths}
                    sizes="(min-width: 768px) 50vw, 100vw"
                    alt={product.name}
                    priority={index === 0}
                    fill
                    className="object-[50%_65%]"
                  />
                ) : (
                  // No product image yet: the slide's own art stands in.
                  <img
                    src={slide.art}
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
                  <p className="mt-4 max-w-md text-ink-soft md:mt-6 md:text-lg">{slide.text}</p>
                  <Link to="/shop" className="btn btn-primary mt-6 md:mt-8">
                    {slide.cta}
                  </Link>
                </div>
              </div>
            </div>
          </div>
        );
      })}
      <div className="absolute bottom-8 left-0 z-20 flex items-center gap-3 px-6 md:px-10 lg:pl-[max(2.5rem,calc(50vw-37.5rem))]">
        <button
          type="button"
          onClick={() => go(active - 1)}
          className="grid size-10 place-items-center border border-ink/30 bg-paper/70 hover:bg-paper"
          aria-label="Previous slide"
        >
          <ChevronLeft size={18} aria-hidden />
        </button>
        <button
          type="button"
          onClick={() => go(active + 1)}
          className="grid size-10 place-items-center border border-ink/30 bg-paper/70 hover:bg-paper"
          aria-label="Next slide"
        >
          <ChevronRight size={18} aria-hidden />
        </button>
        <div className="ml-3 flex items-center">
          {SLIDES.map((slide, index) => (
            <button
              key={slide.title}
              type="button"
              onClick={() => go(index)}
              aria-label={`Go to slide ${index + 1}: ${slide.title}`}
              aria-current={index === active}
              className="grid size-10 place-items-center"
            >
              <span
                className={`block h-0.5 transition-all ${index === active ? 'w-8 bg-ink' : 'w-4 bg-ink/40'}`}
              />
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}
