// The home page on the desk (issue 34, decision 0078): the hero's slides (title, words, the
// button's words and link, a picture) and the shop's categories (name, order, picture) — their
// inputs and texts, shared by the page (before sending) and desk.saveHomeSlides /
// desk.saveCategories (on arrival). A link is a path on the shop and a picture one of the shop's
// own product photos: nothing a save holds can send a shopper, or their browser, elsewhere.
import * as v from 'valibot';
import { idSchema } from './bounds.ts';
import { requestKey } from './desk-roles.ts';
import { SLIDES_MAX, SLIDES_MIN } from './home-slides.ts';
import { invisibleCharacters, typedText } from './text.ts';

export const SLIDE_TITLE_MAX = 40;
export const SLIDE_WORDS_MAX = 160;
export const SLIDE_LABEL_MAX = 24;
export const LINK_MAX = 200;
export const PICTURE_URL_MAX = 300;
export const CATEGORY_NAME_MAX = 40;
/** More categories than a boutique's menu could show: a slip, or a flood. */
export const CATEGORIES_MAX = 60;

export const DESK_HOME_TEXT = {
  title: 'Home page',
  slides: 'Hero slides',
  categories: 'Categories',
  notText: (field: string) => `${field} must be text.`,
  titleNeeded: 'Each slide needs a title, e.g. New Collection.',
  titleTooLong: `A title must be ${SLIDE_TITLE_MAX} characters or fewer.`,
  wordsTooLong: `A slide’s words must be ${SLIDE_WORDS_MAX} characters or fewer.`,
  labelNeeded: 'Each slide needs its button’s words, e.g. Shop Now.',
  labelTooLong: `A button’s words must be ${SLIDE_LABEL_MAX} characters or fewer.`,
  linkInvalid:
    'A link must be a page of this shop, starting with / (e.g. /shop or /products?category=3).',
  pictureInvalid: 'A picture must be one of the shop’s own photos: choose it from the list.',
  pictureUnknown: 'That picture is no longer one of the shop’s photos. Choose another.',
  tooFewSlides: `The home page needs at least ${SLIDES_MIN} slide.`,
  tooManySlides: `The home page shows at most ${SLIDES_MAX} slides.`,
  unknownSlide: 'One of these slides is not on the desk any more. Reload the page.',
  slidesInvalid: 'Please check the slides and try again.',
  slidesSaved: 'Home page saved',
  categoryNameNeeded: 'Each category needs a name, e.g. Dresses.',
  categoryNameTooLong: `A category’s name must be ${CATEGORY_NAME_MAX} characters or fewer.`,
  categoriesNeeded: 'Keep at least one category: the shop’s menu lists them.',
  tooManyCategories: `The shop keeps at most ${CATEGORIES_MAX} categories.`,
  namesUnique: (name: string) => `Two categories are named ${name}: give each its own name.`,
  unknownCategory: 'One of these categories is not on the desk any more. Reload the page.',
  /** A category pieces are filed under is not removed: they would vanish from its page unseen. */
  categoryInUse: (name: string, pieces: number) =>
    `${name} has ${pieces} ${pieces === 1 ? 'piece' : 'pieces'} in it: move ${pieces === 1 ? 'it' : 'them'} to another category on ${pieces === 1 ? 'its product page' : 'their product pages'} first, or keep it.`,
  categoriesInvalid: 'Please check the categories and try again.',
  categoriesSaved: 'Categories saved',
  clash: 'Someone saved at the same moment. Reload the page and try again.',
} as const;

/** URL characters a link may hold (RFC 3986's unreserved, reserved and %): no spaces, quotes,
 * angle brackets or backslashes. */
const LINK_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/?#[\]]*$/;
const SHOP_ORIGIN = 'https://shop.invalid';

/**
 * Whether a link is a page of this shop: a path from its root (`/shop`, `/products?category=3`),
 * never another site (`https://…`, `//…` nor `/\…`, which browsers read as another host) nor a
 * script (`javascript:` has no leading slash).
 */
export function isShopPath(url: string): boolean {
  if (url.length === 0 || url.length > LINK_MAX) return false;
  if (!url.startsWith('/') || url.startsWith('//') || !LINK_CHARACTERS.test(url)) return false;
  try {
    return new URL(url, SHOP_ORIGIN).origin === SHOP_ORIGIN;
  } catch {
    return false;
  }
}

/** Where the shop serves its own pictures: uploaded photos and the demo's static ones. */
const PICTURE_PATH = /^\/(photos|images)\/[A-Za-z0-9_\-./]+$/;

/** Whether a picture's URL is one of the shop's own paths (the save then checks it is a photo the
 * shop holds, product_images). */
export function isShopPicture(url: string): boolean {
  return (
    url.length <= PICTURE_URL_MAX &&
    PICTURE_PATH.test(url) &&
    !url.includes('..') &&
    !url.includes('//')
  );
}

