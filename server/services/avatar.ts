// Profile pictures: validated (spec: image of an allowed type, under 2 MB), kept in R2 under the
// owner's id, served only to their owner with long private caching (the URL carries a version).
import { AVATAR_MAX_BYTES, avatarProblem, sniffImageType, TEXT } from '#core/account.ts';
import type { Db } from '#db/client.ts';
import { type Auth, sessionUser } from '../auth.ts';
import { setAvatar } from './account.ts';

/** What the avatar code needs of an R2 bucket (R2Bucket satisfies it; tests pass a fake). */
export type AvatarStore = {
  put(
    key: string,
    value: ArrayBuffer | Uint8Array,
    options?: { httpMetadata?: { contentType?: string; cacheControl?: string } },
  ): Promise<unknown>;
  get(key: string): Promise<{
    body: ReadableStream;
    httpEtag: string;
    httpMetadata?: { contentType?: string };
  } | null>;
  delete(key: string): Promise<void>;
};

export const AVATAR_PATH = '/api/account/avatar';
export const avatarKey = (userId: string) => `avatars/${userId}`;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/**
 * GET: the signed-in shopper's own picture (404 when none). POST (raw image body): replaces it.
 * There is no way to name another person's picture: the key is the session's user id.
 */
export async function handleAvatarRequest(
  request: Request,
  deps: { db: Db; auth: Auth; avatars: AvatarStore },
): Promise<Response> {
  const owner = await sessionUser(deps.auth, request.headers);
  if (!owner) return json(401, { message: TEXT.notAuthenticated });

  if (request.method === 'GET') {
    const object = await deps.avatars.get(avatarKey(owner.id));
    if (!object) return new Response('Not found', { status: 404 });
    return new Response(object.body, {
      headers: {
        'content-type': object.httpMetadata?.contentType ?? 'application/octet-stream',
        // Private: only this shopper's browser keeps it; a new upload changes the URL's version.
        'cache-control': 'private, max-age=31536000, immutable',
        etag: object.httpEtag,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      },
    });
  }

  if (request.method !== 'POST') return json(405, { message: 'Method not allowed' });
  const declared = (request.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const length = Number(request.headers.get('content-length') ?? 0);
  const declaredProblem = avatarProblem({ type: declared, size: length });
  if (declaredProblem) return json(400, { message: declaredProblem });
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength >= AVATAR_MAX_BYTES) return json(400, { message: TEXT.avatarSize });
  const sniffed = sniffImageType(bytes);
  if (!sniffed) return json(400, { message: TEXT.avatarType });
  await deps.avatars.put(avatarKey(owner.id), bytes, { httpMetadata: { contentType: sniffed } });
  const avatarUrl = `${AVATAR_PATH}?v=${Date.now()}`;
  await setAvatar(deps.db, owner, avatarUrl);
  return json(200, { avatarUrl });
}
