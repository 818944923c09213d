import { type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { inputClass } from '#app/components/account/ui.tsx';

/**
 * A labelled text area with its note under it, read with it (the desk's settings, a delivery
 * option's details). Three rows unless told; `className` places the whole in its grid.
 */
export function TextArea({
  label,
  note,
  className,
  ...area
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; note: ReactNode }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-[0.16em]">
        {label}
      </label>
      <textarea id={id} rows={3} aria-describedby={`${id}-note`} className={inputClass} {...area} />
      <p id={`${id}-note`} className="mt-1.5 text-xs text-ink-soft">
        {note}
      </p>
    </div>
  );
}
