import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { authCall } from '#app/auth-client.ts';
import { RequireSession } from '#app/components/account/RequireSession.tsx';
import { Notice, PageHeading, PasswordField } from '#app/components/account/ui.tsx';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { changePasswordProblem, passwordErrorText, TEXT } from '#core/account.ts';

export const Route = createFileRoute('/change-password')({
  head: privatePageHead('Change password'),
  component: () => <RequireSession>{() => <ChangePassword />}</RequireSession>,
});

const SUCCESS_REDIRECT_MS = 2000;

function ChangePassword() {
  const navigate = useNavigate();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate({ to: '/settings' }), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const problem = changePasswordProblem(next, confirmation, current);
    if (problem) return setError(problem);
    setSending(true);
    try {
      const result = await authCall('/change-password', {
        currentPassword: current,
        newPassword: next,
        revokeOtherSessions: true, // other devices are signed out
      });
      if (!result.ok) return setError(passwordErrorText(result.failure));
      await queryClient.invalidateQueries({ queryKey: trpc.account.session.queryKey() });
      toast.success(TEXT.passwordUpdated);
      setDone(true);
    } catch (failure) {
      setError(TEXT.passwordFailed(failure instanceof Error ? failure.message : 'Unknown error'));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="mx-auto max-w-xl px-4 py-10 sm:px-6 md:py-14">
      <PageHeading
        eyebrow="Security"
        title="Change Password"
        intro="Choose a new password of at least 6 characters."
      />
      <form onSubmit={submit} className="mt-8 space-y-5 border border-line p-6 sm:p-8" noValidate>
        {done && <Notice tone="success">{TEXT.passwordUpdated}</Notice>}
        {error && <Notice tone="error">{error}</Notice>}
        <PasswordField
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <PasswordField
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <PasswordField
          label="Confirm new password"
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
        />
        <button type="submit" className="btn btn-primary w-full" disabled={sending || done}>
          {sending ? 'Updating...' : 'Update Password'}
        </button>
      </form>
      <Link
        to="/settings"
        className="mt-6 inline-block text-sm font-semibold text-accent underline-offset-4 hover:underline"
      >
        ← Back to Settings
      </Link>
    </section>
  );
}
