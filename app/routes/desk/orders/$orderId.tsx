// One order on the desk (/desk/orders/{id}, issue 34, decision 0075), made for a phone: the
// reference, status and total; the next sensible move as one big button (with the text it sends
// the customer, before and after) and the full status control; Mark paid and the refunds; the
// packing slip; call and WhatsApp; the pieces with pictures, delivery, payments, the texts sent,
// the staff's private notes and the order's record. Staff and owners (desk.order).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeft, FileText, MessageCircle, Phone } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import * as v from 'valibot';
import { inputClass, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskCard } from '#app/components/desk/DeskCard.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { MarkPaid, MarkRefunded, RefundThroughProvider } from '#app/components/desk/Money.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { TextArea } from '#app/components/desk/TextArea.tsx';
import { StatusBadge, ToneBadge } from '#app/components/orders/StatusBadge.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { DELIVERY_WORDING } from '#core/delivery-choice.ts';
import { ORDER_STEPS, RIDER_NAME_MAX } from '#core/delivery-rules.ts';
import { payerNetworkLabel, paymentStateLabel } from '#core/desk-money.ts';
import {
  callLink,
  DESK_ORDER_TEXT,
  markPaidOffered,
  NOTE_MAX,
  nextMove,
  statusTextPreview,
  whatsAppLink,
} from '#core/desk-order.ts';
import {
  DESK_RETURN_TEXT,
  REFUND_STATE_LABEL,
  refundMethodLabel,
  returnStateLabel,
  returnTone,
} from '#core/desk-returns.ts';
import { ORDER_RECORD_ACTIONS, orderRecordDetail } from '#core/desk-shop.ts';
import { displayNumber } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import { OFFER_CODE_TEXT } from '#core/offer-codes.ts';
import {
  formatOrderDate,
  formatTime,
  ORDER_STATUSES,
  type OrderStatus,
  orderIdHead,
  orderIdTail,
  paymentMethodLabel,
  receiptNumber,
  sourceLabel,
  statusLabel,
} from '#core/order-rules.ts';
import { normalisePhone } from '#core/phone.ts';
import { setStatusInput } from '#core/sms.ts';

export const Route = createFileRoute('/desk/orders/$orderId')({
  head: privatePageHead('Order · Desk'),
  component: OrderPage,
});

type Order = ApiOutput['desk']['order'];

function OrderPage() {
  const { orderId } = Route.useParams();
  const trpc = useTRPC();
  const order = useQuery(trpc.desk.order.queryOptions({ id: orderId }));
  if (order.isPending) return <Loading text="Loading the order..." />;
  if (order.isError) {
    return (
      <DeskPageProblem title="Order" className="mt-6">
        {errorMessage(order.error, 'The order could not be loaded.')}
        <BackToOrders />
      </DeskPageProblem>
    );
  }
  return <OrderView order={order.data} />;
}

function BackToOrders() {
  return (
    <Link
      to="/desk/orders"
      className="mt-3 inline-flex min-h-11 items-center gap-2 text-sm font-medium underline-offset-4 hover:underline"
      data-testid="back-to-orders"
    >
      <ArrowLeft size={16} aria-hidden /> {DESK_ORDER_TEXT.back}
    </Link>
  );
}

const when = (at: string) => `${formatOrderDate(at)} ${formatTime(at)}`;

function OrderView({ order }: { order: Order }) {
  const head = orderIdHead(order.id);
  // The last move made here (the big button or the status control): said at the top, with the
  // text it sent.
  const [moved, setMoved] = useState<Move | null>(null);
  return (
    <div data-testid="desk-order">
      <div className="mx-auto max-w-7xl px-4 pt-4 sm:px-6">
        <BackToOrders />
      </div>
      <DeskPage
        eyebrow={`Order · ${receiptNumber(order.id)}`}
        title={`#${head}`}
        action={
          <div className="flex flex-col items-start gap-2 sm:items-end">
            <span data-testid="order-status">
              <StatusBadge status={order.status} />
            </span>
            <span className="font-display text-3xl tabular-nums" data-testid="order-total">
              {formatUGX(order.total)}
            </span>
          </div>
        }
      >
        <p className="mt-4 break-words text-sm text-ink-soft">
          {when(order.createdAt)} · {sourceLabel(order.source)} ·{' '}
          {paymentMethodLabel(order.paymentMethod)} · {order.paid ? 'Paid' : 'Not paid'} · ends …
          {orderIdTail(order.id)}
          {order.hiddenByShopper ? ' · deleted by the customer from their list' : ''}
        </p>

        <QuickActions order={order} />

        <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
          <div className="min-w-0 space-y-8">
            <NextMoveCard order={order} moved={moved} onMoved={setMoved} />
            <Pieces order={order} />
            {order.returns.length > 0 && <Returns order={order} />}
            <Delivery order={order} />
            <Payments order={order} />
            <Texts order={order} />
          </div>
          <div className="min-w-0 space-y-8">
            <Customer order={order} />
            <StatusControl key={order.status} order={order} onMoved={setMoved} />
            <Notes order={order} />
            <OrderRecord order={order} />
          </div>
        </div>
      </DeskPage>
    </div>
  );
}

