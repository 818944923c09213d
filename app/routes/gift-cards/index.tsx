// Gift cards sold as a piece (issue 35): the shopper picks an amount, says who it is for, and
// pays like any order; the code is texted to the recipient once the money is in. The payment
// after the order is the checkout's own (its mobile-money screen, card hand-over, bank details).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Gift } from 'lucide-react';
import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import * as v from 'valibot';
import { Field, inputClass, Loading, Notice } from '#app/components/account/ui.tsx';
import { PayerNumber } from '#app/components/checkout/PayerNumber.tsx';
import { errorMessage } from '#app/error-message.ts';
import { pageHead } from '#app/seo.ts';
import { useSession } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { GIFT_CARD_AMOUNTS, GIFT_CARD_MAX, GIFT_CARD_MIN } from '#core/gift-cards.ts';
import { networkOf, PAYMENT_TEXT } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import { CHECKOUT_TEXT, orderIdHead, PAYMENT_METHOD_CHOICES } from '#core/order-rules.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';
import {
  buyGiftCardInput,
  GIFT_CARD_PAYMENT_METHODS,
  GIFT_CARD_TEXT,
  GIFT_MESSAGE_MAX,
  type GiftCardPaymentMethod,
  RECIPIENT_NAME_MAX,
} from '#core/value-ledger.ts';

const MobileMoneyPayment = lazy(() =>
  import('#app/components/checkout/MobileMoneyPayment.tsx').then((m) => ({
    default: m.MobileMoneyPayment,
  })),
);
const CardHandOver = lazy(() =>
  import('#app/components/checkout/Placed.tsx').then((m) => ({ default: m.CardHandOver })),
);
const BankTransferPlaced = lazy(() =>
  import('#app/components/checkout/Placed.tsx').then((m) => ({ default: m.BankTransferPlaced })),
);

export const Route = createFileRoute('/gift-cards/')({
  head: () =>
    pageHead({
      title: 'Gift cards',
      description:
        'A duuka gift card from UGX 10,000: texted to her phone the moment you pay, spent at checkout on the pieces she chooses.',
      path: '/gift-cards',
    }),
  component: GiftCards,
});

type Placed = { method: GiftCardPaymentMethod; orderId: string; total: number; phone: string };

function GiftCards() {
  const [placed, setPlaced] = useState<Placed | null>(null);
  return (
    <section className="mx-auto max-w-3xl px-4 py-10 sm:px-6 md:py-14">
      <header className="border-b border-line pb-6">
        <p className="eyebrow">
          {placed ? `Order #${orderIdHead(placed.orderId)}` : GIFT_CARD_TEXT.fromShop}
        </p>
        <h1 className="mt-2 font-display text-4xl text-balance sm:text-5xl">
          {placed ? PAYMENT_STATE_TEXT.waitingTitle : 'Give a duuka gift card'}
        </h1>
        {!placed && <p className="mt-3 text-ink-soft">{GIFT_CARD_TEXT.intro}</p>}
      </header>
      {placed ? <Paying placed={placed} /> : <BuyForm onPlaced={setPlaced} />}
    </section>
  );
}

/** The order placed: paid exactly as after the checkout. */
function Paying({ placed }: { placed: Placed }) {
  const navigate = useNavigate();
  const toOrder = () => void navigate({ to: '/orders', search: { order: placed.orderId } });
  return (
    <div className="mt-10">
      <Suspense fallback={<Loading text="Loading..." />}>
        {placed.method === 'mobile_money' ? (
          <MobileMoneyPayment
            orderId={placed.orderId}
            amount={placed.total}
            phone={placed.phone}
            onPaid={() => {
              toast.success(PAYMENT_TEXT.paid, { description: GIFT_CARD_TEXT.sentOnPayment });
              toOrder();
            }}
            onMethodChanged={() => {
              toast.success(PAYMENT_TEXT.methodChanged);
              toOrder();
            }}
          />
        ) : placed.method === 'card' ? (
          <CardHandOver orderId={placed.orderId} />
        ) : (
          <BankTransferPlaced orderId={placed.orderId} total={placed.total} />
        )}
      </Suspense>
      <p className="mt-6 text-center text-sm text-ink-soft">{GIFT_CARD_TEXT.sentOnPayment}</p>
    </div>
  );
}

