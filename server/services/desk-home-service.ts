// The home page on the desk (issue 34, decision 0078): the hero's slides and the shop's categories,
// each read with the pictures the owner may choose from (the shop's own product photos), each
// saved whole in ONE batch with its desk record and the catalogue's version, so the edge cache
// shows the change at once. Only desk.homeSlides, desk.saveHomeSlides, desk.categories and
// desk.saveCategories call this.
import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { SaveCategoriesInput, SaveHomeSlidesInput } from '#core/desk-home.ts';
import { artFor, type HomeSlide } from '#core/home-slides.ts';
import type { Db } from '#db/client.ts';
import { PG, postgresError } from '#db/errors.ts';
import { categories, homeSlides, productImages, products } from '#db/schema/index.ts';
import type { Answer, Refused } from '../shopper-error.ts';
import { categoryOrder, homeSlidesQuery, toHomeSlide } from './catalogue-service.ts';
import { bumpCatalogueVersion } from './catalogue-version.ts';
import { type DeskActor, recordDeskWrite } from './desk-record.ts';

/** How many of the newest product photos the picker offers. */
export const PICKER_PHOTOS = 48;

/** A photo the owner may put on a slide or a category: one of the shop's product photos. */
export type ShopPicture = { url: string; widths: number[]; alt: string; product: string };

/** The newest pieces' photos, newest piece first, each piece's in its own order. */
function picturesQuery(db: Db) {
  return db
    .select({
      url: productImages.url,
      widths: productImages.widths,
      alt: productImages.alt,
      product: products.productName,
    })
    .from(productImages)
    .innerJoin(products, eq(products.id, productImages.productId))
    .orderBy(desc(products.createdAt), desc(products.id), productImages.position)
    .limit(PICKER_PHOTOS);
}

/** Which of these URLs are photos the shop holds (product_images). */
function knownPicturesQuery(db: Db, urls: readonly string[]) {
  return db
    .selectDistinct({ url: productImages.url })
    .from(productImages)
    .where(urls.length > 0 ? inArray(productImages.url, [...urls]) : sql`false`);
}

const pictureOf = (row: {
  url: string;
  widths: number[] | null;
  alt: string | null;
  product: string;
}) => ({
  url: row.url,
  widths: row.widths ?? [],
  alt: row.alt ?? row.product,
  product: row.product,
});

/** What the desk's home page shows of the hero: the slides in order, and the photos to pick. */
export async function deskHomeSlides(
  db: Db,
): Promise<{ slides: HomeSlide[]; pictures: ShopPicture[] }> {
  const [slides, pictures] = await db.batch([homeSlidesQuery(db), picturesQuery(db)]);
  return { slides: slides.map(toHomeSlide), pictures: pictures.map(pictureOf) };
}

export type SaveSlidesProblem = 'unknown-slide' | 'unknown-picture';
export type SaveSlidesAnswer = { slides: number; titles: string[] };

/**
 * Replaces the hero's slides with the list as sent, in that order, in ONE batch with the record
 * and the catalogue's version: slides sent with an id are updated, new ones added (with the next
 * drawn art), the others removed. Refused: an id the home does not have, a picture that is not
 * one of the shop's photos.
 */
export async function saveHomeSlides(
  db: Db,
  actor: DeskActor,
  input: SaveHomeSlidesInput,
): Promise<Answer<SaveSlidesAnswer, SaveSlidesProblem>> {
  const urls = [...new Set(input.slides.flatMap((s) => (s.imageUrl ? [s.imageUrl] : [])))];
  const [stored, known] = await db.batch([
    db.select({ id: homeSlides.id }).from(homeSlides),
    knownPicturesQuery(db, urls),
  ]);
  const ids = new Set(stored.map((row) => row.id));
  if (input.slides.some((s) => s.id !== undefined && !ids.has(s.id))) {
    return { ok: false, problem: 'unknown-slide' };
  }
  if (known.length !== urls.length) return { ok: false, problem: 'unknown-picture' };

  const kept = input.slides.flatMap((s) => (s.id === undefined ? [] : [s.id]));
  const writes = [];
  writes.push(
    kept.length > 0
      ? db.delete(homeSlides).where(notInArray(homeSlides.id, kept))
      : db.delete(homeSlides),
  );
  for (const [index, slide] of input.slides.entries()) {
    const values = {
      position: index + 1,
      title: slide.title,
      words: slide.words,
      linkLabel: slide.linkLabel,
      linkUrl: slide.linkUrl,
      imageUrl: slide.imageUrl ?? null,
    };
    writes.push(
      slide.id === undefined
        ? db.insert(homeSlides).values({ ...values, art: artFor(index) })
        : db.update(homeSlides).set(values).where(eq(homeSlides.id, slide.id)),
    );
  }
  const answer: SaveSlidesAnswer = {
    slides: input.slides.length,
    titles: input.slides.map((s) => s.title),
  };
  await db.batch([
    recordDeskWrite(db, actor, {
      action: 'home.slides.saved',
      subject: 'Home page',
      details: answer,
      requestKey: input.requestKey,
    }),
    bumpCatalogueVersion(db),
    ...writes,
  ]);
  return { ok: true, ...answer };
}

