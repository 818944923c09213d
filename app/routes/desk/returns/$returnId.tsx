// One return on the desk (/desk/returns/{id}, issue 36, decision 0086), made for one hand on a
// phone: the order, the customer and what the return is worth; then what it asks of the staff
// now, as one card at the top (approve with the rider's pickup or a drop-off, or refuse with a
// reason; receive each piece as sellable or damaged; ship the exchange, then mark it delivered);
// the pieces, the shopper's note and photos; the refunds (a failed one with Retry, one paid by
// hand with Record refund); and the return's desk record.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeft, Phone } from 'lucide-react';
import { useId, useState } from 'react';
import { Loading } from '#app/components/account/ui.tsx';
import { DeskCard } from '#app/components/desk/DeskCard.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { MarkRefunded } from '#app/components/desk/Money.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { TextArea } from '#app/components/desk/TextArea.tsx';
import { ToneBadge } from '#app/components/orders/StatusBadge.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { callLink } from '#core/desk-order.ts';
import {
  CONDITION_LABEL,
  EXCHANGE_STATE_LABEL,
  HANDOVER_LABEL,
  REFUND_STATE_LABEL,
  reasonLabel,
  recordedByHand,
  refundMethodLabel,
  returnRecordDetail,
  returnRecordLabel,
  returnStateLabel,
  returnStep,
  returnTone,
  DESK_RETURN_TEXT as TEXT,
} from '#core/desk-returns.ts';
import { displayNumber } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import { formatOrderDate, formatTime, orderIdHead } from '#core/order-rules.ts';
import { normalisePhone } from '#core/phone.ts';
import {
  CONDITIONS,
  type Condition,
  creditNoteNumber,
  type ExchangeState,
  HANDOVERS,
  type Handover,
  RETURN_TEXT,
} from '#core/returns.ts';

export const Route = createFileRoute('/desk/returns/$returnId')({
  head: privatePageHead('Return · Desk'),
  component: ReturnPage,
});

type Return = ApiOutput['desk']['returnById'];
type Line = Return['lines'][number];
type Refund = Return['refunds'][number];

/** How often a refund on its way is read again. */
const REFUND_FOLLOW_MS = 3_000;

const when = (at: string) => `${formatOrderDate(at)} ${formatTime(at)}`;

function ReturnPage() {
  const { returnId } = Route.useParams();
  const trpc = useTRPC();
  const found = useQuery({
    ...trpc.desk.returnById.queryOptions({ returnId }),
    // A refund on its way is followed until the provider answers (the sweep reads it).
    refetchInterval: (query) =>
      query.state.data?.refunds.some((r) => r.status === 'requested' || r.status === 'sent')
        ? REFUND_FOLLOW_MS
        : false,
  });
  if (found.isPending) return <Loading text={TEXT.loadingOne} />;
  if (found.isError) {
    return (
      <DeskPageProblem title="Return" className="mt-6">
        {errorMessage(found.error, TEXT.notLoaded)}
        <BackToReturns />
      </DeskPageProblem>
    );
  }
  return <ReturnView ret={found.data} />;
}

function BackToReturns() {
  return (
    <Link
      to="/desk/returns"
      className="mt-3 inline-flex min-h-11 items-center gap-2 text-sm font-medium underline-offset-4 hover:underline"
    >
      <ArrowLeft size={16} aria-hidden /> {TEXT.back}
    </Link>
  );
}

