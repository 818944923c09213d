// The desk's returns (/desk/returns, issue 36; /operator/returns redirects), made for one hand on
// a phone: a row of chips, one per state with its count (in the address, so Back keeps it), then
// each return as a card (the order's number, the customer, the pieces and why, exchange or
// refund, what it is worth, how long ago), the whole card a link to its page, where the actions
// are. Newest first, the newest 100 (desk.returns).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { ToneBadge } from '#app/components/orders/StatusBadge.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { waitedFor } from '#core/desk-money.ts';
import {
  EXCHANGE_STATE_LABEL,
  REFUND_STATE_LABEL,
  RETURN_CHIPS,
  reasonLabel,
  returnStateLabel,
  returnTone,
  DESK_RETURN_TEXT as TEXT,
} from '#core/desk-returns.ts';
import { formatUGX } from '#core/money.ts';
import { formatTime, orderIdHead } from '#core/order-rules.ts';
import { type ExchangeState, RETURN_STATES, type ReturnState } from '#core/returns.ts';

type QueueSearch = { status?: string };

export const Route = createFileRoute('/desk/returns/')({
  // This function is in every page's first script: it keeps the address's state as it is and
  // carries no list; the page reads it through stateIn, which drops a state the shop does not
  // know (every return shown), never an error page.
  validateSearch: (search: Record<string, unknown>): QueueSearch =>
    typeof search.status === 'string' ? { status: search.status } : {},
  head: privatePageHead('Returns · Desk'),
  component: ReturnsDesk,
});

const stateIn = (search: QueueSearch): ReturnState | undefined =>
  (RETURN_STATES as readonly string[]).includes(search.status ?? '')
    ? (search.status as ReturnState)
    : undefined;

type Queue = ApiOutput['desk']['returns'];
type QueuedReturn = Queue['returns'][number];

function ReturnsDesk() {
  const trpc = useTRPC();
  const status = stateIn(Route.useSearch());
  const queue = useQuery({
    ...trpc.desk.returns.queryOptions(status ? { status } : {}),
    placeholderData: keepPreviousData,
  });
  const counts = queue.data?.counts;
  const all = counts ? Object.values(counts).reduce((sum, n) => sum + Number(n), 0) : undefined;
  const rows = queue.data?.returns ?? [];
  const active = status ?? 'all';
  return (
    <DeskPage title={TEXT.title}>
      <fieldset
        // One row that scrolls sideways on a phone, within the thumb's reach; never wider.
        className="-mx-4 mt-4 flex min-w-0 gap-2 overflow-x-auto px-4 pb-2 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0"
        data-testid="return-chips"
      >
        <legend className="sr-only">{TEXT.chips}</legend>
        {RETURN_CHIPS.map((chip) => {
          const pressed = chip.key === active;
          const count = chip.key === 'all' ? all : counts?.[chip.key];
          return (
            <Link
              key={chip.key}
              to="/desk/returns"
              search={chip.key === 'all' ? {} : { status: chip.key }}
              replace
              aria-current={pressed ? 'true' : undefined}
              data-testid={`return-chip-${chip.key}`}
              className={`inline-flex min-h-11 shrink-0 items-center gap-2 whitespace-nowrap rounded-full border px-4 text-sm ${
                pressed
                  ? 'border-ink bg-ink text-paper'
                  : 'border-line bg-paper text-ink hover:border-ink'
              }`}
            >
              {chip.label}
              <span
                className={`text-xs tabular-nums ${pressed ? 'text-paper/80' : 'text-ink-soft'}`}
              >
                {count ?? '·'}
              </span>
            </Link>
          );
        })}
      </fieldset>

      {queue.isError && (
        <div className="mt-4">
          <Notice tone="error">{errorMessage(queue.error, TEXT.loadFailed)}</Notice>
        </div>
      )}
      {queue.isPending && (
        <p role="status" className="mt-6 text-ink-soft">
          {TEXT.loading}
        </p>
      )}
      {queue.data && (
        <>
          <p className="mt-3 text-sm text-ink-soft" aria-live="polite">
            {TEXT.shown(rows.length)}
          </p>
          <ul
            className="mt-2 grid gap-3 md:grid-cols-2 xl:grid-cols-3"
            aria-label={TEXT.title}
            aria-busy={queue.isFetching}
            data-testid="return-queue"
          >
            {rows.map((row) => (
              <ReturnCard key={row.id} row={row} />
            ))}
          </ul>
          {rows.length === 0 && (
            <p className="border-y border-line py-8 text-ink-soft" data-testid="return-queue-empty">
              {status ? TEXT.noneIn(returnStateLabel(status)) : TEXT.none}
            </p>
          )}
        </>
      )}
    </DeskPage>
  );
}

const ago = (at: string) => {
  const waited = waitedFor(at);
  return waited === 'just now' ? waited : `${waited} ago`;
};

/** One return: the whole card is the link to its page. */
function ReturnCard({ row }: { row: QueuedReturn }) {
  const exchange = row.resolution === 'exchange';
  const reasons = [...new Set(row.reasons)].map(reasonLabel).join(', ');
  return (
    <li data-testid="return-card" data-return-id={row.id} className="min-w-0">
      <Link
        to="/desk/returns/$returnId"
        params={{ returnId: row.id }}
        className="grid h-full gap-2 border border-line bg-paper p-4 hover:border-ink focus-visible:border-ink"
      >
        <span className="flex items-baseline justify-between gap-3">
          <span className="flex min-w-0 items-baseline gap-2">
            <span className="font-mono text-sm font-semibold">
              #{row.orderRef ?? orderIdHead(row.orderId)}
            </span>
            <span className="truncate font-medium">{row.customerName}</span>
          </span>
          <span className="shrink-0 font-medium tabular-nums">{formatUGX(row.amount)}</span>
        </span>
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <ToneBadge tone={returnTone(row.status)} label={returnStateLabel(row.status)} />
          <span className="font-medium">
            {exchange ? TEXT.exchange : TEXT.refundTo(row.refundTo)}
          </span>
          <span className="text-ink-soft">· {TEXT.pieces(row.pieces)}</span>
        </span>
        <span className="break-words text-sm text-ink-soft">{reasons}</span>
        <span className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-ink-soft">
          <span>
            {exchange && row.exchangeStatus
              ? `Exchange: ${EXCHANGE_STATE_LABEL[row.exchangeStatus as ExchangeState] ?? row.exchangeStatus}`
              : row.refundStatus
                ? `Refund: ${REFUND_STATE_LABEL[row.refundStatus] ?? row.refundStatus}`
                : ''}
          </span>
          <time dateTime={row.createdAt} title={formatTime(row.createdAt)} suppressHydrationWarning>
            {ago(row.createdAt)}
          </time>
        </span>
      </Link>
    </li>
  );
}
