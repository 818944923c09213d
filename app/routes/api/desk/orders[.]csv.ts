import { createFileRoute } from '@tanstack/react-router';
import { ordersCsv } from '#server/http/desk-files.ts';
import { shopEnv, workerAuth, workerDb } from '#server/worker-context.ts';

/** GET /api/desk/orders.csv?from=&to=: every order, for the accountant (server/http/desk-files.ts). */
export const Route = createFileRoute('/api/desk/orders.csv')({
  server: {
    handlers: {
      GET: ({ request }) =>
        ordersCsv(
          { db: workerDb(), auth: workerAuth(), ownerEmails: shopEnv().OPERATOR_EMAILS },
          request,
        ),
    },
  },
});
