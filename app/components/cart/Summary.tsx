import type { ReactNode } from 'react';
import { ChargedInUGX } from '#app/components/Price.tsx';
import type { Cart } from '#core/cart-rules.ts';
import { cartItemCount } from '#core/cart-rules.ts';
import { DELIVERY_CHOICE_TEXT } from '#core/delivery-choice.ts';
import { feeText } from '#core/delivery-rules.ts';
import { formatUGX } from '#core/money.ts';
import { OFFER_CODE_TEXT, offersNote } from '#core/offer-codes.ts';
import type { CheckoutPreview } from '#core/offers.ts';
import { orderTotals } from '#core/order-rules.ts';

/**
 * The order summary box of the cart and checkout: the figures are display only. The checkout
 * passes the chosen delivery option and its fee; the cart, where none is chosen yet, says so and
 * totals the items alone (a fee it cannot know would be a promise the checkout may break).
 * Once the shop's preview (issue 35) has answered, every figure is the preview's: the discount,
 * which offers gave it, the gift card or credit spent and the total the order will be charged.
 */
export function OrderSummary({
  cart,
  title = 'Order Summary',
  delivery,
  preview,
  codes,
  children,
}: {
  cart: Cart;
  title?: string;
  delivery?: { name: string; fee: number };
  /** The shop's totals for these lines and codes (null until it first answers). */
  preview?: CheckoutPreview | null;
  /** The code field, between the title and the figures. */
  codes?: ReactNode;
  children?: ReactNode;
}) {
  const totals = summaryTotals(cart, delivery, preview);
  const count = cartItemCount(cart);
  return (
    <section
      aria-labelledby="order-summary-heading"
      className="h-fit border border-line bg-paper-2/60 p-6 sm:p-8 lg:sticky lg:top-24"
    >
      <h2 id="order-summary-heading" className="font-display text-3xl">
        {title}
      </h2>
      {codes}
      <dl className="mt-6 space-y-3 text-sm" data-testid="order-summary">
        <Row label={`Subtotal (${count} ${count === 1 ? 'item' : 'items'})`}>
          {formatUGX(totals.subtotal)}
        </Row>
        {delivery ? (
          <div className="flex items-baseline justify-between gap-4" data-testid="summary-delivery">
            <dt className="min-w-0 text-ink-soft">
              Delivery
              <span className="mt-0.5 block text-xs">{delivery.name}</span>
            </dt>
            <dd className={`tabular-nums ${totals.deliveryFee === 0 ? 'text-success' : ''}`}>
              {feeText(totals.deliveryFee)}
            </dd>
          </div>
        ) : (
          <Row label="Delivery">
            <span className="text-ink-soft">{DELIVERY_CHOICE_TEXT.cartDelivery}</span>
          </Row>
        )}
        {totals.discount > 0 && (
          <div className="flex items-baseline justify-between gap-4" data-testid="summary-discount">
            <dt className="min-w-0 text-ink-soft">
              {OFFER_CODE_TEXT.discount}
              {totals.offers.length > 0 && (
                <span className="mt-0.5 block text-xs">{offersNote(totals.offers)}</span>
              )}
            </dt>
            <dd className="whitespace-nowrap text-success tabular-nums">
              {OFFER_CODE_TEXT.saving(totals.discount)}
            </dd>
          </div>
        )}
        {totals.credit > 0 && (
          <div className="flex items-baseline justify-between gap-4" data-testid="summary-credit">
            <dt className="min-w-0 text-ink-soft">{OFFER_CODE_TEXT.credit}</dt>
            <dd className="whitespace-nowrap tabular-nums">
              {OFFER_CODE_TEXT.saving(totals.credit)}
            </dd>
          </div>
        )}
        <div className="flex items-baseline justify-between gap-4 border-t border-line pt-4">
          <dt className="text-xs font-semibold uppercase tracking-[0.16em]">
            Total
            {!delivery && (
              <span className="mt-1 block text-xs font-normal normal-case tracking-normal text-ink-soft">
                {DELIVERY_CHOICE_TEXT.cartTotalNote}
              </span>
            )}
          </dt>
          <dd
            className="whitespace-nowrap font-display text-3xl font-semibold tabular-nums"
            data-testid="summary-total"
          >
            {formatUGX(totals.total)}
          </dd>
        </div>
      </dl>
      {delivery && <ChargedInUGX amount={totals.total} />}
      {children}
    </section>
  );
}

/**
 * The figures shown: the preview's when it has answered (the cart's total leaves out the delivery
 * it has not chosen: the preview's own fee is taken back off), else the lines' own sum.
 */
function summaryTotals(
  cart: Cart,
  delivery: { fee: number } | undefined,
  preview: CheckoutPreview | null | undefined,
) {
  if (preview) {
    const fee = delivery ? preview.deliveryFee : 0;
    return {
      subtotal: preview.subtotal,
      deliveryFee: fee,
      discount: preview.discount,
      credit: preview.credit,
      offers: preview.applied.filter((offer) => offer.amount > 0 && offer.kind !== 'free_delivery'),
      total: delivery ? preview.total : Math.max(0, preview.total - preview.deliveryFee),
    };
  }
  const plain = orderTotals(cart.productsInCart, delivery?.fee ?? 0);
  return { ...plain, credit: 0, offers: [] };
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-ink-soft">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}
