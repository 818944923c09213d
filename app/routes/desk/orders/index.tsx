// The desk's order book (/desk/orders, issue 34; decision 0074), phone first: a search (name,
// phone, email or either reference; in the address, so a link and Back keep it), the chips (all,
// the three queues, every status, with counts), filters (way to pay, delivery, paid, days), and
// the orders 50 at a time, each row a link to its order page (/desk/orders/{id}), where the
// actions are. Below: the money (bank transfers and cash to confirm, refunds) and the SMS log.
// Staff and owners (the layout, app/routes/desk.tsx, checks who may see the desk).
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { RotateCw, Search } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { MoneySection } from '#app/components/desk/Money.tsx';
import { StatusBadge } from '#app/components/orders/StatusBadge.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { DELIVERY_KINDS } from '#core/delivery-rules.ts';
import { waitedFor } from '#core/desk-money.ts';
import {
  type Chip,
  chipCount,
  DELIVERY_KIND_LABELS,
  METHOD_LABELS,
  ORDER_BOOK_CHIPS,
  ORDER_BOOK_METHODS,
  type OrderBookMethod,
  type OrderBookSearch,
  readOrderBookSearch,
  DESK_ORDER_BOOK_TEXT as TEXT,
} from '#core/desk-order-book.ts';
import { displayNumber } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import { formatTime, orderIdHead, sourceLabel } from '#core/order-rules.ts';

export const Route = createFileRoute('/desk/orders/')({
  // What does not fit in the address is dropped, never an error page.
  // This function is in every page's first script: it keeps the address's known keys as they
  // are and carries no schema; the page reads them through readOrderBookSearch, which
  // drops what does not fit.
  validateSearch: (search: Record<string, unknown>): BookSearch =>
    Object.fromEntries(Object.entries(search).filter(([key]) => BOOK_KEYS.has(key))),
  head: privatePageHead('Orders · Desk'),
  component: OrdersDesk,
});

type Sms = ApiOutput['desk']['sms'][number];
type BookPage = ApiOutput['desk']['orders'];
type BookOrder = BookPage['orders'][number];
type BookSearch = OrderBookSearch;
const BOOK_KEYS = new Set(['q', 'status', 'queue', 'paid', 'method', 'delivery', 'from', 'to']);

/** How long the search waits after the last key before it asks. */
const SEARCH_DEBOUNCE_MS = 300;

function OrdersDesk() {
  const trpc = useTRPC();
  const stats = useQuery(trpc.desk.smsStats.queryOptions());
  const sms = useQuery({ ...trpc.desk.sms.queryOptions(), refetchInterval: 3000 });
  const { from, to } = readOrderBookSearch(Route.useSearch());
  // The accountant's file covers the days the list is filtered to (every order without them).
  const file = new URLSearchParams(
    Object.entries({ from, to }).filter(([, day]) => day) as [string, string][],
  );
  return (
    <DeskPage
      eyebrow="Desk"
      title={TEXT.title}
      action={
        <div className="flex flex-wrap gap-2">
          <a
            href={`/api/desk/orders.csv${file.size ? `?${file}` : ''}`}
            className="btn btn-outline min-h-11"
            data-testid="orders-file"
          >
            {TEXT.ordersFile}
          </a>
          <Link to="/desk/orders/new" className="btn btn-primary min-h-11">
            {TEXT.newOrder}
          </Link>
        </div>
      }
    >
      <OrderBook />

      <div className="mt-12">
        <MoneySection />
      </div>

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

      <section aria-labelledby="desk-sms" className="mt-10">
        <h2 id="desk-sms" className="font-display text-3xl">
          Message log
        </h2>
        <ul className="mt-4 divide-y divide-line border-y border-line" aria-label="Message log">
          {sms.data?.map((row) => (
            <SmsRow key={row.id} row={row} />
          ))}
          {sms.data?.length === 0 && <li className="py-6 text-ink-soft">No texts yet</li>}
        </ul>
      </section>
    </DeskPage>
  );
}

/** The address's filters as desk.orders' input (the empty ones left out). */
function bookInput(search: BookSearch) {
  return Object.fromEntries(
    Object.entries(search).filter(([, value]) => value !== undefined && value !== ''),
  ) as BookSearch;
}