/** The statuses an order of its kind may take (core/delivery-rules.ts ORDER_STEPS), and its own. */
function statusesFor(order: Order): OrderStatus[] {
  const fits = new Set<string>([
    ...ORDER_STEPS[order.delivery.kind],
    'completed',
    'cancelled',
    order.status,
  ]);
  return ORDER_STATUSES.filter((status) => fits.has(status));
}

type Move = {
  status: OrderStatus;
  tracking?: string;
  reason?: string;
  riderName?: string;
  riderPhone?: string;
};

/** The status move, sent through desk.setStatus: checked first with the server's own schema. */
function useMove(order: Order, onDone: (move: Move) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation(
    trpc.desk.setStatus.mutationOptions({
      onError: (error) => {
        const text = errorMessage(error, 'The status could not be changed.');
        setProblem(text);
        toast.error(text);
      },
    }),
  );
  const send = (move: Move) => {
    const payload = {
      orderId: order.id,
      status: move.status,
      ...(move.status === 'shipped' && move.tracking ? { tracking: move.tracking } : {}),
      ...(move.status === 'cancelled' && move.reason ? { reason: move.reason } : {}),
      ...(move.status === 'out_for_delivery'
        ? { riderName: move.riderName ?? '', riderPhone: move.riderPhone ?? '' }
        : {}),
    };
    const checked = v.safeParse(setStatusInput, payload);
    if (!checked.success) {
      setProblem(checked.issues[0].message);
      return;
    }
    setProblem(null);
    save.mutate(payload, {
      onSuccess: async () => {
        toast.success(
          `Order #${orderIdHead(order.id)} is ${statusLabel(move.status).toLowerCase()}`,
        );
        onDone(move);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
      },
    });
  };
  return { send, pending: save.isPending, problem, setProblem };
}

/** The text a move sends, as the customer will read it; or why none is sent. */
function TextPreview({ order, move, sent = false }: { order: Order; move: Move; sent?: boolean }) {
  const text = statusTextPreview(order.id, move.status, {
    rider:
      move.status === 'out_for_delivery'
        ? { name: move.riderName ?? '', phone: move.riderPhone ?? '' }
        : null,
    tracking: move.tracking,
    reason: move.reason,
    refund: move.status === 'cancelled' && order.paid,
    days: order.delivery.days,
  });
  if (!text) {
    return <p className="mt-2 text-sm text-ink-soft">{DESK_ORDER_TEXT.noText}</p>;
  }
  if (!order.customer.textsTo) {
    return <p className="mt-2 text-sm text-ink-soft">{DESK_ORDER_TEXT.noTextsTo}</p>;
  }
  return (
    <div className="mt-2 text-sm" data-testid={sent ? 'text-sent' : 'text-preview'}>
      <p className="text-ink-soft">
        {sent ? DESK_ORDER_TEXT.textSent : DESK_ORDER_TEXT.textsCustomer}{' '}
        {displayNumber(order.customer.textsTo)}
      </p>
      <blockquote className="mt-1 break-words border-l-2 border-gold bg-paper-2 px-3 py-2">
        {text}
      </blockquote>
    </div>
  );
}

/** The next sensible move as one big button; a move that asks something (the rider, a tracking
 * number) opens its fields first. After it: the new status and the text it sent. */
