import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { authCall, serialised } from '#app/auth-client.ts';
import { useCartActions } from '#app/cart-store.tsx';
import { AuthShell, Field, Notice, PasswordField } from '#app/components/account/ui.tsx';
import { homeIfSignedIn, useRefreshSession } from '#app/session.ts';
import { applyAppearance, writeCachedSettings } from '#app/settings-store.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import {
  loginErrorText,
  RESEND_NOTICE_MS,
  RESET_TEXT,
  TEXT,
  TWO_FACTOR_TEXT,
  VERIFY_CALLBACK_PATH,
} from '#core/account.ts';

export const Route = createFileRoute('/login')({
  head: () => ({ meta: [{ title: 'Log in · duuka' }] }),
  // Already signed in: nothing to do here, so the shop's front page.
  beforeLoad: homeIfSignedIn,
  component: LoginScreen,
});

function LoginScreen() {
  // Navigation state lives in the browser's history only: read it after hydration, so the
  // server's HTML and the first client render agree.
  const historyState = useRouterState({ select: (s) => s.location.state });
  const [state, setState] = useState<{
    emailConfirmed?: boolean;
    confirmationFailed?: boolean;
    passwordReset?: boolean;
  }>({});
  const navigate = useNavigate();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshSession = useRefreshSession();
  const cart = useCartActions();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [needsVerification, setNeedsVerification] = useState(false);
  const [askCode, setAskCode] = useState(false);
  const [code, setCode] = useState('');

  useEffect(() => {
    setState({
      emailConfirmed: historyState.emailConfirmed,
      confirmationFailed: historyState.confirmationFailed,
      passwordReset: historyState.passwordReset,
    });
    if (historyState.email) setEmail(historyState.email);
    if (historyState.needsConfirmation) setNeedsVerification(true);
  }, [historyState]);
  const [resending, setResending] = useState(false);
  const [resent, setResent] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);

  // The resend success message disappears after 5 s (spec: account §4).
  useEffect(() => {
    if (!resent) return;
    const timer = setTimeout(() => setResent(null), RESEND_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [resent]);

  /** After the password (and the code, with two-factor on): the session, settings and cart. */
  async function finishLogin(userId: string) {
    await refreshSession();
    // The shopper's saved appearance follows them to this browser.
    const saved = await queryClient
      .fetchQuery(trpc.account.settings.queryOptions())
      .catch(() => null);
    if (saved) {
      writeCachedSettings(saved);
      applyAppearance(saved.appearance);
    }
    toast.success(TEXT.welcomeBack);
    // A visitor's cart joins the shopper's; an add asked for before login completes now.
    const { pendingAdd } = await cart.afterLogin(userId);
    await navigate({ to: pendingAdd ? '/cart' : '/' });
  }

  async function logIn(event: FormEvent) {
    event.preventDefault();
    if (!email || !password) return setError(TEXT.loginFieldsRequired);
    await serialised(async () => {
      setSubmitting(true);
      setError(null);
      try {
        const result = await authCall<{ user?: { id: string }; twoFactorRedirect?: boolean }>(
          '/sign-in/email',
          { email: email.trim(), password, callbackURL: VERIFY_CALLBACK_PATH },
        );
        if (!result.ok) {
          if (result.failure.code === 'EMAIL_NOT_VERIFIED') setNeedsVerification(true);
          setError(loginErrorText(result.failure));
          return;
        }
        // Two-factor on: the password is right; the code from their app comes next.
        if (result.data.twoFactorRedirect) return setAskCode(true);
        if (!result.data.user) return setError(TEXT.noUser);
        await finishLogin(result.data.user.id);
      } catch {
        setError(TEXT.loginUnexpected);
      } finally {
        setSubmitting(false);
      }
    });
  }

  async function proveCode(event: FormEvent) {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits) && !/^[A-Za-z0-9-]{8,20}$/.test(digits)) {
      return setError(TWO_FACTOR_TEXT.codeFormat);
    }
    await serialised(async () => {
      setSubmitting(true);
      setError(null);
      try {
        // Six digits from the app; anything longer is one of the backup codes.
        const result = await authCall<{ user?: { id: string } }>(
          /^\d{6}$/.test(digits) ? '/two-factor/verify-totp' : '/two-factor/verify-backup-code',
          { code: digits },
        );
        if (!result.ok) {
          setError(
            result.failure.status === 429
              ? TEXT.tooManyAttempts(result.failure.retryAfter ?? 60)
              : TWO_FACTOR_TEXT.wrongCode,
          );
          return;
        }
        if (!result.data.user) return setError(TEXT.noUser);
        await finishLogin(result.data.user.id);
      } catch {
        setError(TEXT.loginUnexpected);
      } finally {
        setSubmitting(false);
      }
    });
  }

  async function resend() {
    setResending(true);
    setResendError(null);
    setResent(null);
    try {
      const result = await authCall('/send-verification-email', {
        email: email.trim(),
        callbackURL: VERIFY_CALLBACK_PATH,
      });
      if (result.ok) setResent('Confirmation email sent. Please check your inbox.');
      else
        setResendError(
          result.failure.status === 429
            ? TEXT.tooManyAttempts(result.failure.retryAfter ?? 60)
            : TEXT.resendFailed(result.failure.message ?? 'Unknown error'),
        );
    } catch {
      setResendError(TEXT.resendUnexpected);
    } finally {
      setResending(false);
    }
  }

  return (
    <AuthShell
      eyebrow="Your account"
      title="Welcome Back"
      intro="Sign in to keep your cart, check out and follow your orders."
      image="/images/panels/sign-in.svg"
    >
      <div className="space-y-4">
        {state.emailConfirmed && (
          <Notice tone="success">Your email is confirmed. You can log in now.</Notice>
        )}
        {state.passwordReset && <Notice tone="success">{RESET_TEXT.changed}</Notice>}
        {state.confirmationFailed && (
          <Notice tone="error">
            This verification link is invalid or has expired. Log in to get a new one.
          </Notice>
        )}
        {needsVerification && (
          <div
            className="border border-gold/60 bg-gold/10 px-4 py-4 text-sm"
            data-testid="verify-notice"
          >
            <p className="font-semibold">Please verify your email</p>
            <p className="mt-1 text-ink-soft">
              We sent a confirmation link to{' '}
              {email ? <b className="text-ink">{email}</b> : 'your email'}. Open it to activate your
              account, then log in.
            </p>
            <button
              type="button"
              onClick={resend}
              disabled={resending || !email}
              className="mt-3 text-xs font-semibold uppercase tracking-[0.16em] text-accent underline-offset-4 hover:underline disabled:opacity-50"
            >
              {resending ? 'Sending...' : 'Resend confirmation email'}
            </button>
            {resent && (
              <p role="status" className="mt-2 text-success">
                {resent}
              </p>
            )}
            {resendError && (
              <p role="alert" className="mt-2 text-danger">
                {resendError}
              </p>
            )}
          </div>
        )}
        {error && <Notice tone="error">{error}</Notice>}
      </div>
      {askCode ? (
        <form onSubmit={proveCode} className="mt-6 space-y-5" noValidate>
          <p className="text-sm text-ink-soft">{TWO_FACTOR_TEXT.askCode}</p>
          <Field
            label={TWO_FACTOR_TEXT.codeLabel}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            autoFocus
            maxLength={20}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <button type="submit" className="btn btn-primary w-full" disabled={!code || submitting}>
            {submitting ? 'Checking...' : TWO_FACTOR_TEXT.verify}
          </button>
        </form>
      ) : (
        <form onSubmit={logIn} className="mt-6 space-y-5" noValidate>
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
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p className="-mt-2 text-right text-sm">
            <Link
              to="/forgot-password"
              search={email.trim() ? { email: email.trim() } : {}}
              className="inline-block py-2 font-semibold text-accent underline-offset-4 hover:underline"
            >
              {RESET_TEXT.forgotLink}
            </Link>
          </p>
          <button
            type="submit"
            className="btn btn-primary w-full"
            disabled={!email || !password || submitting}
          >
            {submitting ? 'Signing in...' : 'Sign In'}
          </button>
        </form>
      )}
      <p className="mt-8 text-sm text-ink-soft">
        New to duuka?{' '}
        <Link
          to="/register"
          className="font-semibold text-accent underline-offset-4 hover:underline"
        >
          Create an account
        </Link>
      </p>
    </AuthShell>
  );
}