function OrderBook() {
  const trpc = useTRPC();
  const search = readOrderBookSearch(Route.useSearch());
  const navigate = Route.useNavigate();
  const input = bookInput(search);
  const book = useInfiniteQuery({
    ...trpc.desk.orders.infiniteQueryOptions(input, {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
    placeholderData: keepPreviousData,
  });
  const set = (change: Partial<BookSearch>, replace = false) =>
    navigate({ search: (prev: BookSearch) => bookInput({ ...prev, ...change }), replace });
  const counts = book.data?.pages[0]?.counts;
  const rows = book.data?.pages.flatMap((page) => page.orders) ?? [];
  const filtered =
    search.paid !== undefined || search.method || search.delivery || search.from || search.to;
  return (
    <section aria-labelledby="order-book" data-testid="order-book" className="mt-6">
      <h2 id="order-book" className="sr-only">
        {TEXT.title}
      </h2>
      <SearchBox value={search.q ?? ''} onSearch={(q) => set({ q: q || undefined }, true)} />
      <Chips
        counts={counts}
        active={search.queue ?? search.status ?? 'all'}
        onChoose={(chip) =>
          set({
            status: chip.kind === 'status' ? chip.key : undefined,
            queue: chip.kind === 'queue' ? chip.key : undefined,
          })
        }
      />
      <Filters search={search} onChange={(change) => set(change)} open={Boolean(filtered)} />

      {book.isError && (
        <div className="mt-4" data-testid="order-book-error">
          <Notice tone="error">{errorMessage(book.error, TEXT.loadFailed)}</Notice>
        </div>
      )}
      {book.isPending && (
        <p role="status" className="mt-6 text-ink-soft">
          {TEXT.loading}
        </p>
      )}
      {book.data && (
        <>
          <p
            className="mt-4 text-sm text-ink-soft"
            aria-live="polite"
            data-testid="order-book-shown"
          >
            {TEXT.shown(rows.length, book.hasNextPage)}
          </p>
          <ul
            className="mt-2 divide-y divide-line border-y border-line"
            aria-label={TEXT.title}
            data-testid="order-book-list"
            aria-busy={book.isFetching}
          >
            {rows.map((order) => (
              <OrderRow key={order.id} order={order} />
            ))}
            {rows.length === 0 && (
              <li className="py-8 text-ink-soft" data-testid="order-book-empty">
                {search.q
                  ? TEXT.noMatch(search.q)
                  : filtered || search.status || search.queue
                    ? TEXT.noMatchFilters
                    : TEXT.noOrders}
              </li>
            )}
          </ul>
          {book.hasNextPage && (
            <button
              type="button"
              className="btn btn-outline mt-4 min-h-11 w-full sm:w-auto"
              disabled={book.isFetchingNextPage}
              onClick={() => book.fetchNextPage()}
              data-testid="order-book-more"
            >
              {TEXT.loadMore}
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** The search box: typed text goes to the address a moment after the last key. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  // The address changed from outside (Back, a link): the box follows it.
  useEffect(() => {
    setText((typed) => (typed.trim() === value ? typed : value));
  }, [value]);
  useEffect(() => {
    const typed = text.trim();
    if (typed === value) return;
    const timer = setTimeout(() => latest.current(typed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <search>
      <label htmlFor={id} className="sr-only">
        {TEXT.searchLabel}
      </label>
      <div className="relative">
        <Search
          size={18}
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-ink-soft"
        />
        <input
          id={id}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={TEXT.searchPlaceholder}
          maxLength={100}
          autoComplete="off"
          enterKeyHint="search"
          data-testid="order-book-search"
          className="min-h-12 w-full border border-line bg-paper pr-3 pl-10 text-base"
        />
      </div>
    </search>
  );
}

function Chips({
  counts,
  active,
  onChoose,
}: {
  counts: BookPage['counts'] | undefined;
  active: string;
  onChoose: (chip: Chip) => void;
}) {
  return (
    // One row that scrolls sideways on a phone; the page itself never grows wider.
    <fieldset
      className="-mx-4 mt-4 flex min-w-0 gap-2 overflow-x-auto px-4 pb-2 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0"
      data-testid="order-book-chips"
    >
      <legend className="sr-only">{TEXT.chips}</legend>
      {ORDER_BOOK_CHIPS.map((chip) => {
        const pressed = chip.key === active;
        const count = counts?.[chip.key];
        return (
          <button
            key={chip.key}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChoose(chip)}
            data-testid={`order-chip-${chip.key}`}
            className={`inline-flex min-h-10 shrink-0 items-center gap-2 whitespace-nowrap rounded-full border px-3.5 text-sm ${
              pressed
                ? 'border-ink bg-ink text-paper'
                : 'border-line bg-paper text-ink hover:border-ink'
            }`}
          >
            {chip.label}
            <span
              className={`tabular-nums text-xs ${pressed ? 'text-paper/80' : 'text-ink-soft'}`}
              data-testid="order-chip-count"
            >
              {count === undefined ? '·' : chipCount(count)}
            </span>
          </button>
        );
      })}
    </fieldset>
  );
}

function Filters({
  search,
  onChange,
  open,
}: {
  search: BookSearch;
  onChange: (change: Partial<BookSearch>) => void;
  open: boolean;
}) {
  const field = 'min-h-11 w-full border border-line bg-paper px-2 text-base sm:text-sm';
  const label = 'grid gap-1 text-xs font-semibold uppercase tracking-[0.14em] text-ink-soft';
  return (
    <details
      className="mt-2 border-y border-line py-2"
      open={open}
      data-testid="order-book-filters"
    >
      <summary className="min-h-11 cursor-pointer content-center text-sm font-medium">
        {TEXT.filters}
      </summary>
      <div className="grid grid-cols-2 gap-3 py-3 sm:grid-cols-5">
        <label className={label}>
          {TEXT.anyMethod}
          <select
            className={field}
            value={search.method ?? ''}
            onChange={(event) =>
              onChange({ method: (event.target.value || undefined) as OrderBookMethod | undefined })
            }
            data-testid="order-filter-method"
          >
            <option value="">{TEXT.anyMethod}</option>
            {ORDER_BOOK_METHODS.map((method) => (
              <option key={method} value={method}>
                {METHOD_LABELS[method]}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          {TEXT.anyDelivery}
          <select
            className={field}
            value={search.delivery ?? ''}
            onChange={(event) => onChange({ delivery: event.target.value || undefined })}
            data-testid="order-filter-delivery"
          >
            <option value="">{TEXT.anyDelivery}</option>
            {DELIVERY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {DELIVERY_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          {TEXT.anyPaid}
          <select
            className={field}
            value={search.paid === undefined ? '' : String(search.paid)}
            onChange={(event) =>
              onChange({
                paid: event.target.value === '' ? undefined : event.target.value === 'true',
              })
            }
            data-testid="order-filter-paid"
          >
            <option value="">{TEXT.anyPaid}</option>
            <option value="true">{TEXT.paidOnly}</option>
            <option value="false">{TEXT.unpaidOnly}</option>
          </select>
        </label>
        <label className={label}>
          {TEXT.from}
          <input
            type="date"
            className={field}
            value={search.from ?? ''}
            max={search.to}
            onChange={(event) => onChange({ from: event.target.value || undefined })}
            data-testid="order-filter-from"
          />
        </label>
        <label className={label}>
          {TEXT.to}
          <input
            type="date"
            className={field}
            value={search.to ?? ''}
            min={search.from}
            onChange={(event) => onChange({ to: event.target.value || undefined })}
            data-testid="order-filter-to"
          />
        </label>
      </div>
      {open && (
        <button
          type="button"
          className="btn btn-outline mb-2 min-h-11 px-4"
          onClick={() =>
            onChange({
              method: undefined,
              delivery: undefined,
              paid: undefined,
              from: undefined,
              to: undefined,
            })
          }
        >
          {TEXT.clear}
        </button>
      )}
    </details>
  );
}

/** One order, compact: the whole row is the link to its page, where its actions are. */
function OrderRow({ order }: { order: BookOrder }) {
  const head = orderIdHead(order.id);
  const phone = order.customerPhone ?? order.deliveryPhone;
  const source = order.source === 'web' ? null : sourceLabel(order.source);
  return (
    <li data-testid="order-book-row" data-order-id={order.id}>
      <a
        href={`/desk/orders/${order.id}`}
        className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 py-3 hover:bg-sand/40 focus-visible:bg-sand/40"
      >
        <span className="flex min-w-0 items-baseline gap-2">
          <span className="font-mono text-sm font-semibold">#{head}</span>
          <span className="truncate font-medium">{order.customerName}</span>
        </span>
        <span className="text-right font-medium tabular-nums">{formatUGX(order.total)}</span>
        <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm text-ink-soft">
          <StatusBadge status={order.status} />
          <span
            className={order.paid ? 'text-success' : 'text-ink-soft'}
            data-testid="order-book-paid"
          >
            {order.paid ? TEXT.paid : TEXT.unpaid}
          </span>
          {phone && <span className="tabular-nums">{displayNumber(phone)}</span>}
          {source && <span className="rounded-full border border-line px-2 text-xs">{source}</span>}
        </span>
        <time
          dateTime={order.createdAt}
          title={formatTime(order.createdAt)}
          className="self-end text-right text-xs text-ink-soft"
          suppressHydrationWarning
        >
          {waitedFor(order.createdAt)}
        </time>
      </a>
    </li>
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
          {row.channel === 'whatsapp'
            ? `WhatsApp${row.whatsappStatus ? ` (${row.whatsappStatus})` : ''}`
            : 'SMS'}{' '}
          · {row.recipientType} · {row.kind}
          {row.orderId ? ` · #${orderIdHead(row.orderId)}` : ''} ·{' '}
          {formatTime(row.sentAt ?? row.createdAt)}
          {row.attempts > 1 ? ` · ${row.attempts} attempts` : ''}
        </span>
      </p>
      <p className="mt-1 break-words text-sm">{row.message}</p>
      {row.fallback && <p className="mt-1 break-words text-sm text-ink-soft">{row.fallback}</p>}
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
