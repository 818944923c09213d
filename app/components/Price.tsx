// Prices are UGX; a shopper who chose USD, EUR or GBP in Settings also sees an approximate amount
// in that currency beside it (rates from system_settings, with the day they were set). What the
// shop charges — cart, checkout, receipts, payments — is always UGX, and those screens say so.
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { cachedCurrency, subscribeToSettings } from '#app/settings-store.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { approximatePrice, type ExchangeRates, formatUGX, rateLine } from '#core/money.ts';
import { formatLongDate } from '#core/order-rules.ts';

/** The chosen display currency; 'UGX' on the server and before hydration. */
function useDisplayCurrency(): string {
  return useSyncExternalStore(subscribeToSettings, cachedCurrency, () => 'UGX');
}

function useRates(currency: string): ExchangeRates | null {
  const trpc = useTRPC();
  const rates = useQuery({
    ...trpc.catalogue.rates.queryOptions(),
    enabled: currency !== 'UGX',
    staleTime: 60 * 60 * 1000,
  });
  return rates.data ?? null;
}

/** 'UGX 145,000' and, for a shopper who chose USD, ' · ≈ US$ 38'. */
export function Price({ amount, className = '' }: { amount: number; className?: string }) {
  const currency = useDisplayCurrency();
  return (
    <span className={className}>
      {formatUGX(amount)}
      {/* Only a foreign currency reads the rates: a page of UGX prices watches no query. */}
      {currency !== 'UGX' && <Approximately amount={amount} currency={currency} />}
    </span>
  );
}

function Approximately({ amount, currency }: { amount: number; currency: string }) {
  const approximate = approximatePrice(amount, currency, useRates(currency));
  return approximate && <span className="whitespace-nowrap text-ink-soft"> · {approximate}</span>;
}

/** Under a total the shopper pays: charged in UGX, the approximation only a guide. */
export function ChargedInUGX({ amount }: { amount: number }) {
  const currency = useDisplayCurrency();
  const rates = useRates(currency);
  const approximate = approximatePrice(amount, currency, rates);
  if (!approximate || !rates || currency === 'UGX') return null;
  return (
    <p className="mt-3 text-xs text-ink-soft" data-testid="charged-in-ugx">
      You pay {formatUGX(amount)} ({approximate} at{' '}
      {rateLine(currency as Parameters<typeof rateLine>[0], rates)}, rates of{' '}
      {formatLongDate(`${rates.setOn}T12:00:00Z`)}). The shop charges in UGX only.
    </p>
  );
}
