// The left panel of the two-panel orders screen: 'N order(s) found' over a list that scrolls at a
// fixed height; each order opens in the right panel (and in the URL, ?order=id).
import { Link } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';
import { formatUGX } from '#core/money.ts';
import { OFFER_CODE_TEXT } from '#core/offer-codes.ts';
import { formatLongDate, ORDERS_TEXT, orderIdHead } from '#core/order-rules.ts';
import type { Order } from './OrderDetails';
import { PaymentBadge } from './OrderPayment';
import { StatusBadge } from './StatusBadge';

export function OrderList({
  orders,
  selectedId,
  onSelect,
}: {
  orders: Order[];
  selectedId: string | undefined;
  onSelect: () => void;
}) {
  return (
    <section aria-labelledby="orders-found" className="flex min-h-0 flex-col border border-line">
      <h2
        id="orders-found"
        className="border-b border-line bg-paper-2/60 px-5 py-4 text-xs font-semibold uppercase tracking-[0.18em]"
      >
        {ORDERS_TEXT.found(orders.length)}
      </h2>
      {orders.length === 0 ? (
        <div className="px-5 py-12 text-center">
          <p className="font-display text-2xl">{ORDERS_TEXT.noOrdersYet}</p>
          <Link to="/shop" className="btn btn-primary mt-6">
            {ORDERS_TEXT.shopNow}
          </Link>
        </div>
      ) : (
        <ul
          className="max-h-[26rem] overflow-y-auto overscroll-contain lg:h-[38rem] lg:max-h-none"
          data-testid="order-list"
        >
          {orders.map((order) => {
            const selected = order.id === selectedId;
            const pieces = order.items.reduce((sum, item) => sum + item.quantity, 0);
            return (
              <li key={order.id} className="border-b border-line last:border-b-0">
                <Link
                  to="/orders"
                  search={{ order: order.id }}
                  resetScroll={false}
                  onClick={onSelect}
                  aria-current={selected ? 'true' : undefined}
                  className={`group flex items-center gap-3 border-l-2 px-5 py-4 transition-colors ${selected ? 'border-accent bg-paper-2' : 'border-transparent hover:bg-paper-2/60'}`}
                >
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <p className="font-display text-xl leading-tight lining-nums">
                        <span className="sr-only">Order </span>#{orderIdHead(order.id)}
                      </p>
                      <StatusBadge status={order.status} />
                    </div>
                    <div className="mt-1.5 flex flex-wrap items-baseline justify-between gap-2 text-sm">
                      <span className="text-ink-soft">
                        {formatLongDate(order.createdAt)} · {pieces}{' '}
                        {pieces === 1 ? 'piece' : 'pieces'}
                      </span>
                      <span className="text-right">
                        <span className="font-semibold tabular-nums">{formatUGX(order.total)}</span>
                        {order.discount > 0 && (
                          <span
                            className="block text-xs text-success tabular-nums"
                            data-testid="order-saved"
                          >
                            {OFFER_CODE_TEXT.saved(order.discount)}
                          </span>
                        )}
                      </span>
                    </div>
                    <div className="mt-1.5">
                      <PaymentBadge order={order} />
                    </div>
                  </div>
                  <ChevronRight
                    size={18}
                    aria-hidden
                    className={`shrink-0 ${selected ? 'text-accent' : 'text-ink-soft group-hover:text-ink'}`}
                  />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
