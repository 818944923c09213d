// Orders, reading A (spec: account "Orders and order history"): the customer's orders on the left,
// the selected one on the right; on a phone the panels stack. The selection and its tab live in
// the URL (?order=id&view=receipt), so a reload or a shared link keeps them.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { useEffect, useRef, useState } from 'react';
import { Loading, Notice, PageHeading } from '#app/components/account/ui.tsx';
import { OrderDetails, type OrderTab } from '#app/components/orders/OrderDetails.tsx';
import { OrderList } from '#app/components/orders/OrderList.tsx';
import { privatePageHead, withSession } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { isOrderId } from '#core/order-id.ts';
import { ORDERS_TEXT } from '#core/order-rules.ts';

type OrdersSearch = { order?: string; view?: 'receipt' };

export const Route = createFileRoute('/orders')({
  // A broken ?order= is no selection, never an error page.
  validateSearch: (search: Record<string, unknown>): OrdersSearch => {
    const order = isOrderId(search.order) ? search.order : undefined;
    return order ? { order, ...(search.view === 'receipt' ? { view: 'receipt' } : {}) } : {};
  },
  head: privatePageHead('My Orders'),
  loaderDeps: ({ search }) => search,
  // The list arrives with the page, read fresh on every visit (a new order shows at once); an
  // open receipt too; both asked for beside the session. Visitors go to /login (spec: orders
  // screens redirect when not logged in).
  loader: async ({ context, deps }) => {
    const { queryClient, trpc } = context;
    const user = await withSession(context, () => [
      queryClient.prefetchQuery({ ...trpc.orders.list.queryOptions(), staleTime: 0 }),
      deps.order && deps.view === 'receipt'
        ? queryClient.prefetchQuery(trpc.orders.receipt.queryOptions({ orderId: deps.order }))
        : Promise.resolve(),
    ]);
    if (!user) throw redirect({ to: '/login' });
  },
  component: OrdersScreen,
});

function OrdersScreen() {
  const trpc = useTRPC();
  const navigate = useNavigate({ from: Route.fullPath });
  const { order: selectedId, view } = Route.useSearch();
  const orders = useQuery(trpc.orders.list.queryOptions());
  const details = useRef<HTMLElement>(null);
  const [picked, setPicked] = useState(0);

  const signedOut =
    orders.error instanceof TRPCClientError && orders.error.data?.code === 'UNAUTHORIZED';
  useEffect(() => {
    if (signedOut) void navigate({ to: '/login' });
  }, [signedOut, navigate]);

  // On a phone the details sit under the list: bring them into view when an order is picked.
  useEffect(() => {
    if (picked && window.matchMedia('(max-width: 1023px)').matches) {
      details.current?.scrollIntoView({ block: 'start' });
    }
  }, [picked]);

  // Arriving with an order named (back from the card page, from the checkout), a phone shows that
  // order, not the list above it: its payment is what the shopper came to see.
  const arrivedWith = useRef(selectedId);
  const hasOrders = orders.isSuccess;
  useEffect(() => {
    if (!arrivedWith.current || !hasOrders) return;
    if (!window.matchMedia('(max-width: 1023px)').matches) return;
    const frame = requestAnimationFrame(() => {
      arrivedWith.current = undefined;
      details.current?.scrollIntoView({ block: 'start' });
    });
    return () => cancelAnimationFrame(frame);
  }, [hasOrders]);

  if (orders.isPending) return <Loading text={ORDERS_TEXT.loading} />;

  const selected = orders.data?.find((order) => order.id === selectedId);
  const tab: OrderTab = view === 'receipt' ? 'receipt' : 'details';
  return (
    <section className="mx-auto max-w-7xl px-4 py-10 sm:px-6 md:py-14">
      <PageHeading
        eyebrow="Your account"
        title="My Orders"
        intro="Every order you have placed, its receipt and its status."
      />
      {orders.isError ? (
        <div className="mt-8">
          <Notice tone="error">{ORDERS_TEXT.fetchFailed}</Notice>
        </div>
      ) : (
        <div className="mt-8 grid items-start gap-6 lg:grid-cols-[minmax(20rem,26rem)_1fr] lg:gap-8">
          <OrderList
            orders={orders.data}
            selectedId={selected?.id}
            onSelect={() => setPicked((n) => n + 1)}
          />
          {/* On a phone a chosen order's details come first, above the list. */}
          <section
            ref={details}
            aria-label="Order details"
            className={`min-w-0 scroll-mt-20 border border-line bg-paper px-5 py-6 sm:px-8 sm:py-8 ${
              selected ? 'max-lg:order-first' : ''
            }`}
          >
            {selected ? (
              <OrderDetails
                key={selected.id}
                order={selected}
                tab={tab}
                onTab={(next) =>
                  navigate({
                    search: { order: selected.id, ...(next === 'receipt' ? { view: next } : {}) },
                    replace: true,
                    resetScroll: false,
                  })
                }
                onDeleted={() => navigate({ search: {}, replace: true, resetScroll: false })}
              />
            ) : (
              <div className="grid min-h-[16rem] place-items-center text-center lg:min-h-[34rem]">
                <div>
                  <p className="eyebrow">Order details</p>
                  <h2 className="mt-3 font-display text-4xl">
                    {orders.data.length ? ORDERS_TEXT.selectAnOrder : ORDERS_TEXT.noOrdersYetTitle}
                  </h2>
                  <p className="mt-3 text-ink-soft">
                    {orders.data.length
                      ? 'Choose an order from your list to see its details and receipt.'
                      : 'Your orders and their receipts will appear here.'}
                  </p>
                </div>
              </div>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
