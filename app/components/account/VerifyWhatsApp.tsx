// "Verify on WhatsApp" in Settings (issue 37): a 6-digit code sent to the profile's number on
// WhatsApp, typed here. Only a verified number lets the assistant on WhatsApp answer about the
// shopper's own orders. Shown only where the shop has WhatsApp.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '#app/error-message.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { Field, Notice } from './ui.tsx';

export function VerifyWhatsApp() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const state = useQuery(trpc.account.whatsapp.queryOptions());
  const [code, setCode] = useState('');
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.account.whatsapp.queryKey() });
  const send = useMutation(trpc.account.sendWhatsAppCode.mutationOptions());
  const verify = useMutation(trpc.account.verifyWhatsApp.mutationOptions({ onSuccess: refresh }));
  const data = state.data;
  if (!data?.available) return null;

  function submit(event: FormEvent) {
    event.preventDefault();
    verify.mutate({ code });
  }

  return (
    <div className="border-t border-line pt-5" data-testid="verify-whatsapp">
      <p className="text-sm font-semibold">Verify on WhatsApp</p>
      {!data.phone ? (
        <p className="mt-1 text-sm text-ink-soft">
          Add your phone number to your{' '}
          <Link to="/profile" className="underline underline-offset-4">
            profile
          </Link>{' '}
          first: the code is sent there on WhatsApp.
        </p>
      ) : data.verified ? (
        <p className="mt-1 text-sm text-success" role="status">
          {data.phone} is verified on WhatsApp: our assistant there can answer about your orders.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-ink-soft">
            So our assistant on WhatsApp can answer about your orders from {data.phone}. We send a
            6-digit code there.
          </p>
          {send.data && !verify.isSuccess && (
            <form onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
              <Field
                label="Code from WhatsApp"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                error={verify.error ? errorMessage(verify.error) : undefined}
                className="w-44"
              />
              <button
                type="submit"
                className="btn btn-primary min-h-12"
                disabled={verify.isPending}
              >
                Verify
              </button>
            </form>
          )}
          <div className="mt-4 space-y-3">
            {send.data && <Notice tone="info">{send.data.message}</Notice>}
            {send.error && <Notice tone="error">{errorMessage(send.error)}</Notice>}
            <button
              type="button"
              className="btn btn-outline min-h-12"
              disabled={send.isPending}
              onClick={() => {
                setCode('');
                verify.reset();
                send.mutate();
              }}
            >
              {send.data ? 'Send a new code' : 'Send me a code on WhatsApp'}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
