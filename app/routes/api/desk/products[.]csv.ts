import { createFileRoute } from '@tanstack/react-router';
import { productsCsv } from '#server/http/products-csv.ts';
import { shopEnv, workerAuth, workerDb } from '#server/worker-context.ts';

/** GET /api/desk/products.csv: the catalogue, one row per variant (server/http/products-csv.ts). */
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
