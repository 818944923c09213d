import { createFileRoute } from '@tanstack/react-router';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '#server/routers/index.ts';
import { createWorkerContext } from '#server/worker-context.ts';
import { MAX_CALLS_PER_BATCH } from '../../../trpc.ts';

async function handle({ request }: { request: Request }) {
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    // A bigger batch answers 400 before any call runs (1,000 shop calls once made 22 MB).
    maxBatchSize: MAX_CALLS_PER_BATCH,
    createContext: () => createWorkerContext(request.headers),
  });
  // workerd compresses and buffers `application/json` whole: label streams as JSON lines.
  const streamed = response.ok && request.headers.get('trpc-accept') === 'application/jsonl';
  // Errors tRPC raises before any call runs (batch too big, wrong content type) come as text/plain.
  const plainError =
    !response.ok && /^text\/plain/.test(response.headers.get('content-type') ?? '');
  if (!streamed && !plainError) return response;
  const headers = new Headers(response.headers);
  headers.set('content-type', streamed ? 'application/jsonl' : 'application/json');
  if (streamed) headers.delete('content-length');
  return new Response(response.body, { status: response.status, headers });
}

export const Route = createFileRoute('/api/trpc/$')({
  server: { handlers: { GET: handle, POST: handle } },
});
