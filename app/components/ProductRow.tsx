import type { ReactNode } from 'react';
import type { Product } from '../../core/catalogue.ts';
import { ProductCard } from './ProductCard';

/** A horizontal scroller of product cards under an editorial heading. */
export function ProductRow({
  title,
  eyebrow,
  products,
  action,
}: {
  title: string;
  eyebrow?: string;
  products: Product[];
  action?: ReactNode;
}) {
  const headingId = `row-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <div className="mb-6 flex items-end justify-between gap-4">
        <div>
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h2 id={headingId} className="mt-1 font-display text-4xl font-medium">
            {title}
          </h2>
        </div>
        {action}
      </div>
      <ul className="scroller -mx-4 flex scroll-px-4 gap-5 overflow-x-auto px-4 pb-2 sm:-mx-6 sm:scroll-px-6 sm:px-6">
        {products.map((product) => (
          <li key={product.id} className="w-[68vw] shrink-0 snap-start sm:w-64">
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}
