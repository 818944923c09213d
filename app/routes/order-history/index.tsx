// Orders, reading B (spec: account "Reading B"): the ORDER HISTORY table of the shopper's orders.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Loading, Notice } from '#app/components/account/ui.tsx';
import {
  HistoryHeading,
  OrderHistoryTable,
  RequireShopper,
} from '#app/components/orders/OrderHistory.tsx';
import { privatePageHead, withSession } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { ORDERS_TEXT } from '#core/order-rules.ts';

export const Route = createFileRoute('/order-history/')({
  head: privatePageHead('Order History'),
  // Signed in: the list arrives with the page, read fresh on every visit.
  loader: async ({ context }) => {
    await withSession(context, () => [
      context.queryClient.prefetchQuery({
        ...context.trpc.orders.list.queryOptions(),
        staleTime: 0,
      }),
    ]);
  },
  component: () => <RequireShopper>{() => <OrderHistory />}</RequireShopper>,
});

function OrderHistory() {
  const trpc = useTRPC();
  const orders = useQuery(trpc.orders.list.queryOptions());
  if (orders.isPending) return <Loading text={ORDERS_TEXT.historyLoading} />;
  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 md:py-14">
      <HistoryHeading />
      {orders.isError ? (
        <div className="mt-8">
          <Notice tone="error">{ORDERS_TEXT.fetchFailed}</Notice>
        </div>
      ) : (
        <OrderHistoryTable orders={orders.data} />
      )}
    </section>
  );
}
