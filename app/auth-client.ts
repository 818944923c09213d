// The browser's calls to better-auth (/api/auth/*): small fetches with the library's error codes,
// mapped to the spec's texts by core/account.ts. Login, registration and logout are serialised.
import type { AuthFailure } from '#core/account.ts';

declare module '@tanstack/history' {
  interface HistoryState {
    /** Registration → login: show the verify-email notice with this email prefilled. */
    needsConfirmation?: boolean;
    email?: string;
    /** Auth callback → login: the email was just verified (or the link failed). */
    emailConfirmed?: boolean;
    confirmationFailed?: boolean;
    /** Set-new-password → login: the password was changed. */
    passwordReset?: boolean;
  }
}

export type AuthResult<T> = { ok: true; data: T } | { ok: false; failure: AuthFailure };

export async function authCall<T = Record<string, unknown>>(
  path: string,
  body: unknown = {},
): Promise<AuthResult<T>> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch (error) {
    return {
      ok: false,
      failure: { status: 0, message: error instanceof Error ? error.message : String(error) },
    };
  }
  const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok) return { ok: true, data: (data ?? {}) as T };
  const retryAfter = Number(response.headers.get('x-retry-after'));
  return {
    ok: false,
    failure: {
      status: response.status,
      code: typeof data?.code === 'string' ? data.code : undefined,
      message: typeof data?.message === 'string' ? data.message : undefined,
      retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    },
  };
}

let running = false;

/** Spec: login, register and logout are serialised; a second attempt while one runs is skipped. */
export async function serialised<T>(work: () => Promise<T>): Promise<T | undefined> {
  if (running) return undefined;
  running = true;
  try {
    return await work();
  } finally {
    running = false;
  }
}