function ReturnView({ ret }: { ret: Return }) {
  const head = ret.orderRef ?? orderIdHead(ret.orderId);
  const exchange = ret.resolution === 'exchange';
  return (
    <div data-testid="desk-return" data-status={ret.status}>
      <div className="mx-auto max-w-7xl px-4 pt-4 sm:px-6">
        <BackToReturns />
      </div>
      <DeskPage
        eyebrow={`Return · ${exchange ? TEXT.exchange : TEXT.refundTo(ret.refundTo)}`}
        title={ret.customerName || `#${head}`}
        action={
          <div className="flex flex-col items-start gap-2 sm:items-end">
            <span data-testid="return-status">
              <ToneBadge tone={returnTone(ret.status)} label={returnStateLabel(ret.status)} />
            </span>
            <span className="font-display text-3xl tabular-nums" data-testid="return-amount">
              {formatUGX(ret.amount)}
            </span>
          </div>
        }
      >
        <p className="mt-4 break-words text-sm text-ink-soft">
          Asked {when(ret.createdAt)} ·{' '}
          <Link
            to="/desk/orders/$orderId"
            params={{ orderId: ret.orderId }}
            className="font-medium text-ink underline underline-offset-4"
            data-testid="return-order-link"
          >
            Order #{head}
          </Link>
          {ret.deliveryArea ? ` · ${ret.deliveryArea}` : ''}
        </p>
        {ret.phone && (
          <a
            href={callLink(ret.phone)}
            className="btn btn-outline mt-4 min-h-12 w-full px-4 sm:w-auto"
          >
            <Phone size={16} aria-hidden /> Call {displayNumber(normalisePhone(ret.phone))}
          </a>
        )}

        <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
          <div className="min-w-0 space-y-8">
            <NextStep ret={ret} />
            <Pieces ret={ret} />
            <ShopperNote ret={ret} />
          </div>
          <div className="min-w-0 space-y-8">
            <Refunds ret={ret} />
            <ReturnRecord ret={ret} />
          </div>
        </div>
      </DeskPage>
    </div>
  );
}

/** Every change here refreshes the whole desk (the queue's counts, the order's page). */
function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
}

/** What the return asks of the desk now, as one card at the top. */
function NextStep({ ret }: { ret: Return }) {
  const step = returnStep(ret);
  return (
    <DeskCard title="Next" testId="return-next">
      {step === 'decide' && <Decide ret={ret} />}
      {step === 'receive' && <Receive ret={ret} />}
      {(step === 'ship' || step === 'deliver') && <MoveExchange ret={ret} step={step} />}
      {step === null && <Closed ret={ret} />}
    </DeskCard>
  );
}

function Closed({ ret }: { ret: Return }) {
  return (
    <div className="mt-3 space-y-2 text-sm">
      {ret.status === 'refused' && ret.staffReason && (
        <p className="break-words">
          <span className="text-ink-soft">Refused: </span>
          {ret.staffReason}
        </p>
      )}
      {ret.handover && (
        <p>
          <span className="text-ink-soft">Handover: </span>
          {HANDOVER_LABEL[ret.handover as Handover] ?? ret.handover}
          {ret.handover === 'pickup' && ret.pickupFee > 0 ? ` · ${formatUGX(ret.pickupFee)}` : ''}
        </p>
      )}
      {ret.exchangeStatus && (
        <p data-testid="exchange-status">
          <span className="text-ink-soft">{TEXT.exchangeDelivery}: </span>
          {EXCHANGE_STATE_LABEL[ret.exchangeStatus as ExchangeState] ?? ret.exchangeStatus}
        </p>
      )}
      <p className="text-ink-soft">
        {ret.status === 'refunded' || ret.status === 'exchanged' || ret.status === 'refused'
          ? TEXT.closed
          : TEXT.waitingForShopper}
      </p>
    </div>
  );
}

