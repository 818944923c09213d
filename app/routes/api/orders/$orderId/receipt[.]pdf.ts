import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { receiptInput } from '#core/order-rules.ts';
import { sessionUser } from '#server/auth.ts';
import { receiptFor } from '#server/services/orders-service.ts';
import { receiptPdf } from '#server/services/receipt-pdf.ts';
import { shopEnv, workerAuth, workerDb } from '#server/worker-context.ts';

const notFound = () =>
  new Response('Order not found', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

/**
 * GET /api/orders/{orderId}/receipt.pdf: the order's receipt as a PDF, for its owner only. Another
 * customer's order, an unknown id and a visitor all get the same 404.
 */
async function download({ request, params }: { request: Request; params: { orderId: string } }) {
  const parsed = v.safeParse(receiptInput, { orderId: params.orderId });
  const owner = await sessionUser(workerAuth(), request.headers);
  if (!parsed.success || !owner) return notFound();
  const receipt = await receiptFor(
    workerDb(),
    owner.id,
    parsed.output.orderId,
    shopEnv().BANK_TRANSFER_DETAILS ?? null,
  );
  if (!receipt) return notFound();
  const pdf = await receiptPdf(receipt);
  return new Response(pdf as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="duuka-${receipt.receiptNumber}.pdf"`,
      'cache-control': 'private, no-store',
    },
  });
}

export const Route = createFileRoute('/api/orders/$orderId/receipt.pdf')({
  server: { handlers: { GET: download } },
});
