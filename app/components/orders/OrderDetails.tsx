// One order (spec: account, Orders reading A, "Selected order"): Order Confirmation, its total, id,
// customer, date, status and items; a receipt tab (disabled when there is no receipt) and delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Phone, Trash2 } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { VariantLabel } from '#app/components/cart/VariantLabel.tsx';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import {
  DELIVERY_WORDING,
  deliveryLine,
  type OrderDelivery,
  phoneHref,
  phoneText,
  stepLabel,
} from '#core/delivery-choice.ts';
import { orderSteps } from '#core/delivery-rules.ts';
import { formatUGX } from '#core/money.ts';
import { OFFER_CODE_TEXT, offersNote } from '#core/offer-codes.ts';
import {
  formatLongDate,
  ORDERS_TEXT,
  orderCustomerName,
  orderIdHead,
  paymentMethodLabel,
} from '#core/order-rules.ts';
import { OrderPayment } from './OrderPayment';
import { OrderReturns } from './OrderReturns';
import { ReceiptView } from './ReceiptView';
import { StatusBadge } from './StatusBadge';

export type Order = ApiOutput['orders']['list'][number];
export type OrderTab = 'details' | 'receipt';

export function OrderDetails({
  order,
  tab,
  onTab,
  onDeleted,
  ask,
}: {
  order: Order;
  tab: OrderTab;
  onTab: (tab: OrderTab) => void;
  onDeleted: () => Promise<unknown>;
  /** A way to ask the shop about the order (/order-history/{id}: "Ask on WhatsApp"). */
  ask?: ReactNode;
}) {
  const ids = useId();
  const showReceipt = tab === 'receipt' && order.hasReceipt;
  const tabs: { id: OrderTab; label: string; disabled?: boolean }[] = [
    { id: 'details', label: 'Order Details' },
    {
      id: 'receipt',
      label: order.hasReceipt ? 'Receipt' : `Receipt ${ORDERS_TEXT.receiptUnavailable}`,
      disabled: !order.hasReceipt,
    },
  ];
  const current: OrderTab = showReceipt ? 'receipt' : 'details';

  // Arrow keys move between the tabs that can be chosen (WAI-ARIA tabs pattern).
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const open = tabs.filter((t) => !t.disabled);
    const next = open[(open.findIndex((t) => t.id === current) + 1) % open.length];
    if (!next) return;
    onTab(next.id);
    document.getElementById(`${ids}-${next.id}-tab`)?.focus();
  }

  return (
    <div>
      <div
        role="tablist"
        aria-label={`Order ${orderIdHead(order.id)}`}
        className="flex gap-6 border-b border-line print:hidden"
        onKeyDown={onKeyDown}
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`${ids}-${t.id}-tab`}
            type="button"
            role="tab"
            aria-selected={current === t.id}
            aria-controls={`${ids}-panel`}
            tabIndex={current === t.id ? 0 : -1}
            disabled={t.disabled}
            onClick={() => onTab(t.id)}
            className="-mb-px border-b-2 border-transparent pb-3 text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft hover:text-ink disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:text-ink-soft aria-selected:border-ink aria-selected:text-ink"
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        id={`${ids}-panel`}
        role="tabpanel"
        aria-labelledby={`${ids}-${current}-tab`}
        className="pt-6"
      >
        {showReceipt ? (
          <ReceiptView orderId={order.id} onBack={() => onTab('details')} />
        ) : (
          <OrderConfirmation order={order} onDeleted={onDeleted} ask={ask} />
        )}
      </div>
    </div>
  );
}

