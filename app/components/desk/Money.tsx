// The desk's money (decision 0037): orders whose money has not arrived (bank transfers and cash
// to confirm with Mark paid; mobile-money and card payments waiting), refunds due with Mark
// refunded, short or reversed payments, and refunds recorded this week; above them, when Airtel
// refuses the shop's signature, the setting to change (decision 0062). Phone first: the owner
// uses it with one hand.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessage } from '#app/error-message.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import {
  MONEY_TEXT,
  payerNetworkLabel,
  paymentStateLabel,
  REFERENCE_MAX,
  waitedFor,
} from '#core/desk-money.ts';
import { DESK_RETURN_TEXT, refundProvider } from '#core/desk-returns.ts';
import { formatUGX } from '#core/money.ts';
import { orderIdHead, paymentMethodLabel, statusLabel } from '#core/order-rules.ts';

type Money = ApiOutput['desk']['money'];
type AwaitingOrder = Money['toConfirm'][number];
type MoneyRow = Money['refundsDue'][number];

export function MoneySection() {
  const trpc = useTRPC();
  const money = useQuery({ ...trpc.desk.money.queryOptions(), refetchInterval: 15_000 });
  const data = money.data;
  const sum = (rows: ({ total: number } | MoneyRow)[]) =>
    rows.reduce((total, row) => total + ('total' in row ? row.total : heldAmount(row)), 0);
  return (
    <section aria-labelledby="desk-money" className="mt-8">
      <h2 id="desk-money" className="font-display text-3xl">
        Money
      </h2>
      {money.isError && (
        <p className="mt-3 text-sm text-danger">
          {errorMessage(money.error, 'The money could not be loaded.')}
        </p>
      )}
      {data?.airtelSignature && (
        // Every Airtel payment fails until the owner changes a setting: said first, in full.
        <p role="alert" className="mt-3 border border-danger p-3 text-sm text-danger">
          {data.airtelSignature}
        </p>
      )}
      <dl className="mt-4 grid grid-cols-3 gap-px border border-line bg-line">
        {[
          ['To confirm', data?.toConfirm.length, data && sum(data.toConfirm)],
          ['Refunds due', data?.refundsDue.length, data && sum(data.refundsDue)],
          ['Short or reversed', data?.shortOrReversed.length, data && sum(data.shortOrReversed)],
        ].map(([label, count, total]) => (
          <div key={label} className="min-w-0 bg-paper p-3 sm:p-5">
            <dt className="min-h-[2lh] text-[0.68rem] uppercase leading-tight tracking-[0.12em] text-ink-soft sm:min-h-0 sm:text-xs">
              {label}
            </dt>
            <dd className="mt-1 text-2xl font-semibold tabular-nums">{count ?? '—'}</dd>
            <dd className="truncate text-xs tabular-nums text-ink-soft">
              {typeof total === 'number' ? formatUGX(total) : ''}
            </dd>
          </div>
        ))}
      </dl>

      <div className="mt-6 grid gap-8 lg:grid-cols-2">
        <MoneyList
          title="Bank transfers and cash to confirm"
          empty="Nothing to confirm."
          count={data?.toConfirm.length}
        >
          {data?.toConfirm.map((order) => (
            <AwaitingRow key={order.orderId} order={order} confirm />
          ))}
        </MoneyList>

        <MoneyList
          title="Refunds due"
          empty="No money is due back."
          count={data?.refundsDue.length}
        >
          {data?.refundsDue.map((row) => (
            <PaymentRow key={row.id} row={row} />
          ))}
        </MoneyList>

        <MoneyList
          title="Short or reversed"
          empty="No short or reversed payments."
          count={data?.shortOrReversed.length}
        >
          {data?.shortOrReversed.map((row) => (
            <PaymentRow key={row.id} row={row} />
          ))}
        </MoneyList>

        <MoneyList
          title="Mobile money and card waiting"
          empty="No payment is waiting."
          count={data?.waiting.length}
        >
          {data?.waiting.map((order) => (
            <AwaitingRow key={order.orderId} order={order} />
          ))}
        </MoneyList>

        {data && data.refunded.length > 0 && (
          <MoneyList title="Refunded this week" empty="" count={data.refunded.length}>
            {data.refunded.map((row) => (
              <PaymentRow key={row.id} row={row} />
            ))}
          </MoneyList>
        )}
      </div>
    </section>
  );
}

