// A new order taken by phone, on WhatsApp or at the counter (/desk/orders/new, issue 34, decision
// 0076): the customer's phone first (an account with that number is named as it is typed), the
// pieces found in the catalogue with a running total, delivery, where it came from and how the
// customer pays; one Save with an order id made once per order, so a double tap or a retry
// places one order. Saved: the order's page (/desk/orders/{id}).
import { useMutation, useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { Minus, Plus, X } from 'lucide-react';
import { type FormEvent, useDeferredValue, useId, useState } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { TextArea } from '#app/components/desk/TextArea.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { MAX_LINE_QUANTITY } from '#core/cart-rules.ts';
import {
  DESK_ORDER_SOURCES,
  DESK_PAYMENT_CHOICES,
  DESK_PHONE_ORDERS_TEXT,
  type DeskOrderSource,
  defaultDeskOption,
  ORDER_NOTE_MAX,
} from '#core/desk-phone-orders.ts';
import { formatUGX } from '#core/money.ts';
import { DESK_PAYMENT_METHODS, type DeskPaymentMethod, SOURCE_LABELS } from '#core/order-rules.ts';

const T = DESK_PHONE_ORDERS_TEXT;

export const Route = createFileRoute('/desk/orders/new')({
  head: privatePageHead('New order · Desk'),
  component: NewOrder,
});

/** A piece on the order: the variant, what the page shows of it, and how many. */
type Line = {
  variantId: number;
  name: string;
  label: string;
  price: number;
  stock: number;
  quantity: number;
};

const field =
  'mt-2 block min-h-12 w-full border border-line bg-paper px-4 text-base text-ink placeholder:text-ink-soft/70 focus:border-ink focus:outline-none';
const fieldLabel = 'block text-xs font-semibold uppercase tracking-[0.16em]';

/** Whether a typed number is long enough to look up ('0772 123456': 10 digits; '+256…': 12). */
const lookupable = (phone: string) => phone.replace(/\D/g, '').length >= 9;

function NewOrder() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const ids = { phone: useId(), name: useId(), email: useId(), area: useId(), option: useId() };
  // One id per order, kept across retries: the same id places one order.
  const [orderId] = useState(() => crypto.randomUUID());
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [source, setSource] = useState<DeskOrderSource>('phone');
  const [payment, setPayment] = useState<DeskPaymentMethod | null>(null);
  const [optionId, setOptionId] = useState<string>(defaultDeskOption('phone'));
  const [area, setArea] = useState('');
  const [note, setNote] = useState('');

  const typed = useDeferredValue(phone.trim());
  const account = useQuery({
    ...trpc.desk.customerByPhone.queryOptions({ phone: typed.slice(0, 32) }),
    enabled: lookupable(typed),
  });
  const found = lookupable(typed) ? account.data?.customer : null;
  const choices = useQuery(trpc.checkout.deliveryOptions.queryOptions());
  const option = choices.data?.options.find((o) => o.id === optionId);
  const create = useMutation(trpc.desk.createOrder.mutationOptions());

  const subtotal = lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const free = choices.data?.freeDeliveryOver;
  const fee = !option ? 0 : free != null && subtotal >= free ? 0 : option.fee;
  const needsArea = option ? option.kind !== 'pickup' : false;

  function chooseSource(next: DeskOrderSource) {
    setSource(next);
    // A counter sale is picked up and paid in cash unless she says otherwise; cash leaves with
    // the counter.
    if (next === 'counter') {
      setOptionId(defaultDeskOption('counter'));
      setPayment('cash');
    } else if (payment === 'cash') {
      setPayment(null);
    }
  }

  function add(piece: Omit<Line, 'quantity'>) {
    setLines((now) => {
      const there = now.find((line) => line.variantId === piece.variantId);
      if (there) {
        return now.map((line) =>
          line === there
            ? { ...line, quantity: Math.min(line.quantity + 1, MAX_LINE_QUANTITY) }
            : line,
        );
      }
      return [...now, { ...piece, quantity: 1 }];
    });
  }

  function setQuantity(variantId: number, quantity: number) {
    setLines((now) =>
      now.map((line) =>
        line.variantId === variantId
          ? { ...line, quantity: Math.max(1, Math.min(quantity, MAX_LINE_QUANTITY)) }
          : line,
      ),
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending || !payment) return;
    create.mutate(
      {
        orderId,
        customer: {
          phone: phone.trim(),
          name: name.trim() || found?.name || '',
          ...(email.trim() ? { email: email.trim() } : {}),
        },
        items: lines.map((line) => ({ variantId: line.variantId, quantity: line.quantity })),
        deliveryOptionId: optionId,
        ...(needsArea ? { deliveryArea: area.trim() } : {}),
        paymentMethod: payment,
        source,
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      { onSuccess: (done) => navigate({ href: `/desk/orders/${done.orderId}` }) },
    );
  }

  return (
    <DeskPage title={T.title}>
      <p className="mt-4 text-sm text-ink-soft">{T.intro}</p>
      <form
        onSubmit={submit}
        data-testid="new-order"
        className="mt-8 grid min-w-0 gap-10 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)]"
        noValidate
      >
        <div className="grid min-w-0 content-start gap-10">
          <section aria-labelledby="order-customer" className="min-w-0">
            <h2 id="order-customer" className="font-display text-3xl">
              Customer
            </h2>
            <div className="mt-4 grid gap-5 sm:grid-cols-2">
              <div className="sm:col-span-2">
                <label htmlFor={ids.phone} className={fieldLabel}>
                  Phone
                </label>
                <input
                  id={ids.phone}
                  type="tel"
                  inputMode="tel"
                  autoComplete="off"
                  value={phone}
                  maxLength={32}
                  onChange={(event) => setPhone(event.target.value)}
                  placeholder="0772 123456"
                  className={field}
                  data-testid="order-phone"
                />
                {lookupable(typed) && account.data && (
                  <p
                    className={`mt-2 text-sm ${found ? 'text-success' : 'text-ink-soft'}`}
                    data-testid="order-account"
                    aria-live="polite"
                  >
                    {found ? T.accountFound(found.name) : T.noAccount}
                  </p>
                )}
              </div>
              <div>
                <label htmlFor={ids.name} className={fieldLabel}>
                  Name
                </label>
                <input
                  id={ids.name}
                  value={name}
                  maxLength={100}
                  onChange={(event) => setName(event.target.value)}
                  placeholder={found?.name ?? 'Aisha Namuli'}
                  className={field}
                  data-testid="order-name"
                />
              </div>
              <div>
                <label htmlFor={ids.email} className={fieldLabel}>
                  Email <span className="font-normal normal-case tracking-normal">(optional)</span>
                </label>
                <input
                  id={ids.email}
                  type="email"
                  value={email}
                  maxLength={254}
                  onChange={(event) => setEmail(event.target.value)}
                  placeholder={found?.email ?? ''}
                  className={field}
                />
              </div>
            </div>
          </section>

          <PiecePicker onAdd={add} />

          <section aria-labelledby="order-lines" className="min-w-0">
            <h2 id="order-lines" className="font-display text-3xl">
              On the order
            </h2>
            {lines.length === 0 ? (
              <p className="mt-4 border border-dashed border-line p-5 text-sm text-ink-soft">
                {T.empty}
              </p>
            ) : (
              <ul
                aria-label="On the order"
                className="mt-4 divide-y divide-line border-y border-line"
              >
                {lines.map((line) => (
                  <li
                    key={line.variantId}
                    className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3"
                    data-testid="order-line"
                  >
                    <div className="min-w-0 flex-1 basis-40">
                      <p className="break-words font-medium">{line.name}</p>
                      <p className="text-sm text-ink-soft">
                        {[line.label, formatUGX(line.price)].filter(Boolean).join(' · ')}
                      </p>
                    </div>
                    <div className="flex items-center">
                      <button
                        type="button"
                        className="grid size-11 place-items-center border border-line"
                        aria-label={`One fewer ${line.name}`}
                        onClick={() => setQuantity(line.variantId, line.quantity - 1)}
                      >
                        <Minus size={16} aria-hidden />
                      </button>
                      <input
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={MAX_LINE_QUANTITY}
                        value={line.quantity}
                        aria-label={`How many ${line.name}`}
                        onChange={(event) =>
                          setQuantity(line.variantId, Math.trunc(Number(event.target.value)) || 1)
                        }
                        className="h-11 w-16 border-y border-line bg-paper text-center text-base"
                      />
                      <button
                        type="button"
                        className="grid size-11 place-items-center border border-line"
                        aria-label={`One more ${line.name}`}
                        onClick={() => setQuantity(line.variantId, line.quantity + 1)}
                      >
                        <Plus size={16} aria-hidden />
                      </button>
                    </div>
                    <p className="w-28 text-right font-medium tabular-nums">
                      {formatUGX(line.price * line.quantity)}
                    </p>
                    <button
                      type="button"
                      className="grid size-11 place-items-center text-ink-soft hover:text-ink"
                      aria-label={`Remove ${line.name}`}
                      onClick={() =>
                        setLines((now) => now.filter((l) => l.variantId !== line.variantId))
                      }
                    >
                      <X size={18} aria-hidden />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>

        <div className="grid min-w-0 content-start gap-8 lg:sticky lg:top-6">
          <fieldset className="min-w-0">
            <legend className={fieldLabel}>Where it came from</legend>
            <div className="mt-2 grid grid-cols-3 border border-line">
              {DESK_ORDER_SOURCES.map((value) => (
                <label
                  key={value}
                  className="flex min-h-12 cursor-pointer items-center justify-center border-line px-2 text-sm font-medium not-last:border-r has-checked:bg-ink has-checked:text-paper"
                >
                  <input
                    type="radio"
                    name="source"
                    value={value}
                    checked={source === value}
                    onChange={() => chooseSource(value)}
                    className="sr-only"
                  />
                  {SOURCE_LABELS[value]}
                </label>
              ))}
            </div>
          </fieldset>

          <div className="min-w-0">
            <label htmlFor={ids.option} className={fieldLabel}>
              Delivery
            </label>
            <select
              id={ids.option}
              value={optionId}
              onChange={(event) => setOptionId(event.target.value)}
              className={field}
            >
              {choices.data?.options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name} · {o.fee === 0 ? 'Free' : formatUGX(o.fee)}
                </option>
              ))}
            </select>
            {needsArea && (
              <div className="mt-4">
                <label htmlFor={ids.area} className={fieldLabel}>
                  {option?.kind === 'courier' ? 'Town' : 'Area'}
                </label>
                <input
                  id={ids.area}
                  value={area}
                  maxLength={80}
                  onChange={(event) => setArea(event.target.value)}
                  placeholder={option?.kind === 'courier' ? 'Mbarara' : 'Ntinda'}
                  className={field}
                />
              </div>
            )}
          </div>

          <fieldset className="min-w-0">
            <legend className={fieldLabel}>How the customer pays</legend>
            <div className="mt-2 grid gap-2">
              {DESK_PAYMENT_METHODS.map((method) => {
                const off =
                  (method === 'cash' && source !== 'counter') ||
                  (method === 'cash_on_delivery' && option && !option.cashOnDelivery);
                return (
                  <label
                    key={method}
                    className={`flex min-h-12 items-center gap-3 border border-line px-4 text-sm has-checked:border-ink has-checked:bg-ink/5 ${off ? 'cursor-not-allowed opacity-50' : 'cursor-pointer'}`}
                  >
                    <input
                      type="radio"
                      name="payment"
                      value={method}
                      checked={payment === method}
                      disabled={Boolean(off)}
                      onChange={() => setPayment(method)}
                      className="size-4 accent-ink"
                    />
                    {DESK_PAYMENT_CHOICES[method].label}
                  </label>
                );
              })}
            </div>
          </fieldset>

          <TextArea
            label="Private note (optional)"
            value={note}
            note="Only the desk sees it: the order's first note."
            maxLength={ORDER_NOTE_MAX}
            onChange={(event) => setNote(event.target.value)}
          />

          <div className="border-t border-line pt-5" data-testid="order-total">
            <dl className="grid gap-2 text-sm">
              <div className="flex justify-between gap-4">
                <dt className="text-ink-soft">{T.itemsTotal}</dt>
                <dd className="tabular-nums">{formatUGX(subtotal)}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-ink-soft">{T.deliveryFee}</dt>
                <dd className="tabular-nums">{fee === 0 ? 'Free' : formatUGX(fee)}</dd>
              </div>
              <div className="flex justify-between gap-4 border-t border-line pt-2 text-lg font-semibold">
                <dt>{T.total}</dt>
                <dd className="tabular-nums" data-testid="order-total-amount">
                  {formatUGX(subtotal + fee)}
                </dd>
              </div>
            </dl>
            {create.isError && (
              <div className="mt-4">
                <Notice tone="error">{errorMessage(create.error)}</Notice>
              </div>
            )}
            {!payment && lines.length > 0 && (
              <p className="mt-4 text-sm text-ink-soft">{T.badPayment}</p>
            )}
            <SaveButton pending={create.isPending} className="mt-4 w-full">
              {T.save}
            </SaveButton>
          </div>
        </div>
      </form>
    </DeskPage>
  );
}

/** The catalogue searched by piece or SKU (the stock page's search), each variant to add. */
function PiecePicker({ onAdd }: { onAdd: (piece: Omit<Line, 'quantity'>) => void }) {
  const trpc = useTRPC();
  const inputId = useId();
  const [q, setQ] = useState('');
  const term = useDeferredValue(q.trim());
  const found = useQuery({
    ...trpc.desk.stockSearch.queryOptions({ q: term }),
    enabled: term.length > 0,
  });
  return (
    <section aria-labelledby="order-pieces" className="min-w-0">
      <h2 id="order-pieces" className="font-display text-3xl">
        Pieces
      </h2>
      <label htmlFor={inputId} className={`mt-4 ${fieldLabel}`}>
        {T.searchPieces}
      </label>
      <input
        id={inputId}
        type="search"
        value={q}
        maxLength={100}
        onChange={(event) => setQ(event.target.value)}
        placeholder="Ankara, DK-0042…"
        className={field}
        data-testid="order-search"
      />
      {found.isError && (
        <div className="mt-4">
          <Notice tone="error">{errorMessage(found.error, 'The search failed.')}</Notice>
        </div>
      )}
      {term && found.data && (
        <ul aria-label="Pieces found" className="mt-4 divide-y divide-line border-y border-line">
          {found.data.length === 0 && <li className="py-3 text-sm text-ink-soft">{T.noPieces}</li>}
          {found.data.map((piece) => {
            const sellable = piece.status === 'published' && piece.stock > 0;
            return (
              <li
                key={piece.variantId}
                className="flex items-center gap-3 py-3"
                data-testid="order-found"
              >
                <div className="min-w-0 flex-1">
                  <p className="break-words font-medium">{piece.name}</p>
                  <p className="text-sm text-ink-soft">
                    {[piece.label, formatUGX(Number(piece.price)), `${piece.stock} left`]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-outline min-h-11 shrink-0"
                  disabled={!sellable}
                  onClick={() =>
                    onAdd({
                      variantId: piece.variantId,
                      name: piece.name,
                      label: piece.label,
                      price: Number(piece.price),
                      stock: piece.stock,
                    })
                  }
                >
                  {sellable ? 'Add' : T.outOfStock}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
