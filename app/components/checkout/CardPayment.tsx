// Paying an order by card: payments.start answers Pesapal's hosted page, and the shopper is sent
// there; Pesapal brings them back to /api/payments/pesapal/return, which reads the status and
// lands on /orders?order=…. Used after Place Order at checkout and by Pay now / Try again on
// /orders.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '#app/error-message.ts';
import { useTRPC } from '#app/trpc-client.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';

/** Opens the card payment page of the order; `problem` says why it did not open. */
export function useCardPayment(orderId: string) {
  const trpc = useTRPC();
  const start = useMutation(trpc.payments.start.mutationOptions());
  const [problem, setProblem] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  async function pay(): Promise<boolean> {
    setProblem(null);
    try {
      const answer = (await start.mutateAsync({ orderId })) as { redirectUrl?: unknown };
      if (typeof answer.redirectUrl !== 'string' || !answer.redirectUrl) {
        setProblem(PAYMENT_STATE_TEXT.cardStartFailed);
        return false;
      }
      setLeaving(true);
      window.location.assign(answer.redirectUrl);
      return true;
    } catch (error) {
      setProblem(errorMessage(error, PAYMENT_STATE_TEXT.cardStartFailed));
      return false;
    }
  }

  return { pay, problem, working: start.isPending || leaving };
}
