import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { authCall } from '#app/auth-client.ts';
import { forgetLocalAccountData } from '#app/settings-store.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { TEXT } from '#core/account.ts';
import { Notice, PasswordField } from './ui';

/** The delete-account control and its confirm dialog (profile and settings screens). */
export function DeleteAccount() {
  const dialog = useRef<HTMLDialogElement>(null);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation(trpc.account.deleteAccount.mutationOptions());

  async function confirm(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await remove.mutateAsync({ password });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : TEXT.deleteFailed);
      return;
    }
    forgetLocalAccountData();
    await authCall('/sign-out'); // the session is gone already; this clears the cookie
    queryClient.clear();
    queryClient.setQueryData(trpc.account.session.queryKey(), null);
    dialog.current?.close();
    toast.success(TEXT.deleted);
    await navigate({ to: '/login' });
  }

  return (
    <section aria-labelledby="delete-account" className="border border-danger/30 p-6">
      <h2 id="delete-account" className="font-display text-2xl">
        Delete account
      </h2>
      <p className="mt-2 text-sm text-ink-soft">
        Your profile, settings, picture and chat history are removed. Orders stay in the shop's
        books without your name.
      </p>
      <button
        type="button"
        className="btn btn-outline mt-4 text-danger"
        onClick={() => {
          setPassword('');
          setError(null);
          dialog.current?.showModal();
        }}
      >
        Delete account
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="delete-account-title"
        className="m-auto w-[min(30rem,92vw)] border border-line bg-paper p-0 text-ink backdrop:bg-black/60"
      >
        <form onSubmit={confirm} className="space-y-5 p-7">
          <p className="eyebrow text-danger">This cannot be undone</p>
          <h2 id="delete-account-title" className="font-display text-2xl leading-snug">
            {TEXT.deleteConfirm}
          </h2>
          <PasswordField
            label="Your password"
            name="delete-password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          {error && <Notice tone="error">{error}</Notice>}
          <div className="flex flex-wrap justify-end gap-3">
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => dialog.current?.close()}
            >
              Cancel
            </button>
            <button
              type="submit"
              className="btn bg-danger text-paper hover:opacity-90"
              disabled={!password || remove.isPending}
            >
              {remove.isPending ? 'Deleting...' : 'Delete my account'}
            </button>
          </div>
        </form>
      </dialog>
    </section>
  );
}
