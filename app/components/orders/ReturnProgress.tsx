// A return's steps as the shopper follows them (issue 36): requested → approved (with where to
// bring it, or that the rider comes) → received → refunded or exchanged; or refused, with the
// staff's reason. The refund's own state, and its credit note once it succeeded.
import { useQueries } from '@tanstack/react-query';
import { Check, FileText, X } from 'lucide-react';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { formatUGX } from '#core/money.ts';
import { formatLongDate } from '#core/order-rules.ts';
import {
  creditNoteNumber,
  EXCHANGE_STATE_LABEL,
  type ExchangeState,
  REFUND_GOES_TO,
  REFUND_STATE_LABEL,
  RETURN_REASON_LABEL,
  RETURN_SCREEN_TEXT,
  RETURN_STATE_LABEL,
  type RefundMethod,
  type RefundState,
  type ReturnReason,
  type ReturnState,
} from '#core/returns.ts';

type Summary = ApiOutput['orders']['byId']['returns'][number];
type ReturnView = ApiOutput['returns']['byId'];

export default function ReturnProgress({
  orderId,
  returns,
}: {
  orderId: string;
  returns: Summary[];
}) {
  const trpc = useTRPC();
  const read = useQueries({
    queries: returns.map((summary) => trpc.returns.byId.queryOptions({ id: summary.id })),
  });
  return (
    <ul className="mt-3 space-y-4">
      {returns.map((summary, i) => (
        <li key={summary.id}>
          <ReturnCard orderId={orderId} summary={summary} view={read[i]?.data} />
        </li>
      ))}
    </ul>
  );
}

type Step = { state: ReturnState; at: string | null; done: boolean; current: boolean };

/** The steps to show: the way a return goes, ending where this one ended (or will end). */
function stepsOf(
  view: Pick<
    ReturnView,
    'status' | 'resolution' | 'createdAt' | 'decidedAt' | 'receivedAt' | 'closedAt'
  >,
): Step[] {
  const status = view.status as ReturnState;
  const end: ReturnState = view.resolution === 'exchange' ? 'exchanged' : 'refunded';
  const path: [ReturnState, string | null][] =
    status === 'refused'
      ? [
          ['requested', view.createdAt],
          ['refused', view.decidedAt],
        ]
      : [
          ['requested', view.createdAt],
          ['approved', view.decidedAt],
          ['received', view.receivedAt],
          [end, view.closedAt],
        ];
  const reached = path.findIndex(([state]) => state === status);
  return path.map(([state, at], index) => ({
    state,
    at,
    done: index <= reached,
    current: index === reached,
  }));
}

function ReturnCard({
  orderId,
  summary,
  view,
}: {
  orderId: string;
  summary: Summary;
  view: ReturnView | undefined;
}) {
  const ref = summary.id.slice(0, 8).toUpperCase();
  const steps = stepsOf(view ?? { ...summary, decidedAt: null, receivedAt: null, closedAt: null });
  const refused = summary.status === 'refused';
  return (
    <article
      className="border border-line bg-paper-2/60 px-4 py-5 sm:px-6"
      aria-labelledby={`return-${summary.id}`}
      data-testid="return-card"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h4 id={`return-${summary.id}`} className="font-display text-2xl">
          {RETURN_SCREEN_TEXT.returnHeading(ref)}
        </h4>
        <p className="text-xs font-semibold uppercase tracking-[0.14em] text-ink-soft">
          {summary.resolution === 'exchange'
            ? RETURN_SCREEN_TEXT.exchange
            : RETURN_SCREEN_TEXT.refund}
          {' · '}
          <span data-testid="return-status">
            {RETURN_STATE_LABEL[summary.status as ReturnState]}
          </span>
        </p>
      </header>

      <ol
        aria-label={RETURN_SCREEN_TEXT.progress}
        className="mt-5 grid gap-0 sm:grid-flow-col sm:auto-cols-fr"
      >
        {steps.map((step, index) => {
          const last = index === steps.length - 1;
          const bad = step.state === 'refused';
          return (
            <li
              key={step.state}
              aria-current={step.current ? 'step' : undefined}
              className={`relative flex items-start gap-3 sm:flex-col sm:items-center sm:gap-2 sm:text-center ${last ? '' : 'pb-5 sm:pb-0'}`}
            >
              {!last && (
                <span
                  aria-hidden
                  className={`absolute top-7 bottom-1 left-3 w-px sm:top-3 sm:right-[calc(-50%+0.875rem)] sm:bottom-auto sm:left-[calc(50%+0.875rem)] sm:h-px sm:w-auto ${
                    steps[index + 1]?.done ? 'bg-ink' : 'bg-line'
                  }`}
                />
              )}
              <span
                aria-hidden
                className={`relative grid size-6 shrink-0 place-items-center rounded-full border ${
                  bad
                    ? 'border-danger bg-danger text-paper'
                    : step.current && !last
                      ? 'border-accent bg-paper ring-4 ring-accent/15'
                      : step.done
                        ? 'border-ink bg-ink text-paper'
                        : 'border-line bg-paper'
                }`}
              >
                {bad ? (
                  <X size={13} strokeWidth={2.5} />
                ) : step.current && !last ? (
                  <span className="size-2 rounded-full bg-accent" />
                ) : step.done ? (
                  <Check size={13} strokeWidth={2.5} />
                ) : null}
              </span>
              <span className="min-w-0 pt-0.5 sm:pt-0">
                <span
                  className={`block text-sm ${
                    bad
                      ? 'font-semibold text-danger'
                      : step.current
                        ? 'font-semibold text-accent'
                        : step.done
                          ? 'font-medium'
                          : 'text-ink-soft'
                  }`}
                >
                  {RETURN_STATE_LABEL[step.state]}
                </span>
                {step.done && step.at && (
                  <span className="block text-xs text-ink-soft">{formatLongDate(step.at)}</span>
                )}
                {step.done && !step.current && <span className="sr-only"> (done)</span>}
              </span>
            </li>
          );
        })}
      </ol>

      {view && <ReturnFacts orderId={orderId} view={view} refused={refused} />}
    </article>
  );
}