function NextMoveCard({
  order,
  moved,
  onMoved,
}: {
  order: Order;
  moved: Move | null;
  onMoved: (move: Move) => void;
}) {
  const next = nextMove({ ...order, deliveryKind: order.delivery.kind });
  const done = moved;
  const [asking, setAsking] = useState(false);
  const [rider, setRider] = useState({ name: '', phone: '' });
  const [tracking, setTracking] = useState('');
  const move = useMove(order, (m) => {
    onMoved(m);
    setAsking(false);
  });
  const offerPaid = markPaidOffered(order);
  return (
    <DeskCard title="Next" testId="next-move">
      {done && done.status === order.status && (
        <div className="mt-3" data-testid="moved">
          <Notice tone="success">{DESK_ORDER_TEXT.moved(done.status)}</Notice>
          <TextPreview order={order} move={done} sent />
        </div>
      )}
      {next.status === null ? (
        <p className="mt-3 text-sm text-ink-soft">{next.why}</p>
      ) : (
        <form
          className="mt-3"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const asks = next.status === 'out_for_delivery' || next.status === 'shipped';
            if (asks && !asking) {
              setAsking(true);
              return;
            }
            move.send({
              status: next.status,
              riderName: rider.name,
              riderPhone: rider.phone,
              tracking,
            });
          }}
        >
          {asking && next.status === 'out_for_delivery' && (
            <RiderFields rider={rider} onChange={setRider} />
          )}
          {asking && next.status === 'shipped' && (
            <label className="mb-3 block text-xs font-semibold uppercase tracking-[0.14em]">
              Tracking number (optional)
              <input
                value={tracking}
                onChange={(event) => setTracking(event.target.value)}
                maxLength={40}
                className={`${inputClass} font-normal normal-case tracking-normal`}
              />
            </label>
          )}
          <button
            type="submit"
            className="btn btn-primary min-h-14 w-full px-6 text-base"
            disabled={move.pending}
            data-testid="next-move-button"
          >
            {move.pending
              ? 'Saving…'
              : asking
                ? `Confirm: ${next.label.toLowerCase()}`
                : next.label}
          </button>
          <TextPreview
            order={order}
            move={{ status: next.status, riderName: rider.name, riderPhone: rider.phone, tracking }}
          />
          {move.problem && (
            <p role="alert" className="mt-2 text-sm text-danger">
              {move.problem}
            </p>
          )}
        </form>
      )}
      {offerPaid && (
        <div className="mt-4 border-t border-line pt-3">
          <p className="text-sm text-ink-soft">
            {order.paymentMethod === 'cash_on_delivery'
              ? 'Cash handed over by the rider? Record it with their reference.'
              : 'Bank transfer arrived? Record it with the bank’s reference.'}
          </p>
          <MarkPaid orderId={order.id} method={order.paymentMethod} />
        </div>
      )}
    </DeskCard>
  );
}

function RiderFields({
  rider,
  onChange,
}: {
  rider: { name: string; phone: string };
  onChange: (rider: { name: string; phone: string }) => void;
}) {
  const label = 'block text-xs font-semibold uppercase tracking-[0.14em]';
  const field = `${inputClass} font-normal normal-case tracking-normal`;
  return (
    <div className="mb-3 grid grid-cols-1 gap-3 min-[480px]:grid-cols-2">
      <label className={label}>
        Rider's name
        <input
          value={rider.name}
          onChange={(event) => onChange({ ...rider, name: event.target.value })}
          maxLength={RIDER_NAME_MAX}
          autoComplete="off"
          placeholder="Okello"
          className={field}
        />
      </label>
      <label className={label}>
        Rider's phone
        <input
          value={rider.phone}
          onChange={(event) => onChange({ ...rider, phone: event.target.value })}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          placeholder="0772 123 456"
          className={field}
        />
      </label>
    </div>
  );
}

