// The owner's morning view (/desk, desk.dashboard): the day's, the week's and the month's
// sales (paid, placed but unpaid, declined or expired apart), today's status moves with their texts, the orders by status, the money waiting, the top pieces, low stock and failed texts —
// on a phone at a glance, each card a tap to the page where it is dealt with.
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Loading } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { type ApiOutput, useTRPC } from '#app/trpc-client.ts';
import { formatUGX } from '#core/money.ts';
import { formatTime, ORDER_STATUSES, orderIdHead, statusLabel } from '#core/order-rules.ts';

export const Route = createFileRoute('/desk/')({
  head: privatePageHead('Today · Desk'),
  component: Today,
});

type Dashboard = ApiOutput['desk']['dashboard'];

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function Today() {
  const trpc = useTRPC();
  const board = useQuery(trpc.desk.dashboard.queryOptions());
  if (board.isPending) return <Loading text="Loading today..." />;
  if (board.isError) {
    return (
      <DeskPageProblem title="Today">
        {errorMessage(board.error, 'Today could not be loaded.')}
      </DeskPageProblem>
    );
  }
  const data = board.data;
  return (
    <DeskPage title="Today">
      <Sales sales={data.sales} />
      <div className="mt-8 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <Money data={data} />
        <Statuses byStatus={data.ordersByStatus} />
        <Texts failed={data.textsFailed.count} />
        <TopPieces pieces={data.topPieces} />
        <LowStock rows={data.lowStock} />
      </div>
      <Moves moves={data.moves} />
    </DeskPage>
  );
}

const PERIODS = [
  ['today', 'Today'],
  ['week', 'This week'],
  ['month', 'This month'],
] as const;

/**
 * Each period's money in (payments that succeeded in it), the orders placed in it not paid yet,
 * and the payment attempts declined or expired in it: never one figure for all three.
 */
function Sales({ sales }: { sales: Dashboard['sales'] }) {
  return (
    <section aria-labelledby="sales-heading" className="mt-8">
      <h2 id="sales-heading" className="eyebrow">
        Sales · money in
      </h2>
      {/* On a phone: today across the top, the week and the month side by side below it. */}
      <div className="mt-3 grid grid-cols-2 border border-line bg-paper sm:grid-cols-3">
        {PERIODS.map(([key, label], index) => {
          const period = sales[key];
          const failed = period.declined.attempts + period.expired.attempts;
          return (
            <section
              key={key}
              aria-label={label}
              data-testid={`sales-${key}`}
              className={`min-w-0 px-4 py-4 sm:px-5 ${
                index === 0
                  ? 'col-span-2 border-b border-line sm:col-span-1 sm:border-b-0 sm:border-r'
                  : index === 1
                    ? 'border-r border-line'
                    : ''
              }`}
            >
              <h3 className="text-sm text-ink-soft">{label}</h3>
              <p
                data-testid="paid-total"
                className={`mt-1 font-display lining-nums tabular-nums [overflow-wrap:anywhere] sm:text-4xl ${
                  index === 0 ? 'text-4xl' : 'text-lg min-[400px]:text-xl'
                }`}
              >
                {formatUGX(period.paid.total)}
              </p>
              <p className="text-sm text-ink-soft tabular-nums">
                {count(period.paid.orders, 'order')} paid
              </p>
              <dl className="mt-3 grid gap-2 border-t border-line pt-3 text-sm">
                <div data-testid="unpaid">
                  <dt className="text-xs uppercase tracking-[0.12em] text-ink-soft">
                    Placed, not paid
                  </dt>
                  <dd className="tabular-nums [overflow-wrap:anywhere]">
                    {formatUGX(period.unpaid.total)}
                    <span className="block text-xs text-ink-soft">
                      {count(period.unpaid.orders, 'order')}
                    </span>
                  </dd>
                </div>
                <div data-testid="failed">
                  <dt className="text-xs uppercase tracking-[0.12em] text-ink-soft">
                    Declined or expired
                  </dt>
                  <dd className="tabular-nums [overflow-wrap:anywhere]">
                    {count(failed, 'attempt')}
                    {failed > 0 && (
                      <span className="block text-xs text-ink-soft">
                        {period.declined.attempts} declined ({formatUGX(period.declined.amount)}),{' '}
                        {period.expired.attempts} expired ({formatUGX(period.expired.amount)})
                      </span>
                    )}
                  </dd>
                </div>
              </dl>
            </section>
          );
        })}
      </div>
      <p className="mt-2 text-xs text-ink-soft">
        Kampala time; the week starts on Monday. Paid: money that came in the period, whenever the
        order was placed. Not paid: orders placed in the period, not cancelled, with no payment yet.
      </p>
    </section>
  );
}

