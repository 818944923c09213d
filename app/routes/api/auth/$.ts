import { createFileRoute } from '@tanstack/react-router';
import { workerAuth } from '#server/worker-context.ts';

const handle = ({ request }: { request: Request }) => workerAuth().handler(request);

export const Route = createFileRoute('/api/auth/$')({
  server: { handlers: { GET: handle, POST: handle } },
});
