// Orders, reading B (spec: account "Reading B"): the ORDER HISTORY table and its guard.
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowRight } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Loading } from '#app/components/account/ui.tsx';
import { type SessionUser, useSession } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { formatUGX } from '#core/money.ts';
import { formatOrderDate, ORDERS_TEXT, orderIdTail } from '#core/order-rules.ts';
import type { Order } from './OrderDetails';
import { PaymentBadge } from './OrderPayment';
import { StatusBadge } from './StatusBadge';

/** 'Loading orders...' while the session is checked; a visitor gets the spec's toast and /login. */
export function RequireShopper({ children }: { children: (user: SessionUser) => ReactNode }) {
  const { user, isPending } = useSession();
  const navigate = useNavigate();
  const visitor = !isPending && !user;
  useEffect(() => {
    if (!visitor) return;
    toast.error(ORDERS_TEXT.loginToView, { id: 'login-to-view' });
    void navigate({ to: '/login', replace: true });
  }, [visitor, navigate]);
  if (!user) return <Loading text={ORDERS_TEXT.historyLoading} />;
  return <>{children(user)}</>;
}

export function HistoryHeading({ children }: { children?: ReactNode }) {
  return (
    <header className="border-b border-line pb-6">
      <p className="eyebrow">Your account</p>
      <h1 className="mt-2 font-display text-4xl tracking-[0.08em] sm:text-5xl">
        {ORDERS_TEXT.historyTitle}
      </h1>
      {children}
    </header>
  );
}

const cell = 'px-4 sm:table-cell sm:py-4 sm:align-middle';

/** Order ID (last 8), Date (dd.mm.yyyy), Total, Status, View Details; cards on a phone. */
export function OrderHistoryTable({ orders }: { orders: Order[] }) {
  if (orders.length === 0) {
    return (
      <div role="status" className="mx-auto max-w-xl px-6 py-16 text-center">
        <h2 className="font-display text-3xl">{ORDERS_TEXT.historyEmptyTitle}</h2>
        <p className="mt-3 text-ink-soft">{ORDERS_TEXT.historyEmpty}</p>
        <Link to="/products" className="btn btn-primary mt-8">
          {ORDERS_TEXT.startShopping}
        </Link>
      </div>
    );
  }
  return (
    <table className="mt-8 w-full border-collapse text-sm sm:border sm:border-line">
      <caption className="sr-only">Your orders, newest first</caption>
      <thead className="sr-only sm:not-sr-only sm:table-header-group">
        <tr className="border-b border-line bg-paper-2/60 text-left text-xs uppercase tracking-[0.16em]">
          <th scope="col" className="px-4 py-3 font-semibold">
            Order ID
          </th>
          <th scope="col" className="px-4 py-3 font-semibold">
            Date
          </th>
          <th scope="col" className="px-4 py-3 text-right font-semibold">
            Total
          </th>
          <th scope="col" className="px-4 py-3 font-semibold">
            Status
          </th>
          <th scope="col" className="px-4 py-3 text-right font-semibold">
            Actions
          </th>
        </tr>
      </thead>
      <tbody className="grid gap-3 sm:table-row-group">
        {orders.map((order) => (
          <tr
            key={order.id}
            className="grid grid-cols-[1fr_auto] border border-line sm:table-row sm:border-0 sm:border-b sm:last:border-b-0"
          >
            <td className={`${cell} pt-4 pb-1 font-semibold tracking-wide tabular-nums`}>
              #{orderIdTail(order.id)}
            </td>
            <td className={`${cell} col-start-1 row-start-2 text-ink-soft sm:text-ink`}>
              {formatOrderDate(order.createdAt)}
            </td>
            <td className={`${cell} col-start-2 row-start-2 text-right font-semibold tabular-nums`}>
              {formatUGX(order.total)}
            </td>
            <td className={`${cell} col-start-2 row-start-1 pt-4 pb-1 text-right sm:text-left`}>
              <div className="flex flex-col items-end gap-1 sm:items-start">
                <StatusBadge status={order.status} />
                <PaymentBadge order={order} />
              </div>
            </td>
            <td className={`${cell} col-span-2 pt-3 pb-4 sm:text-right`}>
              <Link
                to="/order-history/$orderId"
                params={{ orderId: order.id }}
                className="inline-flex items-center gap-1.5 text-xs font-semibold uppercase tracking-[0.14em] text-accent underline-offset-4 hover:underline"
              >
                {ORDERS_TEXT.viewDetails}
                <span className="sr-only"> of order {orderIdTail(order.id)}</span>
                <ArrowRight size={14} aria-hidden />
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
