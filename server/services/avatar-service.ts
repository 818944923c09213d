// Profile pictures: validated (spec: image of an allowed type, under 2 MB), kept in R2 under the
// owner's id. Domain data in and out: the route (app/routes/api/account/avatar.ts) does HTTP.
import { AVATAR_MAX_BYTES, AVATAR_TYPES, sniffImageType } from '#core/account.ts';
import type { Db } from '#db/client.ts';
import type { Answer } from '../shopper-error.ts';
import { setAvatar } from './account-service.ts';

/** What the avatar code needs of an R2 bucket (R2Bucket satisfies it; tests pass a fake). */
export type AvatarStore = {
  put(
    key: string,
    value: ArrayBuffer | Uint8Array,
    options?: { httpMetadata?: { contentType?: string; cacheControl?: string } },
  ): Promise<unknown>;
  get(key: string): Promise<StoredAvatar | null>;
  delete(key: string): Promise<void>;
};

/** A stored picture, as R2 gives it back. */
export type StoredAvatar = {
  body: ReadableStream;
  httpEtag: string;
  httpMetadata?: { contentType?: string };
};

/** The picture's owner: always the signed-in shopper (no input names another person). */
type Owner = { id: string; email: string; name: string };

/**
 * Saved: the URL to show (it carries a version, so a new picture is a new URL). Refused, nothing
 * stored: not an allowed image (by its declared type or its bytes), or 2 MB or more.
 */
export type AvatarAnswer = Answer<{ avatarUrl: string }, 'not-an-image' | 'too-large'>;

export const AVATAR_PATH = '/api/account/avatar';
export const avatarKey = (userId: string) => `avatars/${userId}`;

/**
 * Stores a new picture for its owner when it is an allowed image under 2 MB. The type is read
 * from the bytes themselves; the declared type must be an allowed one too.
 */
export async function saveAvatar(
  deps: { db: Db; avatars: AvatarStore },
  owner: Owner,
  bytes: Uint8Array,
  declaredType: string,
): Promise<AvatarAnswer> {
  if (!AVATAR_TYPES.includes(declaredType.toLowerCase()))
    return { ok: false, problem: 'not-an-image' };
  if (bytes.byteLength >= AVATAR_MAX_BYTES) return { ok: false, problem: 'too-large' };
  const sniffed = sniffImageType(bytes);
  if (!sniffed) return { ok: false, problem: 'not-an-image' };
  await deps.avatars.put(avatarKey(owner.id), bytes, { httpMetadata: { contentType: sniffed } });
  const avatarUrl = `${AVATAR_PATH}?v=${Date.now()}`;
  await setAvatar(deps.db, owner, avatarUrl);
  return { ok: true, avatarUrl };
}

/** The owner's own picture, or null when they have none. */
export function readAvatar(
  deps: { avatars: AvatarStore },
  owner: { id: string },
): Promise<StoredAvatar | null> {
  return deps.avatars.get(avatarKey(owner.id));
}
