// Beside a WhatsApp thread (below it on a phone, issue 37): the account the number belongs to, her
// cart and her recent orders, each order a link to its page on the desk. A number with no account
// says so, with the desk's orders searched by that number.
import { Link } from '@tanstack/react-router';
import { DeskCard } from '#app/components/desk/DeskCard.tsx';
import { StatusBadge } from '#app/components/orders/StatusBadge.tsx';
import type { ApiOutput } from '#app/trpc-client.ts';
import { ordersByPhoneLink } from '#core/desk-customers.ts';
import { DESK_INBOX_TEXT } from '#core/desk-inbox.ts';
import { formatUGX } from '#core/money.ts';
import { formatOrderDate, orderIdHead } from '#core/order-rules.ts';
import { nameWithVariant } from '#core/variants.ts';

const T = DESK_INBOX_TEXT;

type Customer = ApiOutput['desk']['thread']['customer'];

export function InboxShopper({ phone, customer }: { phone: string; customer: Customer }) {
  return (
    <aside aria-label="The shopper" className="grid gap-8" data-testid="thread-shopper">
      <DeskCard title={T.account} testId="shopper-account">
        {customer ? (
          <div className="mt-3">
            <p className="break-words font-display text-xl">{customer.name}</p>
            <p className="break-all text-sm text-ink-soft">{customer.email}</p>
          </div>
        ) : (
          <p className="mt-3 text-sm text-ink-soft">{T.noAccount}</p>
        )}
        <a
          href={ordersByPhoneLink(phone)}
          className="mt-3 inline-flex min-h-11 items-center text-sm font-medium underline underline-offset-4 hover:text-accent"
        >
          {T.allOrders}
        </a>
      </DeskCard>
      {customer && (
        <>
          <DeskCard
            title={T.cart}
            testId="shopper-cart"
            aside={
              customer.cart.productsInCart.length > 0 && (
                <span className="tabular-nums normal-case tracking-normal">
                  {formatUGX(customer.cart.subtotal)}
                </span>
              )
            }
          >
            {customer.cart.productsInCart.length === 0 ? (
              <p className="mt-3 text-sm text-ink-soft">{T.emptyCart}</p>
            ) : (
              <ul className="divide-y divide-line">
                {customer.cart.productsInCart.map((line) => (
                  <li key={line.variantId} className="flex justify-between gap-3 py-2.5 text-sm">
                    <span className="min-w-0 break-words">
                      <span className="tabular-nums text-ink-soft">{line.quantity} × </span>
                      {nameWithVariant(line.name, line.label)}
                    </span>
                    <span className="shrink-0 tabular-nums">
                      {formatUGX(line.price * line.quantity)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </DeskCard>
          <DeskCard title={T.orders} testId="shopper-orders">
            {customer.orders.length === 0 ? (
              <p className="mt-3 text-sm text-ink-soft">{T.noOrders}</p>
            ) : (
              <ul className="divide-y divide-line">
                {customer.orders.map((order) => (
                  <li key={order.id}>
                    <Link
                      to="/desk/orders/$orderId"
                      params={{ orderId: order.id }}
                      className="flex min-h-14 items-center justify-between gap-3 py-2.5 hover:bg-paper-2"
                      data-testid="shopper-order"
                    >
                      <span className="min-w-0">
                        <span className="block font-medium tabular-nums underline-offset-4">
                          #{orderIdHead(order.id)}
                        </span>
                        <span className="block text-xs text-ink-soft tabular-nums">
                          {formatOrderDate(order.createdAt)} ·{' '}
                          {order.pieces === 1 ? '1 piece' : `${order.pieces} pieces`}
                        </span>
                      </span>
                      <span className="flex shrink-0 flex-col items-end gap-1">
                        <StatusBadge status={order.status} />
                        <span className="text-sm tabular-nums">{formatUGX(order.total)}</span>
                        <span
                          className={`text-xs ${order.paid ? 'text-success' : 'text-ink-soft'}`}
                          data-testid="shopper-order-paid"
                        >
                          {order.paid ? 'Paid' : 'Not paid yet'}
                        </span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </DeskCard>
        </>
      )}
    </aside>
  );
}
