import { createFileRoute, Link } from '@tanstack/react-router';
import { Check } from 'lucide-react';
import { privatePageHead } from '#app/session.ts';
import { CHECKOUT_TEXT } from '#core/order-rules.ts';

/** Spec (account §2): the order-placed screen, linking to the order history and home. */
export const Route = createFileRoute('/order-success')({
  head: privatePageHead('Order placed'),
  component: OrderSuccess,
});

function OrderSuccess() {
  return (
    <section className="mx-auto max-w-2xl px-6 py-20 text-center sm:py-28">
      <span className="mx-auto grid size-20 place-items-center rounded-full border border-gold/60 text-gold">
        <Check size={34} strokeWidth={1.25} aria-hidden />
      </span>
      <p className="eyebrow mt-8">Thank you for shopping with duuka</p>
      <h1 className="mt-3 font-display text-4xl tracking-wide sm:text-5xl">
        {CHECKOUT_TEXT.placedTitle}
      </h1>
      <p className="mx-auto mt-4 max-w-md text-ink-soft">
        We have your order and will text you at each step of its way to you.
      </p>
      <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/order-history" className="btn btn-primary">
          View Order History
        </Link>
        <Link to="/" className="btn btn-outline">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