function OrderConfirmation({
  order,
  onDeleted,
  ask,
}: {
  order: Order;
  onDeleted: () => Promise<unknown>;
  ask?: ReactNode;
}) {
  const trpc = useTRPC();
  // The profile's name is needed only when the order carries none.
  const needsProfile = !order.customerName.trim();
  const profile = useQuery(trpc.account.profile.queryOptions(undefined, { enabled: needsProfile }));
  const customer = orderCustomerName(order.customerName, profile.data?.full_name);
  return (
    <article aria-labelledby="order-confirmation">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="eyebrow">{ORDERS_TEXT.confirmation}</p>
          <h2 id="order-confirmation" className="mt-2 font-display text-3xl sm:text-4xl">
            Order <span className="lining-nums">#{orderIdHead(order.id)}</span>
          </h2>
        </div>
        <div className="sm:text-right">
          <p className="text-xs uppercase tracking-[0.16em] text-ink-soft">Order total</p>
          <p className="mt-1 font-display text-3xl font-semibold lining-nums tabular-nums">
            {formatUGX(order.total)}
          </p>
        </div>
      </header>

      <dl className="mt-6 grid grid-cols-2 gap-x-6 gap-y-4 border-y border-line py-5 text-sm sm:grid-cols-4">
        <Fact label="Customer" value={customer} />
        <Fact label="Order date" value={formatLongDate(order.createdAt)} />
        <div>
          <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">Status</dt>
          <dd className="mt-1.5">
            <StatusBadge status={order.status} />
          </dd>
        </div>
        <Fact label="Payment" value={paymentMethodLabel(order.paymentMethod)} />
      </dl>

      <OrderPayment order={order} />

      <DeliveryProgress delivery={order.delivery} status={order.status} />

      <OrderReturns orderId={order.id} />

      <section className="mt-7" aria-labelledby="items-ordered">
        <h3 id="items-ordered" className="eyebrow">
          Items ordered
        </h3>
        <ul className="mt-3 divide-y divide-line border-b border-line">
          {order.items.map((item) => (
            <li key={item.id} className="flex items-start justify-between gap-4 py-4">
              <div className="min-w-0">
                <p className="font-medium">{item.name}</p>
                <VariantLabel label={item.variant} className="mt-0.5" />
                <p className="mt-1 text-sm text-ink-soft">
                  Qty {item.quantity} × {formatUGX(item.price)}
                </p>
              </div>
              <p className="whitespace-nowrap text-sm font-medium tabular-nums">
                {formatUGX(item.price * item.quantity)}
              </p>
            </li>
          ))}
        </ul>
        <dl className="mt-4 ml-auto max-w-xs space-y-2 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-ink-soft">Subtotal</dt>
            <dd className="tabular-nums">{formatUGX(order.subtotal)}</dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-ink-soft">
              Delivery fee
              <span className="block text-xs">{order.delivery.option}</span>
            </dt>
            <dd className="tabular-nums">{formatUGX(order.deliveryFee)}</dd>
          </div>
          {order.discount > 0 && (
            <div className="flex justify-between gap-4" data-testid="order-discount">
              <dt className="text-ink-soft">
                {OFFER_CODE_TEXT.discount}
                {order.offers.length > 0 && (
                  <span className="block text-xs">{offersNote(order.offers)}</span>
                )}
              </dt>
              <dd className="whitespace-nowrap tabular-nums">− {formatUGX(order.discount)}</dd>
            </div>
          )}
          {order.credit > 0 && (
            <div className="flex justify-between gap-4" data-testid="order-credit">
              <dt className="text-ink-soft">{OFFER_CODE_TEXT.credit}</dt>
              <dd className="whitespace-nowrap tabular-nums">− {formatUGX(order.credit)}</dd>
            </div>
          )}
          <div className="flex items-baseline justify-between gap-4 border-t border-ink pt-3">
            <dt className="text-xs font-semibold uppercase tracking-[0.16em]">Total</dt>
            <dd className="font-display text-2xl font-semibold lining-nums tabular-nums">
              {formatUGX(order.total)}
            </dd>
          </div>
        </dl>
      </section>

      <DeleteOrder order={order} onDeleted={onDeleted} ask={ask} />
    </article>
  );
}

/**
 * How the order reaches the shopper and where it is on its way: Placed → Processing → Ready for
 * pickup → Collected (or out for delivery, with the rider to call, or shipped by bus courier to
 * be collected at the stage after a call).
 */
