// A refund's credit note beside the order's receipt (issue 36): /order-history/{orderId}/
// credit-note/{refundId}, the shopper's own only. Someone else's refund, an unknown id and a
// malformed one are the same 404.
import { createFileRoute, Link, notFound } from '@tanstack/react-router';
import * as v from 'valibot';
import { CreditNoteView } from '#app/components/orders/CreditNoteView.tsx';
import { HistoryHeading, RequireShopper } from '#app/components/orders/OrderHistory.tsx';
import { StatusBox } from '#app/components/StatusBox.tsx';
import { orNotFound } from '#app/not-found.ts';
import { privatePageHead, withSession } from '#app/session.ts';
import { orderIdInput } from '#core/order-rules.ts';
import { REFUND_TEXT } from '#core/returns.ts';

export const Route = createFileRoute('/order-history/$orderId_/credit-note/$refundId')({
  head: privatePageHead('Credit note'),
  loader: async ({ context, params }) => {
    const { queryClient, trpc } = context;
    const note = trpc.orders.creditNote.queryOptions({ refundId: params.refundId });
    // A refund's id is a UUID as an order's is: the order's check is already in every page's
    // first script, where this loader is (core/returns.ts would add 9 KiB to every page).
    const wellFormed = v.is(orderIdInput, { id: params.refundId });
    const user = await withSession(context, () =>
      wellFormed ? [queryClient.prefetchQuery(note)] : [],
    );
    if (!user) return; // the screen sends visitors to /login
    if (!wellFormed) throw notFound();
    await orNotFound(queryClient.ensureQueryData(note));
  },
  notFoundComponent: CreditNoteNotFound,
  component: () => <RequireShopper>{() => <CreditNotePage />}</RequireShopper>,
});

function CreditNoteNotFound() {
  return (
    <StatusBox title={REFUND_TEXT.creditNoteNotFound}>
      <p>This credit note is not in your order history.</p>
      <Link to="/order-history" className="btn btn-primary mt-6">
        Back to Order History
      </Link>
    </StatusBox>
  );
}

function CreditNotePage() {
  const { orderId, refundId } = Route.useParams();
  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6 md:py-14">
      <HistoryHeading />
      <div className="mt-8">
        <CreditNoteView orderId={orderId} refundId={refundId} />
      </div>
    </section>
  );
}
