import { createFileRoute } from '@tanstack/react-router';
import { packingSlip } from '#server/http/desk-files.ts';
import { shopEnv, workerAuth, workerDb } from '#server/worker-context.ts';

/** GET /api/desk/orders/{id}/packing-slip.pdf: the order's packing slip (server/http/desk-files.ts). */
export const Route = createFileRoute('/api/desk/orders/$orderId/packing-slip.pdf')({
  server: {
    handlers: {
      GET: ({ request, params }) =>
        packingSlip(
          { db: workerDb(), auth: workerAuth(), ownerEmails: shopEnv().OPERATOR_EMAILS },
          request,
          params.orderId,
        ),
    },
  },
});
