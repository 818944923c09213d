import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';

export const Route = createFileRoute('/auth/callback')({
  head: () => ({ meta: [{ title: 'Confirming · duuka' }, { name: 'robots', content: 'noindex' }] }),
  component: AuthCallback,
});

/**
 * Where verification links land (better-auth verifies the token, then redirects here). The type
 * comes from the query or, as the spec has it, the URL hash: 'email' goes to /login with a
 * confirmation, anything else to /.
 */
function AuthCallback() {
  const navigate = useNavigate();
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    const type = query.get('type') ?? hash.get('type');
    const failed = Boolean(query.get('error') ?? hash.get('error'));
    if (type === 'email') {
      void navigate({
        to: '/login',
        replace: true,
        state: failed ? { confirmationFailed: true } : { emailConfirmed: true },
      });
    } else {
      void navigate({ to: '/', replace: true });
    }
  }, [navigate]);
  return (
    <p role="status" className="py-28 text-center font-display text-2xl text-ink-soft">
      Confirming your email...
    </p>
  );
}