/** Every status the order may take, with the tracking number, reason or rider it asks. */
function StatusControl({ order, onMoved }: { order: Order; onMoved: (move: Move) => void }) {
  const [status, setStatus] = useState<OrderStatus>(order.status as OrderStatus);
  const [note, setNote] = useState('');
  const [rider, setRider] = useState({
    name: order.delivery.riderName ?? '',
    phone: order.delivery.riderPhone ? displayNumber(order.delivery.riderPhone) : '',
  });
  const move = useMove(order, onMoved);
  const draft: Move = {
    status,
    tracking: status === 'shipped' ? note : undefined,
    reason: status === 'cancelled' ? note : undefined,
    riderName: rider.name,
    riderPhone: rider.phone,
  };
  const noteLabel =
    status === 'shipped' ? 'Tracking number' : status === 'cancelled' ? 'Reason' : null;
  const asksRider = status === 'out_for_delivery' && order.status !== 'out_for_delivery';
  return (
    <DeskCard title="Status" testId="status-control">
      <form
        className="mt-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          move.send(draft);
        }}
      >
        <label className="block text-xs font-semibold uppercase tracking-[0.14em]">
          Status
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as OrderStatus);
              move.setProblem(null);
            }}
            className={`${inputClass} font-normal normal-case tracking-normal`}
            aria-label={`Status of order ${orderIdHead(order.id)}`}
          >
            {statusesFor(order).map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </label>
        {noteLabel && (
          <label className="mt-3 block text-xs font-semibold uppercase tracking-[0.14em]">
            {noteLabel}
            <input
              value={note}
              onChange={(event) => setNote(event.target.value)}
              maxLength={status === 'shipped' ? 40 : 120}
              className={`${inputClass} font-normal normal-case tracking-normal`}
            />
          </label>
        )}
        {asksRider && (
          <div className="mt-3">
            <RiderFields rider={rider} onChange={setRider} />
          </div>
        )}
        {status !== order.status && <TextPreview order={order} move={draft} />}
        {move.problem && (
          <p role="alert" className="mt-2 text-sm text-danger">
            {move.problem}
          </p>
        )}
        <button
          type="submit"
          className="btn btn-outline mt-3 min-h-12 w-full px-5"
          disabled={move.pending || status === order.status}
        >
          {move.pending ? 'Saving…' : 'Update'}
        </button>
      </form>
    </DeskCard>
  );
}

function Customer({ order }: { order: Order }) {
  const { customer } = order;
  return (
    <DeskCard title="Customer" testId="customer">
      <p className="mt-3 break-words text-lg font-medium">{customer.name}</p>
      <dl className="mt-1 space-y-0.5 text-sm">
        {customer.phone && (
          <div className="flex flex-wrap gap-x-2">
            <dt className="text-ink-soft">Phone</dt>
            <dd className="tabular-nums">{displayNumber(normalisePhone(customer.phone))}</dd>
          </div>
        )}
        {customer.email && (
          <div className="flex min-w-0 flex-wrap gap-x-2">
            <dt className="text-ink-soft">Email</dt>
            <dd className="min-w-0 break-all">{customer.email}</dd>
          </div>
        )}
        <div>
          <dt className="sr-only">Account</dt>
          <dd className="text-ink-soft">
            {customer.account
              ? `Has an account${customer.account.since ? ` since ${formatOrderDate(customer.account.since)}` : ''}`
              : DESK_ORDER_TEXT.noAccount}
          </dd>
        </div>
      </dl>
    </DeskCard>
  );
}

/** Call, WhatsApp and the packing slip: in reach at once, at the top, on a phone. */
function QuickActions({ order }: { order: Order }) {
  const { customer } = order;
  return (
    <div className="mt-4 grid grid-cols-2 gap-2 sm:flex sm:flex-wrap" data-testid="quick-actions">
      {customer.phone && (
        <>
          <a
            href={callLink(customer.phone)}
            className="btn btn-outline min-h-12 px-4"
            data-testid="call-customer"
          >
            <Phone size={16} aria-hidden /> Call
          </a>
          <a
            href={whatsAppLink(customer.phone)}
            target="_blank"
            rel="noopener noreferrer"
            className="btn btn-outline min-h-12 px-4"
            data-testid="whatsapp-customer"
          >
            <MessageCircle size={16} aria-hidden /> WhatsApp
          </a>
        </>
      )}
      <a
        href={`/api/desk/orders/${order.id}/packing-slip.pdf`}
        target="_blank"
        rel="noopener"
        className="btn btn-outline col-span-2 min-h-12 px-4"
        data-testid="packing-slip"
      >
        <FileText size={16} aria-hidden /> {DESK_ORDER_TEXT.packingSlip}
      </a>
    </div>
  );
}

