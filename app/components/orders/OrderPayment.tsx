// Where an order's payment stands, told truthfully on the order screens: paid (method and
// reference), waiting (with the way to pay: Retry payment, Pay now, the bank details, pay on
// delivery), declined with its reason and Try again, expired with Retry payment.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Clock, Landmark, Truck, XCircle } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { useCardPayment } from '#app/components/checkout/CardPayment.tsx';
import { BankDetails } from '#app/components/payments/BankDetails.tsx';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { displayNumber, PAYMENT_TEXT } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import { paymentMethodLabel, receiptNumber } from '#core/order-rules.ts';
import {
  PAYMENT_STATE_TEXT,
  type PaymentStanding,
  paymentStanding,
  STANDING_LABEL,
} from '#core/payment-states.ts';
import type { Order } from './OrderDetails';

// The payment screen loads when the shopper asks to pay again, not with the order.
const MobileMoneyPayment = lazy(() =>
  import('#app/components/checkout/MobileMoneyPayment.tsx').then((m) => ({
    default: m.MobileMoneyPayment,
  })),
);

type Tone = 'paid' | 'waiting' | 'problem' | 'quiet';

const toneOf = (standing: PaymentStanding): Tone => {
  switch (standing.kind) {
    case 'paid':
      return 'paid';
    case 'waiting':
    case 'pay-on-delivery':
      return 'waiting';
    case 'cancelled':
      return 'quiet';
    default:
      return 'problem';
  }
};

const TONE_TEXT: Record<Tone, string> = {
  paid: 'text-success',
  waiting: 'text-gold',
  problem: 'text-danger',
  quiet: 'text-ink-soft',
};

/** 'Paid', 'Awaiting payment', 'Declined'...: a short line for the order lists. */
export function PaymentBadge({ order }: { order: Order }) {
  const standing = paymentStanding(order, order.payment);
  // A cancelled order's status badge says it all.
  if (standing.kind === 'cancelled') return null;
  const tone = toneOf(standing);
  return (
    <span
      data-payment={standing.kind}
      className={`inline-flex items-center gap-1.5 text-xs font-semibold tracking-wide ${TONE_TEXT[tone]}`}
    >
      <span aria-hidden className="size-1.5 rounded-full bg-current" />
      <span className="sr-only">Payment: </span>
      {STANDING_LABEL[standing.kind]}
    </span>
  );
}

/** The order's payment panel on its details. */
export function OrderPayment({ order }: { order: Order }) {
  const standing = paymentStanding(order, order.payment);
  // Cancelled and never paid: nothing to pay, nothing to say beyond the status.
  if (standing.kind === 'cancelled') return null;
  const tone = toneOf(standing);
  const method = order.paymentMethod;
  const Icon =
    tone === 'paid'
      ? CheckCircle2
      : tone === 'problem'
        ? XCircle
        : method === 'bank_transfer'
          ? Landmark
          : method === 'cash_on_delivery'
            ? Truck
            : Clock;
  const title =
    standing.kind === 'paid'
      ? PAYMENT_STATE_TEXT.paidWith(paymentMethodLabel(method))
      : standing.kind === 'waiting'
        ? PAYMENT_STATE_TEXT.waiting
        : standing.kind === 'declined'
          ? PAYMENT_STATE_TEXT.declinedTitle
          : standing.kind === 'failed'
            ? PAYMENT_STATE_TEXT.failedTitle
            : standing.kind === 'expired'
              ? PAYMENT_STATE_TEXT.expiredTitle
              : STANDING_LABEL[standing.kind];
  const frame =
    tone === 'paid'
      ? 'border-success/40 bg-success/5'
      : tone === 'problem'
        ? 'border-danger/40 bg-danger/5'
        : tone === 'waiting'
          ? 'border-gold/60 bg-gold/5'
          : 'border-line';
  return (
    <section
      className={`mt-6 border p-5 sm:p-6 print:hidden ${frame}`}
      aria-labelledby={`payment-${order.id}`}
      data-testid="order-payment"
    >
      <div className="flex items-start gap-3">
        <Icon
          size={22}
          strokeWidth={1.5}
          className={`mt-0.5 shrink-0 ${TONE_TEXT[tone]}`}
          aria-hidden
        />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft">
            {PAYMENT_STATE_TEXT.heading}
          </p>
          <h3 id={`payment-${order.id}`} className="mt-1 font-display text-2xl leading-snug">
            {title}
          </h3>
          <div className="mt-2 text-sm">
            <StandingDetails order={order} standing={standing} />
          </div>
        </div>
      </div>
    </section>
  );
}

