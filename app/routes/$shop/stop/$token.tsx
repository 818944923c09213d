// The stop link every promotional text ends with (issue 35, decision 0085): /duuka/stop/{token}.
// Opening it changes nothing (a chat app's link preview opens it too): the page asks, and its one
// button switches Promotions off, without signing in. It names the shopper by a first name at
// most. Another first segment than the shop's, or a token that is not one, is the 404 view.
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, notFound } from '@tanstack/react-router';
import { Notice } from '#app/components/account/ui.tsx';
import { StatusBox } from '#app/components/StatusBox.tsx';
import { errorMessage } from '#app/error-message.ts';
import { orNotFound } from '#app/not-found.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { isStopToken, STOP_SEGMENT, STOP_TEXT } from '#core/stop-link.ts';

export const Route = createFileRoute('/$shop/stop/$token')({
  loader: ({ context, params }) => {
    if (params.shop !== STOP_SEGMENT || !isStopToken(params.token)) throw notFound();
    return orNotFound(
      context.queryClient.ensureQueryData(
        context.trpc.stopLink.read.queryOptions({ token: params.token }),
      ),
    );
  },
  head: () => ({
    meta: [{ title: `${STOP_TEXT.title} · duuka` }, { name: 'robots', content: 'noindex' }],
  }),
  notFoundComponent: () => (
    <StatusBox title="Link not found">
      <p>{STOP_TEXT.unknown}</p>
      <Link to="/" className="btn btn-primary mt-6">
        Go to the shop
      </Link>
    </StatusBox>
  ),
  errorComponent: ({ error }) => <StatusBox tone="error">{errorMessage(error)}</StatusBox>,
  component: StopOffers,
});

function StopOffers() {
  const trpc = useTRPC();
  const { token } = Route.useParams();
  const { data: link } = useSuspenseQuery(trpc.stopLink.read.queryOptions({ token }));
  const stop = useMutation(trpc.stopLink.stop.mutationOptions());
  const done = stop.data ? (stop.data.already ? STOP_TEXT.already : STOP_TEXT.done) : null;
  const already = link.stopped && !stop.data;
  return (
    <section className="mx-auto max-w-xl px-4 py-12 sm:px-6 md:py-20">
      <p className="eyebrow">Texts from duuka</p>
      <h1 className="mt-3 font-display text-4xl sm:text-5xl">{STOP_TEXT.title}</h1>
      {done || already ? (
        <div className="mt-8 space-y-4">
          <Notice tone="success">{done ?? STOP_TEXT.already}</Notice>
          <p className="text-sm text-ink-soft">
            {STOP_TEXT.again}{' '}
            <Link to="/settings" className="underline">
              Settings
            </Link>
          </p>
        </div>
      ) : (
        <form
          className="mt-6 space-y-6"
          onSubmit={(event) => {
            event.preventDefault();
            stop.mutate({ token });
          }}
        >
          <p className="text-ink-soft">{STOP_TEXT.ask(link.firstName)}</p>
          {stop.isError && (
            <Notice tone="error">
              {errorMessage(stop.error, 'That did not work. Please try again.')}
            </Notice>
          )}
          <button
            type="submit"
            className="btn btn-primary min-h-12 w-full sm:w-auto"
            disabled={stop.isPending}
          >
            {stop.isPending ? 'Stopping…' : STOP_TEXT.button}
          </button>
        </form>
      )}
    </section>
  );
}
