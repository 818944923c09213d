// Product photos (issue 22, decision 0045): a phone's picture kept as it came in R2 (PHOTOS), its
// row in product_images, and the copies shoppers get, made from the original by Cloudflare Images
// at a width and in the format their browser takes. Domain data in and out: the routes
// (app/routes/api/desk/products/$productId.photos.ts, app/routes/photos/$.ts) do HTTP.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  type CheckedPhoto,
  checkPhoto,
  type DeskPhoto,
  keyOfPhotoUrl,
  PHOTO_MAX_BYTES,
  PHOTO_WIDTHS,
  photoKey,
  photoUrl,
  photoWidthsFor,
  type SetPhotosInput,
  sniffPhotoType,
} from '#core/desk-photos.ts';
import { COLOUR, type ProductOption } from '#core/variants.ts';
import type { Db } from '#db/client.ts';
import { productImages, products } from '#db/schema/index.ts';
import type { Answer, Refused } from '../shopper-error.ts';
import type { AvatarStore } from './avatar-service.ts';
import { bumpCatalogueVersion } from './catalogue-version.ts';
import {
  type DeskActor,
  earlierAnswer,
  earlierAnswerQuery,
  isRepeatedKey,
  type KeyOwner,
  recordDeskWrite,
  replayOf,
} from './desk-record.ts';

/**
 * What the photo code needs of Cloudflare Images (the Worker's `ImagesBinding` satisfies it):
 * `input(bytes).transform({ width }).output({ format })`.
 */
export type PhotoImages = {
  input(stream: ReadableStream<Uint8Array>): PhotoTransformer;
};
type PhotoTransformer = {
  transform(transform: { width?: number; fit?: 'scale-down' }): PhotoTransformer;
  output(options: { format: 'image/avif' | 'image/webp' | 'image/jpeg' }): Promise<{
    image(): ReadableStream<Uint8Array>;
    contentType(): string;
  }>;
};

const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

const columns = {
  id: productImages.id,
  url: productImages.url,
  alt: productImages.alt,
  colour: productImages.colour,
  widths: productImages.widths,
  width: productImages.width,
  height: productImages.height,
};

/** Refused, nothing stored: an unreadable file carries the reader's own text (decision 0061). */
export type PhotoRefused = Refused<'product-not-found'> | PictureRefused;
/** Refused for the picture itself (photoToKeep). */
export type PictureRefused =
  | Refused<'empty' | 'too-large' | 'heic-unavailable'>
  | (Refused<'unreadable'> & { text: string });
export type PhotoAdded = { ok: true; photo: DeskPhoto };

/**
 * Adds a picture to a product, last in its order: the original into PHOTOS, then in one batch its
 * row, the product's own picture when it is its first, the desk record and the catalogue version.
 * A failed batch takes the stored original back out.
 */
export async function addPhoto(
  deps: { db: Db; photos: AvatarStore; images: PhotoImages | null },
  actor: DeskActor,
  productId: number,
  bytes: Uint8Array,
): Promise<PhotoAdded | PhotoRefused> {
  const [product] = await deps.db
    .select({ name: products.productName })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) return { ok: false, problem: 'product-not-found' };
  const checked = await photoToKeep(deps.images, bytes);
  if (!checked.ok) return checked;
  const { type, width, height } = checked;
  const key = photoKey(productId, crypto.randomUUID(), type);
  const url = photoUrl(key);
  await deps.photos.put(key, checked.bytes, { httpMetadata: { contentType: type } });
  const widths = photoWidthsFor(width);
  try {
    const [[row]] = await deps.db.batch([
      deps.db
        .insert(productImages)
        .values({
          productId,
          url,
          alt: product.name,
          colour: null,
          widths,
          width,
          height,
          position: sql`(select coalesce(max(position) + 1, 0) from product_images
                         where product_id = ${productId})`,
        })
        .returning(columns),
      // The product's own picture (cards, the cart, texts) is its first one.
      deps.db
        .update(products)
        .set({ productImage: url })
        .where(
          and(
            eq(products.id, productId),
            sql`not exists (select 1 from product_images
                            where product_id = ${productId} and url <> ${url})`,
          ),
        ),
      recordDeskWrite(deps.db, actor, {
        action: 'photo.added',
        subject: product.name,
        details: { productId, url, bytes: checked.bytes.byteLength, type, width, height },
      }),
      bumpCatalogueVersion(deps.db),
    ]);
    if (!row) throw new Error('The photo row was not written');
    return { ok: true, photo: row };
  } catch (error) {
    await deps.photos.delete(key).catch(() => {});
    throw error;
  }
}

