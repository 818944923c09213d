// The desk's orders (/desk/orders, issue 10): the money (issue 20: bank transfers and cash to
// confirm, refunds, short or reversed payments), orders with status controls and Mark paid, the
// SMS log with its statistics, a failed text's error and Resend. Staff and owners (the layout,
// app/routes/desk.tsx, checks who may see the desk).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import * as v from 'valibot';
import { Loading } from '#app/components/account/ui.tsx';
import { DeskNotLoaded, DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { MarkPaid, MoneySection } from '#app/components/desk/Money.tsx';
import { OrderPieces } from '#app/components/desk/OrderPieces.tsx';
import { StatusBadge } from '#app/components/orders/StatusBadge.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { DELIVERY_WORDING } from '#core/delivery-choice.ts';
import { isDeliveryKind, ORDER_STEPS, RIDER_NAME_MAX } from '#core/delivery-rules.ts';
import { displayNumber } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import {
  formatOrderDate,
  formatTime,
  ORDER_STATUSES,
  type OrderStatus,
  orderIdHead,
  paymentMethodLabel,
  statusLabel,
} from '#core/order-rules.ts';
import { normalisePhone } from '#core/phone.ts';
import { setStatusInput } from '#core/sms.ts';

export const Route = createFileRoute('/desk/orders')({
  head: privatePageHead('Orders · Desk'),
  component: OrdersDesk,
});

type Sms = ApiOutput['desk']['sms'][number];
type DeskOrder = ApiOutput['desk']['orders'][number];

function OrdersDesk() {
  const trpc = useTRPC();
  const orders = useQuery(trpc.desk.orders.queryOptions());
  const stats = useQuery(trpc.desk.smsStats.queryOptions());
  const sms = useQuery({ ...trpc.desk.sms.queryOptions(), refetchInterval: 3000 });
  if (orders.isPending) return <Loading text="Loading the desk..." />;
  if (orders.isError) {
    return <DeskNotLoaded error={orders.error} />;
  }
  return (
    <DeskPage eyebrow="Desk" title="Orders">
      <MoneySection />

      <section aria-labelledby="sms-stats" className="mt-10">
        <h2 id="sms-stats" className="sr-only">
          SMS statistics
        </h2>
        <dl className="grid grid-cols-2 gap-px border border-line bg-line sm:grid-cols-4">
          {[
            ['Sent', stats.data?.totalSent],
            ['Failed', stats.data?.totalFailed],
            ['Sent today', stats.data?.sentToday],
            ['Failure rate', stats.data ? `${stats.data.failureRate}%` : undefined],
          ].map(([label, value]) => (
            <div key={label} className="bg-paper p-5">
              <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">{label}</dt>
              <dd className="mt-1 font-display text-3xl lining-nums tabular-nums">
                {value ?? '—'}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="mt-10 grid gap-10 xl:grid-cols-2">
        <section aria-labelledby="desk-orders">
          <h2 id="desk-orders" className="font-display text-3xl">
            Orders
          </h2>
          <ul className="mt-4 divide-y divide-line border-y border-line">
            {orders.data.map((order) => (
              <OrderRow key={order.id} order={order} />
            ))}
            {orders.data.length === 0 && <li className="py-6 text-ink-soft">No orders yet</li>}
          </ul>
        </section>

        <section aria-labelledby="desk-sms">
          <h2 id="desk-sms" className="font-display text-3xl">
            SMS log
          </h2>
          <ul className="mt-4 divide-y divide-line border-y border-line" aria-label="SMS log">
            {sms.data?.map((row) => (
              <SmsRow key={row.id} row={row} />
            ))}
            {sms.data?.length === 0 && <li className="py-6 text-ink-soft">No texts yet</li>}
          </ul>
        </section>
      </div>
    </DeskPage>
  );
}

/** The statuses an order of this kind may take (core/delivery-rules.ts ORDER_STEPS), and its own. */
function statusesFor(order: DeskOrder): OrderStatus[] {
  const kind = isDeliveryKind(order.deliveryKind) ? order.deliveryKind : 'delivery';
  const fits = new Set<string>([...ORDER_STEPS[kind], 'completed', 'cancelled', order.status]);
  return ORDER_STATUSES.filter((status) => fits.has(status));
}

function OrderRow({ order }: { order: DeskOrder }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<OrderStatus>(order.status as OrderStatus);
  const [note, setNote] = useState('');
  const [riderName, setRiderName] = useState(order.riderName ?? '');
  const [riderPhone, setRiderPhone] = useState(
    order.riderPhone ? displayNumber(order.riderPhone) : '',
  );
  const [problem, setProblem] = useState<string | null>(null);
  const head = orderIdHead(order.id);
  const save = useMutation(
    trpc.desk.setStatus.mutationOptions({
      onSuccess: async () => {
        setProblem(null);
        toast.success(`Order #${head} is ${statusLabel(status).toLowerCase()}`);
        setNote('');
        await queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() });
      },
      onError: (error) => {
        const text = errorMessage(error, 'The status could not be changed.');
        setProblem(text);
        toast.error(text);
      },
    }),
  );
  const noteLabel =
    status === 'shipped' ? 'Tracking number' : status === 'cancelled' ? 'Reason' : null;
  // Sending it out asks for the rider (shown on the row once it is out).
  const rider = status === 'out_for_delivery' && order.status !== 'out_for_delivery';
  const input = 'min-h-11 border border-line bg-paper px-3 text-base sm:text-sm';
  return (
    <li className="grid gap-3 py-4 sm:grid-cols-[1fr_auto]" aria-label={`Order ${head}`}>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="font-medium">#{head}</span>
          <StatusBadge status={order.status} />
        </p>
        <p className="mt-1 text-sm text-ink-soft">
          {order.customerName} · {order.items} item{order.items === 1 ? '' : 's'} ·{' '}
          {formatUGX(order.total)} · {paymentMethodLabel(order.paymentMethod)} ·{' '}
          {formatOrderDate(order.createdAt)} {formatTime(order.createdAt)}
        </p>
        <OrderPieces pieces={order.pieces} />
        <OrderDelivery order={order} />
        {order.paid && (
          <p className="mt-1 break-words text-sm text-success">
            Paid{order.paidReference ? ` · ref ${order.paidReference}` : ''}
          </p>
        )}
        {order.canMarkPaid && <MarkPaid orderId={order.id} method={order.paymentMethod} />}
      </div>
      <form
        className={`flex flex-wrap items-end gap-2 ${
          rider ? 'sm:col-span-2' : 'sm:max-w-[22rem] sm:justify-end'
        }`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const payload = {
            orderId: order.id,
            status,
            ...(status === 'shipped' && note ? { tracking: note } : {}),
            ...(status === 'cancelled' && note ? { reason: note } : {}),
            ...(rider ? { riderName, riderPhone } : {}),
          };
          const checked = v.safeParse(setStatusInput, payload);
          if (!checked.success) {
            setProblem(checked.issues[0].message);
            return;
          }
          setProblem(null);
          save.mutate(payload);
        }}
      >
        <label className="text-xs">
          <span className="sr-only">Status</span>
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as OrderStatus);
              setProblem(null);
            }}
            className="min-h-11 border border-line bg-paper px-2 text-sm"
            aria-label={`Status of order ${head}`}
          >
            {statusesFor(order).map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </label>
        {noteLabel && (
          <input
            value={note}
            onChange={(event) => setNote(event.target.value)}
            maxLength={status === 'shipped' ? 40 : 120}
            placeholder={noteLabel}
            aria-label={noteLabel}
            className={`${input} w-40`}
          />
        )}
        {rider && (
          <div className="grid w-full grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:w-auto sm:min-w-0 sm:flex-1">
            <label className="text-xs font-semibold uppercase tracking-[0.14em]">
              Rider's name
              <input
                value={riderName}
                onChange={(event) => {
                  setRiderName(event.target.value);
                  setProblem(null);
                }}
                maxLength={RIDER_NAME_MAX}
                autoComplete="off"
                placeholder="Okello"
                className={`${input} mt-1 block w-full font-normal normal-case tracking-normal`}
              />
            </label>
            <label className="text-xs font-semibold uppercase tracking-[0.14em]">
              Rider's phone
              <input
                value={riderPhone}
                onChange={(event) => {
                  setRiderPhone(event.target.value);
                  setProblem(null);
                }}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                placeholder="0772 123 456"
                className={`${input} mt-1 block w-full font-normal normal-case tracking-normal`}
              />
            </label>
          </div>
        )}
        <button
          type="submit"
          className="btn btn-primary min-h-11 px-5"
          disabled={save.isPending || status === order.status}
        >
          Update
        </button>
        {problem && (
          <p role="alert" className="w-full text-sm text-danger">
            {problem}
          </p>
        )}
      </form>
    </li>
  );
}

