import { createFileRoute } from '@tanstack/react-router';
import { handlePaymentCallback } from '#server/http/payment-callbacks.ts';
import { createWorkerContext } from '#server/worker-context.ts';

/** MTN MoMo's callback for one payment (the X-Callback-Url sent with the request to pay). */
async function callback({
  request,
  params,
}: {
  request: Request;
  params: { paymentId: string; secret: string };
}) {
  return handlePaymentCallback(createWorkerContext(request.headers), request, 'mtn', params);
}

export const Route = createFileRoute('/api/payments/mtn/$paymentId/$secret')({
  server: { handlers: { PUT: callback, POST: callback } },
});
