import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { ArrowLeft, Lock, ShoppingBag, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useCart, useCartActions } from '#app/cart-store.tsx';
import { Loading } from '#app/components/account/ui.tsx';
import { OrderSummary } from '#app/components/cart/Summary.tsx';
import { VariantLabel } from '#app/components/cart/VariantLabel.tsx';
import { OfferCodeField } from '#app/components/checkout/OfferCodeField.tsx';
import { lineSaving, useCheckoutPreview } from '#app/components/checkout/use-checkout-preview.ts';
import { ProductImage } from '#app/components/ProductImage.tsx';
import { QuantityStepper } from '#app/components/QuantityStepper.tsx';
import { useOfferCodes } from '#app/offer-codes-store.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import {
  CART_TEXT,
  type Cart,
  type CartLine,
  cartItems,
  MAX_LINE_QUANTITY,
} from '#core/cart-rules.ts';
import { LOW_STOCK_BELOW } from '#core/catalogue.ts';
import { formatUGX } from '#core/money.ts';
import { OFFER_CODE_TEXT } from '#core/offer-codes.ts';
import { CHECKOUT_TEXT } from '#core/order-rules.ts';
import { nameWithVariant } from '#core/variants.ts';

// A signed-in shopper's cart arrives with the page (the root route reads it for the header);
// a visitor's cart is in this browser only and shows once the page is live.
export const Route = createFileRoute('/cart')({
  head: privatePageHead('Your Cart'),
  // A cart link's lines (issue 37), kept as written (anything but text reads as a broken link):
  // the page reads them once it runs (core/cart-link.ts), so this stays out of the first load.
  validateSearch: (search: Record<string, unknown>): { add?: string } =>
    search.add === undefined ? {} : { add: typeof search.add === 'string' ? search.add : '' },
  component: CartScreen,
});

// A cart link's code (issue 37), loaded only when one is opened.
const CartLink = lazy(() => import('#app/components/cart/CartLink.tsx'));

function CartScreen() {
  const { cart, ready } = useCart();
  const { add } = Route.useSearch();
  // Still shown once the address bar has lost the link: its notes stay on the page.
  const [linked, setLinked] = useState(add !== undefined);
  if (add !== undefined && !linked) setLinked(true);
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 md:py-14">
      <header className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3 border-b border-line pb-6">
        <div>
          <p className="eyebrow">Your selection</p>
          <h1 className="mt-2 font-display text-4xl sm:text-5xl">Shopping Cart</h1>
        </div>
        <Link
          to="/shop"
          className="inline-flex min-h-11 items-center gap-2 text-xs font-semibold uppercase tracking-[0.16em] hover:text-accent"
        >
          <ArrowLeft size={16} aria-hidden />
          {CART_TEXT.continueShopping}
        </Link>
      </header>
      {linked && (
        <Suspense fallback={null}>
          <CartLink add={add} />
        </Suspense>
      )}
      <div className="min-h-[26rem]">
        {!ready ? (
          // A visitor's cart comes from this browser's storage once the page runs: the wait keeps
          // the height of a one-piece cart on a phone (its line above its summary), so the lines
          // arriving do not push the page down (issue 32: a layout shift of 0.12 on a phone).
          <div className="min-h-[36rem] lg:min-h-0">
            <Loading text="Loading your cart..." />
          </div>
        ) : cart.productsInCart.length === 0 ? (
          <EmptyCart />
        ) : (
          <CartWithOffers cart={cart} />
        )}
      </div>
    </section>
  );
}

/** The lines and the summary, with the shop's preview of the codes and offers (issue 35). */
function CartWithOffers({ cart }: { cart: Cart }) {
  const offerCodes = useOfferCodes();
  const { preview, updating } = useCheckoutPreview({
    items: cartItems(cart),
    codes: offerCodes.codes,
  });
  return (
    <div className="mt-2 grid gap-8 lg:mt-8 lg:grid-cols-[1fr_22rem] lg:gap-12">
      <ul className="divide-y divide-line self-start border-b border-line" aria-label="Cart items">
        {cart.productsInCart.map((line) => (
          <CartLineItem
            key={line.variantId}
            line={line}
            saving={lineSaving(preview, line.variantId)}
          />
        ))}
      </ul>
      <OrderSummary
        cart={cart}
        preview={preview}
        codes={<OfferCodeField offerCodes={offerCodes} preview={preview} checking={updating} />}
      >
        <ProceedToCheckout />
      </OrderSummary>
    </div>
  );
}

