// A titled part of a desk page (an order's, a return's): its heading names the section for
// screen readers, with room beside the title for a count or a link.
import { type ReactNode, useId } from 'react';

export function DeskCard({
  title,
  testId,
  children,
  aside,
}: {
  title: string;
  testId: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} data-testid={testId} className="min-w-0">
      <h2
        id={id}
        className="flex items-baseline justify-between gap-3 border-b border-ink pb-2 text-sm font-semibold uppercase tracking-[0.14em]"
      >
        <span>{title}</span>
        {aside}
      </h2>
      {children}
    </section>
  );
}