function MoneyList({
  title,
  empty,
  count,
  children,
}: {
  title: string;
  empty: string;
  count: number | undefined;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0">
      <h3 id={id} className="flex items-baseline justify-between gap-3 border-b border-ink pb-2">
        <span className="text-sm font-semibold uppercase tracking-[0.14em]">{title}</span>
        <span className="text-sm tabular-nums text-ink-soft">{count ?? ''}</span>
      </h3>
      <ul className="divide-y divide-line" aria-label={title}>
        {children}
        {count === 0 && <li className="py-4 text-sm text-ink-soft">{empty}</li>}
      </ul>
    </section>
  );
}

/** An order whose money has not arrived; `confirm`: the desk confirms it (Mark paid). */
function AwaitingRow({ order, confirm }: { order: AwaitingOrder; confirm?: boolean }) {
  const head = orderIdHead(order.orderId);
  const payment = order.paymentStatus
    ? `${payerNetworkLabel(order.paymentNetwork ?? '')}: ${paymentStateLabel(order.paymentStatus)}`
    : null;
  return (
    <li className="py-3" aria-label={`Awaiting #${head}`}>
      <p className="flex items-baseline justify-between gap-3">
        <span className="font-medium">#{head}</span>
        <span className="font-semibold tabular-nums">{formatUGX(order.total)}</span>
      </p>
      <p className="mt-0.5 text-sm text-ink-soft">
        {paymentMethodLabel(order.paymentMethod)} · {order.customerName || 'Customer'} ·{' '}
        {statusLabel(order.status)} · waiting {waitedFor(order.createdAt)}
        {!confirm && payment ? ` · ${payment}` : ''}
      </p>
      {confirm && <MarkPaid orderId={order.orderId} method={order.paymentMethod} />}
    </li>
  );
}

/** What the shop holds of a payment: what arrived of a short one, else the amount. */
const heldAmount = (row: MoneyRow) => (row.status === 'short' ? (row.received ?? 0) : row.expected);

const ago = (at: string) => {
  const waited = waitedFor(at);
  return waited === 'just now' ? waited : `${waited} ago`;
};

function PaymentRow({ row }: { row: MoneyRow }) {
  const head = row.orderId ? `#${orderIdHead(row.orderId)}` : 'Deleted order';
  const refundable = row.status === 'refund_due' || row.status === 'short';
  return (
    <li className="py-3" aria-label={`Payment for ${head}`} data-status={row.status}>
      <p className="flex items-baseline justify-between gap-3">
        <span className="font-medium">{head}</span>
        <span className="font-semibold tabular-nums">{formatUGX(heldAmount(row))}</span>
      </p>
      <p className="mt-0.5 break-words text-sm text-ink-soft">
        {payerNetworkLabel(row.network)}
        {row.phone ? ` · ${row.phone}` : ''}
        {row.customerName ? ` · ${row.customerName}` : ''}
        {row.transactionId ? ` · ref ${row.transactionId}` : ''} · {ago(row.createdAt)}
      </p>
      {(row.status === 'short' || row.status === 'reversed') && (
        <p className="mt-0.5 text-sm">
          {row.status === 'short' ? 'Short: ' : 'Reversed: '}
          received{' '}
          <span className="tabular-nums">
            {row.received === null
              ? 'nothing'
              : `${row.receivedCurrency && row.receivedCurrency !== 'UGX' ? `${row.receivedCurrency} ${row.received}` : formatUGX(row.received)}`}
          </span>{' '}
          of <span className="tabular-nums">{formatUGX(row.expected)}</span>
        </p>
      )}
      {row.status === 'refunded' && (
        <p className="mt-0.5 text-sm text-success">
          Refunded{row.refundReference ? ` · ref ${row.refundReference}` : ''}
        </p>
      )}
      {row.status === 'refund_due' && (
        <RefundThroughProvider paymentId={row.id} network={row.network} />
      )}
      {refundable && <MarkRefunded paymentId={row.id} />}
    </li>
  );
}

