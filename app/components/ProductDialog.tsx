import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { useId } from 'react';
import { errorMessage } from '#app/error-message.ts';
import { useTRPC } from '#app/trpc-client.ts';
import type { Product, ProductDetail } from '#core/catalogue.ts';
import { CARD_SIZES, picturesFor } from '#core/pictures.ts';
import { COLOUR } from '#core/variants.ts';
import { ModalDialog } from './ModalDialog';
import { PriceTag } from './PriceTag';
import { ProductImage } from './ProductImage';
import { ProductBuyBox, useChoice } from './product/ProductBuyBox';

/**
 * The product detail dialog: a native modal <dialog> (the page behind is inert, Esc closes it,
 * focus returns to the card), labelled by the product name. It reads the product's sizes,
 * colours and pictures when opened; the card's picture, name and price show meanwhile.
 */
export function ProductDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const titleId = useId();
  const trpc = useTRPC();
  const detail = useQuery(trpc.catalogue.product.queryOptions({ id: product.id }));
  return (
    <ModalDialog
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[92dvh] w-[min(960px,94vw)] overflow-y-auto backdrop:bg-black/60 backdrop:backdrop-blur-sm"
    >
      {(close) => (
        <>
          {/* First in the dialog: opening focuses it, at the top. (Focus went to the quantity
          stepper, and the dialog scrolled to it, cutting the picture and this button.) */}
          <button
            type="button"
            onClick={close}
            className="absolute right-3 top-3 z-10 grid size-10 place-items-center bg-paper/90 hover:bg-paper-2"
            aria-label="Close"
          >
            <X size={20} aria-hidden />
          </button>
          {detail.data ? (
            <DialogBody product={detail.data} titleId={titleId} />
          ) : (
            <div className="grid md:grid-cols-2">
              <ProductImage
                src={product.image_url}
                widths={product.imageWidths}
                sizes={CARD_SIZES}
                alt={product.name}
                eager
              />
              <div className="flex flex-col gap-4 p-6 md:p-10">
                <h2 id={titleId} className="font-display text-4xl leading-tight font-medium">
                  {product.name}
                </h2>
                <p className="text-lg">
                  <PriceTag
                    amount={product.price}
                    to={product.priceTo}
                    compareAt={product.compareAtPrice}
                  />
                </p>
                <p role="status" className="text-sm text-ink-soft">
                  {detail.isError ? errorMessage(detail.error) : 'Loading sizes…'}
                </p>
              </div>
            </div>
          )}
        </>
      )}
    </ModalDialog>
  );
}

function DialogBody({ product, titleId }: { product: ProductDetail; titleId: string }) {
  const { chosen, choose, variant } = useChoice(product);
  const picture = picturesFor(product.images, chosen[COLOUR])[0];
  return (
    <div className="grid md:grid-cols-2">
      <div className="md:sticky md:top-0 md:self-start" data-colour={picture?.colour ?? ''}>
        <ProductImage
          key={picture?.url}
          src={picture?.url ?? product.image_url}
          widths={picture ? picture.widths : product.imageWidths}
          sizes="(min-width: 768px) 480px, 94vw"
          alt={picture?.alt ?? product.name}
          eager
        />
      </div>
      <div>
        <ProductBuyBox
          product={product}
          chosen={chosen}
          onChoose={choose}
          titleId={titleId}
          inDialog
        />
        <div className="px-6 pb-6 text-center md:px-10 md:pb-10">
          <Link
            to="/products/$slug"
            params={{ slug: product.slug }}
            search={variant ? { variant: variant.id } : {}}
            className="text-sm underline underline-offset-4 hover:text-accent"
          >
            View full details
          </Link>
        </div>
      </div>
    </div>
  );
}

export default ProductDialog;
