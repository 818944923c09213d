// The signed-in shopper's own picture, /api/account/avatar: GET serves it (404 when none), POST
// (the raw image as the body) replaces it. No URL names a person: the picture is always the
// session's. The Worker's front layer (server/http) answers other methods with 405, bodies over
// 2 MiB with 413, and an upload from another site's page with 403 (decision 0038) — and the
// upload asks the origin rule again here; the image type is checked here.
import { avatarProblem, TEXT } from '#core/account.ts';
import { sessionUser } from '../auth.ts';
import type { Context } from '../context.ts';
import { type AvatarAnswer, readAvatar, saveAvatar } from '../services/avatar-service.ts';
import { foreignWrite } from './own-origin.ts';

/** What a refused picture reads (the spec's texts). */
const AVATAR_REFUSAL: Record<Extract<AvatarAnswer, { ok: false }>['problem'], string> = {
  'not-an-image': TEXT.avatarType,
  'too-large': TEXT.avatarSize,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

export type AvatarDeps = Pick<Context, 'db' | 'auth' | 'avatars'> & {
  /** The shop's own origins: an upload from any other page is refused here too (0038). */
  ownOrigins: readonly string[];
};

export async function serveAvatar(deps: AvatarDeps, request: Request): Promise<Response> {
  // The front layer refused this already, unless it misread the path: refused again here.
  const refusal = foreignWrite(request, { kind: 'avatar' }, deps.ownOrigins);
  if (refusal) return json(refusal.status, { message: refusal.message });
  const owner = await sessionUser(deps.auth, request.headers);
  if (!owner) return json(401, { message: TEXT.notAuthenticated });

  if (request.method !== 'POST') {
    const picture = await readAvatar({ avatars: deps.avatars }, owner);
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
    { db: deps.db, avatars: deps.avatars },
    owner,
    bytes,
    declaredType,
  );
  if (!result.ok) return json(400, { message: AVATAR_REFUSAL[result.problem] });
  return json(200, { avatarUrl: result.avatarUrl });
}
