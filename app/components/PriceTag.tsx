import type { Product } from '#core/catalogue.ts';
import { formatUGX } from '#core/money.ts';
import { Price } from './Price';

/**
 * A piece's price as cards and the product page show it: 'from UGX 98,000' when its sizes or
 * colours cost more than the lowest, and a sale's compare-at price struck through before it.
 */
export function PriceTag({
  amount,
  to,
  compareAt,
  className = '',
}: {
  amount: number;
  /** The highest price of its variants: 'from' when above `amount`. */
  to?: number | null;
  /** The price before the sale: struck through when above `amount`. */
  compareAt?: number | null;
  className?: string;
}) {
  const onSale = compareAt != null && compareAt > amount;
  const from = to != null && to > amount;
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-2 ${className}`}>
      {onSale && (
        <s className="text-ink-soft decoration-1" data-testid="compare-at">
          <span className="sr-only">Was </span>
          {formatUGX(compareAt)}
        </s>
      )}
      <span className={onSale ? 'font-semibold text-accent' : undefined}>
        {onSale && <span className="sr-only">Now </span>}
        {from && 'from '}
        <Price amount={amount} />
      </span>
    </span>
  );
}

/**
 * A piece's price before a size is chosen: a running automatic offer's price beside the price it
 * takes off from, struck through (issue 35), else its price and any sale's compare-at.
 */
export function PieceTag({
  product,
}: {
  product: Pick<Product, 'price' | 'priceTo' | 'compareAtPrice' | 'offer'>;
}) {
  if (product.offer?.price != null) {
    return (
      <PriceTag
        amount={product.offer.price}
        to={product.priceTo > product.price ? product.priceTo : null}
        compareAt={product.price}
      />
    );
  }
  return (
    <PriceTag amount={product.price} to={product.priceTo} compareAt={product.compareAtPrice} />
  );
}
