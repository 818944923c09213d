// The checkout's delivery (issue 23): the options the shop offers, each with its fee, its time and
// its details; for a delivery, the area, landmark, the phone the rider calls and notes; upcountry,
// the town, the bus company or stage and the phone to call when the parcel arrives (issue 32); for
// a pickup, where the boutique is. The figures are display only: the server reads the fee.
import { Bike, Bus, type LucideIcon, Store } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { inputClass } from '#app/components/account/ui.tsx';
import { useStoreDetails } from '#app/components/SocialIcons.tsx';
import { DELIVERY_WORDING, deliveryTime } from '#core/delivery-choice.ts';
import type { DeliveryField, DeliveryForm } from '#core/delivery-form.ts';
import {
  AREA_MAX,
  type DeliveryKind,
  type DeliveryOption,
  feeText,
  LANDMARK_MAX,
  NOTES_MAX,
} from '#core/delivery-rules.ts';

const KIND_ICONS: Record<DeliveryKind, LucideIcon> = {
  delivery: Bike,
  pickup: Store,
  courier: Bus,
};

export function DeliveryChoice({
  options,
  chosen,
  onChoose,
  form,
  onForm,
  problems,
  fees,
  disabled,
}: {
  options: DeliveryOption[];
  chosen: DeliveryOption;
  onChoose: (option: DeliveryOption) => void;
  form: DeliveryForm;
  onForm: (field: DeliveryField, value: string) => void;
  problems: Partial<Record<DeliveryField, string>>;
  /** Each option's fee for this order (free above the owner's threshold). */
  fees: Record<string, number>;
  disabled: boolean;
}) {
  const ids = useId();
  const store = useStoreDetails();
  const pickup = chosen.kind === 'pickup';
  const wording = DELIVERY_WORDING[chosen.kind];
  return (
    <fieldset className="border border-line p-6 sm:p-8" disabled={disabled}>
      <legend className="float-left w-full font-display text-2xl sm:text-3xl">Delivery</legend>
      <div className="clear-left grid gap-3 pt-5">
        {options.map((option) => {
          const checked = option.id === chosen.id;
          const Icon = KIND_ICONS[option.kind];
          const fee = fees[option.id] ?? option.fee;
          const id = `${ids}-${option.id}`;
          return (
            <label
              key={option.id}
              className={`flex cursor-pointer items-start gap-3 border p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent sm:gap-4 sm:p-5 ${
                checked ? 'border-ink bg-paper-2' : 'border-line hover:border-ink/50'
              }`}
            >
              <input
                type="radio"
                name="deliveryOption"
                value={option.id}
                checked={checked}
                onChange={() => onChoose(option)}
                aria-labelledby={`${id}-name ${id}-fee`}
                aria-describedby={`${id}-time${option.details ? ` ${id}-details` : ''}`}
                className="mt-1 size-4 shrink-0 accent-[var(--accent)]"
              />
              <span className="min-w-0 flex-1">
                <span className="flex flex-col gap-0.5 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
                  <span id={`${id}-name`} className="font-medium">
                    {option.name}
                  </span>
                  <span
                    id={`${id}-fee`}
                    className={`shrink-0 text-sm font-semibold tabular-nums ${fee === 0 ? 'text-success' : ''}`}
                  >
                    {feeText(fee)}
                  </span>
                </span>
                <span
                  id={`${id}-time`}
                  className="mt-1 block text-xs font-semibold uppercase tracking-[0.14em] text-gold"
                >
                  {deliveryTime(option)}
                </span>
                {option.details && (
                  <span id={`${id}-details`} className="mt-1.5 block text-sm text-ink-soft">
                    {option.details}
                  </span>
                )}
              </span>
              <Icon size={20} strokeWidth={1.5} className="shrink-0 text-gold" aria-hidden />
            </label>
          );
        })}
      </div>

      <div
        className="mt-6 grid gap-5 border-t border-line pt-6 sm:grid-cols-2"
        data-delivery-fields
      >
        {pickup ? (
          <div className="border border-gold/50 bg-gold/5 px-4 py-4 text-sm sm:col-span-2">
            <p className="eyebrow">Collect from the boutique</p>
            <p className="mt-2">{chosen.details || 'The duuka boutique, Kampala.'}</p>
            {store && (
              <p className="mt-2 font-medium" data-testid="pickup-address">
                {store.place}
                {store.mapUrl && (
                  <>
                    {' · '}
                    <a
                      href={store.mapUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="underline underline-offset-4 hover:text-accent"
                    >
                      View on map<span className="sr-only"> (opens in a new tab)</span>
                    </a>
                  </>
                )}
              </p>
            )}
          </div>
        ) : (
          <>
            {wording.promise && (
              <p className="border border-gold/50 bg-gold/5 px-4 py-4 text-sm sm:col-span-2">
                {wording.promise}
              </p>
            )}
            <TextField
              label={wording.area}
              required
              value={form.area}
              onChange={(value) => onForm('area', value)}
              placeholder={wording.areaHint}
              maxLength={AREA_MAX}
              autoComplete={chosen.kind === 'courier' ? 'address-level2' : 'address-level3'}
              error={problems.area}
            />
            <TextField
              label={wording.landmark}
              value={form.landmark}
              onChange={(value) => onForm('landmark', value)}
              placeholder={wording.landmarkHint}
              maxLength={LANDMARK_MAX}
              error={problems.landmark}
            />
          </>
        )}
        <TextField
          label={wording.phone}
          type="tel"
          value={form.phone}
          onChange={(value) => onForm('phone', value)}
          placeholder="e.g. 0772 123 456"
          maxLength={32}
          autoComplete="tel"
          note={wording.phoneNote}
          error={problems.phone}
        />
        <TextField
          label="Delivery notes"
          multiline
          value={form.notes}
          onChange={(value) => onForm('notes', value)}
          placeholder={wording.notesHint}
          maxLength={NOTES_MAX}
          error={problems.notes}
          className="sm:col-span-2"
        />
      </div>
    </fieldset>
  );
}

function TextField({
  label,
  value,
  onChange,
  error,
  note,
  required,
  multiline,
  className = '',
  ...input
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  note?: ReactNode;
  required?: boolean;
  multiline?: boolean;
  className?: string;
  type?: string;
  placeholder?: string;
  maxLength?: number;
  autoComplete?: string;
}) {
  const id = useId();
  const described = [note ? `${id}-note` : '', error ? `${id}-error` : ''].filter(Boolean);
  const shared = {
    id,
    value,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described.length ? described.join(' ') : undefined,
    className: `${inputClass} ${error ? 'border-danger' : ''}`,
    ...input,
  } as const;
  return (
    <div className={className}>
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {label}
      </label>
      {/* Outside the label: the field's name is its label alone; `required` says the rest. */}
      {required && (
        <span className="ml-1 text-xs font-semibold text-accent" aria-hidden>
          *
        </span>
      )}
      {multiline ? (
        <textarea {...shared} rows={3} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...shared} onChange={(event) => onChange(event.target.value)} />
      )}
      {note && (
        <p id={`${id}-note`} className="mt-1.5 text-xs text-ink-soft">
          {note}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
