// Product photos over HTTP (decision 0045). POST /api/desk/products/{id}/photos: the raw picture
// as the body, from the shop's staff or owner (the front layer has already refused other sites'
// pages, 0038, and bodies past 10 MB). GET /photos/{key}?w=800: a copy for shoppers, at a stored
// width, in the best format the browser accepts, cached for good (a key never changes).

import {
  PHOTO_KEY,
  PHOTO_MAX_BYTES,
  PHOTO_TEXT,
  photoFormatFor,
  servedWidth,
} from '#core/desk-photos.ts';
import { DESK_TEXT, deskRoleOf } from '#core/desk-roles.ts';
import { sessionUser } from '../auth.ts';
import type { Context } from '../context.ts';
import {
  addPhoto,
  type PhotoImages,
  type PhotoRefused,
  photoCopy,
} from '../services/photos-service.ts';
import { foreignWrite } from './own-origin.ts';

/** What a refused photo answers: its HTTP status and the text staff read. */
function photoRefusal(refused: PhotoRefused): [status: 400 | 404 | 413, text: string] {
  switch (refused.problem) {
    case 'product-not-found':
      return [404, DESK_TEXT.productNotFound];
    case 'empty':
      return [400, PHOTO_TEXT.empty];
    case 'too-large':
      return [413, PHOTO_TEXT.tooLarge];
    case 'unreadable':
      return [400, refused.text];
    case 'heic-unavailable':
      return [400, PHOTO_TEXT.heicUnavailable];
  }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

export type PhotoDeps = Pick<Context, 'db' | 'auth' | 'ownerEmails' | 'photos'> & {
  images: PhotoImages | null;
  /** The shop's own origins: an upload from any other page is refused here too (0038). */
  ownOrigins: readonly string[];
};

/** The upload: 200 with the new photo { id, url, alt, colour, widths }, else { message }. */
export async function uploadPhoto(
  deps: PhotoDeps,
  request: Request,
  productIdParam: string,
): Promise<Response> {
  // The front layer refused this already, unless it misread the path: refused again here.
  const refusal = foreignWrite(request, { kind: 'photo' }, deps.ownOrigins);
  if (refusal) return json(refusal.status, { message: refusal.message });
  const user = await sessionUser(deps.auth, request.headers);
  if (!user) return json(401, { message: PHOTO_TEXT.signedOut });
  if (!deskRoleOf(user, deps.ownerEmails)) return json(403, { message: DESK_TEXT.deskOnly });
  const productId = /^\d{1,9}$/.test(productIdParam) ? Number(productIdParam) : 0;
  if (productId < 1) return json(404, { message: DESK_TEXT.productNotFound });
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > PHOTO_MAX_BYTES) return json(413, { message: PHOTO_TEXT.tooLarge });

  const bytes = new Uint8Array(await request.arrayBuffer());
  const result = await addPhoto(deps, user, productId, bytes);
  if (!result.ok) {
    const [status, message] = photoRefusal(result);
    return json(status, { message });
  }
  return json(200, result.photo);
}

/** Seconds a browser keeps an original served in place of a copy (decision 0061). */
export const ORIGINAL_MAX_AGE = 300;

/** Where copies already made are kept (the Worker's `caches.default`); absent: none. */
export type CopyCache = Pick<Cache, 'match' | 'put'>;

/** A shopper's copy of a photo: `key` is the path after /photos/. */
export async function servePhoto(
  deps: Pick<PhotoDeps, 'photos' | 'images'> & {
    cache?: CopyCache;
    keep?: (work: Promise<unknown>) => void;
  },
  request: Request,
  key: string,
): Promise<Response> {
  if (!PHOTO_KEY.test(key)) return new Response('Not found', { status: 404 });
  const url = new URL(request.url);
  const requested = url.searchParams.get('w');
  const width = servedWidth(requested === null ? null : Number(requested));
  const format = photoFormatFor(request.headers.get('accept'));
  // One cached copy per width and format: the Cache API does not vary by Accept.
  const cacheKey = new Request(`${url.origin}/photos/${key}?w=${width}&f=${format.slice(6)}`);
  const cached = await deps.cache?.match(cacheKey);
  if (cached) return cached;

  const copy = await photoCopy(deps, key, width, format);
  if (!copy) return new Response('Not found', { status: 404 });
  const response = new Response(copy.body, {
    headers: {
      'content-type': copy.contentType,
      // A copy's key never changes (a new picture is a new key): kept for good. The original,
      // served because Images made no copy, only for a while: the next try may make one.
      'cache-control': copy.resized
        ? 'public, max-age=31536000, immutable'
        : `public, max-age=${ORIGINAL_MAX_AGE}`,
      vary: 'Accept',
      'x-content-type-options': 'nosniff',
    },
  });
  if (copy.resized && deps.cache && deps.keep) {
    deps.keep(deps.cache.put(cacheKey, response.clone()));
  }
  return response;
}
