// The checkout once the order is placed and waits for its money: the hand-over to the card
// payment page, or the bank details with the reference to quote. Loaded only then.
import { Link } from '@tanstack/react-router';
import { CreditCard, Landmark, Loader2, type LucideIcon } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { BankDetails } from '#app/components/payments/BankDetails.tsx';
import { CART_TEXT } from '#core/cart-rules.ts';
import { formatUGX } from '#core/money.ts';
import { PAYMENT_METHOD_CHOICES, receiptNumber } from '#core/order-rules.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';
import { useCardPayment } from './CardPayment';

/** A card order placed: off to Pesapal's page; if it cannot open, the order is saved and says so. */
export function CardHandOver({ orderId }: { orderId: string }) {
  const card = useCardPayment(orderId);
  const started = useRef(false);
  // Once, even in React's strict mode.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void card.pay();
  });
  return (
    <PlacedPanel icon={CreditCard} eyebrow={PAYMENT_METHOD_CHOICES.card.label}>
      {card.problem ? (
        <>
          <h2 id="placed-title" className="font-display text-3xl leading-tight">
            {PAYMENT_STATE_TEXT.waiting}
          </h2>
          <div className="mt-5 text-left">
            <Notice tone="warning">{card.problem}</Notice>
          </div>
          <p className="mt-4 text-sm text-ink-soft">{PAYMENT_STATE_TEXT.cardLater}</p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <Link to="/orders" search={{ order: orderId }} className="btn btn-primary">
              {PAYMENT_STATE_TEXT.viewOrder}
            </Link>
          </div>
        </>
      ) : (
        <>
          <h2 id="placed-title" className="font-display text-3xl leading-tight">
            {PAYMENT_STATE_TEXT.cardRedirect}
          </h2>
          <p className="mt-4 text-sm text-ink-soft" role="status">
            {PAYMENT_STATE_TEXT.cardRedirectNote}
          </p>
          <Loader2
            size={22}
            strokeWidth={1.5}
            className="mx-auto mt-6 animate-spin text-gold motion-reduce:animate-none"
            aria-hidden
          />
        </>
      )}
    </PlacedPanel>
  );
}

/** A bank-transfer order placed: the account, the amount and the reference to quote. */
export function BankTransferPlaced({ orderId, total }: { orderId: string; total: number }) {
  return (
    <PlacedPanel icon={Landmark} eyebrow={PAYMENT_METHOD_CHOICES.bank_transfer.label}>
      <h2 id="placed-title" className="font-display text-3xl leading-tight">
        {PAYMENT_STATE_TEXT.bankTitle}
      </h2>
      <p className="mt-3 text-ink-soft">{PAYMENT_STATE_TEXT.bankAfter(formatUGX(total))}</p>
      <div className="mt-6">
        <BankDetails reference={receiptNumber(orderId)} />
      </div>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Link to="/orders" search={{ order: orderId }} className="btn btn-primary">
          {PAYMENT_STATE_TEXT.viewOrder}
        </Link>
        <Link to="/shop" className="btn btn-outline">
          {CART_TEXT.continueShopping}
        </Link>
      </div>
    </PlacedPanel>
  );
}

function PlacedPanel({
  icon: Icon,
  eyebrow,
  children,
}: {
  icon: LucideIcon;
  eyebrow: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="placed-title"
      aria-live="polite"
      className="mx-auto mt-10 max-w-xl border border-line bg-paper px-6 py-10 text-center sm:px-10"
    >
      <Icon size={40} strokeWidth={1.25} className="mx-auto text-gold" aria-hidden />
      <p className="eyebrow mt-5">{eyebrow}</p>
      <div className="mt-2">{children}</div>
    </section>
  );
}