type Problems = Partial<Record<'amount' | 'recipientName' | 'recipientPhone' | 'message', string>>;

function BuyForm({ onPlaced }: { onPlaced: (placed: Placed) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { user, isPending } = useSession();
  const buy = useMutation(trpc.giftCards.buy.mutationOptions());
  const [chosen, setChosen] = useState<number | 'other'>(GIFT_CARD_AMOUNTS[1]);
  const [typed, setTyped] = useState('');
  const [recipientName, setName] = useState('');
  const [recipientPhone, setPhone] = useState('');
  const [message, setMessage] = useState('');
  const [method, setMethod] = useState<GiftCardPaymentMethod>('mobile_money');
  const [payer, setPayer] = useState('');
  const [payerError, setPayerError] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<string | null>(null);
  // One id per attempt: a retried or double-clicked Buy makes one order.
  const attempt = useRef<string | null>(null);

  const amount = chosen === 'other' ? Number(typed.replace(/[\s,]/g, '')) : chosen;
  const working = buy.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (working || !user) return;
    attempt.current ??= crypto.randomUUID();
    const input = {
      orderId: attempt.current,
      amount,
      recipientName,
      recipientPhone,
      message: message.trim() || undefined,
      paymentMethod: method,
    };
    const checked = v.safeParse(buyGiftCardInput, input);
    if (!checked.success) {
      const found: Problems = {};
      for (const issue of checked.issues) {
        const key = v.getDotPath(issue) as keyof Problems | null;
        if (key && !(key in found)) found[key] = issue.message;
      }
      setProblems(found);
      if (Object.keys(found).length === 0) setError(checked.issues[0]?.message ?? null);
      return;
    }
    setProblems({});
    if (method === 'mobile_money' && !networkOf(payer)) {
      setPayerError(PAYMENT_TEXT.invalidNumber);
      return;
    }
    setError(null);
    try {
      const order = await buy.mutateAsync(checked.output);
      attempt.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
      onPlaced({ method, orderId: order.orderId, total: order.total, phone: payer });
      window.scrollTo({ top: 0, behavior: 'instant' });
    } catch (failure) {
      const text = errorMessage(failure, GIFT_CARD_TEXT.failed);
      setError(text);
      toast.error(text);
    }
  }

  if (isPending) return <Loading text="Loading..." />;
  return (
    <form onSubmit={submit} noValidate className="mt-8 space-y-8">
      <fieldset className="border border-line p-5 sm:p-8" disabled={working}>
        <legend className="float-left w-full font-display text-2xl sm:text-3xl">
          {GIFT_CARD_TEXT.amountLabel}
        </legend>
        <div className="clear-left grid grid-cols-2 gap-3 pt-5 sm:grid-cols-4">
          {[...GIFT_CARD_AMOUNTS, 'other' as const].map((choice) => (
            <label
              key={choice}
              className={`flex cursor-pointer items-center justify-center gap-2 border px-3 py-4 text-center font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
                chosen === choice ? 'border-ink bg-paper-2' : 'border-line hover:border-ink/50'
              }`}
            >
              <input
                type="radio"
                name="amount"
                className="sr-only"
                checked={chosen === choice}
                onChange={() => setChosen(choice)}
              />
              {choice === 'other' ? GIFT_CARD_TEXT.otherAmount : formatUGX(choice)}
            </label>
          ))}
        </div>
        {chosen === 'other' && (
          <Field
            className="mt-5"
            label={`Amount in UGX (${formatUGX(GIFT_CARD_MIN)} to ${formatUGX(GIFT_CARD_MAX)})`}
            inputMode="numeric"
            maxLength={12}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            error={problems.amount}
          />
        )}
        {chosen !== 'other' && problems.amount && (
          <p className="mt-3 text-sm text-danger">{problems.amount}</p>
        )}
      </fieldset>

      <fieldset className="space-y-5 border border-line p-5 sm:p-8" disabled={working}>
        <legend className="float-left w-full font-display text-2xl sm:text-3xl">
          Who it is for
        </legend>
        <div className="clear-left grid gap-5 pt-5 sm:grid-cols-2">
          <Field
            label={GIFT_CARD_TEXT.recipientName}
            autoComplete="off"
            maxLength={RECIPIENT_NAME_MAX}
            value={recipientName}
            onChange={(e) => setName(e.target.value)}
            error={problems.recipientName}
          />
          <Field
            label={GIFT_CARD_TEXT.recipientPhone}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            maxLength={30}
            placeholder="0772 123456"
            value={recipientPhone}
            onChange={(e) => setPhone(e.target.value)}
            error={problems.recipientPhone}
          />
        </div>
        <div>
          <label
            htmlFor="gift-message"
            className="text-xs font-semibold uppercase tracking-[0.16em]"
          >
            {GIFT_CARD_TEXT.message}
          </label>
          <textarea
            id="gift-message"
            rows={3}
            maxLength={GIFT_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value.replace(/[\r\n]+/g, ' '))}
            aria-invalid={problems.message ? true : undefined}
            className={inputClass}
          />
          {problems.message && <p className="mt-1.5 text-sm text-danger">{problems.message}</p>}
        </div>
      </fieldset>

      <fieldset className="border border-line p-5 sm:p-8" disabled={working}>
        <legend className="float-left w-full font-display text-2xl sm:text-3xl">
          Payment Method
        </legend>
        <div className="clear-left grid gap-3 pt-5 sm:grid-cols-3">
          {GIFT_CARD_PAYMENT_METHODS.map((choice) => (
            <label
              key={choice}
              className={`flex cursor-pointer items-center gap-3 border p-4 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
                method === choice ? 'border-ink bg-paper-2' : 'border-line hover:border-ink/50'
              }`}
            >
              <input
                type="radio"
                name="paymentMethod"
                value={choice}
                checked={method === choice}
                onChange={() => setMethod(choice)}
                className="size-4 shrink-0 accent-[var(--accent)]"
              />
              <span className="font-medium">{PAYMENT_METHOD_CHOICES[choice].label}</span>
            </label>
          ))}
        </div>
        <p className="mt-3 text-sm text-ink-soft">{GIFT_CARD_TEXT.noCashOnDelivery}</p>
        {method === 'mobile_money' && (
          <div className="mt-5">
            <PayerNumber
              value={payer}
              onChange={(phone) => {
                setPayer(phone);
                setPayerError(null);
              }}
              error={payerError}
              disabled={working}
            />
          </div>
        )}
        {method === 'card' && (
          <p className="mt-5 text-sm text-ink-soft">{PAYMENT_STATE_TEXT.cardRedirectNote}</p>
        )}
      </fieldset>

      {error && (
        <Notice tone="error">
          {error}
          {error === CHECKOUT_TEXT.profileIncomplete && (
            <>
              {' '}
              <Link to="/profile" className="underline">
                Complete your profile
              </Link>
            </>
          )}
        </Notice>
      )}
      {user ? (
        <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={working}>
          <Gift size={18} strokeWidth={1.5} aria-hidden />
          {working
            ? 'Processing...'
            : Number.isFinite(amount) && amount > 0
              ? GIFT_CARD_TEXT.buy(amount)
              : 'Buy the gift card'}
        </button>
      ) : (
        <Notice tone="info">
          {GIFT_CARD_TEXT.signIn}{' '}
          <Link to="/login" className="underline">
            Log In
          </Link>
        </Notice>
      )}
      <p className="text-sm text-ink-soft">{GIFT_CARD_TEXT.sentOnPayment}</p>
    </form>
  );
}
