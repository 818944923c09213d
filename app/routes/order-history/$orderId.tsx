// One order of the history (spec: account "Reading B", /order-history/{id}): its details and its
// receipt. Someone else's order, an unknown id and a malformed one are the same 404.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, notFound, useNavigate } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { ArrowLeft } from 'lucide-react';
import * as v from 'valibot';
import { AskOnWhatsApp } from '#app/components/AskOnWhatsApp.tsx';
import { Loading, Notice } from '#app/components/account/ui.tsx';
import { OrderDetails } from '#app/components/orders/OrderDetails.tsx';
import { HistoryHeading, RequireShopper } from '#app/components/orders/OrderHistory.tsx';
import { StatusBox } from '#app/components/StatusBox.tsx';
import { orNotFound } from '#app/not-found.ts';
import { privatePageHead, withSession } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { ORDERS_TEXT, orderIdInput, receiptNumber } from '#core/order-rules.ts';
import { orderQuestion } from '#core/whatsapp-link.ts';

type DetailsSearch = { view?: 'receipt' };

export const Route = createFileRoute('/order-history/$orderId')({
  validateSearch: (search: Record<string, unknown>): DetailsSearch =>
    search.view === 'receipt' ? { view: 'receipt' } : {},
  head: privatePageHead('Order Details'),
  // The order is asked for beside the session (decision 0054); a visitor's page asks for nothing.
  loader: async ({ context, params }) => {
    const { queryClient, trpc } = context;
    const order = trpc.orders.byId.queryOptions({ id: params.orderId });
    const wellFormed = v.is(orderIdInput, { id: params.orderId });
    const user = await withSession(context, () =>
      wellFormed ? [queryClient.prefetchQuery(order)] : [],
    );
    if (!user) return; // the screen sends visitors to /login
    if (!wellFormed) throw notFound();
    // Read already, unless it failed: someone else's order (NOT_FOUND) is the 404.
    await orNotFound(queryClient.ensureQueryData(order));
  },
  notFoundComponent: OrderNotFound,
  component: () => <RequireShopper>{() => <HistoryOrder />}</RequireShopper>,
});

function OrderNotFound() {
  return (
    <StatusBox title="Order not found">
      <p>This order is not in your order history.</p>
      <Link to="/order-history" className="btn btn-primary mt-6">
        Back to Order History
      </Link>
    </StatusBox>
  );
}

function HistoryOrder() {
  const trpc = useTRPC();
  const { orderId } = Route.useParams();
  const { view } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const order = useQuery(trpc.orders.byId.queryOptions({ id: orderId }, { retry: false }));
  if (order.isPending) return <Loading text={ORDERS_TEXT.historyLoading} />;
  if (order.isError) {
    const missing =
      order.error instanceof TRPCClientError && order.error.data?.code === 'NOT_FOUND';
    return missing ? (
      <OrderNotFound />
    ) : (
      <section className="mx-auto max-w-4xl px-4 py-16">
        <Notice tone="error">{ORDERS_TEXT.detailsFailed}</Notice>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6 md:py-14">
      <HistoryHeading>
        <Link
          to="/order-history"
          className="mt-4 inline-flex items-center gap-2 text-xs font-semibold uppercase tracking-[0.14em] text-ink-soft hover:text-accent"
        >
          <ArrowLeft size={14} aria-hidden />
          All orders
        </Link>
      </HistoryHeading>
      <div className="mt-8 border border-line bg-paper px-5 py-6 sm:px-8 sm:py-8">
        <OrderDetails
          order={order.data}
          tab={view === 'receipt' ? 'receipt' : 'details'}
          onTab={(next) =>
            navigate({
              search: next === 'receipt' ? { view: next } : {},
              replace: true,
              resetScroll: false,
            })
          }
          onDeleted={() => navigate({ to: '/order-history' })}
          ask={
            <AskOnWhatsApp
              className="w-full sm:w-auto"
              text={orderQuestion(receiptNumber(order.data.id))}
            />
          }
        />
      </div>
    </section>
  );
}
