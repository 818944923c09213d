// Paying an order by mobile money: the request goes to the shopper's phone, the screen shows the
// amount to approve and follows the payment's state (asking every 2 s) until it is paid, refused
// or unanswered. Used after Place Order at checkout and by Retry payment on /orders.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CheckCircle2, Loader2, Smartphone, XCircle } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { errorMessage } from '#app/error-message.ts';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { displayNumber, PAYMENT_TEXT, STATUS_POLL_MS } from '#core/mobile-money.ts';
import { PAYMENT_METHOD_CHOICES, type PaymentMethod } from '#core/order-rules.ts';
import { PayerNumber } from './PayerNumber';

type Payment = NonNullable<ApiOutput['payments']['status']>;
const OTHER_METHODS = ['card', 'bank_transfer', 'cash_on_delivery'] as const;
type OtherMethod = (typeof OTHER_METHODS)[number];

/** Where the payment stands, as the screen shows it. */
export type PaymentStep = 'waiting' | 'paid' | 'failed';

/**
 * Starts (or picks up) the order's payment and follows it. `onStep` runs each time the screen
 * moves to another step (a page heading above follows it); `onPaid` once the provider says the
 * money moved; `onMethodChanged` when the shopper pays another way instead.
 */
export function MobileMoneyPayment({
  orderId,
  amount,
  phone: initialPhone,
  onStep,
  onPaid,
  onMethodChanged,
}: {
  orderId: string;
  amount: number;
  phone: string;
  onStep?: (step: PaymentStep) => void;
  onPaid: (payment: Payment) => void;
  onMethodChanged: (method: PaymentMethod) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [phone, setPhone] = useState(initialPhone);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation(trpc.payments.start.mutationOptions());
  const started = useRef(false);
  const paid = useRef(false);

  async function request(number: string) {
    setProblem(null);
    try {
      setPayment(await start.mutateAsync({ orderId, phone: number }));
    } catch (error) {
      setProblem(errorMessage(error, PAYMENT_TEXT.failed));
    }
  }

  // The first request goes as soon as the screen shows (once, even in React's strict mode).
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void request(initialPhone);
  });

  const waiting = payment?.state === 'pending';
  const status = useQuery({
    ...trpc.payments.status.queryOptions({ orderId }),
    enabled: waiting,
    refetchInterval: waiting ? STATUS_POLL_MS : false,
  });
  const current = status.data && status.data.id === payment?.id ? status.data : payment;

  const step: PaymentStep =
    current?.state === 'successful'
      ? 'paid'
      : current?.state === 'pending' || (!current && !problem)
        ? 'waiting'
        : 'failed';
  // Told once per new step, before the browser paints it (a layout effect), so the heading above
  // never reads "waiting" over "Payment received" for a frame.
  const told = useRef<PaymentStep | null>(null);
  useLayoutEffect(() => {
    if (told.current === step) return;
    told.current = step;
    onStep?.(step);
  });

  useEffect(() => {
    if (current?.state !== 'successful' || paid.current) return;
    paid.current = true;
    void queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
    onPaid(current);
  });

  if (!current && !problem) {
    return (
      <PaymentPanel tone="waiting" title={PAYMENT_TEXT.approve(amount)}>
        <p className="text-ink-soft">Sending the request to {displayNumber(phone)}...</p>
      </PaymentPanel>
    );
  }
  if (current?.state === 'successful') {
    return (
      <PaymentPanel tone="paid" title={PAYMENT_TEXT.paid}>
        <p className="text-ink-soft">
          Transaction ID <span className="font-medium text-ink">{current.transactionId}</span>
        </p>
      </PaymentPanel>
    );
  }
  if (current?.state === 'pending') {
    return <Waiting payment={current} />;
  }
  // Failed, expired, or the request itself was refused.
  return (
    <PaymentPanel tone="failed" title={PAYMENT_TEXT.failed}>
      <Notice tone="error">{problem ?? current?.message ?? PAYMENT_TEXT.failed}</Notice>
      <div className="mt-6 space-y-4 text-left">
        <PayerNumber value={phone} onChange={setPhone} disabled={start.isPending} />
        <button
          type="button"
          className="btn btn-primary w-full"
          disabled={start.isPending}
          onClick={() => request(phone)}
        >
          {start.isPending ? 'Sending...' : PAYMENT_TEXT.tryAgain}
        </button>
        <AnotherMethod orderId={orderId} onChanged={onMethodChanged} />
      </div>
    </PaymentPanel>
  );
}