function Pieces({ order }: { order: Order }) {
  const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return (
    <DeskCard
      title="Pieces"
      testId="pieces"
      aside={<span className="font-normal tabular-nums text-ink-soft">{count}</span>}
    >
      <ul className="divide-y divide-line">
        {order.items.map((item) => (
          <li key={item.id} className="flex gap-3 py-3" data-testid="piece">
            <div className="relative h-20 w-16 shrink-0 overflow-hidden bg-paper-2">
              {item.picture ? (
                // A plain thumbnail (the JPEG every picture has): the shop's <ProductImage> would
                // bring its picture helpers into the desk's first load.
                <img
                  src={item.picture}
                  alt={item.name}
                  width={64}
                  height={80}
                  loading="lazy"
                  decoding="async"
                  className="absolute inset-0 size-full object-cover"
                />
              ) : (
                <span className="absolute inset-0 grid place-items-center px-1 text-center text-[0.6rem] leading-tight text-ink-soft">
                  {DESK_ORDER_TEXT.removedProduct}
                </span>
              )}
            </div>
            <div className="min-w-0 flex-1">
              <p className="break-words font-medium">{item.name}</p>
              {item.variant && (
                <p className="text-sm text-ink-soft" data-testid="variant-label">
                  {item.variant}
                </p>
              )}
              {item.sku && <p className="break-all text-xs text-ink-soft">SKU {item.sku}</p>}
            </div>
            <div className="shrink-0 text-right text-sm tabular-nums">
              <p>
                {item.quantity} × {formatUGX(item.price)}
              </p>
              <p className="font-semibold">{formatUGX(item.price * item.quantity)}</p>
            </div>
          </li>
        ))}
        {order.items.length === 0 && (
          <li className="py-3 text-sm text-ink-soft">{DESK_ORDER_TEXT.noItems}</li>
        )}
      </ul>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-t border-line pt-3 text-sm tabular-nums">
        <dt className="text-ink-soft">Subtotal</dt>
        <dd className="text-right">{formatUGX(order.subtotal)}</dd>
        <dt className="text-ink-soft">Delivery</dt>
        <dd className="text-right">{formatUGX(order.deliveryFee)}</dd>
        {order.discount > 0 && (
          <>
            <dt className="text-ink-soft" data-testid="desk-order-discount">
              {OFFER_CODE_TEXT.discount}
              {order.offers.map((offer) => (
                <span key={`${offer.code}-${offer.name}`} className="block text-xs">
                  {offer.code ? `${offer.code} · ${offer.name}` : offer.name}
                  {order.offers.length > 1 && ` (−${formatUGX(offer.amount)})`}
                </span>
              ))}
            </dt>
            <dd className="text-right">−{formatUGX(order.discount)}</dd>
          </>
        )}
        {order.credit > 0 && (
          <>
            <dt className="text-ink-soft">{OFFER_CODE_TEXT.credit}</dt>
            <dd className="text-right">−{formatUGX(order.credit)}</dd>
          </>
        )}
        <dt className="font-semibold">Total</dt>
        <dd className="text-right font-semibold">{formatUGX(order.total)}</dd>
      </dl>
    </DeskCard>
  );
}

function Delivery({ order }: { order: Order }) {
  const { delivery } = order;
  const wording = DELIVERY_WORDING[delivery.kind];
  const rows: [string, ReactNode][] = [['Option', delivery.option]];
  // Upcountry: how it goes (by bus, collected at the stage).
  if (delivery.kind === 'courier') rows.push(['How', wording.promise]);
  if (delivery.area)
    rows.push([delivery.kind === 'courier' ? wording.area : 'Area', delivery.area]);
  if (delivery.landmark) {
    rows.push([delivery.kind === 'courier' ? wording.landmark : 'Landmark', delivery.landmark]);
  }
  if (delivery.phone && delivery.kind !== 'pickup') {
    rows.push([
      wording.deskCalls,
      <a
        key="phone"
        className="underline underline-offset-4"
        href={callLink(delivery.phone)}
        data-testid="delivery-phone"
      >
        {displayNumber(normalisePhone(delivery.phone))}
      </a>,
    ]);
  }
  if (delivery.notes) rows.push(['Notes', delivery.notes]);
  if (delivery.riderName) {
    rows.push([
      'Rider',
      <span key="rider">
        {delivery.riderName}
        {delivery.riderPhone && (
          <>
            {' · '}
            <a className="underline underline-offset-4" href={callLink(delivery.riderPhone)}>
              {displayNumber(delivery.riderPhone)}
            </a>
          </>
        )}
      </span>,
    ]);
  }
  return (
    <DeskCard title="Delivery" testId="delivery">
      <dl className="mt-3 grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-soft">{label}</dt>
            <dd className="min-w-0 whitespace-pre-line break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </DeskCard>
  );
}

