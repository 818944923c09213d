// A return's photos over HTTP (issue 36). POST /api/returns/photos: the raw picture as the body,
// from a signed-in shopper on the shop's own pages (the front layer has already refused other
// sites' pages and bodies past 10 MB, as for the desk's photos). GET /api/returns/{userId}/{file}:
// the picture, to that shopper and to the desk only, never cached by a shared cache.
import { PHOTO_MAX_BYTES, PHOTO_TEXT, photoFormatFor, servedWidth } from '#core/desk-photos.ts';
import { deskRoleOf } from '#core/desk-roles.ts';
import { isReturnPhotoOf, RETURN_PHOTO_KEY } from '#core/returns.ts';
import { sessionUser } from '../auth.ts';
import { photoCopy } from '../services/photos-service.ts';
import { addReturnPhoto } from '../services/return-photos-service.ts';
import { foreignWrite } from './own-origin.ts';
import type { PhotoDeps } from './photo-upload.ts';

/** What the desk's photo upload needs, but the database: a return photo has no row of its own. */
export type ReturnPhotoDeps = Omit<PhotoDeps, 'db'>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

const REFUSAL_TEXT = {
  empty: [400, PHOTO_TEXT.empty],
  'too-large': [413, PHOTO_TEXT.tooLarge],
  'heic-unavailable': [400, PHOTO_TEXT.heicUnavailable],
} as const;

/** The upload: 200 with { key, url }, else { message } in the desk's photo texts. */
export async function uploadReturnPhoto(
  deps: ReturnPhotoDeps,
  request: Request,
): Promise<Response> {
  // The front layer refused this already, unless it misread the path: refused again here.
  const refusal = foreignWrite(request, { kind: 'photo' }, deps.ownOrigins);
  if (refusal) return json(refusal.status, { message: refusal.message });
  const user = await sessionUser(deps.auth, request.headers);
  if (!user) return json(401, { message: PHOTO_TEXT.signedOut });
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > PHOTO_MAX_BYTES) return json(413, { message: PHOTO_TEXT.tooLarge });

  const bytes = new Uint8Array(await request.arrayBuffer());
  const result = await addReturnPhoto(deps, user.id, bytes);
  if (result.ok) return json(200, { key: result.key, url: result.url });
  if (result.problem === 'unreadable') return json(400, { message: result.text });
  const [status, message] = REFUSAL_TEXT[result.problem];
  return json(status, { message });
}

/** A return photo: to the shopper who took it and to the desk; anyone else: not found. */
export async function serveReturnPhoto(
  deps: Pick<ReturnPhotoDeps, 'auth' | 'ownerEmails' | 'photos' | 'images'>,
  request: Request,
  key: string,
): Promise<Response> {
  const notFound = () => new Response('Not found', { status: 404 });
  if (!RETURN_PHOTO_KEY.test(key)) return notFound();
  const user = await sessionUser(deps.auth, request.headers);
  if (!user) return json(401, { message: PHOTO_TEXT.signedOut });
  if (!isReturnPhotoOf(key, user.id) && !deskRoleOf(user, deps.ownerEmails)) return notFound();
  const requested = new URL(request.url).searchParams.get('w');
  const width = servedWidth(requested === null ? null : Number(requested));
  const copy = await photoCopy(deps, key, width, photoFormatFor(request.headers.get('accept')));
  if (!copy) return notFound();
  return new Response(copy.body, {
    headers: {
      'content-type': copy.contentType,
      // A shopper's own picture: her browser (and the desk's) may keep it, no shared cache may.
      'cache-control': 'private, max-age=86400',
      vary: 'Accept, Cookie',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    },
  });
}