/** Mark paid: asks the bank's (or the rider's) reference, then confirms. */
export function MarkPaid({ orderId, method }: { orderId: string; method: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const head = orderIdHead(orderId);
  const mark = useMutation(
    trpc.desk.markPaid.mutationOptions({
      onSuccess: async () => {
        toast.success(MONEY_TEXT.markedPaid(head));
        await queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
      },
      onError: (error) => toast.error(errorMessage(error, 'The payment could not be recorded.')),
    }),
  );
  return (
    <ReferenceForm
      action="Mark paid"
      label={method === 'cash_on_delivery' ? 'Rider’s reference' : 'Bank reference'}
      describedAs={`order ${head}`}
      pending={mark.isPending}
      onConfirm={(reference) => mark.mutate({ orderId, reference })}
    />
  );
}

/**
 * Mark refunded: the reference of money paid back outside the shop, for a payment owed back, or
 * for a return's refund paid by hand (bank transfer, cash). `action` names the button.
 */
export function MarkRefunded({
  action = 'Mark refunded',
  ...target
}: ({ paymentId: string } | { refundId: string }) & { action?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mark = useMutation(
    trpc.desk.markRefunded.mutationOptions({
      onSuccess: async () => {
        toast.success(MONEY_TEXT.markedRefunded);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
      },
      onError: (error) => toast.error(errorMessage(error, 'The refund could not be recorded.')),
    }),
  );
  return (
    <ReferenceForm
      action={action}
      label="Refund reference"
      describedAs={'refundId' in target ? 'this refund' : 'this payment'}
      pending={mark.isPending}
      onConfirm={(reference) => mark.mutate({ ...target, reference })}
    />
  );
}

/**
 * A payment owed back (refund_due) sent back through the provider that took it (desk.refundPayment):
 * MTN and Airtel by disbursement, a card by Pesapal's refund. Bank transfers and cash have no
 * such button: staff pay them by hand and Mark refunded.
 */
export function RefundThroughProvider({
  paymentId,
  network,
}: {
  paymentId: string;
  network: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const provider = refundProvider(network);
  const refund = useMutation(
    trpc.desk.refundPayment.mutationOptions({
      onSuccess: async (answer) => {
        if (answer.status === 'failed') {
          toast.error(DESK_RETURN_TEXT.refundFailed);
        } else {
          toast.success(DESK_RETURN_TEXT.refundStarted(provider ?? network));
        }
        await queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
      },
      onError: (error) => toast.error(errorMessage(error, 'The refund could not be sent.')),
    }),
  );
  if (!provider) return null;
  return (
    <button
      type="button"
      className="btn btn-primary mt-2 min-h-11 w-full px-4 sm:mr-2 sm:w-auto"
      disabled={refund.isPending}
      onClick={() => refund.mutate({ paymentId })}
    >
      {refund.isPending ? 'Sending…' : DESK_RETURN_TEXT.refundThrough(provider)}
    </button>
  );
}

/** A button that opens a one-field form for the reference; Confirm sends it. */
function ReferenceForm({
  action,
  label,
  describedAs,
  pending,
  onConfirm,
}: {
  action: string;
  label: string;
  describedAs: string;
  pending: boolean;
  onConfirm: (reference: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [reference, setReference] = useState('');
  const inputId = useId();
  if (!open) {
    return (
      <button
        type="button"
        className="btn btn-outline mt-2 min-h-11 w-full px-4 sm:w-auto"
        onClick={() => setOpen(true)}
      >
        {action}
      </button>
    );
  }
  return (
    <form
      className="mt-2 grid grid-cols-[1fr_auto] items-end gap-2 sm:flex sm:flex-wrap"
      aria-label={`${action}: ${describedAs}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (reference.trim()) onConfirm(reference.trim());
      }}
    >
      <label htmlFor={inputId} className="col-span-2 text-xs text-ink-soft sm:w-full">
        {label}
      </label>
      <input
        id={inputId}
        value={reference}
        onChange={(event) => setReference(event.target.value)}
        maxLength={REFERENCE_MAX}
        required
        autoComplete="off"
        // biome-ignore lint/a11y/noAutofocus: the desk just asked for this field
        autoFocus
        className="col-span-2 min-h-11 min-w-0 border border-line bg-paper px-3 text-base sm:w-56 sm:text-sm"
      />
      <button
        type="submit"
        className="btn btn-primary min-h-11 px-4"
        disabled={pending || !reference.trim()}
      >
        Confirm
      </button>
      <button
        type="button"
        className="btn btn-outline min-h-11 px-4"
        onClick={() => {
          setOpen(false);
          setReference('');
        }}
      >
        Cancel
      </button>
    </form>
  );
}
