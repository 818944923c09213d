import { Link, type LinkProps } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useRef } from 'react';
import type { Product } from '#core/catalogue.ts';
import { ProductCard } from './ProductCard';

/** Scroll buttons move the row by this much (spec §9). */
export const SCROLL_STEP_PX = 300;

/** A horizontal scroller of product cards under an editorial heading. */
export function ProductRow({
  title,
  eyebrow,
  products,
  count,
  viewAll,
  scrollButtons = false,
}: {
  title: string;
  eyebrow?: string;
  products: Product[];
  /** Shown as 'N items' when given. */
  count?: number;
  viewAll?: { label: string; link: LinkProps };
  scrollButtons?: boolean;
}) {
  const list = useRef<HTMLUListElement>(null);
  const headingId = `row-${title.toLowerCase().replace(/\W+/g, '-')}`;
  const scroll = (direction: 1 | -1) =>
    list.current?.scrollBy({ left: direction * SCROLL_STEP_PX, behavior: 'smooth' });
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h2 id={headingId} className="mt-1 font-display text-4xl font-medium">
            {title}{' '}
            {count !== undefined && (
              <span className="ml-3 align-middle font-sans text-sm font-normal text-ink-soft">
                {count} {count === 1 ? 'item' : 'items'}
              </span>
            )}
          </h2>
        </div>
        <div className="flex items-center gap-3">
          {viewAll && (
            <Link
              {...viewAll.link}
              className="text-sm font-semibold tracking-wide underline underline-offset-4 hover:text-accent"
            >
              {viewAll.label}
            </Link>
          )}
          {scrollButtons && (
            <>
              <button
                type="button"
                className="grid size-10 place-items-center border border-line hover:bg-paper-2"
                onClick={() => scroll(-1)}
                aria-label={`Scroll ${title} left`}
              >
                <ChevronLeft size={18} aria-hidden />
              </button>
              <button
                type="button"
                className="grid size-10 place-items-center border border-line hover:bg-paper-2"
                onClick={() => scroll(1)}
                aria-label={`Scroll ${title} right`}
              >
                <ChevronRight size={18} aria-hidden />
              </button>
            </>
          )}
        </div>
      </div>
      <ul
        ref={list}
        className="scroller -mx-4 flex scroll-px-4 gap-5 overflow-x-auto px-4 pb-2 sm:-mx-6 sm:scroll-px-6 sm:px-6"
      >
        {products.map((product) => (
          <li key={product.id} className="w-[68vw] shrink-0 sm:w-64">
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}
