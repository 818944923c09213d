import { useRef, useState } from 'react';
import { AddToCartButton } from '#app/components/AddToCartButton.tsx';
import { PieceTag, PriceTag } from '#app/components/PriceTag.tsx';
import { QuantityStepper } from '#app/components/QuantityStepper.tsx';
import type { ProductDetail } from '#core/catalogue.ts';
import { LOW_STOCK_BELOW, saleText } from '#core/catalogue.ts';
import { formatUGX } from '#core/money.ts';
import {
  availableAsChosen,
  chosenVariant,
  initialChoice,
  missingChoice,
  sizesOf,
} from '#core/product-choice.ts';
import { VARIANT_TEXT, type Variant, type VariantOptions } from '#core/variants.ts';
import { NotifyWhenBack } from './NotifyWhenBack';
import { SizeGuide } from './SizeGuide';
import { VariantPicker } from './VariantPicker';

/** The shopper's choice of size and colour, from the URL's variant (or none). */
export function useChoice(
  product: ProductDetail,
  variantId?: number,
  onVariant?: (variant: Variant | null) => void,
) {
  const [chosen, setChosen] = useState<VariantOptions>(() => initialChoice(product, variantId));
  function choose(option: string, value: string) {
    const next = { ...chosen, [option]: value };
    setChosen(next);
    onVariant?.(chosenVariant(product, next));
  }
  return { chosen, choose, variant: chosenVariant(product, chosen) };
}

/**
 * Name, price, stock, description, Size and Colour, quantity, total and Add to Cart: the product
 * page's and the product dialog's (spec storefront §4, per variant since issue 21).
 */
export function ProductBuyBox({
  product,
  chosen,
  onChoose,
  titleId,
  headingLevel = 2,
  inDialog = false,
}: {
  product: ProductDetail;
  chosen: VariantOptions;
  onChoose: (option: string, value: string) => void;
  titleId?: string;
  headingLevel?: 1 | 2;
  /** In the product dialog: the total and button stay at its foot on a phone. */
  inDialog?: boolean;
}) {
  const [quantity, setQuantity] = useState(1);
  const [refusal, setRefusal] = useState<{ option: string; text: string } | null>(null);
  const group = useRef<HTMLDivElement>(null);
  const variant = chosenVariant(product, chosen);
  const available = availableAsChosen(product, chosen);
  const shownQuantity = Math.max(1, Math.min(quantity, available || 1));
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const complete = missingChoice(product.options, chosen) === null;
  const soldOut = complete && (!variant || variant.available <= 0);
  const hasOptions = product.options.length > 0;
  const variantOfferPrice = variant ? product.offerPrices?.byVariant[variant.id] : undefined;

  function choose(option: string, value: string) {
    onChoose(option, value);
    if (refusal && refusal.option === option) setRefusal(null);
  }

  function refuseMissing() {
    const missing = missingChoice(product.options, chosen);
    if (!missing) return;
    setRefusal(missing);
    // The group says why; focus goes to its chosen radio or its first.
    requestAnimationFrame(() => {
      const radios = group.current?.querySelectorAll<HTMLInputElement>('input[type=radio]');
      const target = [...(radios ?? [])].find((radio) => radio.checked) ?? radios?.[0];
      (target ?? group.current)?.focus();
    });
  }

  return (
    <div
      className={`flex flex-col gap-6 ${inDialog ? 'p-6 md:p-10' : 'pt-2 pb-4 md:pt-6'}`}
      data-testid="product-details"
    >
      <div>
        <Heading id={titleId} className="font-display text-4xl leading-tight font-medium">
          {product.name}
        </Heading>
        <p className="mt-2 text-lg" data-testid="product-price">
          {variant && variantOfferPrice !== undefined ? (
            // The chosen size's price with the running offer, its own price struck (issue 35).
            <PriceTag amount={variantOfferPrice} compareAt={variant.price} />
          ) : variant ? (
            <PriceTag amount={variant.price} compareAt={variant.compareAtPrice} />
          ) : (
            <PieceTag product={product} />
          )}
        </p>
        {product.offer && (
          <p className="mt-1 text-sm font-semibold text-accent" data-testid="offer-badge">
            {product.offer.label}
          </p>
        )}
        {/* Before a size is chosen, a sale on some sizes only is said, not shown as the price;
            the chosen size shows its own. */}
        {!variant && product.sale === 'some' && (
          <p className="mt-1 text-sm font-semibold text-accent" data-testid="partial-sale">
            {saleText(product)}
          </p>
        )}
        {variant && variant.available > 0 && variant.available < LOW_STOCK_BELOW && (
          <p className="mt-2 text-sm font-semibold text-accent" data-testid="low-stock">
            Only {variant.available} left in stock
          </p>
        )}
        {soldOut && hasOptions && (
          <p className="mt-2 text-sm font-semibold text-ink-soft">
            {variant?.label ? `${variant.label}: ` : ''}
            {VARIANT_TEXT.soldOut}
          </p>
        )}
      </div>
      {product.description && (
        <p className="leading-relaxed text-ink-soft">{product.description}</p>
      )}
      {hasOptions && (
        <VariantPicker
          options={product.options}
          variants={product.variants}
          chosen={chosen}
          onChoose={choose}
          error={refusal?.text ?? null}
          errorOption={refusal?.option ?? null}
          groupRef={group}
          aside={
            !inDialog && (
              <SizeGuide kind={product.kind} sizes={sizesOf(product.options)} name={product.name} />
            )
          }
        />
      )}
      {!soldOut && available > 0 && (
        <div className="flex items-center gap-4">
          <QuantityStepper
            label="Quantity"
            value={shownQuantity}
            max={available}
            onChange={setQuantity}
          />
          {variant && <span className="text-sm text-ink-soft">{variant.available} available</span>}
        </div>
      )}
      <div
        className={`flex flex-col gap-3 ${inDialog ? 'sticky bottom-0 -mx-6 border-t border-line bg-paper px-6 py-4 md:static md:mx-0 md:border-0 md:p-0' : ''}`}
      >
        <p className="text-sm">
          Total:{' '}
          <strong>
            {formatUGX(
              (variantOfferPrice ?? variant?.price ?? product.offer?.price ?? product.price) *
                (available > 0 ? shownQuantity : 1),
            )}
          </strong>
        </p>
        <AddToCartButton
          product={product}
          chosen={variant}
          quantity={shownQuantity}
          showQuantity
          onMissingChoice={refuseMissing}
          className="w-full"
        />
        {/* Not loaded lazily: a shared link to a sold-out size renders it on the server, and a
            lazy boundary hydrates late, so an early tap on it was lost. */}
        {soldOut && variant && <NotifyWhenBack key={variant.id} variantId={variant.id} />}
      </div>
    </div>
  );
}
