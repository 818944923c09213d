// Asking to return or exchange pieces of a delivered order (issue 36): its own page, so it loads
// only when asked for, keeps its place on the back button and fits a phone held in one hand.
// Someone else's order, an unknown id and a malformed one are the order page's 404.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, notFound } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { ArrowLeft } from 'lucide-react';
import * as v from 'valibot';
import { Loading, Notice } from '#app/components/account/ui.tsx';
import { RequireShopper } from '#app/components/orders/OrderHistory.tsx';
import { ReturnForm } from '#app/components/orders/ReturnForm.tsx';
import { StatusBox } from '#app/components/StatusBox.tsx';
import { orNotFound } from '#app/not-found.ts';
import { privatePageHead, withSession } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { orderIdHead, orderIdInput } from '#core/order-rules.ts';
import { RETURN_SCREEN_TEXT } from '#core/returns.ts';

export const Route = createFileRoute('/order-history/$orderId_/return')({
  head: privatePageHead('Return or exchange'),
  loader: async ({ context, params }) => {
    const { queryClient, trpc } = context;
    const options = trpc.returns.options.queryOptions({ orderId: params.orderId });
    const wellFormed = v.is(orderIdInput, { id: params.orderId });
    const user = await withSession(context, () =>
      wellFormed ? [queryClient.prefetchQuery(options)] : [],
    );
    if (!user) return;
    if (!wellFormed) throw notFound();
    await orNotFound(queryClient.ensureQueryData(options));
  },
  notFoundComponent: () => (
    <StatusBox title="Order not found">
      <p>This order is not in your order history.</p>
      <Link to="/order-history" className="btn btn-primary mt-6">
        Back to Order History
      </Link>
    </StatusBox>
  ),
  component: () => <RequireShopper>{() => <ReturnPage />}</RequireShopper>,
});

function ReturnPage() {
  const trpc = useTRPC();
  const { orderId } = Route.useParams();
  const options = useQuery(trpc.returns.options.queryOptions({ orderId }, { retry: false }));
  const back = (
    <Link
      to="/order-history/$orderId"
      params={{ orderId }}
      className="inline-flex min-h-11 items-center gap-2 text-xs font-semibold uppercase tracking-[0.14em] text-ink-soft hover:text-accent"
    >
      <ArrowLeft size={14} aria-hidden />
      Order #{orderIdHead(orderId)}
    </Link>
  );
  if (options.isPending) return <Loading text={RETURN_SCREEN_TEXT.loading} />;
  return (
    <section className="mx-auto max-w-3xl px-4 pt-6 pb-10 sm:px-6 md:py-14">
      {back}
      <header className="mt-2 border-b border-line pb-6">
        <p className="eyebrow">Order #{orderIdHead(orderId)}</p>
        <h1 className="mt-2 font-display text-4xl sm:text-5xl">{RETURN_SCREEN_TEXT.formTitle}</h1>
        <p className="mt-2 text-ink-soft">{RETURN_SCREEN_TEXT.formIntro}</p>
      </header>
      {options.isError ? (
        <div className="mt-8">
          <Notice tone="error">
            {options.error instanceof TRPCClientError && options.error.data?.code === 'NOT_FOUND'
              ? options.error.message
              : RETURN_SCREEN_TEXT.failed}
          </Notice>
        </div>
      ) : (
        <ReturnForm options={options.data} onRefresh={() => options.refetch()} />
      )}
    </section>
  );
}
