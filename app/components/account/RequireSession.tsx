import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { type SessionUser, useSession } from '#app/session.ts';
import { Loading } from './ui';

/** Account screens: 'Loading authentication...', then Access Required for visitors (spec). */
export function RequireSession({ children }: { children: (user: SessionUser) => ReactNode }) {
  const { user, isPending } = useSession();
  if (isPending) return <Loading text="Loading authentication..." />;
  if (!user)
    return (
      <section className="mx-auto max-w-lg px-6 py-24 text-center">
        <p className="eyebrow">Members only</p>
        <h1 className="mt-3 font-display text-4xl">Access Required</h1>
        <p className="mt-3 text-ink-soft">Please sign in to see this page.</p>
        <Link to="/login" className="btn btn-primary mt-8">
          Sign In
        </Link>
      </section>
    );
  return <>{children(user)}</>;
}
