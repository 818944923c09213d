// The receipt's address (spec: account §5, "Address parsing for receipts").

export type ReceiptAddress = { street: string; city: string; country: string };

export const DEFAULT_CITY = 'Kampala';
export const DEFAULT_COUNTRY = 'Uganda';

/**
 * A profile's one-line address split at commas, each part trimmed and blank parts dropped:
 * three parts are street, city, country; two are street and city in Uganda; one is a street in
 * Kampala, Uganda. With more than three, the last two are city and country and the rest is the
 * street. No address at all is Kampala, Uganda with an empty street.
 */
export function parseAddress(address: string | null | undefined): ReceiptAddress {
  const parts = (address ?? '')
    .split(',')
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter((part) => part !== '');
  if (parts.length <= 1) {
    return { street: parts[0] ?? '', city: DEFAULT_CITY, country: DEFAULT_COUNTRY };
  }
  if (parts.length === 2) {
    return { street: parts[0] ?? '', city: parts[1] ?? '', country: DEFAULT_COUNTRY };
  }
  const country = parts.at(-1) ?? '';
  const city = parts.at(-2) ?? '';
  return { street: parts.slice(0, -2).join(', '), city, country };
}