/** The order's page on the desk: a plain string, whether or not its route is in this build. */
const orderPage = (orderId: string): string => `/desk/orders/${orderId}`;

const TEXT_STATUS: Record<string, string> = {
  sent: 'Text sent',
  failed: 'Text failed',
  pending: 'Text waiting',
  sending: 'Text sending',
};

/** Today's status moves, newest first: the order, from → to, who and when, and the text it sent. */
function Moves({ moves }: { moves: Dashboard['moves'] }) {
  return (
    <section aria-labelledby="moves-heading" className="mt-10">
      <h2 id="moves-heading" className="font-display text-2xl">
        Status moves today
      </h2>
      {moves.length === 0 ? (
        <p className="mt-3 text-sm text-ink-soft">No order has moved today yet.</p>
      ) : (
        <ul
          aria-label="Status moves today"
          className="mt-3 divide-y divide-line border-y border-line"
        >
          {moves.map((move) => (
            // The order's own page (/desk/orders/{id}) is another engineer's route (issue 34).
            <li key={`${move.orderId}-${move.to}-${move.at}`} className="grid gap-1.5 py-3">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                <Link
                  to={orderPage(move.orderId)}
                  className="min-w-0 font-medium underline-offset-4 hover:underline"
                >
                  #{orderIdHead(move.orderId)}
                  {move.customerName && (
                    <span className="font-normal text-ink-soft"> · {move.customerName}</span>
                  )}
                </Link>
                <span className="text-xs text-ink-soft tabular-nums">{formatTime(move.at)}</span>
              </div>
              <p className="text-sm">
                {move.from ? `${statusLabel(move.from)} → ` : ''}
                <span className="font-medium">{statusLabel(move.to)}</span>
                <span className="text-ink-soft [overflow-wrap:anywhere]">
                  {' '}
                  · {move.who ?? 'known by its text'}
                </span>
              </p>
              {move.text ? (
                <blockquote className="border-l-2 border-line pl-3 text-sm text-ink-soft [overflow-wrap:anywhere]">
                  <span className="eyebrow block">{TEXT_STATUS[move.text.status] ?? 'Text'}</span>
                  {move.text.content}
                </blockquote>
              ) : (
                <p className="text-xs text-ink-soft">No text for this move.</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A card that opens the page where its subject is dealt with. */
function Card({
  title,
  to,
  linkText,
  children,
  tone,
}: {
  title: string;
  to: '/desk/orders' | '/desk/stock' | '/desk/products';
  linkText: string;
  children: ReactNode;
  tone?: 'alert';
}) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={`flex min-w-0 flex-col border bg-paper ${tone === 'alert' ? 'border-red-700/60 dark:border-red-400/60' : 'border-line'}`}
    >
      <h2 id={id} className="px-5 pt-5 font-display text-2xl">
        {title}
      </h2>
      <div className="flex-1 px-5 py-3">{children}</div>
      <Link
        to={to}
        className="flex min-h-12 items-center justify-between border-t border-line px-5 text-sm font-medium hover:bg-paper-2"
      >
        {linkText}
        <ChevronRight aria-hidden className="size-4" />
      </Link>
    </section>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-1.5">
      <dt className="text-sm text-ink-soft">{label}</dt>
      <dd className="text-right text-lg font-medium tabular-nums">
        {value}
        {note && <span className="block text-xs font-normal text-ink-soft">{note}</span>}
      </dd>
    </div>
  );
}

function Money({ data }: { data: Dashboard }) {
  const { awaiting, shortPayments, refundsDue } = data;
  const needsYou =
    awaiting.bankTransfers.orders +
    awaiting.cash.orders +
    shortPayments.payments +
    refundsDue.payments;
  return (
    <Card
      title="Money waiting"
      to="/desk/orders"
      linkText="Confirm payments"
      tone={needsYou > 0 ? 'alert' : undefined}
    >
      <dl className="divide-y divide-line">
        <Figure
          label="Bank transfers to confirm"
          value={String(awaiting.bankTransfers.orders)}
          note={awaiting.bankTransfers.orders ? formatUGX(awaiting.bankTransfers.total) : undefined}
        />
        <Figure
          label="Cash to confirm"
          value={String(awaiting.cash.orders)}
          note={awaiting.cash.orders ? formatUGX(awaiting.cash.total) : undefined}
        />
        <Figure
          label="Mobile money and card pending"
          value={String(awaiting.online.orders)}
          note={awaiting.online.orders ? formatUGX(awaiting.online.total) : undefined}
        />
        <Figure
          label="Short payments"
          value={String(shortPayments.payments)}
          note={shortPayments.payments ? `${formatUGX(shortPayments.amount)} missing` : undefined}
        />
        <Figure
          label="Refunds due"
          value={String(refundsDue.payments)}
          note={refundsDue.payments ? formatUGX(refundsDue.amount) : undefined}
        />
      </dl>
    </Card>
  );
}

function Statuses({ byStatus }: { byStatus: Record<string, number> }) {
  return (
    <Card title="Orders by status" to="/desk/orders" linkText="Open orders">
      <dl className="grid grid-cols-2 gap-x-6 divide-line">
        {ORDER_STATUSES.map((status) => (
          <Figure key={status} label={statusLabel(status)} value={String(byStatus[status] ?? 0)} />
        ))}
      </dl>
    </Card>
  );
}

function Texts({ failed }: { failed: number }) {
  return (
    <Card
      title="Texts failed"
      to="/desk/orders"
      linkText="See the message log"
      tone={failed > 0 ? 'alert' : undefined}
    >
      <dl>
        <Figure label="Last 7 days" value={String(failed)} />
      </dl>
      <p className="mt-1 text-sm text-ink-soft">
        {failed > 0
          ? 'Resend them from the SMS log on the orders page.'
          : 'Every text of the last week went out.'}
      </p>
    </Card>
  );
}

function TopPieces({ pieces }: { pieces: Dashboard['topPieces'] }) {
  return (
    <Card title="Top pieces" to="/desk/products" linkText="Open products">
      <p className="text-xs text-ink-soft">Last 30 days, by pieces sold</p>
      {pieces.length === 0 ? (
        <p className="mt-2 text-sm text-ink-soft">Nothing sold in the last 30 days.</p>
      ) : (
        <ol className="mt-1 divide-y divide-line">
          {pieces.map((piece) => (
            <li
              key={`${piece.productId}-${piece.name}`}
              className="flex justify-between gap-3 py-2"
            >
              <span className="min-w-0 truncate">{piece.name}</span>
              <span className="shrink-0 text-right tabular-nums">
                {count(piece.units, 'piece')}
                <span className="block text-xs text-ink-soft">{formatUGX(piece.revenue)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function LowStock({ rows }: { rows: Dashboard['lowStock'] }) {
  return (
    <Card
      title="Low stock"
      to="/desk/stock"
      linkText="Open stock"
      tone={rows.some((row) => row.stock === 0) ? 'alert' : undefined}
    >
      {rows.length === 0 ? (
        <p className="text-sm text-ink-soft">Every size is above the threshold.</p>
      ) : (
        <ul className="divide-y divide-line">
          {rows.map((row) => (
            <li key={row.variantId} className="flex justify-between gap-3 py-2">
              <span className="min-w-0">
                <span className="block truncate">{row.name}</span>
                <span className="block truncate text-xs text-ink-soft">{row.label || row.sku}</span>
              </span>
              <span className="shrink-0 tabular-nums">
                {row.stock === 0 ? 'Sold out' : `${row.stock} left`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
