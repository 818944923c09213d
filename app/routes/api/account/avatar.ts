import { createFileRoute } from '@tanstack/react-router';
import { avatarProblem, TEXT } from '#core/account.ts';
import { sessionUser } from '#server/auth.ts';
import { readAvatar, saveAvatar } from '#server/services/avatar.ts';
import { workerAuth, workerAvatars, workerDb } from '#server/worker-context.ts';

// The signed-in shopper's own picture: GET serves it (404 when none), POST (the raw image as the
// body) replaces it. No URL names a person: the picture is always the session's. The Worker's
// front layer (server/http) answers other methods with 405, bodies over 2 MiB with 413, and an
// upload from another site's page with 403 (decision 0038); the image type is checked here.

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

async function handle({ request }: { request: Request }): Promise<Response> {
  const owner = await sessionUser(workerAuth(), request.headers);
  if (!owner) return json(401, { message: TEXT.notAuthenticated });

  if (request.method !== 'POST') {
    const picture = await readAvatar({ avatars: workerAvatars() }, owner);
    if (!picture) return new Response('Not found', { status: 404 });
    return new Response(picture.body, {
      headers: {
        'content-type': picture.httpMetadata?.contentType ?? 'application/octet-stream',
        // Private: only this shopper's browser keeps it; a new upload changes the URL's version.
        'cache-control': 'private, max-age=31536000, immutable',
        etag: picture.httpEtag,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      },
    });
  }

  // Refused by what the request declares before a byte is read.
  const declaredType = (request.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const declaredSize = Number(request.headers.get('content-length') ?? 0);
  const declaredProblem = avatarProblem({ type: declaredType, size: declaredSize });
  if (declaredProblem) return json(400, { message: declaredProblem });

  const bytes = new Uint8Array(await request.arrayBuffer());
  const result = await saveAvatar(
    { db: workerDb(), avatars: workerAvatars() },
    owner,
    bytes,
    declaredType,
  );
  if (!result.saved) return json(400, { message: result.problem });
  return json(200, { avatarUrl: result.avatarUrl });
}

export const Route = createFileRoute('/api/account/avatar')({
  server: { handlers: { GET: handle, POST: handle } },
});
