import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { serialised } from '#app/auth-client.ts';
import { useSignOut } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { LOGOUT_REDIRECT_MS, TEXT } from '#core/account.ts';

export const Route = createFileRoute('/logout')({
  head: () => ({ meta: [{ title: 'Logged out · duuka' }] }),
  component: LogoutScreen,
});

/** Spec: signs the shopper out, shows 'Successfully logged out!', then / after 1.5 s. */
function LogoutScreen() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [done, setDone] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void serialised(async () => {
      try {
        const problem = await signOut();
        if (problem) toast.error(TEXT.logoutFailed(problem));
        else setDone(true);
      } catch {
        toast.error('Logout failed due to an unexpected error.');
      }
    });
  }, [signOut]);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate({ to: '/' }), LOGOUT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  return (
    <section className="mx-auto max-w-xl px-6 py-28 text-center">
      <p className="eyebrow">Until next time</p>
      <h1 className="mt-3 font-display text-4xl sm:text-5xl" role="status">
        {done ? TEXT.loggedOut : 'Signing you out...'}
      </h1>
      <p className="mt-4 text-ink-soft">Thank you for shopping with duuka.</p>
    </section>
  );
}