/**
 * A picture from a phone as the shop keeps it (the desk's photos, a return's photos): not empty,
 * at most 10 MB, read whole from its own structure, sized, and cut at its own end (decision
 * 0061); a HEIC only when Images can make the copies a browser shows.
 */
export async function photoToKeep(
  images: PhotoImages | null,
  bytes: Uint8Array,
): Promise<CheckedPhoto | PictureRefused> {
  if (bytes.byteLength === 0) return { ok: false, problem: 'empty' };
  if (bytes.byteLength > PHOTO_MAX_BYTES) return { ok: false, problem: 'too-large' };
  const checked = checkPhoto(bytes);
  if (!checked.ok) return { ok: false, problem: 'unreadable', text: checked.problem };
  if (checked.type === 'image/heic' && !(await converts(images, checked.bytes))) {
    return { ok: false, problem: 'heic-unavailable' };
  }
  return checked;
}

/** True when Cloudflare Images can turn this picture into a copy a browser shows. */
async function converts(images: PhotoImages | null, bytes: Uint8Array): Promise<boolean> {
  if (!images) return false;
  try {
    const result = await images
      .input(streamOf(bytes))
      .transform({ width: PHOTO_WIDTHS[0] })
      .output({ format: 'image/jpeg' });
    const copy = new Uint8Array(await new Response(result.image()).arrayBuffer());
    // Where transformations are off, Images hands the original back: still HEIC, not shown.
    return shownTypeOf(copy) !== null;
  } catch {
    return false;
  }
}

/**
 * A copy to send: its bytes and their type. `resized`: made by Images at the width asked, so it
 * may be kept for good; else it is the original, kept only a short while (decision 0061).
 */
export type ServedPhoto = {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  resized: boolean;
};

/**
 * The photo at `width` in `format`, made by Cloudflare Images from the original. Without Images,
 * or when it fails (transformations off), the original itself: correct, only heavier. Null: no
 * such photo.
 */
export async function photoCopy(
  deps: { photos: AvatarStore; images: PhotoImages | null },
  key: string,
  width: number,
  format: 'image/avif' | 'image/webp' | 'image/jpeg',
): Promise<ServedPhoto | null> {
  const original = await deps.photos.get(key);
  if (!original) return null;
  const bytes = new Uint8Array(await new Response(original.body).arrayBuffer());
  const originalType = original.httpMetadata?.contentType ?? sniffPhotoType(bytes) ?? '';
  if (deps.images) {
    try {
      const result = await deps.images
        .input(streamOf(bytes))
        .transform({ width, fit: 'scale-down' })
        .output({ format });
      // Read whole here, so a failure mid-way still falls back to the original.
      const copy = new Uint8Array(await new Response(result.image()).arrayBuffer());
      const copyType = shownTypeOf(copy);
      // Images hands the original back where transformations are off: not a copy.
      const resized = copyType !== null && !sameBytes(copy, bytes);
      if (resized) return { body: streamOf(copy), contentType: copyType, resized };
    } catch (error) {
      console.warn('Images could not make a copy; the original is served', error);
    }
  }
  return { body: streamOf(bytes), contentType: originalType, resized: false };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** What a browser shows, read from the bytes (a copy is labelled by what it is): else null. */
function shownTypeOf(bytes: Uint8Array): string | null {
  const type = sniffPhotoType(bytes);
  if (type && type !== 'image/heic') return type;
  const box = String.fromCharCode(...bytes.slice(4, 12));
  return box === 'ftypavif' || box === 'ftypavis' ? 'image/avif' : null;
}

/** The product's photos in order, with what the desk's panel offers. */
export async function productPhotos(
  db: Db,
  productId: number,
): Promise<{ productName: string; colours: string[]; photos: DeskPhoto[] } | null> {
  return photosNow(await db.batch(photoReads(db, productId)));
}

/** The product's name and colours, and its photos in order: two reads for one batch. */
function photoReads(db: Db, productId: number) {
  return [
    db
      .select({ name: products.productName, options: products.options })
      .from(products)
      .where(eq(products.id, productId)),
    db
      .select(columns)
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.position), asc(productImages.id)),
  ] as const;
}

/** What `photoReads` read, as the desk shows it: null when the product is gone. */
function photosNow([[product], photos]: readonly [
  { name: string; options: ProductOption[] }[],
  DeskPhoto[],
]): { productName: string; colours: string[]; photos: DeskPhoto[] } | null {
  return product
    ? { productName: product.name, colours: coloursOf(product.options), photos }
    : null;
}

