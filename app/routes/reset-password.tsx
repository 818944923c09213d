import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { authCall } from '#app/auth-client.ts';
import { AuthShell, Notice, PasswordField } from '#app/components/account/ui.tsx';
import { newPasswordProblem, RESET_TEXT, resetErrorText } from '#core/account.ts';

// The mailed link lands here with its token: a new password by the change-password rules. Setting
// it signs out every session of the account (server/auth.ts), then the shopper logs in again.
export const Route = createFileRoute('/reset-password')({
  head: () => ({
    meta: [{ title: 'Set a new password · duuka' }, { name: 'robots', content: 'noindex' }],
  }),
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' && /^\w{1,64}$/.test(search.token)
      ? { token: search.token }
      : {},
  component: ResetPassword,
});

function ResetPassword() {
  const { token } = Route.useSearch();
  const navigate = useNavigate();
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(token ? null : RESET_TEXT.linkInvalid);
  const [dead, setDead] = useState(!token);

  async function save(event: FormEvent) {
    event.preventDefault();
    const problem = newPasswordProblem(next, confirmation);
    if (problem) return setError(problem);
    setSaving(true);
    setError(null);
    try {
      const result = await authCall('/reset-password', { token, newPassword: next });
      if (result.ok) {
        await navigate({ to: '/login', state: { passwordReset: true } });
        return;
      }
      const text = resetErrorText(result.failure);
      setDead(text === RESET_TEXT.linkInvalid);
      setError(text);
    } catch {
      setError(RESET_TEXT.failed('Unknown error'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <AuthShell
      eyebrow="Your account"
      title={RESET_TEXT.newTitle}
      intro={RESET_TEXT.newIntro}
      image="/images/panels/sign-in.svg"
    >
      {error && <Notice tone="error">{error}</Notice>}
      {dead ? (
        <Link to="/forgot-password" className="btn btn-primary mt-6 w-full">
          {RESET_TEXT.askAgain}
        </Link>
      ) : (
        <form onSubmit={save} className="mt-6 space-y-5" noValidate>
          <PasswordField
            label="New password"
            name="newPassword"
            autoComplete="new-password"
            required
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
          <PasswordField
            label="Confirm new password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
          />
          <button type="submit" className="btn btn-primary w-full" disabled={saving}>
            {saving ? RESET_TEXT.saving : RESET_TEXT.save}
          </button>
        </form>
      )}
      <p className="mt-8 text-sm text-ink-soft">
        <Link to="/login" className="font-semibold text-accent underline-offset-4 hover:underline">
          {RESET_TEXT.backToLogin}
        </Link>
      </p>
    </AuthShell>
  );
}
