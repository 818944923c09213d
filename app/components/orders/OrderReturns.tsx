// The order's after-sale (issue 36): "Return or exchange" while the order's window is open, and
// each return's steps. The steps' code (and the returns' rules) loads only for an order that has
// a return: the orders screens stay as light as before for every other order.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { RotateCcw } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useTRPC } from '#app/trpc-client.ts';
import { lastDayOpen } from '#core/kampala-time.ts';
import { formatLongDate, ORDERS_TEXT } from '#core/order-rules.ts';

const ReturnProgress = lazy(() => import('./ReturnProgress.tsx'));

/** Read from orders.byId (the order page has it already; /orders reads it for the chosen order). */
export function OrderReturns({ orderId }: { orderId: string }) {
  const trpc = useTRPC();
  const order = useQuery(trpc.orders.byId.queryOptions({ id: orderId }, { retry: false }));
  const returnUntil = order.data?.returnUntil ?? null;
  const returns = order.data?.returns ?? [];
  const open = returnUntil !== null && lastDayOpen(returnUntil, Date.now());
  if (!open && returns.length === 0) return null;
  return (
    <section className="mt-7 print:hidden" aria-labelledby={`returns-${orderId}`}>
      <h3 id={`returns-${orderId}`} className="eyebrow">
        {ORDERS_TEXT.returns}
      </h3>
      {returns.length > 0 && (
        <Suspense fallback={<p className="mt-3 h-24 animate-pulse bg-paper-2" />}>
          <ReturnProgress orderId={orderId} returns={returns} />
        </Suspense>
      )}
      {open && returnUntil && (
        <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2">
          <Link
            to="/order-history/$orderId/return"
            params={{ orderId }}
            className="btn btn-outline w-full sm:w-auto"
            data-testid="ask-return"
          >
            <RotateCcw size={16} aria-hidden />
            {ORDERS_TEXT.askReturn}
          </Link>
          <p className="text-sm text-ink-soft">
            {ORDERS_TEXT.returnUntil(formatLongDate(returnUntil))}
          </p>
        </div>
      )}
    </section>
  );
}
