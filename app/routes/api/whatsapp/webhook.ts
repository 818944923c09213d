import { createFileRoute } from '@tanstack/react-router';
import { handleWhatsAppWebhook } from '#server/http/whatsapp-webhook.ts';
import { createWorkerContext } from '#server/worker-context.ts';

/** Meta's WhatsApp webhook: the GET verification and the signed events (issue 37). */
async function webhook({ request }: { request: Request }) {
  return handleWhatsAppWebhook(createWorkerContext(request.headers), request);
}

export const Route = createFileRoute('/api/whatsapp/webhook')({
  server: { handlers: { GET: webhook, POST: webhook } },
});