function Payments({ order }: { order: Order }) {
  return (
    <DeskCard title="Payments and refunds" testId="payments">
      <ul className="divide-y divide-line">
        {order.payments.map((payment) => (
          <li key={payment.id} className="py-3 text-sm" data-status={payment.status}>
            <p className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-medium">
                {payerNetworkLabel(payment.network)} · {paymentStateLabel(payment.status)}
              </span>
              <span className="font-semibold tabular-nums">{formatUGX(payment.amount)}</span>
            </p>
            <p className="mt-0.5 break-words text-ink-soft">
              {when(payment.createdAt)}
              {payment.phone ? ` · ${displayNumber(payment.phone)}` : ''}
              {payment.transactionId ? ` · ref ${payment.transactionId}` : ''}
              {payment.confirmedBy ? ` · confirmed by ${payment.confirmedBy}` : ''}
            </p>
            {payment.status === 'refunded' && (
              <p className="mt-0.5 break-words text-success">
                Refunded{payment.refundReference ? ` · ref ${payment.refundReference}` : ''}
                {payment.refundedAt ? ` · ${when(payment.refundedAt)}` : ''}
              </p>
            )}
            <PaymentRefund order={order} payment={payment} />
          </li>
        ))}
        {order.refunds.map((refund) => (
          <li
            key={refund.id}
            className="py-3 text-sm"
            data-testid="order-refund"
            data-status={refund.status}
          >
            <p className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-medium">
                Refund · {refundMethodLabel(refund.method)} ·{' '}
                {REFUND_STATE_LABEL[refund.status] ?? refund.status}
              </span>
              <span className="font-semibold tabular-nums">{formatUGX(refund.amount)}</span>
            </p>
            <p className="mt-0.5 break-words text-ink-soft">
              {when(refund.createdAt)}
              {refund.reference ? ` · ref ${refund.reference}` : ''}
              {refund.returnId && (
                <>
                  {' · '}
                  <Link
                    to="/desk/returns/$returnId"
                    params={{ returnId: refund.returnId }}
                    className="underline underline-offset-4"
                  >
                    its return
                  </Link>
                </>
              )}
            </p>
            {refund.status === 'failed' && refund.reason && (
              <p className="mt-0.5 break-words text-danger">{refund.reason}</p>
            )}
          </li>
        ))}
        {order.payments.length === 0 && (
          <li className="py-3 text-sm text-ink-soft">{DESK_ORDER_TEXT.noPayments}</li>
        )}
      </ul>
    </DeskCard>
  );
}

/**
 * What the desk can do about a payment owed back: send it back through its provider (once; a
 * refund already on its way says so) or record one paid by hand.
 */
function PaymentRefund({ order, payment }: { order: Order; payment: Order['payments'][number] }) {
  if (payment.status !== 'refund_due' && payment.status !== 'short') return null;
  const live = order.refunds.find(
    (refund) =>
      refund.paymentId === payment.id &&
      (refund.status === 'requested' || refund.status === 'sent'),
  );
  if (live) {
    return <p className="mt-1 text-gold">{DESK_RETURN_TEXT.refundWaiting}</p>;
  }
  return (
    <div className="sm:flex sm:flex-wrap sm:items-start">
      {payment.status === 'refund_due' && (
        <RefundThroughProvider paymentId={payment.id} network={payment.network} />
      )}
      <MarkRefunded paymentId={payment.id} />
    </div>
  );
}