function StandingDetails({ order, standing }: { order: Order; standing: PaymentStanding }) {
  const method = order.paymentMethod;
  switch (standing.kind) {
    case 'paid': {
      const label =
        method === 'bank_transfer' || method === 'cash_on_delivery'
          ? PAYMENT_STATE_TEXT.reference
          : PAYMENT_STATE_TEXT.transactionId;
      return standing.transactionId ? (
        <p className="text-ink-soft">
          {label} <span className="font-medium text-ink break-all">{standing.transactionId}</span>
        </p>
      ) : null;
    }
    case 'cancelled':
      return null;
    case 'pay-on-delivery':
      return <p className="text-ink-soft">{PAYMENT_STATE_TEXT.payOnDeliveryNote}</p>;
    case 'refund':
    case 'short':
      return <p>{standing.message}</p>;
    case 'waiting':
      if (method === 'bank_transfer') {
        return (
          <div className="space-y-4">
            <p className="text-ink-soft">{PAYMENT_STATE_TEXT.bankAfter(formatUGX(order.total))}</p>
            <BankDetails reference={receiptNumber(order.id)} />
          </div>
        );
      }
      if (method === 'card') {
        return (
          <PayAgain order={order} text={PAYMENT_STATE_TEXT.waitingCard} action="pay-now">
            {standing.started && <CardStatusWatch orderId={order.id} />}
          </PayAgain>
        );
      }
      return (
        <PayAgain
          order={order}
          text={PAYMENT_STATE_TEXT.waitingMobileMoney}
          action={PAYMENT_TEXT.retryPayment}
        />
      );
    case 'declined':
    case 'failed':
      return <PayAgain order={order} text={standing.message} action={PAYMENT_TEXT.tryAgain} />;
    case 'expired':
      return <PayAgain order={order} text={standing.message} action={PAYMENT_TEXT.retryPayment} />;
    case 'reversed':
      return <PayAgain order={order} text={standing.message} action="pay-now" />;
  }
}

/** The message and the way to pay again: by card (off to the card page) or by mobile money. */
function PayAgain({
  order,
  text,
  action,
  children,
}: {
  order: Order;
  text: string;
  action: string;
  children?: ReactNode;
}) {
  const label = action === 'pay-now' ? PAYMENT_STATE_TEXT.payNow : action;
  if (order.paymentMethod === 'card') {
    return (
      <CardAgain orderId={order.id} text={text} label={label}>
        {children}
      </CardAgain>
    );
  }
  if (order.paymentMethod === 'mobile_money') {
    return <MobileMoneyAgain order={order} text={text} label={label} />;
  }
  return <p>{text}</p>;
}

function CardAgain({
  orderId,
  text,
  label,
  children,
}: {
  orderId: string;
  text: string;
  label: string;
  children?: ReactNode;
}) {
  const card = useCardPayment(orderId);
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p>{text}</p>
        <button
          type="button"
          className="btn btn-primary shrink-0"
          disabled={card.working}
          onClick={() => void card.pay()}
        >
          {card.working ? PAYMENT_STATE_TEXT.cardRedirect : label}
        </button>
      </div>
      {card.problem && <Notice tone="error">{card.problem}</Notice>}
      {children}
    </div>
  );
}

/** A card payment started and not yet answered: its status is read until it settles. */
function CardStatusWatch({ orderId }: { orderId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery({
    ...trpc.payments.status.queryOptions({ orderId }),
    refetchInterval: 4000,
  });
  const settled = status.data && status.data.state !== 'pending';
  useEffect(() => {
    if (settled) void queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
  }, [settled, queryClient, trpc]);
  return null;
}

/** Mobile money again from the order: the request goes to the phone, the screen follows it. */
function MobileMoneyAgain({ order, text, label }: { order: Order; text: string; label: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const profile = useQuery(trpc.account.profile.queryOptions(undefined, { enabled: open }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
  if (!open) {
    return (
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p>{text}</p>
        <button type="button" className="btn btn-primary shrink-0" onClick={() => setOpen(true)}>
          {label}
        </button>
      </div>
    );
  }
  if (profile.isPending) return <p className="text-ink-soft">Loading...</p>;
  return (
    <div className="-ml-9 mt-4 sm:ml-0">
      <Suspense fallback={<p className="text-ink-soft">Loading...</p>}>
        <MobileMoneyPayment
          orderId={order.id}
          amount={order.total}
          phone={profile.data?.phone ? displayNumber(profile.data.phone) : ''}
          onPaid={() => {
            toast.success(PAYMENT_TEXT.paid);
            void refresh();
          }}
          onMethodChanged={() => {
            toast.success(PAYMENT_TEXT.methodChanged);
            setOpen(false);
            void refresh();
          }}
        />
      </Suspense>
    </div>
  );
}
