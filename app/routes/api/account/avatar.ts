import { createFileRoute } from '@tanstack/react-router';
import { serveAvatar } from '#server/http/account-avatar.ts';
import { workerAuth, workerAvatars, workerDb, workerOwnOrigins } from '#server/worker-context.ts';

// The shopper's own picture (server/http/account-avatar.ts).
const handle = ({ request }: { request: Request }) =>
  serveAvatar(
    {
      db: workerDb(),
      auth: workerAuth(),
      avatars: workerAvatars(),
      ownOrigins: workerOwnOrigins(),
    },
    request,
  );

export const Route = createFileRoute('/api/account/avatar')({
  server: { handlers: { GET: handle, POST: handle } },
});