/** Approve (with the handover and the rider's fee), or refuse with a reason the shopper reads. */
function Decide({ ret }: { ret: Return }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [handover, setHandover] = useState<Handover>('pickup');
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const name = useId();
  const decide = useMutation(
    trpc.desk.decideReturn.mutationOptions({
      onSuccess: async (_, input) => {
        setProblem(null);
        toast.success(input.decision === 'approve' ? TEXT.approved : TEXT.refused);
        await refresh();
      },
      onError: (error) => setProblem(errorMessage(error, 'The return could not be decided.')),
    }),
  );
  const fee = ret.pickupFee > 0 ? formatUGX(ret.pickupFee) : null;
  return (
    <div className="mt-3">
      {!refusing ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            decide.mutate({ returnId: ret.id, decision: 'approve', handover });
          }}
        >
          <fieldset disabled={decide.isPending}>
            <legend className="text-xs font-semibold uppercase tracking-[0.14em]">
              {TEXT.handover}
            </legend>
            <div className="mt-2 grid gap-2">
              {HANDOVERS.map((choice) => (
                <label
                  key={choice}
                  className="flex min-h-12 cursor-pointer items-start gap-3 border border-line px-3 py-2.5 text-sm has-[:checked]:border-ink"
                >
                  <input
                    type="radio"
                    name={name}
                    value={choice}
                    checked={handover === choice}
                    onChange={() => setHandover(choice)}
                    className="mt-0.5 size-4 shrink-0 accent-[var(--color-ink)]"
                  />
                  <span className="min-w-0">
                    <span className="block font-medium">{HANDOVER_LABEL[choice]}</span>
                    <span className="block text-ink-soft" data-testid={`handover-${choice}-note`}>
                      {choice === 'pickup' ? TEXT.pickupFee(fee) : TEXT.dropOffFree}
                    </span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <Problem text={problem} />
          <SaveOrOther
            pending={decide.isPending}
            save={TEXT.approve}
            other={TEXT.refuse}
            onOther={() => {
              setProblem(null);
              setRefusing(true);
            }}
          />
        </form>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!reason.trim()) {
              setProblem(RETURN_TEXT.refusalNeedsReason);
              return;
            }
            decide.mutate({ returnId: ret.id, decision: 'refuse', reason });
          }}
        >
          <TextArea
            label={TEXT.refuseReason}
            note="At most 300 characters."
            value={reason}
            maxLength={300}
            autoFocus
            onChange={(event) => setReason(event.target.value)}
          />
          <Problem text={problem} />
          <SaveOrOther
            pending={decide.isPending}
            save={TEXT.confirmRefuse}
            other="Cancel"
            onOther={() => {
              setProblem(null);
              setRefusing(false);
            }}
          />
        </form>
      )}
    </div>
  );
}

/** Each piece received as sellable (back in stock) or damaged (kept out); the refund starts. */
function Receive({ ret }: { ret: Return }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [conditions, setConditions] = useState<Record<string, Condition>>(() =>
    Object.fromEntries(ret.lines.map((line) => [line.orderItemId, 'resellable'])),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const receive = useMutation(
    trpc.desk.receiveReturn.mutationOptions({
      onSuccess: async () => {
        setProblem(null);
        toast.success(TEXT.received);
        await refresh();
      },
      onError: (error) => setProblem(errorMessage(error, 'The pieces could not be received.')),
    }),
  );
  return (
    <form
      className="mt-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        receive.mutate({
          returnId: ret.id,
          lines: ret.lines.map((line) => ({
            orderItemId: line.orderItemId,
            condition: conditions[line.orderItemId] ?? 'resellable',
          })),
        });
      }}
    >
      <p className="text-sm text-ink-soft">{TEXT.receiveIntro}</p>
      {ret.handover && (
        <p className="mt-1 text-sm">
          {HANDOVER_LABEL[ret.handover as Handover] ?? ret.handover}
          {ret.handover === 'pickup' && ret.pickupFee > 0
            ? ` · fee ${formatUGX(ret.pickupFee)}`
            : ''}
        </p>
      )}
      <fieldset disabled={receive.isPending} className="mt-3 grid gap-3">
        {ret.lines.map((line) => (
          <fieldset key={line.orderItemId} className="border border-line p-3">
            <legend className="px-1 text-sm font-medium">
              {line.quantity} × {line.name}
              {line.variantLabel ? ` · ${line.variantLabel}` : ''}
            </legend>
            <div className="grid grid-cols-2 gap-2">
              {CONDITIONS.map((condition) => (
                <label
                  key={condition}
                  className="flex min-h-12 cursor-pointer items-center gap-2 border border-line px-3 text-sm has-[:checked]:border-ink has-[:checked]:font-medium"
                >
                  <input
                    type="radio"
                    name={`condition-${line.orderItemId}`}
                    value={condition}
                    checked={conditions[line.orderItemId] === condition}
                    onChange={() =>
                      setConditions((now) => ({ ...now, [line.orderItemId]: condition }))
                    }
                    className="size-4 shrink-0 accent-[var(--color-ink)]"
                  />
                  {CONDITION_LABEL[condition]}
                </label>
              ))}
            </div>
          </fieldset>
        ))}
      </fieldset>
      <Problem text={problem} />
      <SaveButton pending={receive.isPending} className="mt-3 w-full px-5 text-base">
        {TEXT.receive}
      </SaveButton>
    </form>
  );
}

