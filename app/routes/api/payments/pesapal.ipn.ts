import { createFileRoute } from '@tanstack/react-router';
import { handlePesapalIpn } from '#server/http/pesapal-callbacks.ts';
import { createWorkerContext } from '#server/worker-context.ts';

/** Pesapal's IPN (registered as GET; POST with a JSON body is answered the same way). */
async function notification({ request }: { request: Request }) {
  return handlePesapalIpn(createWorkerContext(request.headers), request);
}

export const Route = createFileRoute('/api/payments/pesapal/ipn')({
  server: { handlers: { GET: notification, POST: notification } },
});
