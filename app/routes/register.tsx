import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { authCall, serialised } from '#app/auth-client.ts';
import { AuthShell, Field, Notice, PasswordField } from '#app/components/account/ui.tsx';
import { homeIfSignedIn } from '#app/session.ts';
import {
  fullNameProblem,
  MIN_PASSWORD_LENGTH,
  REGISTRATION_REDIRECT_MS,
  registrationErrorText,
  TEXT,
  VERIFY_CALLBACK_PATH,
} from '#core/account.ts';

export const Route = createFileRoute('/register')({
  head: () => ({ meta: [{ title: 'Create account · duuka' }] }),
  // Already signed in: nothing to do here, so the shop's front page.
  beforeLoad: homeIfSignedIn,
  component: RegisterScreen,
});

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function RegisterScreen() {
  const navigate = useNavigate();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  // Spec: after 2 s, to /login with the needs-confirmation state and the email.
  useEffect(() => {
    if (!registeredEmail) return;
    const timer = setTimeout(
      () => navigate({ to: '/login', state: { needsConfirmation: true, email: registeredEmail } }),
      REGISTRATION_REDIRECT_MS,
    );
    return () => clearTimeout(timer);
  }, [registeredEmail, navigate]);

  async function register(event: FormEvent) {
    event.preventDefault();
    const name = fullName.trim();
    const address = email.trim();
    if (!address || !password) return setError('Email and password are required');
    const nameProblem = fullNameProblem(name);
    if (nameProblem) return setError(nameProblem);
    if (!EMAIL.test(address)) return setError(TEXT.invalidEmail);
    if (password.length < MIN_PASSWORD_LENGTH) return setError(TEXT.passwordTooShortRegister);
    await serialised(async () => {
      setSending(true);
      setError(null);
      try {
        const result = await authCall('/sign-up/email', {
          name,
          email: address,
          password,
          callbackURL: VERIFY_CALLBACK_PATH,
        });
        if (!result.ok) return setError(registrationErrorText(result.failure));
        setRegisteredEmail(address);
      } catch {
        setError(TEXT.registrationUnexpected);
      } finally {
        setSending(false);
      }
    });
  }

  return (
    <AuthShell
      eyebrow="Join duuka"
      title="Create Account"
      intro="Save your details for a faster checkout and follow every order."
      image="/images/panels/join.svg"
    >
      {registeredEmail && <Notice tone="success">{TEXT.registered}</Notice>}
      {error && <Notice tone="error">{error}</Notice>}
      <form onSubmit={register} className="mt-6 space-y-5" noValidate>
        <Field
          label="Full name"
          name="name"
          autoComplete="name"
          required
          minLength={2}
          maxLength={100}
          value={fullName}
          onChange={(e) => setFullName(e.target.value)}
        />
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          note="At least 6 characters."
        />
        <p id="register-terms" className="text-sm leading-relaxed text-ink-soft">
          By creating an account you agree to our{' '}
          <Link to="/terms" className="font-semibold text-accent underline underline-offset-4">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className="font-semibold text-accent underline underline-offset-4">
            Privacy Policy
          </Link>
          .
        </p>
        <button
          type="submit"
          aria-describedby="register-terms"
          className="btn btn-primary w-full"
          disabled={!fullName.trim() || !email || !password || sending || Boolean(registeredEmail)}
        >
          {sending ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
      <p className="mt-8 text-sm text-ink-soft">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-accent underline-offset-4 hover:underline">
          Sign in here
        </Link>
      </p>
    </AuthShell>
  );
}
