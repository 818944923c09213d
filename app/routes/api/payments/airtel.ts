import { createFileRoute } from '@tanstack/react-router';
import { handlePaymentCallback } from '#server/http/payment-callbacks.ts';
import { createWorkerContext } from '#server/worker-context.ts';

/** Airtel Money's callback (the URL set for the app in Airtel's developer portal). */
async function callback({ request }: { request: Request }) {
  return handlePaymentCallback(createWorkerContext(request.headers), request, 'airtel');
}

export const Route = createFileRoute('/api/payments/airtel')({
  server: { handlers: { POST: callback } },
});
