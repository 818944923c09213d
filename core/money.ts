/** UGX has no minor unit: money is whole shillings everywhere. */
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 'UGX 1,250,000'; a missing or non-numeric price shows UGX 0. */
export function formatUGX(amount: number | null | undefined): string {
  const value = typeof amount === 'number' && Number.isFinite(amount) ? Math.round(amount) : 0;
  return `UGX ${grouped.format(value)}`;
}