const coloursOf = (options: ProductOption[]) =>
  options.find((option) => option.name === COLOUR)?.values ?? [];

/** Why a setPhotos was refused: no such product, a photo named twice, another product's photo,
 * a colour the product does not come in. */
export type SetPhotosProblem = 'not-found' | 'repeated' | 'other-product' | 'bad-colour';

/**
 * Sets a product's photos as the desk shows them: the list's order becomes the positions, each
 * alt text and colour is saved, the photos named in `removed` go (their originals after the
 * write), one the list does not name (uploaded meanwhile) stays after the listed ones, and the
 * product's own picture follows the first. One batch with its record and the catalogue
 * version; a repeated request key answers the first save's list.
 */
export async function setPhotos(
  deps: { db: Db; photos: AvatarStore },
  actor: DeskActor,
  input: SetPhotosInput,
): Promise<Answer<{ photos: DeskPhoto[] }, SetPhotosProblem>> {
  const { db } = deps;
  // The key is read after the photos, in their batch: a double submit's second that sees the
  // first's photos sees its record too (one commit writes both), and answers as the first did.
  const [productRows, photoRows, [earlier]] = await db.batch([
    ...photoReads(db, input.productId),
    earlierAnswerQuery(db, input.requestKey),
  ]);
  // The key belongs to this person's photos of this product (decision 0059).
  const keyOwner: KeyOwner = {
    actor,
    action: 'photos.set',
    about: (details) => details.productId === input.productId,
  };
  const replayed = replayOf(earlier, keyOwner);
  if (replayed) return { ok: true, photos: replayed.photos as DeskPhoto[] };
  const current = photosNow([productRows, photoRows]);
  if (!current) return { ok: false, problem: 'not-found' };
  const byId = new Map(current.photos.map((photo) => [photo.id, photo]));
  const seen = new Set<number>();
  for (const photo of input.photos) {
    if (seen.has(photo.id)) return { ok: false, problem: 'repeated' };
    seen.add(photo.id);
    if (!byId.has(photo.id)) return { ok: false, problem: 'other-product' };
    if (photo.colour !== null && !current.colours.includes(photo.colour)) {
      return { ok: false, problem: 'bad-colour' };
    }
  }
  for (const id of input.removed) {
    if (seen.has(id)) return { ok: false, problem: 'repeated' };
    if (!byId.has(id)) return { ok: false, problem: 'other-product' };
  }
  const removing = new Set(input.removed);
  const removed = current.photos.filter((photo) => removing.has(photo.id));
  // A photo the list does not name was uploaded after the desk read it: kept, after the list.
  const meanwhile = current.photos.filter(
    (photo) => !seen.has(photo.id) && !removing.has(photo.id),
  );
  const kept: DeskPhoto[] = [
    ...input.photos.map((photo) => ({
      ...(byId.get(photo.id) as DeskPhoto),
      alt: photo.alt,
      colour: photo.colour,
    })),
    ...meanwhile,
  ];

  const updates = kept.map((photo, position) =>
    db
      .update(productImages)
      .set({ alt: photo.alt, colour: photo.colour, position })
      .where(and(eq(productImages.id, photo.id), eq(productImages.productId, input.productId))),
  );
  try {
    await db.batch([
      recordDeskWrite(db, actor, {
        action: 'photos.set',
        subject: current.productName,
        details: {
          productId: input.productId,
          removed: removed.map((photo) => photo.url),
          photos: kept,
        },
        requestKey: input.requestKey,
      }),
      ...updates,
      ...(removed.length > 0
        ? [
            db.delete(productImages).where(
              and(
                eq(productImages.productId, input.productId),
                inArray(
                  productImages.id,
                  removed.map((photo) => photo.id),
                ),
              ),
            ),
          ]
        : []),
      // The first picture now, or a photo uploaded meanwhile, or none.
      db
        .update(products)
        .set({
          productImage: sql`(select url from product_images where product_id = ${input.productId}
                             order by position, id limit 1)`,
        })
        .where(eq(products.id, input.productId)),
      bumpCatalogueVersion(db),
    ]);
  } catch (error) {
    if (isRepeatedKey(error)) {
      const first = await earlierAnswer(db, input.requestKey, keyOwner);
      if (first) return { ok: true, photos: first.photos as DeskPhoto[] };
    }
    throw error;
  }
  // Originals go after the write: a failed write leaves every photo whole.
  const keys = removed.flatMap((photo) => keyOfPhotoUrl(photo.url) ?? []);
  await Promise.all(keys.map((key) => deps.photos.delete(key).catch(() => {})));
  return { ok: true, photos: kept };
}
