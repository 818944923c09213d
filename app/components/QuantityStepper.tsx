import { Minus, Plus } from 'lucide-react';

/** − n + between min and max; the buttons disable at the bounds. */
export function QuantityStepper({
  value,
  min = 1,
  max,
  onChange,
  label,
}: {
  value: number;
  min?: number;
  max: number;
  onChange: (value: number) => void;
  label: string;
}) {
  return (
    <fieldset className="inline-flex items-center border border-line">
      <legend className="sr-only">{label}</legend>
      <button
        type="button"
        className="grid size-10 place-items-center hover:bg-paper-2 disabled:opacity-40"
        onClick={() => onChange(Math.max(min, value - 1))}
        disabled={value <= min}
        aria-label="Decrease quantity"
      >
        <Minus size={16} aria-hidden />
      </button>
      <output className="w-10 text-center text-sm font-semibold tabular-nums" aria-live="polite">
        {value}
      </output>
      <button
        type="button"
        className="grid size-10 place-items-center hover:bg-paper-2 disabled:opacity-40"
        onClick={() => onChange(Math.min(max, value + 1))}
        disabled={value >= max}
        aria-label="Increase quantity"
      >
        <Plus size={16} aria-hidden />
      </button>
    </fieldset>
  );
}