/**
 * How the order reaches the customer: the option, where the rider goes and whom they call; or,
 * upcountry, the town and the bus company or stage it goes by and whom the shop calls when it
 * arrives there.
 */
function OrderDelivery({ order }: { order: DeskOrder }) {
  const kind = isDeliveryKind(order.deliveryKind) ? order.deliveryKind : 'delivery';
  const wording = DELIVERY_WORDING[kind];
  const courier = kind === 'courier';
  const place = [order.deliveryArea, order.deliveryLandmark].filter(Boolean).join(' · ');
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm" aria-label="Delivery">
      <dt className="text-ink-soft">Delivery</dt>
      <dd className="min-w-0 break-words font-medium">{order.deliveryOption}</dd>
      {courier && (
        <>
          <dt className="sr-only">How</dt>
          <dd className="col-span-2 min-w-0 break-words text-ink-soft">{wording.promise}</dd>
        </>
      )}
      {courier ? (
        <>
          {order.deliveryArea && (
            <>
              <dt className="text-ink-soft">{wording.area}</dt>
              <dd className="min-w-0 break-words">{order.deliveryArea}</dd>
            </>
          )}
          {order.deliveryLandmark && (
            <>
              <dt className="text-ink-soft">{wording.landmark}</dt>
              <dd className="min-w-0 break-words">{order.deliveryLandmark}</dd>
            </>
          )}
        </>
      ) : (
        place && (
          <>
            <dt className="text-ink-soft">Where</dt>
            <dd className="min-w-0 break-words">{place}</dd>
          </>
        )
      )}
      {order.deliveryPhone && kind !== 'pickup' && (
        <>
          <dt className="text-ink-soft">{wording.deskCalls}</dt>
          <dd>
            <a
              className="underline underline-offset-4"
              href={`tel:${normalisePhone(order.deliveryPhone)}`}
            >
              {displayNumber(normalisePhone(order.deliveryPhone))}
            </a>
          </dd>
        </>
      )}
      {order.deliveryNotes && (
        <>
          <dt className="text-ink-soft">Notes</dt>
          <dd className="min-w-0 whitespace-pre-line break-words">{order.deliveryNotes}</dd>
        </>
      )}
      {order.riderName && (
        <>
          <dt className="text-ink-soft">Rider</dt>
          <dd className="min-w-0 break-words">
            {order.riderName}
            {order.riderPhone && (
              <>
                {' · '}
                <a
                  className="underline underline-offset-4"
                  href={`tel:${normalisePhone(order.riderPhone)}`}
                >
                  {displayNumber(order.riderPhone)}
                </a>
              </>
            )}
          </dd>
        </>
      )}
    </dl>
  );
}