/** The request is on the phone: the amount, the number, a countdown to its expiry. */
function Waiting({ payment }: { payment: Payment }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, new Date(payment.expiresAt).getTime() - now);
  const minutes = Math.floor(left / 60_000);
  const seconds = String(Math.floor((left % 60_000) / 1000)).padStart(2, '0');
  return (
    <PaymentPanel tone="waiting" title={PAYMENT_TEXT.approve(payment.amount)}>
      {payment.network !== 'pesapal' && (
        <p className="text-ink-soft">{PAYMENT_TEXT.approveHint(payment.network, payment.phone)}</p>
      )}
      {left > 0 ? (
        <p className="mt-6 inline-flex items-center gap-2 text-sm font-medium" role="status">
          <Loader2 size={16} className="animate-spin motion-reduce:animate-none" aria-hidden />
          {PAYMENT_TEXT.waiting}
          <span className="tabular-nums text-ink-soft">
            {minutes}:{seconds}
          </span>
        </p>
      ) : (
        <div className="mt-6 space-y-4">
          <Notice tone="warning">{PAYMENT_TEXT.noAnswer}</Notice>
          <Link to="/orders" className="btn btn-outline">
            View your orders
          </Link>
        </div>
      )}
    </PaymentPanel>
  );
}

/** Pay another way: the order keeps its items and stays pending with the new method. */
function AnotherMethod({
  orderId,
  onChanged,
}: {
  orderId: string;
  onChanged: (method: PaymentMethod) => void;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [method, setMethod] = useState<OtherMethod>('cash_on_delivery');
  const change = useMutation(trpc.payments.changeMethod.mutationOptions());
  const [problem, setProblem] = useState<string | null>(null);
  if (!open) {
    return (
      <button type="button" className="btn btn-outline w-full" onClick={() => setOpen(true)}>
        {PAYMENT_TEXT.chooseAnother}
      </button>
    );
  }
  async function confirm() {
    setProblem(null);
    try {
      await change.mutateAsync({ orderId, paymentMethod: method });
      onChanged(method);
    } catch (error) {
      setProblem(errorMessage(error, PAYMENT_TEXT.notPending));
    }
  }
  return (
    <fieldset className="border border-line p-4" disabled={change.isPending}>
      <legend className="px-1 text-xs font-semibold uppercase tracking-[0.16em]">
        {PAYMENT_TEXT.chooseAnother}
      </legend>
      <div className="space-y-2">
        {OTHER_METHODS.map((other) => (
          <label key={other} className="flex cursor-pointer items-center gap-3 py-1">
            <input
              type="radio"
              name={`method-${orderId}`}
              value={other}
              checked={method === other}
              onChange={() => setMethod(other)}
              className="size-4 accent-[var(--accent)]"
            />
            {PAYMENT_METHOD_CHOICES[other].label}
          </label>
        ))}
      </div>
      {problem && (
        <div className="mt-3">
          <Notice tone="error">{problem}</Notice>
        </div>
      )}
      <button type="button" className="btn btn-primary mt-4 w-full" onClick={confirm}>
        {change.isPending ? 'Saving...' : `Pay with ${PAYMENT_METHOD_CHOICES[method].label}`}
      </button>
    </fieldset>
  );
}

function PaymentPanel({
  tone,
  title,
  children,
}: {
  tone: 'waiting' | 'paid' | 'failed';
  title: string;
  children: React.ReactNode;
}) {
  const Icon = tone === 'paid' ? CheckCircle2 : tone === 'failed' ? XCircle : Smartphone;
  const colour = tone === 'paid' ? 'text-success' : tone === 'failed' ? 'text-danger' : 'text-gold';
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Each new step (approve, paid, declined) is brought into view whole and focused, so a shopper
  // on a phone who pressed Place Order at the foot of a long page sees it, and a screen reader
  // reads it (the region is live too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new title is a new step to show.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <section
      ref={panel}
      aria-labelledby="payment-title"
      aria-live="polite"
      data-testid="payment-step"
      className="mx-auto max-w-lg scroll-mt-24 border border-line bg-paper px-6 py-10 text-center sm:px-10"
    >
      <Icon size={40} strokeWidth={1.25} className={`mx-auto ${colour}`} aria-hidden />
      <p className="eyebrow mt-5">Mobile money</p>
      <h2
        ref={heading}
        id="payment-title"
        tabIndex={-1}
        className="mt-2 font-display text-3xl leading-tight outline-none sm:text-4xl"
      >
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}
