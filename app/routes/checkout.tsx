import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Banknote, CreditCard, Landmark, type LucideIcon, Smartphone } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { useCart } from '#app/cart-store.tsx';
import { Loading, Notice } from '#app/components/account/ui.tsx';
import { OrderSummary } from '#app/components/cart/Summary.tsx';
import { VariantLabel } from '#app/components/cart/VariantLabel.tsx';
import { DeliveryChoice } from '#app/components/checkout/DeliveryChoice.tsx';
import type { PaymentStep } from '#app/components/checkout/MobileMoneyPayment.tsx';
import { OfferCodeField } from '#app/components/checkout/OfferCodeField.tsx';
import { forgetOrderAttempt, orderAttemptId } from '#app/components/checkout/order-attempt.ts';
import { PayerNumber } from '#app/components/checkout/PayerNumber.tsx';
import { lineSaving, useCheckoutPreview } from '#app/components/checkout/use-checkout-preview.ts';
import { ProductImage } from '#app/components/ProductImage.tsx';
import { errorMessage } from '#app/error-message.ts';
import { forgetOfferCodes, useOfferCodes } from '#app/offer-codes-store.ts';
import { privatePageHead, useSession, withSession } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { CART_TEXT, type Cart, cartItems } from '#core/cart-rules.ts';
import { DELIVERY_CHOICE_TEXT } from '#core/delivery-choice.ts';
import { type DeliveryField, type DeliveryForm, deliveryOrder } from '#core/delivery-form.ts';
import { type DeliveryChoices, type DeliveryOption, deliveryFee } from '#core/delivery-rules.ts';
import { displayNumber, networkOf, PAYMENT_TEXT } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import { OFFER_CODE_TEXT } from '#core/offer-codes.ts';
import type { CheckoutPreview } from '#core/offers.ts';
import {
  CHECKOUT_TEXT,
  orderIdHead,
  orderTotals,
  PAYMENT_METHOD_CHOICES,
  PAYMENT_METHODS,
  type PaymentMethod,
} from '#core/order-rules.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';

/** The page's heading while an order's mobile money payment is on screen. */
const MOBILE_MONEY_HEADINGS: Record<PaymentStep, string> = {
  waiting: PAYMENT_STATE_TEXT.waitingTitle,
  paid: PAYMENT_STATE_TEXT.paidTitle,
  failed: PAYMENT_STATE_TEXT.notPaidTitle,
};

// What only shows once chosen or placed loads then, not with the checkout.
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
const BankDetails = lazy(() =>
  import('#app/components/payments/BankDetails.tsx').then((m) => ({ default: m.BankDetails })),
);

export const Route = createFileRoute('/checkout')({
  head: privatePageHead('Checkout'),
  // Signed in: the profile, the cart and the delivery options arrive with the page; a visitor
  // gets the log-in screen.
  loader: async ({ context }) => {
    await withSession(context, () => [
      context.queryClient.prefetchQuery(context.trpc.account.profile.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.cart.get.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.checkout.deliveryOptions.queryOptions()),
    ]);
  },
  component: CheckoutScreen,
});

const PAYMENT_ICONS: Record<PaymentMethod, LucideIcon> = {
  mobile_money: Smartphone,
  card: CreditCard,
  bank_transfer: Landmark,
  cash_on_delivery: Banknote,
};

type Profile = ApiOutput['account']['profile'];

/** The order once placed: the page's heading says where its payment stands. */
type PlacedHeading = { orderId: string; title: string };

function CheckoutScreen() {
  const { user, isPending } = useSession();
  const [placed, setPlaced] = useState<PlacedHeading | null>(null);
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 md:py-14">
      <header className="border-b border-line pb-6">
        <p className="eyebrow">
          {placed ? `Order #${orderIdHead(placed.orderId)}` : 'Secure checkout'}
        </p>
        <h1 className="mt-2 font-display text-4xl text-balance sm:text-5xl">
          {placed?.title ?? 'Checkout'}
        </h1>
      </header>
      <div className="min-h-[26rem]">
        {isPending ? (
          <Loading text="Loading checkout..." />
        ) : user ? (
          <Checkout onPlaced={setPlaced} />
        ) : (
          <Gate title={CHECKOUT_TEXT.notLoggedIn}>
            <Link to="/login" className="btn btn-primary">
              Log In
            </Link>
          </Gate>
        )}
      </div>
    </section>
  );
}