/** The returns asked on this order (issue 36), each a link to its page. */
function Returns({ order }: { order: Order }) {
  return (
    <DeskCard title={DESK_RETURN_TEXT.orderReturns} testId="order-returns">
      <ul className="divide-y divide-line">
        {order.returns.map((ret) => (
          <li key={ret.id}>
            <Link
              to="/desk/returns/$returnId"
              params={{ returnId: ret.id }}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-3 text-sm hover:bg-sand/40"
              data-testid="order-return"
            >
              <span className="flex flex-wrap items-center gap-2">
                <ToneBadge tone={returnTone(ret.status)} label={returnStateLabel(ret.status)} />
                <span className="font-medium">
                  {ret.resolution === 'exchange'
                    ? DESK_RETURN_TEXT.exchange
                    : DESK_RETURN_TEXT.refund}
                </span>
                <span className="text-ink-soft">{when(ret.createdAt)}</span>
              </span>
              <span className="font-semibold tabular-nums">{formatUGX(ret.amount)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </DeskCard>
  );
}

function Texts({ order }: { order: Order }) {
  return (
    <DeskCard title="Messages sent" testId="texts">
      <ul className="divide-y divide-line">
        {order.texts.map((text) => (
          <li key={text.id} className="py-3 text-sm" data-kind={text.kind}>
            <p className="flex flex-wrap items-baseline gap-x-2 text-ink-soft">
              <span
                className={`text-xs font-semibold uppercase tracking-[0.14em] ${
                  text.status === 'sent'
                    ? 'text-success'
                    : text.status === 'failed'
                      ? 'text-danger'
                      : 'text-gold'
                }`}
              >
                {text.status}
              </span>
              <span>
                {text.channel === 'whatsapp' ? 'WhatsApp' : 'SMS'}
                {text.whatsappStatus && text.channel === 'whatsapp'
                  ? ` (${text.whatsappStatus})`
                  : ''}{' '}
                · {text.kind.replace(/-/g, ' ')} · to {text.recipientType}{' '}
                {text.recipientPhone ? displayNumber(text.recipientPhone) : ''} ·{' '}
                {when(text.sentAt ?? text.createdAt)}
              </span>
            </p>
            <p className="mt-1 break-words">{text.message}</p>
            {text.fallback && (
              <p className="mt-1 break-words text-ink-soft" data-testid="fallback">
                {text.fallback}
              </p>
            )}
            {text.error && <p className="mt-1 break-words text-danger">{text.error}</p>}
          </li>
        ))}
        {order.texts.length === 0 && (
          <li className="py-3 text-sm text-ink-soft">{DESK_ORDER_TEXT.noTexts}</li>
        )}
      </ul>
    </DeskCard>
  );
}

function Notes({ order }: { order: Order }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // One key per note typed: a retry after a dropped answer saves it once.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const save = useMutation(
    trpc.desk.addOrderNote.mutationOptions({
      onSuccess: async () => {
        setText('');
        setProblem(null);
        setRequestKey(crypto.randomUUID());
        toast.success(DESK_ORDER_TEXT.noteSaved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.order.pathKey() });
      },
      onError: (error) => setProblem(errorMessage(error, 'The note could not be saved.')),
    }),
  );
  return (
    <DeskCard title="Notes" testId="notes">
      <ul className="divide-y divide-line">
        {order.notes.map((note) => (
          <li key={note.id} className="py-3 text-sm" data-testid="note">
            <p className="whitespace-pre-line break-words">
              {(note.details as { text?: string }).text}
            </p>
            <p className="mt-1 break-all text-xs text-ink-soft">
              {note.actorEmail} · {when(note.createdAt)}
            </p>
          </li>
        ))}
        {order.notes.length === 0 && (
          <li className="py-3 text-sm text-ink-soft">{DESK_ORDER_TEXT.noNotes}</li>
        )}
      </ul>
      <form
        className="mt-2"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!text.trim()) {
            setProblem(DESK_ORDER_TEXT.badNote);
            return;
          }
          save.mutate({ orderId: order.id, text, requestKey });
        }}
      >
        <TextArea
          label="Add a note"
          note={DESK_ORDER_TEXT.notesPrivate}
          value={text}
          maxLength={NOTE_MAX}
          onChange={(event) => setText(event.target.value)}
        />
        {problem && (
          <p role="alert" className="mt-2 text-sm text-danger">
            {problem}
          </p>
        )}
        <SaveButton pending={save.isPending} className="mt-3 w-full px-5">
          Save
        </SaveButton>
      </form>
    </DeskCard>
  );
}

function OrderRecord({ order }: { order: Order }) {
  return (
    <DeskCard title="Record" testId="order-record">
      <ul className="divide-y divide-line">
        {order.record.map((entry) => {
          const detail = orderRecordDetail(entry.action, entry.details);
          return (
            <li key={entry.id} className="py-3 text-sm" data-action={entry.action}>
              <p className="font-medium">
                {ORDER_RECORD_ACTIONS[entry.action as keyof typeof ORDER_RECORD_ACTIONS] ??
                  entry.action}
              </p>
              {detail && entry.action !== 'order.noted' && <p className="break-words">{detail}</p>}
              <p className="mt-0.5 break-all text-xs text-ink-soft">
                {entry.actorEmail} · {when(entry.createdAt)}
              </p>
            </li>
          );
        })}
        {order.record.length === 0 && (
          <li className="py-3 text-sm text-ink-soft">{DESK_ORDER_TEXT.noRecord}</li>
        )}
      </ul>
    </DeskCard>
  );
}