/** A category as the desk shows it: how many pieces are filed under it, and its picture. */
export type DeskCategory = {
  id: number;
  name: string;
  position: number;
  imageUrl: string | null;
  pieces: number;
};

function deskCategoriesQuery(db: Db) {
  return db
    .select({
      id: categories.id,
      name: categories.name,
      position: categories.position,
      imageUrl: categories.imageUrl,
      pieces: sql<number>`(select count(*) from product_categories pc
        where pc.category_id = ${categories.id})`.mapWith(Number),
    })
    .from(categories)
    .orderBy(...categoryOrder);
}

/** What the desk's home page shows of the categories: in the shop's order, and the photos. */
export async function deskCategories(
  db: Db,
): Promise<{ categories: DeskCategory[]; pictures: ShopPicture[] }> {
  const [rows, pictures] = await db.batch([deskCategoriesQuery(db), picturesQuery(db)]);
  return { categories: rows, pictures: pictures.map(pictureOf) };
}

export type SaveCategoriesProblem = 'unknown-category' | 'unknown-picture' | 'in-use' | 'clash';
type InUse = Refused<'in-use'> & { name: string; pieces: number };
export type SaveCategoriesRefused = Refused<Exclude<SaveCategoriesProblem, 'in-use'>> | InUse;
export type SaveCategoriesAnswer = { names: string[]; added: string[]; removed: string[] };

/**
 * Saves the categories as sent: their order is the shop's (position 1, 2, …), names and pictures
 * as typed, new ones added; one left out is removed — unless pieces are filed under it: then the
 * save is refused, naming it and how many (they would drop out of its page unseen, and its links
 * would break). ONE batch with the record and the catalogue's version. Names are unique: a rename
 * that swaps two names goes through a name of its own first, so no statement meets the other.
 */
export async function saveCategories(
  db: Db,
  actor: DeskActor,
  input: SaveCategoriesInput,
): Promise<({ ok: true } & SaveCategoriesAnswer) | SaveCategoriesRefused> {
  const urls = [...new Set(input.categories.flatMap((c) => (c.imageUrl ? [c.imageUrl] : [])))];
  const [stored, known] = await db.batch([deskCategoriesQuery(db), knownPicturesQuery(db, urls)]);
  const byId = new Map(stored.map((row) => [row.id, row]));
  if (input.categories.some((c) => c.id !== undefined && !byId.has(c.id))) {
    return { ok: false, problem: 'unknown-category' };
  }
  if (known.length !== urls.length) return { ok: false, problem: 'unknown-picture' };
  const sent = new Set(input.categories.flatMap((c) => (c.id === undefined ? [] : [c.id])));
  const removed = stored.filter((row) => !sent.has(row.id));
  const used = removed.find((row) => row.pieces > 0);
  if (used) return { ok: false, problem: 'in-use', name: used.name, pieces: used.pieces };

  const writes = [];
  if (removed.length > 0) {
    // A piece filed under it since the read keeps it (never unlinked unseen).
    writes.push(
      db.delete(categories).where(
        and(
          inArray(
            categories.id,
            removed.map((row) => row.id),
          ),
          sql`not exists (select 1 from product_categories pc where pc.category_id = ${categories.id})`,
        ),
      ),
    );
  }
  const renamed = input.categories.filter(
    (c) => c.id !== undefined && byId.get(c.id)?.name !== c.name,
  );
  if (renamed.length > 0) {
    writes.push(
      db
        .update(categories)
        .set({ name: sql`'renaming ' || ${categories.id} || ' ' || ${input.requestKey}` })
        .where(
          inArray(
            categories.id,
            renamed.map((c) => c.id as number),
          ),
        ),
    );
  }
  const added: string[] = [];
  for (const [index, category] of input.categories.entries()) {
    const values = {
      name: category.name,
      position: index + 1,
      imageUrl: category.imageUrl ?? null,
    };
    if (category.id === undefined) {
      added.push(category.name);
      writes.push(db.insert(categories).values(values));
    } else {
      writes.push(db.update(categories).set(values).where(eq(categories.id, category.id)));
    }
  }
  const answer: SaveCategoriesAnswer = {
    names: input.categories.map((c) => c.name),
    added,
    removed: removed.map((row) => row.name),
  };
  try {
    await db.batch([
      recordDeskWrite(db, actor, {
        action: 'categories.saved',
        subject: 'Categories',
        details: answer,
        requestKey: input.requestKey,
      }),
      bumpCatalogueVersion(db),
      ...writes,
    ]);
  } catch (error) {
    // Another save took one of these names meanwhile: nothing written.
    const { code, constraint } = postgresError(error);
    if (code === PG.unique && constraint === 'categories_name_unique') {
      return { ok: false, problem: 'clash' };
    }
    throw error;
  }
  return { ok: true, ...answer };
}