/** A full-width message with its way out (logged out, empty cart, profile failure). */
function Gate({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md py-20 text-center" role="status">
      <h2 className="font-display text-3xl sm:text-4xl">{title}</h2>
      <div className="mt-8 flex justify-center">{children}</div>
    </div>
  );
}

type Status = 'ready' | 'processing' | 'placed';
/**
 * An order placed and waiting for its money: mobile money's approval screen, the way to the card
 * page, or the bank details replace the checkout (cash on delivery goes straight to the order).
 */
type Paying =
  | { method: 'mobile_money'; orderId: string; total: number; phone: string }
  | { method: 'card' | 'bank_transfer'; orderId: string; total: number };

function Checkout({ onPlaced }: { onPlaced: (placed: PlacedHeading) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cart = useCart();
  const profile = useQuery(trpc.account.profile.queryOptions());
  const choices = useQuery(trpc.checkout.deliveryOptions.queryOptions());
  const placeOrder = useMutation(trpc.checkout.placeOrder.mutationOptions());
  const [chosenMethod, setMethod] = useState<PaymentMethod>('mobile_money');
  const [optionId, setOptionId] = useState<string | null>(null);
  const [form, setForm] = useState<Partial<DeliveryForm>>({});
  const [problems, setProblems] = useState<Partial<Record<DeliveryField, string>>>({});
  const [status, setStatus] = useState<Status>('ready');
  const [error, setError] = useState<string | null>(null);
  // The lines being paid for stay on screen while the order is placed and the cart emptied.
  const [paying, setPaying] = useState<Cart | null>(null);
  const [payer, setPayer] = useState<string | null>(null);
  const [payerError, setPayerError] = useState<string | null>(null);
  const [placed, setPlaced] = useState<Paying | null>(null);
  const busy = useRef(false);
  // Issue 35: the codes typed here or on the cart, the shopper's store credit, and the shop's
  // own totals for them (asked with and without the credit, to offer it with its amount).
  const offerCodes = useOfferCodes();
  const [spendCredit, setSpendCredit] = useState(false);
  const asking = {
    items: cartItems(paying ?? cart.cart),
    codes: offerCodes.codes,
    deliveryOptionId: optionId ?? choices.data?.options[0]?.id,
    enabled: placed === null && status !== 'placed' && choices.isSuccess && cart.ready,
  };
  const withoutCredit = useCheckoutPreview(asking);
  const withCredit = useCheckoutPreview({ ...asking, useCredit: true });
  const shown = spendCredit ? withCredit : withoutCredit;
  const preview = shown.preview;
  const creditOffered = Math.max(
    0,
    (withCredit.preview?.credit ?? 0) - (withoutCredit.preview?.credit ?? 0),
  );
  // Placed: the page starts again at its heading (once the new screen is drawn, so the browser's
  // scroll anchoring cannot keep the old position).
  useEffect(() => {
    if (placed) window.scrollTo({ top: 0, behavior: 'instant' });
  }, [placed]);

  if (placed?.method === 'mobile_money') {
    const { orderId } = placed;
    // The page's heading follows the payment: waiting, received, or not paid yet (issue 32).
    const headingFor = (step: PaymentStep) =>
      onPlaced({ orderId, title: MOBILE_MONEY_HEADINGS[step] });
    return (
      <div className="mt-10">
        <Suspense fallback={<Loading text="Loading..." />}>
          <MobileMoneyPayment
            orderId={orderId}
            amount={placed.total}
            phone={placed.phone}
            onStep={headingFor}
            onPaid={() => {
              // Only now, with the money in, is the order a success.
              toast.success(CHECKOUT_TEXT.placed, { description: PAYMENT_TEXT.paid });
              void navigate({ to: '/orders', search: { order: orderId } });
            }}
            onMethodChanged={() => {
              toast.success(PAYMENT_TEXT.methodChanged);
              void navigate({ to: '/orders', search: { order: orderId } });
            }}
          />
        </Suspense>
      </div>
    );
  }
  if (placed) {
    return (
      <Suspense fallback={<Loading text="Loading..." />}>
        {placed.method === 'card' ? (
          <CardHandOver orderId={placed.orderId} />
        ) : (
          <BankTransferPlaced orderId={placed.orderId} total={placed.total} />
        )}
      </Suspense>
    );
  }
  if (profile.isPending || choices.isPending || !cart.ready) {
    return <Loading text="Loading checkout..." />;
  }
  if (profile.isError || choices.isError) {
    return (
      <div className="mx-auto max-w-xl py-16">
        <Notice tone="error">
          {profile.isError ? CHECKOUT_TEXT.profileFailed : DELIVERY_CHOICE_TEXT.optionsFailed}
        </Notice>
      </div>
    );
  }
  const lines = paying ?? cart.cart;
  if (lines.productsInCart.length === 0) {
    return (
      <Gate title={CHECKOUT_TEXT.emptyCart}>
        <Link to="/shop" className="btn btn-primary">
          {CART_TEXT.continueShopping}
        </Link>
      </Gate>
    );
  }
  const details = profile.data;
  const complete = details.full_name.trim() !== '' && !!details.phone;
  const payerNumber = payer ?? (details.phone ? displayNumber(details.phone) : '');
  const { options } = choices.data;
  const option = options.find((o) => o.id === optionId) ?? options[0];
  // Cash on delivery only where the chosen option takes it: otherwise the choice moves off it.
  const method: PaymentMethod =
    chosenMethod === 'cash_on_delivery' && option && !option.cashOnDelivery
      ? 'mobile_money'
      : chosenMethod;
  const delivery: DeliveryForm = {
    area: form.area ?? '',
    landmark: form.landmark ?? '',
    // The profile's phone until the shopper types another (a refetched profile keeps what was typed).
    phone: form.phone ?? (details.phone ? displayNumber(details.phone) : ''),
    notes: form.notes ?? '',
  };
  const fees = feesFor(choices.data, orderTotals(lines.productsInCart, 0).subtotal);

  function chooseOption(next: DeliveryOption) {
    setOptionId(next.id);
    setProblems({});
    if (chosenMethod === 'cash_on_delivery' && !next.cashOnDelivery) setMethod('mobile_money');
  }

  async function pay() {
    if (busy.current || !complete || !option) return;
    const asked = deliveryOrder(option, delivery);
    if (!asked.ok) {
      setProblems(asked.problems);
      // The first field to mend takes the focus once drawn (its message is read with it).
      requestAnimationFrame(() =>
        document
          .querySelector<HTMLElement>('[data-delivery-fields] [aria-invalid="true"]')
          ?.focus(),
      );
      return;
    }
    setProblems({});
    // Nothing to pay (a gift card or credit covers it): no number, no payment screen.
    const nothingToPay = preview?.total === 0;
    if (!nothingToPay && method === 'mobile_money' && !networkOf(payerNumber)) {
      setPayerError(PAYMENT_TEXT.invalidNumber);
      return;
    }
    busy.current = true;
    const paid = cart.cart;
    const items = cartItems(paid);
    // Same cart, same id: a retry can never make a second order.
    const orderId = orderAttemptId(sessionStorage, items);
    setPaying(paid);
    setStatus('processing');
    setError(null);
    let order: { orderId: string; total: number };
    try {
      order = await placeOrder.mutateAsync({
        orderId,
        items,
        paymentMethod: method,
        ...asked.order,
        ...(offerCodes.codes.length ? { codes: [...offerCodes.codes] } : {}),
        ...(spendCredit && creditOffered > 0 ? { useCredit: true } : {}),
      });
    } catch (failure) {
      const text = errorMessage(failure, CHECKOUT_TEXT.checkoutError);
      setError(text);
      toast.error(text);
      setPaying(null);
      setStatus('ready');
      busy.current = false;
      // Stock or the profile may have changed: show them as they are now.
      void queryClient.invalidateQueries({ queryKey: trpc.cart.get.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.account.profile.queryKey() });
      // An option the owner retired or changed meanwhile: the choices as they are now.
      void queryClient.invalidateQueries({
        queryKey: trpc.checkout.deliveryOptions.queryKey(),
      });
      // A code refused with its reason: the chips and totals as the shop sees them now (the
      // shopper removes the code or tries again).
      void queryClient.invalidateQueries({ queryKey: trpc.checkout.preview.pathKey() });
      return;
    }
    forgetOrderAttempt(sessionStorage);
    // The codes went with the order: the next cart starts without them.
    forgetOfferCodes();
    setStatus('placed');
    // The order's write took the stock and the lines bought out of the shopper's server cart
    // (decision 0068): only this page's copy follows, with no further call.
    await cart.ordered(items);
    void queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
    // No success toast before the money is in: the heading says where the payment stands.
    if (order.total === 0) {
      // Paid in full by a gift card or credit: nothing to wait for.
      toast.success(CHECKOUT_TEXT.placed);
      await navigate({ to: '/orders', search: { order: order.orderId } });
      return;
    }
    if (method === 'cash_on_delivery') {
      toast.success(PAYMENT_STATE_TEXT.payOnDeliveryTitle);
      await navigate({ to: '/orders', search: { order: order.orderId } });
      return;
    }
    onPlaced({ orderId: order.orderId, title: PAYMENT_STATE_TEXT.waitingTitle });
    setPlaced(
      method === 'mobile_money'
        ? { method, orderId: order.orderId, total: order.total, phone: payerNumber }
        : { method, orderId: order.orderId, total: order.total },
    );
  }

  const working = status !== 'ready';
  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem] lg:gap-12">
      <div className="min-w-0 space-y-8">
        <DeliveryInformation profile={details} complete={complete} />
        {option ? (
          <DeliveryChoice
            options={options}
            chosen={option}
            onChoose={chooseOption}
            form={delivery}
            onForm={(field, value) => {
              setForm((typed) => ({ ...typed, [field]: value }));
              if (problems[field]) setProblems(({ [field]: _mended, ...rest }) => rest);
            }}
            problems={problems}
            fees={fees}
            disabled={working}
          />
        ) : (
          <Notice tone="warning">{DELIVERY_CHOICE_TEXT.noOptions}</Notice>
        )}
        <ItemsInOrder cart={lines} preview={preview} />
        {preview?.total === 0 ? (
          <NothingToPay />
        ) : (
          <PaymentChoice
            value={method}
            onChange={setMethod}
            disabled={working}
            cashRefused={
              option && !option.cashOnDelivery
                ? DELIVERY_CHOICE_TEXT.cashNotHere(option.name)
                : null
            }
          >
            {method === 'mobile_money' && (
              <div className="mt-5">
                <PayerNumber
                  value={payerNumber}
                  onChange={(phone) => {
                    setPayer(phone);
                    setPayerError(null);
                  }}
                  error={payerError}
                  disabled={working}
                />
              </div>
            )}
            {method === 'bank_transfer' && (
              <div className="mt-5 space-y-3">
                <p className="text-sm text-ink-soft">{PAYMENT_STATE_TEXT.bankBefore}</p>
                <Suspense
                  fallback={<p className="text-sm text-ink-soft">Loading bank details...</p>}
                >
                  <BankDetails />
                </Suspense>
              </div>
            )}
            {method === 'card' && (
              <p className="mt-5 text-sm text-ink-soft">{PAYMENT_STATE_TEXT.cardRedirectNote}</p>
            )}
          </PaymentChoice>
        )}
      </div>
      <OrderSummary
        cart={lines}
        delivery={option ? { name: option.name, fee: fees[option.id] ?? option.fee } : undefined}
        preview={preview}
        codes={
          <>
            <OfferCodeField
              offerCodes={offerCodes}
              preview={preview}
              checking={shown.updating}
              disabled={working}
            />
            {creditOffered > 0 && (
              <label className="mt-4 flex cursor-pointer items-center gap-3 text-sm">
                <input
                  type="checkbox"
                  checked={spendCredit}
                  disabled={working}
                  onChange={(event) => setSpendCredit(event.target.checked)}
                  className="size-4 shrink-0 accent-[var(--accent)]"
                />
                {OFFER_CODE_TEXT.creditChoice(creditOffered)}
              </label>
            )}
          </>
        }
      >
        {error && (
          <div className="mt-6">
            <Notice tone="error">{error}</Notice>
          </div>
        )}
        <button
          type="button"
          onClick={pay}
          disabled={!complete || working || !option || shown.holding}
          className="btn btn-primary mt-8 w-full"
        >
          {working ? CART_TEXT.processing : 'Place Order'}
        </button>
        <p className="mt-4 text-center text-xs text-ink-soft">
          {preview?.total === 0
            ? OFFER_CODE_TEXT.nothingToPay
            : `Paying with ${PAYMENT_METHOD_CHOICES[method].label}`}
        </p>
      </OrderSummary>
    </div>
  );
}

