import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';
import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { errorMessage, UNEXPECTED } from '#app/error-message.ts';
import { useSession } from '#app/session.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { VARIANT_TEXT } from '#core/variants.ts';

/** "Tell me when it's back" for a sold-out size: one request per shopper and variant, answered by
 * one SMS when it returns. A visitor is asked to sign in first. */
export function NotifyWhenBack({ variantId }: { variantId: number }) {
  const trpc = useTRPC();
  const { user } = useSession();
  const ask = useMutation(trpc.catalogue.notifyWhenBack.mutationOptions());
  const [status, setStatus] = useState<
    { kind: 'asked' } | { kind: 'sign-in' } | { kind: 'refused'; text: string } | null
  >(null);

  function onAsk() {
    if (!user) {
      setStatus({ kind: 'sign-in' });
      return;
    }
    setStatus(null);
    ask.mutate(
      { variantId },
      {
        onSuccess: () => setStatus({ kind: 'asked' }),
        onError: (error) =>
          setStatus(
            error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED'
              ? { kind: 'sign-in' }
              : { kind: 'refused', text: errorMessage(error, UNEXPECTED) },
          ),
      },
    );
  }

  return (
    <div className="flex flex-col gap-2" data-testid="notify-when-back">
      {status?.kind !== 'asked' && (
        <button
          type="button"
          className="btn btn-outline w-full"
          onClick={onAsk}
          disabled={ask.isPending}
          aria-busy={ask.isPending || undefined}
        >
          <BellRing size={16} aria-hidden />
          {VARIANT_TEXT.notifyMe}
        </button>
      )}
      <p role="status" className="text-sm empty:hidden">
        {status?.kind === 'asked' && (
          <span className="font-semibold text-success">{VARIANT_TEXT.notifyAsked}</span>
        )}
        {status?.kind === 'sign-in' && (
          <Link
            to="/login"
            className="font-semibold underline underline-offset-4 hover:text-accent"
          >
            {VARIANT_TEXT.notifySignIn}
          </Link>
        )}
        {status?.kind === 'refused' && (
          <span className="font-semibold text-danger">{status.text}</span>
        )}
      </p>
    </div>
  );
}
