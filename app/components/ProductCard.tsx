import { useState } from 'react';
import { lowStockBadge, type Product } from '#core/catalogue.ts';
import { AddToCartButton } from './AddToCartButton';
import { Price } from './Price';
import { ProductDialog } from './ProductDialog';
import { ProductImage } from './ProductImage';

export function ProductCard({
  product,
  eager = false,
  priority = false,
}: {
  product: Product;
  /** Above the fold: loaded at once rather than when scrolled near. */
  eager?: boolean;
  /** The page's largest image (see ProductImage). */
  priority?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const badge = lowStockBadge(product.stock);
  return (
    <article className="group relative flex h-full flex-col" data-testid="product-card">
      <div className="relative">
        <button
          type="button"
          className="block w-full overflow-hidden"
          onClick={() => setOpen(true)}
          aria-label={`View ${product.name}`}
        >
          <ProductImage
            src={product.image_url}
            alt={product.name}
            eager={eager}
            priority={priority}
            className="transition-transform duration-500 group-hover:scale-[1.03]"
          />
        </button>
        {badge && (
          <span className="pointer-events-none absolute left-3 top-3 bg-paper px-2 py-1 text-[0.68rem] font-semibold uppercase tracking-wider text-accent">
            {badge}
          </span>
        )}
        {product.stock <= 0 && (
          <span className="pointer-events-none absolute left-3 top-3 bg-ink px-2 py-1 text-[0.68rem] font-semibold uppercase tracking-wider text-paper">
            Out of Stock
          </span>
        )}
      </div>
      {/* Two lines kept for every name, so the prices and buttons of a row line up. */}
      <h3 className="mt-3 line-clamp-2 min-h-[2.5rem] text-sm font-medium leading-5">
        {product.name}
      </h3>
      <p className="mt-1 mb-3 text-sm text-ink-soft">
        <Price amount={product.price} />
      </p>
      <AddToCartButton
        product={product}
        variant="outline"
        className="mt-auto w-full whitespace-nowrap px-2 tracking-[0.08em] sm:px-[1.4rem] sm:tracking-[0.14em]"
      />
      {open && <ProductDialog product={product} onClose={() => setOpen(false)} />}
    </article>
  );
}
