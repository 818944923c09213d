// The mobile-money payer's number with the network it belongs to (checkout and retries). Apart
// from MobileMoneyPayment so the checkout's first load carries the field, not the payment screen.
import { useId } from 'react';
import { inputClass } from '#app/components/account/ui.tsx';
import { NETWORK_LABEL, networkOf, PAYMENT_TEXT } from '#core/mobile-money.ts';

/** The payer's number field with the network it belongs to (checkout and retries). */
export function PayerNumber({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  onChange: (phone: string) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const id = useId();
  const network = networkOf(value);
  return (
    <div>
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {PAYMENT_TEXT.payerNumber}
      </label>
      <div className="relative">
        <input
          id={id}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={30}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-network`}
          className={`${inputClass} pr-44`}
        />
        <span
          id={`${id}-network`}
          className="pointer-events-none absolute inset-y-0 right-3 mt-2 flex items-center text-xs font-semibold uppercase tracking-[0.12em] text-ink-soft"
        >
          {network ? NETWORK_LABEL[network] : ''}
        </span>
      </div>
      {error && (
        <p className="mt-1.5 text-sm text-danger" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
