import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { creditNoteInput, REFUND_TEXT } from '#core/returns.ts';
import { sessionUser } from '#server/auth.ts';
import { creditNotePdf } from '#server/services/credit-note-pdf.ts';
import { creditNote } from '#server/services/credit-note-service.ts';
import { workerAuth, workerDb } from '#server/worker-context.ts';

const notFound = () =>
  new Response(REFUND_TEXT.creditNoteNotFound, {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

/**
 * GET /api/credit-notes/{refundId}: a succeeded refund's credit note as a PDF, for its shopper
 * only (as the receipt's PDF). Another shopper's refund, an unknown id and a visitor all get the
 * same 404.
 */
async function download({ request, params }: { request: Request; params: { refundId: string } }) {
  const parsed = v.safeParse(creditNoteInput, { refundId: params.refundId });
  const owner = await sessionUser(workerAuth(), request.headers);
  if (!parsed.success || !owner) return notFound();
  const note = await creditNote(workerDb(), owner.id, parsed.output.refundId);
  if (!note) return notFound();
  const pdf = await creditNotePdf(note);
  return new Response(pdf as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="duuka-${note.number}.pdf"`,
      'cache-control': 'private, no-store',
    },
  });
}

export const Route = createFileRoute('/api/credit-notes/$refundId')({
  server: { handlers: { GET: download } },
});
