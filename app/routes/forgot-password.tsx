import { createFileRoute, Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { authCall } from '#app/auth-client.ts';
import { AuthShell, Field, Notice } from '#app/components/account/ui.tsx';
import { RESET_TEXT, resetErrorText, TEXT } from '#core/account.ts';

// "Forgot password?": a link to set a new one, mailed to the address if it has an account. The
// answer is the same either way (server/auth.ts), and so is this screen.
export const Route = createFileRoute('/forgot-password')({
  head: () => ({
    meta: [{ title: 'Forgot your password? · duuka' }, { name: 'robots', content: 'noindex' }],
  }),
  validateSearch: (search: Record<string, unknown>): { email?: string } =>
    typeof search.email === 'string' && search.email.length <= 254 ? { email: search.email } : {},
  component: ForgotPassword,
});

function ForgotPassword() {
  const search = Route.useSearch();
  const [email, setEmail] = useState(search.email ?? '');
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function send(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address) return setError(TEXT.invalidEmail);
    setSending(true);
    setError(null);
    try {
      const result = await authCall('/request-password-reset', { email: address });
      if (result.ok) setSentTo(address);
      else if (result.failure.code === 'VALIDATION_ERROR') setError(TEXT.invalidEmail);
      else setError(resetErrorText(result.failure));
    } catch {
      setError(RESET_TEXT.failed('Unknown error'));
    } finally {
      setSending(false);
    }
  }

  return (
    <AuthShell
      eyebrow="Your account"
      title={RESET_TEXT.title}
      intro={RESET_TEXT.intro}
      image="/images/panels/sign-in.svg"
    >
      {sentTo ? (
        <Notice tone="success">{RESET_TEXT.sent(sentTo)}</Notice>
      ) : (
        <form onSubmit={send} className="space-y-5" noValidate>
          {error && <Notice tone="error">{error}</Notice>}
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            maxLength={254}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="btn btn-primary w-full" disabled={!email || sending}>
            {sending ? RESET_TEXT.sending : RESET_TEXT.send}
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