function DeliveryInformation({ profile, complete }: { profile: Profile; complete: boolean }) {
  return (
    <section aria-labelledby="delivery-heading" className="border border-line p-6 sm:p-8">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="delivery-heading" className="font-display text-2xl sm:text-3xl">
          Delivery Information
        </h2>
        {complete && (
          <Link
            to="/profile"
            className="text-xs font-semibold uppercase tracking-[0.14em] text-accent underline-offset-4 hover:underline"
          >
            Edit
          </Link>
        )}
      </div>
      <dl className="mt-6 grid gap-5 sm:grid-cols-2">
        <Detail label="Full name" value={profile.full_name} />
        <Detail label="Phone" value={profile.phone} />
        <Detail label="Delivery address" value={profile.address} className="sm:col-span-2" />
      </dl>
      {!complete && (
        <div className="mt-6 flex flex-col gap-4 border border-gold/60 bg-gold/10 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm">{CHECKOUT_TEXT.profileIncomplete}</p>
          <Link to="/profile" className="btn btn-primary shrink-0">
            Complete Profile
          </Link>
        </div>
      )}
    </section>
  );
}

/** One delivery field; all three are marked required (the address does not block paying). */
function Detail({
  label,
  value,
  className = '',
}: {
  label: string;
  value: string | null;
  className?: string;
}) {
  const given = value?.trim();
  return (
    <div className={className}>
      <dt className="text-xs font-semibold uppercase tracking-[0.16em]">
        {label}{' '}
        <span className="text-accent" aria-hidden>
          *
        </span>
        <span className="sr-only">(required)</span>
      </dt>
      <dd className={`mt-1.5 break-words ${given ? '' : 'text-danger'}`}>
        {given || 'Not provided'}
      </dd>
    </div>
  );
}