function ReturnFacts({
  orderId,
  view,
  refused,
}: {
  orderId: string;
  view: ReturnView;
  refused: boolean;
}) {
  return (
    <div className="mt-5 space-y-4 border-t border-line pt-4 text-sm">
      {refused && view.staffReason && (
        <p className="border border-danger/40 bg-danger/5 px-4 py-3" data-testid="return-refused">
          <strong className="font-semibold">{RETURN_SCREEN_TEXT.staffReason}</strong>{' '}
          {view.staffReason}
        </p>
      )}
      {view.status === 'approved' && view.instructions && (
        <p className="border border-gold/50 bg-gold/5 px-4 py-3" data-testid="return-instructions">
          <strong className="block font-semibold">
            {view.handover === 'pickup'
              ? RETURN_SCREEN_TEXT.handoverPickup
              : RETURN_SCREEN_TEXT.handoverDropOff}
          </strong>
          {view.instructions}
        </p>
      )}
      <ul className="space-y-2">
        {view.lines.map((line) => (
          <li key={line.orderItemId} className="flex flex-wrap justify-between gap-x-4 gap-y-0.5">
            <span className="min-w-0">
              <span className="font-medium">
                {line.quantity} × {line.name}
              </span>
              {line.variantLabel && <span className="text-ink-soft"> · {line.variantLabel}</span>}
              {line.exchangeLabel && (
                <span className="block text-ink-soft">→ {line.exchangeLabel}</span>
              )}
            </span>
            <span className="text-ink-soft">
              {RETURN_REASON_LABEL[line.reason as ReturnReason]}
            </span>
          </li>
        ))}
      </ul>
      {view.exchangeStatus && (
        <p>
          <span className="text-ink-soft">{RETURN_SCREEN_TEXT.exchangeTrip}: </span>
          <strong className="font-semibold">
            {EXCHANGE_STATE_LABEL[view.exchangeStatus as ExchangeState]}
          </strong>
        </p>
      )}
      {view.refunds.map((refund) => (
        <div
          key={refund.id}
          className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2"
          data-testid="return-refund"
        >
          <p>
            {RETURN_SCREEN_TEXT.refundLine(
              formatUGX(refund.amount),
              REFUND_GOES_TO[refund.method as RefundMethod] ?? refund.method,
            )}
            {' · '}
            <strong className="font-semibold">
              {REFUND_STATE_LABEL[refund.status as RefundState]}
            </strong>
            {refund.reference && (
              <span className="block text-xs text-ink-soft">{refund.reference}</span>
            )}
          </p>
          {refund.status === 'succeeded' && (
            // The credit note's screen (/order-history/{orderId}/credit-note/{refundId}).
            <a
              href={`/order-history/${orderId}/credit-note/${refund.id}`}
              className="inline-flex min-h-11 items-center gap-2 font-semibold text-accent underline-offset-4 hover:underline"
            >
              <FileText size={15} aria-hidden />
              {RETURN_SCREEN_TEXT.creditNote(refund.creditNote ?? creditNoteNumber(refund.id))}
            </a>
          )}
        </div>
      ))}
    </div>
  );
}
