// A return's photos (issue 36): the shopper's picture of what she sends back, kept under the
// desk's photo rules (photoToKeep) in the same bucket, under a key that names her
// (core/returns.ts, returnPhotoKey). Domain data in and out: server/http/return-photos.ts does HTTP.
import { returnPhotoKey, returnPhotoUrl } from '#core/returns.ts';
import type { AvatarStore } from './avatar-service.ts';
import { type PhotoImages, type PictureRefused, photoToKeep } from './photos-service.ts';

export type ReturnPhoto = { key: string; url: string };

/** Keeps the shopper's picture; nothing is stored when it is refused. */
export async function addReturnPhoto(
  deps: { photos: AvatarStore; images: PhotoImages | null },
  userId: string,
  bytes: Uint8Array,
): Promise<({ ok: true } & ReturnPhoto) | PictureRefused> {
  const checked = await photoToKeep(deps.images, bytes);
  if (!checked.ok) return checked;
  const key = returnPhotoKey(userId, crypto.randomUUID(), checked.type);
  await deps.photos.put(key, checked.bytes, { httpMetadata: { contentType: checked.type } });
  return { ok: true, key, url: returnPhotoUrl(key) };
}
