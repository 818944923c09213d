import { createFileRoute } from '@tanstack/react-router';
import { handleAvatarRequest } from '#server/services/avatar.ts';
import { workerAuth, workerAvatars, workerDb } from '#server/worker-context.ts';

const handle = ({ request }: { request: Request }) =>
  handleAvatarRequest(request, { db: workerDb(), auth: workerAuth(), avatars: workerAvatars() });

export const Route = createFileRoute('/api/account/avatar')({
  server: { handlers: { GET: handle, POST: handle } },
});