/** The exchange's own delivery: out for delivery, then delivered. */
function MoveExchange({ ret, step }: { ret: Return; step: 'ship' | 'deliver' }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [problem, setProblem] = useState<string | null>(null);
  const move = useMutation(
    trpc.desk.moveExchange.mutationOptions({
      onSuccess: async (_, input) => {
        setProblem(null);
        toast.success(input.to === 'delivered' ? TEXT.deliveredDone : TEXT.shipped);
        await refresh();
      },
      onError: (error) => setProblem(errorMessage(error, 'The exchange could not be moved.')),
    }),
  );
  const pieces = ret.lines
    .map((line) => line.exchangeLabel && `${line.name} · ${line.exchangeLabel}`)
    .filter(Boolean);
  return (
    <form
      className="mt-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        move.mutate({
          returnId: ret.id,
          to: step === 'ship' ? 'out_for_delivery' : 'delivered',
        });
      }}
    >
      <p className="text-sm" data-testid="exchange-status">
        <span className="text-ink-soft">{TEXT.exchangeDelivery}: </span>
        {EXCHANGE_STATE_LABEL[(ret.exchangeStatus ?? 'preparing') as ExchangeState]}
      </p>
      {pieces.length > 0 && (
        <ul className="mt-1 text-sm">
          {pieces.map((piece) => (
            <li key={piece as string} className="break-words font-medium">
              {piece}
            </li>
          ))}
        </ul>
      )}
      {ret.deliveryArea && <p className="mt-1 text-sm text-ink-soft">To {ret.deliveryArea}</p>}
      <Problem text={problem} />
      <SaveButton pending={move.isPending} className="mt-3 w-full px-5 text-base">
        {step === 'ship' ? TEXT.ship : TEXT.delivered}
      </SaveButton>
    </form>
  );
}

function Pieces({ ret }: { ret: Return }) {
  const count = ret.lines.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <DeskCard
      title="Pieces"
      testId="return-pieces"
      aside={<span className="font-normal tabular-nums text-ink-soft">{count}</span>}
    >
      <ul className="divide-y divide-line">
        {ret.lines.map((line) => (
          <PieceLine key={line.orderItemId} line={line} />
        ))}
      </ul>
      {ret.pickupFee > 0 && ret.handover === 'pickup' && (
        <p className="border-t border-line pt-2 text-sm text-ink-soft">
          Rider’s pickup: −{formatUGX(ret.pickupFee)}
        </p>
      )}
    </DeskCard>
  );
}

function PieceLine({ line }: { line: Line }) {
  return (
    <li className="flex gap-3 py-3" data-testid="return-line">
      <div className="min-w-0 flex-1">
        <p className="break-words font-medium">{line.name}</p>
        {line.variantLabel && <p className="text-sm text-ink-soft">{line.variantLabel}</p>}
        <p className="mt-1 text-sm">{reasonLabel(line.reason)}</p>
        {line.exchangeLabel && (
          <p className="text-sm font-medium" data-testid="exchange-for">
            For {line.exchangeLabel}
          </p>
        )}
        {line.condition && (
          <p className="text-sm text-ink-soft">
            {CONDITION_LABEL[line.condition as Condition] ?? line.condition}
          </p>
        )}
      </div>
      <div className="shrink-0 text-right text-sm tabular-nums">
        <p>
          {line.quantity} × {formatUGX(line.price)}
        </p>
      </div>
    </li>
  );
}