function EmptyCart() {
  return (
    <div className="mx-auto max-w-md py-20 text-center">
      <span className="mx-auto grid size-20 place-items-center rounded-full border border-gold/50 text-gold">
        <ShoppingBag size={30} strokeWidth={1.25} aria-hidden />
      </span>
      <h2 className="mt-6 font-display text-4xl">{CART_TEXT.empty}</h2>
      <p className="mt-3 text-ink-soft">Pieces you add to your cart will wait for you here.</p>
      <Link to="/shop" className="btn btn-primary mt-8">
        {CART_TEXT.startShopping}
      </Link>
    </div>
  );
}

function CartLineItem({ line, saving }: { line: CartLine; saving: number }) {
  const { setQuantity, remove } = useCartActions();
  // At the stock, the + rests and the hint says why (a stock that fell meanwhile is still refused
  // by the server with the spec's toast).
  const atStock = line.stock !== undefined && line.stock > 0 && line.quantity >= line.stock;
  const lowStock =
    line.stock !== undefined && line.stock > 0 && (line.stock < LOW_STOCK_BELOW || atStock);
  // Two sizes of one piece are two lines: their controls say which.
  const shown = nameWithVariant(line.name, line.label);
  const name = line.slug ? (
    <Link to="/products/$slug" params={{ slug: line.slug }} className="hover:text-accent">
      {line.name}
    </Link>
  ) : (
    line.name
  );
  return (
    <li className="grid grid-cols-[5.5rem_1fr] gap-4 py-6 sm:grid-cols-[7.5rem_1fr] sm:gap-6">
      <ProductImage
        src={line.image}
        widths={line.imageWidths}
        sizes="(min-width: 640px) 120px, 88px"
        alt=""
        eager
      />
      <div className="flex min-w-0 flex-col">
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 className="font-display text-xl leading-snug sm:text-2xl">{name}</h2>
            <VariantLabel label={line.label} className="mt-0.5 font-medium text-ink" />
            <p className="mt-1 text-sm text-ink-soft">
              {formatUGX(line.price)} {CART_TEXT.each}
            </p>
            {lowStock && (
              <p className="mt-1 text-xs font-semibold text-accent">Only {line.stock} left</p>
            )}
            {line.stock === 0 && (
              <p className="mt-1 text-xs font-semibold text-danger">
                {CART_TEXT.noLongerAvailable}
              </p>
            )}
          </div>
          <div className="shrink-0 text-right tabular-nums">
            <p className="font-semibold" data-testid="line-total">
              {formatUGX(line.price * line.quantity)}
            </p>
            {saving > 0 && (
              <p className="mt-0.5 text-sm font-medium text-success" data-testid="line-saving">
                {OFFER_CODE_TEXT.saving(saving)}
              </p>
            )}
          </div>
        </div>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
          {/* From 1 up to the stock (or the line's limit). */}
          <QuantityStepper
            label={`Quantity of ${shown}`}
            value={line.quantity}
            min={1}
            max={
              line.stock !== undefined && line.stock > 0
                ? Math.min(MAX_LINE_QUANTITY, Math.max(line.stock, line.quantity))
                : MAX_LINE_QUANTITY
            }
            onChange={(quantity) => void setQuantity(line.variantId, quantity)}
          />
          <button
            type="button"
            onClick={() => void remove(line.variantId)}
            className="inline-flex min-h-10 items-center gap-2 text-xs font-semibold uppercase tracking-[0.14em] text-ink-soft hover:text-danger"
            aria-label={`${CART_TEXT.remove} ${shown}`}
          >
            <Trash2 size={15} aria-hidden />
            {CART_TEXT.remove}
          </button>
        </div>
      </div>
    </li>
  );
}

/** Spec §4: check the session, load (or create) the profile, then /checkout. */
function ProceedToCheckout() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [processing, setProcessing] = useState(false);

  async function logInFirst() {
    toast.error(CHECKOUT_TEXT.mustLogIn);
    await navigate({ to: '/login' });
  }

  async function proceed() {
    setProcessing(true);
    try {
      const user = await queryClient
        .fetchQuery({ ...trpc.account.session.queryOptions(), staleTime: 0 })
        .catch(() => null);
      if (!user) return await logInFirst();
      try {
        // The server reads the profile and creates it when missing.
        await queryClient.fetchQuery(trpc.account.profile.queryOptions());
      } catch (error) {
        if (error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED') {
          return await logInFirst();
        }
        toast.error(CHECKOUT_TEXT.profileFailed);
        return;
      }
      await navigate({ to: '/checkout' });
    } finally {
      setProcessing(false);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={proceed}
        disabled={processing}
        className="btn btn-primary mt-8 w-full"
      >
        {processing ? CART_TEXT.processing : CART_TEXT.proceed}
      </button>
      <p className="mt-4 flex items-center justify-center gap-2 text-xs text-ink-soft">
        <Lock size={13} aria-hidden />
        Mobile Money, card, bank transfer or cash on delivery
      </p>
    </>
  );
}
