import type { ReactNode } from 'react';
import { errorMessage } from '#app/error-message.ts';

/** Loading text, an error box, or an empty state: one look for all of them. */
export function StatusBox({
  tone = 'quiet',
  title,
  children,
}: {
  tone?: 'quiet' | 'error';
  title?: string;
  children?: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`mx-auto my-16 max-w-xl px-6 py-12 text-center ${tone === 'error' ? 'border border-danger/40 bg-danger/5 text-danger' : ''}`}
    >
      {title && <h2 className="font-display text-3xl text-ink">{title}</h2>}
      {children && <div className="mt-3 text-ink-soft">{children}</div>}
    </div>
  );
}

/** A catalogue route's pending and error views (spec: loading text; the message in an error box). */
export const productRouteStates = {
  pendingComponent: () => <StatusBox>Loading our amazing products...</StatusBox>,
  errorComponent: ({ error }: { error: unknown }) => (
    <StatusBox tone="error">{errorMessage(error)}</StatusBox>
  ),
};
