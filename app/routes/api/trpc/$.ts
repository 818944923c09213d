import { createFileRoute } from '@tanstack/react-router';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '#server/routers/index.ts';
import { createWorkerContext } from '#server/worker-context.ts';

async function handle({ request }: { request: Request }) {
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => createWorkerContext(request.headers),
  });
  // workerd compresses and buffers `application/json` whole: label streams as JSON lines.
  if (request.headers.get('trpc-accept') !== 'application/jsonl') return response;
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/jsonl');
  headers.delete('content-length');
  return new Response(response.body, { status: response.status, headers });
}

export const Route = createFileRoute('/api/trpc/$')({
  server: { handlers: { GET: handle, POST: handle } },
});
