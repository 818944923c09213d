import { createFileRoute } from '@tanstack/react-router';
import { serveTrpc } from '#server/http/trpc-endpoint.ts';
import { createWorkerContext, workerOwnOrigins } from '#server/worker-context.ts';

const handle = ({ request }: { request: Request }) =>
  serveTrpc(request, {
    ownOrigins: workerOwnOrigins(),
    createContext: () => createWorkerContext(request.headers),
  });

export const Route = createFileRoute('/api/trpc/$')({
  server: { handlers: { GET: handle, POST: handle } },
});