/** A gift card or credit covers the whole order: no way of paying to choose. */
function NothingToPay() {
  return (
    <section
      aria-labelledby="nothing-to-pay"
      className="border border-line p-6 sm:p-8"
      data-testid="nothing-to-pay"
    >
      <h2 id="nothing-to-pay" className="font-display text-2xl sm:text-3xl">
        {OFFER_CODE_TEXT.nothingToPay}
      </h2>
      <p className="mt-2 text-sm text-ink-soft">{OFFER_CODE_TEXT.nothingToPayNote}</p>
    </section>
  );
}

function ItemsInOrder({ cart, preview }: { cart: Cart; preview: CheckoutPreview | null }) {
  return (
    <section aria-labelledby="items-heading" className="border border-line p-6 sm:p-8">
      <h2 id="items-heading" className="font-display text-2xl sm:text-3xl">
        Your Items
      </h2>
      <ul className="mt-4 divide-y divide-line">
        {cart.productsInCart.map((line) => (
          <li
            key={line.variantId}
            className="grid grid-cols-[3.5rem_1fr_auto] items-center gap-4 py-4"
          >
            <ProductImage src={line.image} widths={line.imageWidths} sizes="56px" alt="" eager />
            <div className="min-w-0">
              <p className="line-clamp-2 font-medium">{line.name}</p>
              <VariantLabel label={line.label} className="mt-0.5" />
              <p className="mt-0.5 text-sm text-ink-soft tabular-nums">
                {line.quantity} × {formatUGX(line.price)}
              </p>
            </div>
            <div className="text-right tabular-nums">
              <p className="font-semibold">{formatUGX(line.price * line.quantity)}</p>
              {lineSaving(preview, line.variantId) > 0 && (
                <p className="mt-0.5 text-sm font-medium text-success" data-testid="line-saving">
                  {OFFER_CODE_TEXT.saving(lineSaving(preview, line.variantId))}
                </p>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PaymentChoice({
  value,
  onChange,
  disabled,
  cashRefused,
  children,
}: {
  value: PaymentMethod;
  onChange: (method: PaymentMethod) => void;
  disabled: boolean;
  /** Why cash on delivery cannot be chosen with this delivery option (null: it can). */
  cashRefused: string | null;
  /** The chosen method's own fields (the mobile-money number). */
  children?: ReactNode;
}) {
  return (
    <fieldset className="border border-line p-6 sm:p-8" disabled={disabled}>
      <legend className="float-left w-full font-display text-2xl sm:text-3xl">
        Payment Method
      </legend>
      <div className="clear-left grid gap-3 pt-5 sm:grid-cols-2">
        {PAYMENT_METHODS.map((method) => {
          const choice = PAYMENT_METHOD_CHOICES[method];
          const Icon = PAYMENT_ICONS[method];
          const checked = value === method;
          const refused = method === 'cash_on_delivery' ? cashRefused : null;
          return (
            <label
              key={method}
              className={`flex items-start gap-3 border p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent ${
                refused
                  ? 'cursor-not-allowed border-dashed border-line'
                  : checked
                    ? 'cursor-pointer border-ink bg-paper-2'
                    : 'cursor-pointer border-line hover:border-ink/50'
              }`}
            >
              <input
                type="radio"
                name="paymentMethod"
                value={method}
                checked={checked}
                disabled={!!refused}
                onChange={() => onChange(method)}
                aria-describedby={refused ? `payment-${method}-refused` : undefined}
                className="mt-1 size-4 shrink-0 accent-[var(--accent)]"
              />
              <span className="min-w-0 flex-1">
                <span className={`block font-medium ${refused ? 'text-ink-soft' : ''}`}>
                  {choice.label}
                </span>
                {refused ? (
                  <span
                    id={`payment-${method}-refused`}
                    className="mt-0.5 block text-sm text-ink-soft italic"
                  >
                    {refused}
                  </span>
                ) : (
                  choice.description && (
                    <span className="mt-0.5 block text-sm text-ink-soft">{choice.description}</span>
                  )
                )}
              </span>
              <Icon
                size={20}
                strokeWidth={1.5}
                className={`shrink-0 text-gold ${refused ? 'opacity-50' : ''}`}
                aria-hidden
              />
            </label>
          );
        })}
      </div>
      {children}
    </fieldset>
  );
}

/** Each option's fee for this order: free at or above the owner's threshold. */
function feesFor(choices: DeliveryChoices, subtotal: number): Record<string, number> {
  return Object.fromEntries(
    choices.options.map((o) => [o.id, deliveryFee(o, subtotal, choices.freeDeliveryOver)]),
  );
}
