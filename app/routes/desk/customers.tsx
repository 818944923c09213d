// The desk's customers (/desk/customers, issue 34, decision 0076): everyone with an account and
// everyone who ordered without one, phone first, newest order first; each with their orders, what
// they spent (paid orders only), their last order, whether they take promotions, a Call and a
// WhatsApp link, and their orders on the desk. Searched by name, phone (any spelling) or email.
import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { MessageCircle, Phone } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import { Notice } from '#app/components/account/ui.tsx';
import { DeskPage } from '#app/components/desk/DeskLayout.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import {
  DESK_CUSTOMERS_TEXT,
  ordersByPhoneLink,
  telLink,
  whatsappLink,
} from '#core/desk-customers.ts';
import { formatUGX } from '#core/money.ts';
import { formatOrderDate } from '#core/order-rules.ts';

const T = DESK_CUSTOMERS_TEXT;

export const Route = createFileRoute('/desk/customers')({
  head: privatePageHead('Customers · Desk'),
  component: Customers,
});

type Customer = ApiOutput['desk']['customers']['customers'][number];

function Customers() {
  const trpc = useTRPC();
  const searchId = useId();
  const [q, setQ] = useState('');
  const term = useDeferredValue(q.trim()).slice(0, 100);
  const list = useInfiniteQuery(
    trpc.desk.customers.infiniteQueryOptions(term ? { q: term } : {}, {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  );
  const customers = list.data?.pages.flatMap((page) => page.customers) ?? [];
  return (
    <DeskPage title={T.title}>
      <p className="mt-4 text-sm text-ink-soft">{T.intro}</p>
      <div className="mt-6 max-w-xl">
        <label htmlFor={searchId} className="text-xs font-semibold uppercase tracking-[0.16em]">
          {T.search}
        </label>
        <input
          id={searchId}
          type="search"
          value={q}
          maxLength={100}
          onChange={(event) => setQ(event.target.value)}
          placeholder="Nakato, 0772 123456, name@…"
          className="mt-2 block min-h-12 w-full border border-line bg-paper px-4 text-base text-ink placeholder:text-ink-soft/70 focus:border-ink focus:outline-none"
          data-testid="customers-search"
        />
      </div>
      {list.isError && (
        <div className="mt-6">
          <Notice tone="error">
            {errorMessage(list.error, 'The customers could not be loaded.')}
          </Notice>
        </div>
      )}
      {list.data && customers.length === 0 && (
        <p className="mt-8 text-ink-soft">{term ? T.noMatch : T.none}</p>
      )}
      {customers.length > 0 && (
        <ul aria-label={T.title} className="mt-8 grid gap-4 md:grid-cols-2" data-testid="customers">
          {customers.map((customer) => (
            <CustomerCard key={customer.key} customer={customer} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="btn btn-outline mt-6 min-h-12 w-full sm:w-auto"
          disabled={list.isFetchingNextPage}
          onClick={() => list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading…' : T.more}
        </button>
      )}
    </DeskPage>
  );
}

function CustomerCard({ customer }: { customer: Customer }) {
  return (
    <li className="min-w-0 border border-line bg-paper p-5" data-testid="customer">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="min-w-0 break-words font-display text-2xl">{customer.name || '—'}</p>
        {!customer.accountId && (
          <span className="text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft">
            {T.noAccount}
          </span>
        )}
      </div>
      {customer.phone && (
        <p className="mt-1 font-medium tabular-nums" data-testid="customer-phone">
          {customer.phone}
        </p>
      )}
      {customer.email && <p className="break-all text-sm text-ink-soft">{customer.email}</p>}
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-ink-soft">Orders</dt>
          <dd className="font-medium tabular-nums">{customer.orders}</dd>
        </div>
        <div>
          <dt className="text-ink-soft">{T.spent}</dt>
          <dd className="font-medium tabular-nums">{formatUGX(customer.spent)}</dd>
        </div>
        <div>
          <dt className="text-ink-soft">{T.lastOrder}</dt>
          <dd className="font-medium tabular-nums">
            {customer.lastOrderAt ? formatOrderDate(customer.lastOrderAt) : T.noOrders}
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-xs font-semibold uppercase tracking-[0.16em] text-ink-soft">
        {customer.promotions ? T.promotions : T.noPromotions}
      </p>
      {customer.phone && (
        <div className="mt-4 flex flex-wrap gap-2">
          <a href={telLink(customer.phone)} className="btn btn-outline min-h-11 gap-2">
            <Phone size={16} aria-hidden /> {T.call}
          </a>
          <a
            href={whatsappLink(customer.phone)}
            target="_blank"
            rel="noreferrer"
            className="btn btn-outline min-h-11 gap-2"
          >
            <MessageCircle size={16} aria-hidden /> {T.whatsapp}
          </a>
          {customer.orders > 0 && (
            <a href={ordersByPhoneLink(customer.phone)} className="btn btn-outline min-h-11">
              {T.seeOrders}
            </a>
          )}
        </div>
      )}
    </li>
  );
}
