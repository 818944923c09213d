// The desk's offers (/desk/offers, issue 35; desk.offers / desk.saveOffer): every offer as a card
// a phone reads at a glance — its name, its code or "Automatic", what it gives, when, its uses
// against its limit and what it brought (orders and sales, cancelled orders aside) — and the form
// to create or edit one. Owner and staff both run offers.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Loading } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { type DeskOfferRow, OfferForm } from '#app/components/desk/OfferForm.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { formatUGX } from '#core/money.ts';
import { offerWords } from '#core/offer-badge.ts';
import { kampalaWhen, DESK_OFFERS_TEXT as T } from '#core/offer-form.ts';

export const Route = createFileRoute('/desk/offers/')({
  head: privatePageHead('Offers · Desk'),
  component: Offers,
});

function Offers() {
  const trpc = useTRPC();
  const loaded = useQuery(trpc.desk.offers.queryOptions());
  // null: the list; 'new': a new offer's form; an offer: its form.
  const [editing, setEditing] = useState<DeskOfferRow | 'new' | null>(null);
  if (loaded.isPending) return <Loading text="Loading offers..." />;
  if (loaded.isError) {
    return (
      <DeskPageProblem title={T.title}>
        {errorMessage(loaded.error, 'Offers could not be loaded.')}
      </DeskPageProblem>
    );
  }
  const { offers } = loaded.data;
  return (
    <DeskPage
      title={T.title}
      action={
        editing === null && (
          <button
            type="button"
            className="btn btn-primary min-h-12 w-full sm:w-auto"
            onClick={() => setEditing('new')}
          >
            <Plus size={16} aria-hidden /> {T.newOffer}
          </button>
        )
      }
    >
      {editing !== null ? (
        <div className="max-w-3xl">
          <OfferForm
            offer={editing === 'new' ? null : editing}
            loaded={loaded.data}
            onDone={() => setEditing(null)}
          />
        </div>
      ) : offers.length === 0 ? (
        <p className="mt-8 text-ink-soft">{T.none}</p>
      ) : (
        <ul className="mt-8 grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Offers">
          {offers.map((offer) => (
            <li key={offer.id}>
              <OfferCard offer={offer} onEdit={() => setEditing(offer)} />
            </li>
          ))}
        </ul>
      )}
    </DeskPage>
  );
}

const STATE_TONE: Record<DeskOfferRow['state'], string> = {
  running: 'bg-ink text-paper',
  scheduled: 'border border-ink',
  ended: 'bg-paper-2 text-ink-soft',
  'used-up': 'bg-paper-2 text-ink-soft',
  off: 'bg-paper-2 text-ink-soft',
};

function when(offer: DeskOfferRow): string {
  if (offer.startsAt && offer.endsAt) {
    return `${kampalaWhen(offer.startsAt)} to ${kampalaWhen(offer.endsAt)}`;
  }
  if (offer.startsAt) return `From ${kampalaWhen(offer.startsAt)}, no end`;
  if (offer.endsAt) return `Until ${kampalaWhen(offer.endsAt)}`;
  return 'Always';
}

function OfferCard({ offer, onEdit }: { offer: DeskOfferRow; onEdit: () => void }) {
  return (
    <article
      className="flex h-full flex-col border border-line bg-paper p-4"
      aria-label={offer.name}
      data-testid="offer-card"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="font-display text-2xl leading-tight break-words">{offer.name}</h2>
          <p className="mt-1 font-mono text-sm tracking-wider">{offer.code ?? T.automatic}</p>
        </div>
        <span
          className={`shrink-0 px-2 py-1 text-[0.7rem] font-semibold uppercase tracking-[0.14em] ${STATE_TONE[offer.state]}`}
        >
          {T.states[offer.state]}
        </span>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        <div className="col-span-2">
          <dt className="sr-only">Gives</dt>
          <dd className="font-semibold">
            {offerWords(offer)}
            {offer.appliesTo ? ' · chosen pieces' : ' · whole order'}
            {offer.minSubtotal ? ` · over ${formatUGX(offer.minSubtotal)}` : ''}
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="sr-only">When</dt>
          <dd className="text-ink-soft">{when(offer)}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">Uses</dt>
          <dd data-testid="offer-uses">
            {offer.used}
            {offer.usageLimit !== null ? ` / ${offer.usageLimit}` : ''}
          </dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">Sales</dt>
          <dd data-testid="offer-sales">
            {formatUGX(offer.sales)} · {offer.orders} {offer.orders === 1 ? 'order' : 'orders'}
          </dd>
        </div>
        {offer.tag && (
          <div className="col-span-2">
            <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">Tag</dt>
            <dd>{offer.tag}</dd>
          </div>
        )}
      </dl>
      <button
        type="button"
        className="btn btn-outline mt-4 min-h-12 w-full"
        onClick={onEdit}
        aria-label={`Edit ${offer.name}`}
      >
        Edit
      </button>
    </article>
  );
}
