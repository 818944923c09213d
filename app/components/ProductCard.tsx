import { lazy, Suspense, useState } from 'react';
import { useLessData } from '#app/light-page.ts';
import {
  lowStockBadge,
  type Product,
  SALE_TEXT,
  saleText,
  sizesLeftHint,
} from '#core/catalogue.ts';
import { CARD_SIZES } from '#core/pictures.ts';
import { AddToCartButton } from './AddToCartButton';
import { PieceTag } from './PriceTag';
import { ProductImage } from './ProductImage';

// Loaded when a card is opened: a page of cards ships no dialog code until a shopper asks.
const ProductDialog = lazy(() => import('./ProductDialog'));

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
  const lessData = useLessData();
  const outOfStock = product.stock <= 0;
  const sale = saleText(product);
  // Per variant: a piece in sizes says which sizes are left; a piece of one variant, how many.
  const badge = outOfStock
    ? null
    : product.sizesLeft
      ? sizesLeftHint(product.sizesLeft)
      : lowStockBadge(product.stock);
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
            widths={product.imageWidths}
            sizes={CARD_SIZES}
            alt={product.name}
            eager={eager}
            priority={priority}
            lessData={lessData}
            className="transition-transform duration-500 group-hover:scale-[1.03]"
          />
        </button>
        {badge && (
          <span className="pointer-events-none absolute left-3 top-3 bg-paper px-2 py-1 text-[0.68rem] font-semibold uppercase tracking-wider text-accent">
            {badge}
          </span>
        )}
        {outOfStock && (
          <span className="pointer-events-none absolute left-3 top-3 bg-ink px-2 py-1 text-[0.68rem] font-semibold uppercase tracking-wider text-paper">
            Out of Stock
          </span>
        )}
        {!outOfStock && sale === SALE_TEXT.all && (
          <span className="pointer-events-none absolute right-3 top-3 bg-accent px-2 py-1 text-[0.68rem] font-semibold uppercase tracking-wider text-accent-ink">
            {sale}
          </span>
        )}
      </div>
      {/* Two lines kept for every name, so the prices and buttons of a row line up. */}
      <h3 className="mt-3 line-clamp-2 min-h-[2.5rem] text-sm font-medium leading-5">
        {product.name}
      </h3>
      <p className="mt-1 mb-3 text-sm text-ink-soft">
        <PieceTag product={product} />
        {product.offer && (
          <span
            className="mt-0.5 block text-xs font-semibold text-accent"
            data-testid="offer-badge"
          >
            {product.offer.label}
          </span>
        )}
        {/* A sale on some sizes only: said under the price, never as the piece's price. */}
        {!outOfStock && sale && sale !== SALE_TEXT.all && (
          <span
            className="mt-0.5 block text-xs font-semibold text-accent"
            data-testid="partial-sale"
          >
            {sale}
          </span>
        )}
      </p>
      {/* A piece in sizes is never added blindly: its Add to Cart opens the dialog to choose. */}
      <AddToCartButton
        product={product}
        variant="outline"
        onMissingChoice={() => setOpen(true)}
        opensDialog={product.variantId === null}
        className="mt-auto w-full whitespace-nowrap px-2 tracking-[0.08em] sm:px-[1.4rem] sm:tracking-[0.14em]"
      />
      {open && (
        <Suspense fallback={null}>
          <ProductDialog product={product} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </article>
  );
}
