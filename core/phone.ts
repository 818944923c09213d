/** Phone rules (spec §5): valid is '+' then 10 to 15 digits; numbers are normalised to +256. */
export const COUNTRY_CODE = '+256';

export function isValidPhone(phone: string): boolean {
  return /^\+\d{10,15}$/.test(phone);
}

export function normalisePhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.startsWith('0')) return `${COUNTRY_CODE}${digits.slice(1)}`;
  if (digits.startsWith('256')) return `+${digits}`;
  return `${COUNTRY_CODE}${digits}`;
}
