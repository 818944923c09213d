import { createFileRoute } from '@tanstack/react-router';
import { productsCsv } from '#server/http/desk-files.ts';
import { shopEnv, workerAuth, workerDb } from '#server/worker-context.ts';

/** GET /api/desk/products.csv: the catalogue, one row per variant (server/http/desk-files.ts). */
export const Route = createFileRoute('/api/desk/products.csv')({
  server: {
    handlers: {
      GET: ({ request }) =>
        productsCsv(
          { db: workerDb(), auth: workerAuth(), ownerEmails: shopEnv().OPERATOR_EMAILS },
          request,
        ),
    },
  },
});
