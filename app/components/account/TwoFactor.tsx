// Two-factor sign-in in Settings (better-auth's plugin, TOTP): turning it on asks for the
// password, shows the QR code and key for an authenticator app, and is only on once a code from
// the app is proved; then the backup codes. Turning it off asks for the password.

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { renderSVG } from 'uqr';
import { authCall } from '#app/auth-client.ts';
import { useSession } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { TEXT, TWO_FACTOR_TEXT } from '#core/account.ts';
import { Field, Notice, PasswordField } from './ui';

type Step =
  | { kind: 'idle' }
  | { kind: 'password'; turning: 'on' | 'off' }
  | { kind: 'scan'; uri: string; backupCodes: string[] }
  | { kind: 'codes'; backupCodes: string[] };

export function TwoFactor() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  // The session says whether it is on: read again in place (nothing else is dropped, so this
  // screen and its state stay).
  const refreshSession = () =>
    queryClient.invalidateQueries({ queryKey: trpc.account.session.queryKey() });
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const on = user?.twoFactor === true;

  const refused = (status: number, retryAfter?: number) =>
    status === 429 ? TEXT.tooManyAttempts(retryAfter ?? 60) : null;

  async function submitPassword(event: FormEvent) {
    event.preventDefault();
    if (step.kind !== 'password' || !password) return;
    setBusy(true);
    setError(null);
    const path = step.turning === 'on' ? '/two-factor/enable' : '/two-factor/disable';
    const result = await authCall<{ totpURI?: string; backupCodes?: string[] }>(path, { password });
    setBusy(false);
    setPassword('');
    if (!result.ok) {
      setError(
        refused(result.failure.status, result.failure.retryAfter) ?? TWO_FACTOR_TEXT.wrongPassword,
      );
      return;
    }
    if (step.turning === 'off') {
      await refreshSession();
      toast.success(TWO_FACTOR_TEXT.turnedOff);
      setStep({ kind: 'idle' });
      return;
    }
    setStep({
      kind: 'scan',
      uri: result.data.totpURI ?? '',
      backupCodes: result.data.backupCodes ?? [],
    });
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    if (step.kind !== 'scan') return;
    setBusy(true);
    setError(null);
    const result = await authCall('/two-factor/verify-totp', { code: code.replace(/\s/g, '') });
    setBusy(false);
    if (!result.ok) {
      setError(
        refused(result.failure.status, result.failure.retryAfter) ?? TWO_FACTOR_TEXT.wrongCode,
      );
      return;
    }
    setCode('');
    setStep({ kind: 'codes', backupCodes: step.backupCodes });
    toast.success(TWO_FACTOR_TEXT.turnedOn);
    await refreshSession();
  }

  const key = step.kind === 'scan' ? (new URL(step.uri).searchParams.get('secret') ?? '') : '';
  return (
    <div className="space-y-4" data-testid="two-factor">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <p className="font-semibold">{TWO_FACTOR_TEXT.title}</p>
          <p className="text-sm text-ink-soft">{on ? TWO_FACTOR_TEXT.on : TWO_FACTOR_TEXT.off}</p>
        </div>
        {step.kind === 'idle' && (
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => setStep({ kind: 'password', turning: on ? 'off' : 'on' })}
          >
            {on ? TWO_FACTOR_TEXT.turnOff : TWO_FACTOR_TEXT.turnOn}
          </button>
        )}
      </div>
      {error && <Notice tone="error">{error}</Notice>}
      {step.kind === 'password' && (
        <form onSubmit={submitPassword} className="flex flex-wrap items-end gap-3" noValidate>
          <PasswordField
            label={TWO_FACTOR_TEXT.passwordPrompt}
            autoComplete="current-password"
            className="min-w-0 flex-1"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={!password || busy}>
            {step.turning === 'on' ? TWO_FACTOR_TEXT.turnOn : TWO_FACTOR_TEXT.turnOff}
          </button>
        </form>
      )}
      {step.kind === 'scan' && (
        <form
          onSubmit={submitCode}
          className="grid gap-5 border border-line p-5 sm:grid-cols-[10rem_1fr]"
          noValidate
        >
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(step.uri, { border: 1 }))}`}
            alt="QR code for your authenticator app"
            className="size-40 bg-white p-1"
          />
          <div className="space-y-4">
            <p className="text-sm">{TWO_FACTOR_TEXT.scan}</p>
            <p className="text-sm">
              {TWO_FACTOR_TEXT.key}:{' '}
              <code data-testid="two-factor-key" className="break-all font-mono">
                {key}
              </code>
            </p>
            <Field
              label={TWO_FACTOR_TEXT.codeLabel}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={10}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <button type="submit" className="btn btn-primary" disabled={!code || busy}>
              {TWO_FACTOR_TEXT.verify}
            </button>
          </div>
        </form>
      )}
      {step.kind === 'codes' && (
        <div className="border border-line p-5">
          <p className="text-sm">{TWO_FACTOR_TEXT.backupCodes}</p>
          <ul
            className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5"
            aria-label="Backup codes"
          >
            {step.backupCodes.map((backup) => (
              <li key={backup}>{backup}</li>
            ))}
          </ul>
          <button
            type="button"
            className="btn btn-outline mt-4"
            onClick={() => setStep({ kind: 'idle' })}
          >
            Done
          </button>
        </div>
      )}
    </div>
  );
}