function DeliveryProgress({ delivery, status }: { delivery: OrderDelivery; status: string }) {
  const steps = orderSteps(delivery.kind, status);
  const phone = phoneText(delivery.phone);
  const wording = DELIVERY_WORDING[delivery.kind];
  const riding = status === 'out_for_delivery' && (delivery.riderName || delivery.riderPhone);
  return (
    <section className="mt-7" aria-labelledby="order-delivery">
      <h3 id="order-delivery" className="eyebrow">
        Delivery
      </h3>
      <p className="mt-2 font-medium" data-testid="order-delivery">
        {deliveryLine(delivery)}
      </p>
      {wording.promise && (
        <p className="mt-0.5 text-sm" data-testid="order-delivery-promise">
          {wording.promise}
        </p>
      )}
      {(phone || delivery.notes) && (
        <p className="mt-0.5 text-sm text-ink-soft">
          {[phone && `${wording.calls} ${phone}`, delivery.notes].filter(Boolean).join(' · ')}
        </p>
      )}
      {status !== 'cancelled' && (
        <ol aria-label="Order progress" className="mt-5 grid sm:grid-cols-4">
          {steps.map((step, index) => {
            const last = index === steps.length - 1;
            return (
              <li
                key={step.status}
                aria-current={step.state === 'current' ? 'step' : undefined}
                data-state={step.state}
                className={`relative flex items-start gap-3 sm:flex-col sm:items-center sm:gap-2 sm:text-center ${last ? '' : 'pb-5 sm:pb-0'}`}
              >
                {!last && (
                  <span
                    aria-hidden
                    className={`absolute top-7 bottom-1 left-3 w-px sm:top-3 sm:right-[calc(-50%+0.875rem)] sm:bottom-auto sm:left-[calc(50%+0.875rem)] sm:h-px sm:w-auto ${
                      step.state === 'done' ? 'bg-ink' : 'bg-line'
                    }`}
                  />
                )}
                <span
                  aria-hidden
                  className={`relative grid size-6 shrink-0 place-items-center rounded-full border ${
                    step.state === 'done'
                      ? 'border-ink bg-ink text-paper'
                      : step.state === 'current'
                        ? 'border-accent bg-paper ring-4 ring-accent/15'
                        : 'border-line bg-paper'
                  }`}
                >
                  {step.state === 'done' && <Check size={13} strokeWidth={2.5} />}
                  {step.state === 'current' && <span className="size-2 rounded-full bg-accent" />}
                </span>
                <span className="min-w-0 pt-0.5 sm:pt-0">
                  <span
                    className={`block text-sm ${
                      step.state === 'next'
                        ? 'text-ink-soft'
                        : step.state === 'current'
                          ? 'font-semibold text-accent'
                          : 'font-medium'
                    }`}
                  >
                    {stepLabel(step.status)}
                  </span>
                  {step.state === 'done' && <span className="sr-only"> (done)</span>}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {riding && (
        <p className="mt-5 flex flex-wrap items-center gap-x-3 gap-y-1 border border-line bg-paper-2 px-4 py-3 text-sm">
          <span>
            Your rider
            {delivery.riderName ? <strong className="ml-1">{delivery.riderName}</strong> : null}
          </span>
          {delivery.riderPhone && (
            <a
              href={phoneHref(delivery.riderPhone)}
              className="inline-flex min-h-11 items-center gap-1.5 font-semibold text-accent underline-offset-4 hover:underline"
            >
              <Phone size={14} aria-hidden />
              {phoneText(delivery.riderPhone)}
            </a>
          )}
        </p>
      )}
    </section>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs uppercase tracking-[0.14em] text-ink-soft">{label}</dt>
      <dd className="mt-1 break-words font-medium">{value}</dd>
    </div>
  );
}

/** The delete control: a confirm dialog, then the spec's toasts; the lists drop the order. Beside
 * it, at the start of the row, the page's way to ask about the order (when it has one). */
function DeleteOrder({
  order,
  onDeleted,
  ask,
}: {
  order: Order;
  onDeleted: () => Promise<unknown>;
  ask?: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.orders.delete.mutationOptions({
      onSuccess: async () => {
        queryClient.setQueryData(trpc.orders.list.queryKey(), (orders) =>
          orders?.filter((o) => o.id !== order.id),
        );
        dialog.current?.close();
        toast.success(ORDERS_TEXT.deleted);
        // Forgotten once the screen has moved on (while shown, a forgotten order is read again).
        await onDeleted();
        queryClient.removeQueries({ queryKey: trpc.orders.byId.queryKey({ id: order.id }) });
        queryClient.removeQueries({
          queryKey: trpc.orders.receipt.queryKey({ orderId: order.id }),
        });
      },
      onError: () => {
        dialog.current?.close();
        toast.error(ORDERS_TEXT.deleteFailed);
      },
    }),
  );
  const head = orderIdHead(order.id);
  return (
    <div className="mt-10 flex flex-col items-start gap-3 print:hidden sm:flex-row sm:items-center">
      {ask}
      <button
        type="button"
        className="btn border border-current text-danger hover:bg-danger hover:text-paper sm:ml-auto"
        onClick={() => dialog.current?.showModal()}
      >
        <Trash2 size={16} aria-hidden />
        Delete order
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`delete-${head}-title`}
        aria-describedby={`delete-${head}-text`}
        className="m-auto w-[min(30rem,92vw)] border border-line bg-paper p-0 text-ink backdrop:bg-black/60"
      >
        <div className="space-y-5 p-7">
          <p className="eyebrow text-danger">Delete order</p>
          <h2 id={`delete-${head}-title`} className="font-display text-2xl leading-snug">
            Delete order #{head}?
          </h2>
          <p id={`delete-${head}-text`} className="text-sm text-ink-soft">
            The order, its items and its receipt are removed from your history. This cannot be
            undone.
          </p>
          <div className="flex flex-wrap justify-end gap-3">
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => dialog.current?.close()}
            >
              Keep order
            </button>
            <button
              type="button"
              className="btn bg-danger text-paper hover:opacity-90"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ id: order.id })}
            >
              {remove.isPending ? 'Deleting...' : 'Delete order'}
            </button>
          </div>
        </div>
      </dialog>
    </div>
  );
}
