import { Link, type LinkProps } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useRef } from 'react';
import { countText, type Product } from '#core/catalogue.ts';
import { ProductCard } from './ProductCard';

/** Scroll buttons move the row by this much (spec §9). */
export const SCROLL_STEP_PX = 300;

/**
 * A horizontal scroller of product cards under an editorial heading. The heading's height does
 * not depend on how wide its text is: on phones the title has its own line and the count and the
 * buttons share the next, so the page does not shift when the web fonts replace the fallback
 * ones (a title that wrapped with one font and not the other moved the whole row). On a phone the
 * row runs edge to edge (a thumb swipes it); from a tablet up it ends at the page's margin, under
 * its arrows.
 */
/** Cards a wide screen shows in a row before scrolling. */
const VISIBLE_CARDS = 4;

export function ProductRow({
  title,
  eyebrow,
  products,
  count,
  countCapped = false,
  viewAll,
  scrollButtons = false,
  first = false,
}: {
  title: string;
  eyebrow?: string;
  products: Product[];
  /** Shown as 'N items' when given. */
  count?: number;
  /** The count stopped at its cap: 'N+ items'. */
  countCapped?: boolean;
  viewAll?: { label: string; link: LinkProps };
  scrollButtons?: boolean;
  /** The page's first row, above the fold: its visible cards load at once, the first first. */
  first?: boolean;
}) {
  const list = useRef<HTMLUListElement>(null);
  const headingId = `row-${title.toLowerCase().replace(/\W+/g, '-')}`;
  const countId = `${headingId}-count`;
  const controls = Boolean(viewAll || scrollButtons);
  const scroll = (direction: 1 | -1) =>
    list.current?.scrollBy({ left: direction * SCROLL_STEP_PX, behavior: 'smooth' });
  return (
    <section
      aria-labelledby={count === undefined ? headingId : `${headingId} ${countId}`}
      className="mx-auto max-w-7xl px-4 py-10 sm:px-6"
    >
      <div className="mb-6 grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-2 md:grid-cols-[auto_1fr_auto] md:items-end">
        <div className="col-span-2 md:col-span-1">
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h2 id={headingId} className="mt-1 font-display text-4xl font-medium">
            {title}
          </h2>
        </div>
        {count !== undefined && (
          <p id={countId} className="whitespace-nowrap text-sm text-ink-soft md:pb-1.5">
            {countText(count, countCapped)} {count === 1 && !countCapped ? 'item' : 'items'}
          </p>
        )}
        {controls && (
          <div className="col-start-2 flex h-10 items-center justify-end gap-3 md:col-start-3">
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
        )}
      </div>
      <ul
        ref={list}
        className="scroller -mx-4 flex scroll-px-4 gap-5 overflow-x-auto px-4 pb-2 sm:mx-0 sm:scroll-px-0 sm:px-0"
      >
        {products.map((product, index) => (
          <li key={product.id} className="w-[68vw] shrink-0 sm:w-64">
            <ProductCard
              product={product}
              eager={first && index < VISIBLE_CARDS}
              priority={first && index === 0}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
