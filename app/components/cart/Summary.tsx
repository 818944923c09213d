import type { ReactNode } from 'react';
import type { Cart } from '#core/cart.ts';
import { cartItemCount } from '#core/cart.ts';
import { formatUGX } from '#core/money.ts';
import { orderTotals } from '#core/orders.ts';
import { ChargedInUGX } from '../Price';

/** The order summary box of the cart and checkout: the figures are display only. */
export function OrderSummary({
  cart,
  title = 'Order Summary',
  children,
}: {
  cart: Cart;
  title?: string;
  children?: ReactNode;
}) {
  const totals = orderTotals(cart.productsInCart);
  const count = cartItemCount(cart);
  return (
    <section
      aria-labelledby="order-summary-heading"
      className="h-fit border border-line bg-paper-2/60 p-6 sm:p-8 lg:sticky lg:top-24"
    >
      <h2 id="order-summary-heading" className="font-display text-3xl">
        {title}
      </h2>
      <dl className="mt-6 space-y-3 text-sm" data-testid="order-summary">
        <Row label={`Subtotal (${count} ${count === 1 ? 'item' : 'items'})`}>
          {formatUGX(totals.subtotal)}
        </Row>
        <Row label="Delivery">{formatUGX(totals.deliveryFee)}</Row>
        <div className="flex items-baseline justify-between gap-4 border-t border-line pt-4">
          <dt className="text-xs font-semibold uppercase tracking-[0.16em]">Total</dt>
          <dd className="font-display text-3xl font-semibold tabular-nums">
            {formatUGX(totals.total)}
          </dd>
        </div>
      </dl>
      <ChargedInUGX amount={totals.total} />
      {children}
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-ink-soft">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}