function ShopperNote({ ret }: { ret: Return }) {
  return (
    <DeskCard title="From the shopper" testId="return-note">
      <p className="mt-3 whitespace-pre-line break-words text-sm">
        {ret.note || <span className="text-ink-soft">{TEXT.noNote}</span>}
      </p>
      {ret.photos.length > 0 ? (
        <ul className="mt-3 grid grid-cols-3 gap-2" aria-label="Photos">
          {ret.photos.map((url, index) => (
            <li key={url}>
              <a href={url} target="_blank" rel="noopener" className="block">
                <img
                  src={url}
                  alt={`From the shopper, ${index + 1} of ${ret.photos.length}`}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/5] w-full border border-line bg-paper-2 object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-ink-soft">{TEXT.noPhotos}</p>
      )}
    </DeskCard>
  );
}

function Refunds({ ret }: { ret: Return }) {
  return (
    <DeskCard title={TEXT.refunds} testId="return-refunds">
      <ul className="divide-y divide-line">
        {ret.refunds.map((refund) => (
          <RefundRow key={refund.id} refund={refund} />
        ))}
        {ret.refunds.length === 0 && (
          <li className="py-3 text-sm text-ink-soft">
            {ret.resolution === 'exchange' ? TEXT.exchangeNoMoney : TEXT.noRefunds}
          </li>
        )}
      </ul>
    </DeskCard>
  );
}

function RefundRow({ refund }: { refund: Refund }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const retry = useMutation(
    trpc.desk.retryRefund.mutationOptions({
      onSuccess: async () => {
        toast.success(TEXT.retried);
        await refresh();
      },
      onError: (error) => toast.error(errorMessage(error, 'The refund could not be sent again.')),
    }),
  );
  const tone =
    refund.status === 'succeeded'
      ? 'text-success'
      : refund.status === 'failed'
        ? 'text-danger'
        : 'text-gold';
  return (
    <li className="py-3 text-sm" data-testid="return-refund" data-status={refund.status}>
      <p className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium">{refundMethodLabel(refund.method)}</span>
        <span className="font-semibold tabular-nums">{formatUGX(refund.amount)}</span>
      </p>
      <p className={`mt-0.5 font-medium ${tone}`} data-testid="refund-status">
        {REFUND_STATE_LABEL[refund.status] ?? refund.status}
      </p>
      <p className="mt-0.5 break-words text-ink-soft">
        {when(refund.createdAt)}
        {refund.reference ? ` · ref ${refund.reference}` : ''}
        {refund.status === 'succeeded'
          ? ` · ${refund.creditNote ?? creditNoteNumber(refund.id)}`
          : ''}
      </p>
      {refund.status === 'failed' && refund.reason && (
        <p className="mt-0.5 break-words text-danger">{refund.reason}</p>
      )}
      {refund.status === 'failed' && (
        <button
          type="button"
          className="btn btn-outline mt-2 min-h-11 w-full px-4 sm:w-auto"
          disabled={retry.isPending}
          onClick={() => retry.mutate({ refundId: refund.id })}
        >
          {retry.isPending ? 'Sending…' : TEXT.retry}
        </button>
      )}
      {recordedByHand(refund) && <MarkRefunded refundId={refund.id} action={TEXT.recordRefund} />}
    </li>
  );
}

function ReturnRecord({ ret }: { ret: Return }) {
  return (
    <DeskCard title={TEXT.record} testId="return-record">
      <ul className="divide-y divide-line">
        {ret.record.map((entry) => {
          const detail = returnRecordDetail(entry.details);
          return (
            <li key={entry.id} className="py-3 text-sm" data-action={entry.action}>
              <p className="font-medium">{returnRecordLabel(entry.action)}</p>
              {detail && <p className="break-words">{detail}</p>}
              <p className="mt-0.5 break-all text-xs text-ink-soft">
                {entry.actorEmail} · {when(entry.createdAt)}
              </p>
            </li>
          );
        })}
        {ret.record.length === 0 && <li className="py-3 text-sm text-ink-soft">{TEXT.noRecord}</li>}
      </ul>
    </DeskCard>
  );
}

function Problem({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p role="alert" className="mt-3 text-sm text-danger">
      {text}
    </p>
  );
}

/** A decision's two buttons: the form's own (it submits) and the other way (refuse, cancel). */
function SaveOrOther({
  pending,
  save,
  other,
  onOther,
}: {
  pending: boolean;
  save: string;
  other: string;
  onOther: () => void;
}) {
  return (
    <div className="mt-3 grid grid-cols-2 gap-2">
      <SaveButton pending={pending} className="px-4">
        {save}
      </SaveButton>
      <button
        type="button"
        className="btn btn-outline min-h-12 px-4"
        disabled={pending}
        onClick={onOther}
      >
        {other}
      </button>
    </div>
  );
}
