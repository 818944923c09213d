import { type ReactNode, useId } from 'react';

/** A desk form's titled group of fields (the settings, the shop's details), with its intro. */
export function FormGroup({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-5">
      <div className="border-b border-line pb-2">
        <h2 id={id} className="font-display text-2xl">
          {title}
        </h2>
        {intro && <p className="mt-1 text-sm text-ink-soft">{intro}</p>}
      </div>
      {children}
    </section>
  );
}