const picture = v.optional(
  v.nullable(
    v.pipe(
      v.string(DESK_HOME_TEXT.pictureInvalid),
      v.check(isShopPicture, DESK_HOME_TEXT.pictureInvalid),
    ),
  ),
);

/** One slide as the form sends it; no id: a new one. */
export const slideInput = v.strictObject(
  {
    id: v.optional(idSchema(DESK_HOME_TEXT.unknownSlide)),
    title: v.pipe(
      typedText({
        notText: DESK_HOME_TEXT.notText('Title'),
        max: SLIDE_TITLE_MAX,
        tooLong: DESK_HOME_TEXT.titleTooLong,
        invisible: invisibleCharacters('Title'),
      }),
      v.minLength(1, DESK_HOME_TEXT.titleNeeded),
    ),
    words: typedText({
      notText: DESK_HOME_TEXT.notText('Words'),
      max: SLIDE_WORDS_MAX,
      tooLong: DESK_HOME_TEXT.wordsTooLong,
      invisible: invisibleCharacters('Words'),
    }),
    linkLabel: v.pipe(
      typedText({
        notText: DESK_HOME_TEXT.notText('Button'),
        max: SLIDE_LABEL_MAX,
        tooLong: DESK_HOME_TEXT.labelTooLong,
        invisible: invisibleCharacters('Button'),
      }),
      v.minLength(1, DESK_HOME_TEXT.labelNeeded),
    ),
    linkUrl: v.pipe(
      v.string(DESK_HOME_TEXT.linkInvalid),
      v.trim(),
      v.check(isShopPath, DESK_HOME_TEXT.linkInvalid),
    ),
    imageUrl: picture,
  },
  DESK_HOME_TEXT.slidesInvalid,
);
export type SlideInput = v.InferOutput<typeof slideInput>;

const distinctIds = (items: readonly { id?: number }[]) => {
  const ids = items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
  return new Set(ids).size === ids.length;
};

/** The whole list of slides in the order the home shows them. */
export const saveHomeSlidesInput = v.strictObject(
  {
    requestKey,
    slides: v.pipe(
      v.array(slideInput, DESK_HOME_TEXT.slidesInvalid),
      v.minLength(SLIDES_MIN, DESK_HOME_TEXT.tooFewSlides),
      v.maxLength(SLIDES_MAX, DESK_HOME_TEXT.tooManySlides),
      v.check((slides) => distinctIds(slides), DESK_HOME_TEXT.unknownSlide),
    ),
  },
  DESK_HOME_TEXT.slidesInvalid,
);
export type SaveHomeSlidesInput = v.InferOutput<typeof saveHomeSlidesInput>;

/** One category as the form sends it; no id: a new one. */
export const categoryInput = v.strictObject(
  {
    id: v.optional(idSchema(DESK_HOME_TEXT.unknownCategory)),
    name: v.pipe(
      typedText({
        notText: DESK_HOME_TEXT.notText('Name'),
        max: CATEGORY_NAME_MAX,
        tooLong: DESK_HOME_TEXT.categoryNameTooLong,
        invisible: invisibleCharacters('Name'),
      }),
      v.minLength(1, DESK_HOME_TEXT.categoryNameNeeded),
    ),
    imageUrl: picture,
  },
  DESK_HOME_TEXT.categoriesInvalid,
);
export type CategoryInput = v.InferOutput<typeof categoryInput>;

/** The first name two categories share (case and spaces aside), or null. */
export function sharedCategoryName(items: readonly { name: string }[]): string | null {
  const seen = new Set<string>();
  for (const { name } of items) {
    const plain = name.trim().replace(/\s+/g, ' ');
    if (seen.has(plain.toLowerCase())) return plain;
    seen.add(plain.toLowerCase());
  }
  return null;
}

/** Every category in the order the shop lists them: one left out is removed. */
export const saveCategoriesInput = v.strictObject(
  {
    requestKey,
    categories: v.pipe(
      v.array(categoryInput, DESK_HOME_TEXT.categoriesInvalid),
      v.minLength(1, DESK_HOME_TEXT.categoriesNeeded),
      v.maxLength(CATEGORIES_MAX, DESK_HOME_TEXT.tooManyCategories),
      v.check((items) => distinctIds(items), DESK_HOME_TEXT.unknownCategory),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const shared = sharedCategoryName(dataset.value);
        if (shared) addIssue({ message: DESK_HOME_TEXT.namesUnique(shared) });
      }),
    ),
  },
  DESK_HOME_TEXT.categoriesInvalid,
);
export type SaveCategoriesInput = v.InferOutput<typeof saveCategoriesInput>;

/** The same list with one item moved by `by` places (up: -1), as the page's arrows do. */
export function moved<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (index < 0 || index >= items.length || to < 0 || to >= items.length) return [...items];
  const next = [...items];
  [next[index], next[to]] = [next[to] as T, next[index] as T];
  return next;
}
