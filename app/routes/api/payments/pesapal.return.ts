import { createFileRoute } from '@tanstack/react-router';
import { handlePesapalReturn } from '#server/http/pesapal-callbacks.ts';
import { createWorkerContext } from '#server/worker-context.ts';

/** The shopper's way back from Pesapal's payment page (the callback_url of the order). */
async function back({ request }: { request: Request }) {
  return handlePesapalReturn(createWorkerContext(request.headers), request);
}

export const Route = createFileRoute('/api/payments/pesapal/return')({
  server: { handlers: { GET: back } },
});
