/** UGX has no minor unit: money is whole shillings everywhere. */
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 'UGX 1,250,000'; a missing or non-numeric price shows UGX 0. */
export function formatUGX(amount: number | null | undefined): string {
  const value = typeof amount === 'number' && Number.isFinite(amount) ? Math.round(amount) : 0;
  return `UGX ${grouped.format(value)}`;
}

/** The currencies a shopper may see an approximate price in (Settings → Currency). */
export const FOREIGN_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export type ForeignCurrency = (typeof FOREIGN_CURRENCIES)[number];
const SYMBOLS: Record<ForeignCurrency, string> = { USD: 'US$ ', EUR: '€', GBP: '£' };

/** UGX for one unit of each currency, and the day they were set (system_settings). */
export type ExchangeRates = Record<ForeignCurrency, number> & { setOn: string };
/** The system_settings key holding the rates as JSON. */
export const EXCHANGE_RATES_KEY = 'exchange_rates';

/** The stored rates, or null when missing or unusable (then no approximation is shown). */
export function parseRates(stored: string | null | undefined): ExchangeRates | null {
  try {
    const value = JSON.parse(stored ?? 'null') as Record<string, unknown> | null;
    if (!value || typeof value.setOn !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value.setOn)) {
      return null;
    }
    const ok = FOREIGN_CURRENCIES.every(
      (code) =>
        typeof value[code] === 'number' &&
        Number.isFinite(value[code]) &&
        (value[code] as number) > 0,
    );
    return ok ? (value as ExchangeRates) : null;
  } catch {
    return null;
  }
}

/** '≈ US$ 38' for UGX 145,000 at 3,800 a dollar; null for UGX or without rates. */
export function approximatePrice(
  ugx: number,
  currency: string,
  rates: ExchangeRates | null | undefined,
): string | null {
  if (!rates || !(FOREIGN_CURRENCIES as readonly string[]).includes(currency)) return null;
  const code = currency as ForeignCurrency;
  const amount = Math.round(ugx / rates[code]);
  return `≈ ${SYMBOLS[code]}${grouped.format(amount)}`;
}

/** 'US$ 1 = UGX 3,800' for the settings screen. */
export function rateLine(currency: ForeignCurrency, rates: ExchangeRates): string {
  return `${SYMBOLS[currency].trim()} 1 = ${formatUGX(rates[currency])}`;
}