function SmsRow({ row }: { row: Sms }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const resend = useMutation(
    trpc.desk.resend.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.desk.pathKey() }),
      onError: (error) => toast.error(errorMessage(error, 'The text could not be resent.')),
    }),
  );
  const tone =
    row.status === 'sent' ? 'text-success' : row.status === 'failed' ? 'text-danger' : 'text-gold';
  return (
    <li className="py-4" data-status={row.status}>
      <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
        <span className={`text-xs font-semibold uppercase tracking-[0.14em] ${tone}`}>
          {row.status}
        </span>
        <span className="font-medium">{row.recipientPhone || '(no number)'}</span>
        <span className="text-ink-soft">
          {row.recipientType} · {row.kind}
          {row.orderId ? ` · #${orderIdHead(row.orderId)}` : ''} ·{' '}
          {formatTime(row.sentAt ?? row.createdAt)}
          {row.attempts > 1 ? ` · ${row.attempts} attempts` : ''}
        </span>
      </p>
      <p className="mt-1 break-words text-sm">{row.message}</p>
      {row.error && <p className="mt-1 break-words text-sm text-danger">{row.error}</p>}
      {row.status === 'failed' && (
        <button
          type="button"
          className="btn btn-outline mt-2 min-h-9 px-3"
          disabled={resend.isPending}
          onClick={() => resend.mutate({ id: row.id })}
        >
          <RotateCw size={14} aria-hidden /> Resend
        </button>
      )}
    </li>
  );
}
