import { Link } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { LOW_STOCK_BELOW, type Product } from '#core/catalogue.ts';
import { formatUGX } from '#core/money.ts';
import { AddToCartButton } from './AddToCartButton';
import { Price } from './Price';
import { ProductImage } from './ProductImage';
import { QuantityStepper } from './QuantityStepper';

/**
 * The product detail dialog: a native modal <dialog> (the page behind is inert, Esc closes it,
 * focus returns to the card), labelled by the product name.
 */
export function ProductDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Unmounting removes the dialog; closing it here too would fire `close` and re-close it.
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes the native dialog; the click is a backdrop convenience.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => event.target === ref.current && ref.current?.close()}
      className="m-auto max-h-[92dvh] w-[min(960px,94vw)] overflow-y-auto bg-paper p-0 text-ink backdrop:bg-black/60 backdrop:backdrop-blur-sm"
    >
      {/* First in the dialog: opening focuses it, at the top. (Focus went to the quantity
          stepper, and the dialog scrolled to it, cutting the picture and this button.) */}
      <button
        type="button"
        onClick={() => ref.current?.close()}
        className="absolute right-3 top-3 z-10 grid size-10 place-items-center bg-paper/90 hover:bg-paper-2"
        aria-label="Close"
      >
        <X size={20} aria-hidden />
      </button>
      <div className="grid md:grid-cols-2">
        <ProductImage src={product.image_url} alt={product.name} eager />
        <ProductDetails product={product} titleId={titleId} />
      </div>
    </dialog>
  );
}

/** Name, price, stock, description, quantity stepper, total and add to cart (dialog and page). */
export function ProductDetails({
  product,
  titleId,
  headingLevel = 2,
}: {
  product: Product;
  titleId?: string;
  headingLevel?: 1 | 2;
}) {
  const [quantity, setQuantity] = useState(1);
  const available = Math.max(0, product.stock);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className="flex flex-col gap-5 p-6 md:p-10">
      <div>
        <Heading id={titleId} className="font-display text-4xl leading-tight font-medium">
          {product.name}
        </Heading>
        <p className="mt-2 text-lg">
          <Price amount={product.price} />
        </p>
        {available > 0 && available < LOW_STOCK_BELOW && (
          <p className="mt-2 text-sm font-semibold text-accent">Only {available} left in stock</p>
        )}
      </div>
      {product.description && (
        <p className="leading-relaxed text-ink-soft">{product.description}</p>
      )}
      {available > 0 && (
        <div className="flex items-center gap-4">
          <QuantityStepper
            label="Quantity"
            value={quantity}
            max={available}
            onChange={setQuantity}
          />
          <span className="text-sm text-ink-soft">{available} available</span>
        </div>
      )}
      {/* In the dialog on a phone the total and the button stay in view at its foot while the
          picture and the description scroll (they sat below the fold). */}
      <div
        className={`flex flex-col gap-3 ${titleId ? 'sticky bottom-0 -mx-6 border-t border-line bg-paper px-6 py-4 md:static md:mx-0 md:border-0 md:p-0' : ''}`}
      >
        <p className="text-sm">
          Total: <strong>{formatUGX(product.price * (available > 0 ? quantity : 1))}</strong>
        </p>
        <AddToCartButton product={product} quantity={quantity} showQuantity className="w-full" />
      </div>
      {titleId && (
        <Link
          to="/products/$slug"
          params={{ slug: product.slug }}
          className="text-center text-sm underline underline-offset-4 hover:text-accent"
        >
          View full details
        </Link>
      )}
    </div>
  );
}
