// The shopper's store credit on her profile (issue 35): the balance and every entry, newest first;
// nothing at all until she has some.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '#app/trpc-client.ts';
import { formatUGX } from '#core/money.ts';
import { formatOrderDate } from '#core/order-rules.ts';
import { CREDIT_TEXT } from '#core/value-ledger.ts';

export function StoreCredit() {
  const trpc = useTRPC();
  const credit = useQuery(trpc.account.credit.queryOptions());
  if (!credit.data || credit.data.entries.length === 0) return null;
  const { balance, entries } = credit.data;
  return (
    <section aria-labelledby="credit-heading" className="border border-line p-6 sm:p-8">
      <h2 id="credit-heading" className="font-display text-2xl sm:text-3xl">
        {CREDIT_TEXT.title}
      </h2>
      <p className="mt-3 font-display text-3xl" data-testid="credit-balance">
        {CREDIT_TEXT.balance(balance)}
      </p>
      <p className="mt-1 text-sm text-ink-soft">{CREDIT_TEXT.spendNote}</p>
      <ul className="mt-5 divide-y divide-line border-y border-line text-sm">
        {entries.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-4 py-3">
            <span className="min-w-0">
              <span className="font-medium">{CREDIT_TEXT.entry[entry.reason] ?? entry.reason}</span>
              {entry.note && <span className="block text-ink-soft">{entry.note}</span>}
              <span className="block text-xs text-ink-soft">
                {formatOrderDate(entry.createdAt)}
              </span>
            </span>
            <span className={`tabular-nums ${entry.amount < 0 ? 'text-ink-soft' : 'text-success'}`}>
              {entry.amount < 0 ? '−' : '+'}
              {formatUGX(Math.abs(entry.amount))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
