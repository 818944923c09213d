// The home's hero slides as the shop shows them (issue 34, decision 0078): read from home_slides,
// in the owner's order, edited on the desk. Kept apart from core/desk-home.ts (the desk's inputs)
// so the home page's carousel loads none of the desk's schemas.

/** A slide as the home page shows it. */
export type HomeSlide = {
  id: number;
  title: string;
  words: string;
  linkLabel: string;
  /** A path on the shop (core/desk-home.ts isShopPath). */
  linkUrl: string;
  /** Its own picture (one of the shop's product photos); null: today's look (below). */
  imageUrl: string | null;
  /** The WebP widths stored for that picture, for its srcset. */
  imageWidths: number[];
  /** The drawn art shown when neither its picture nor a pictured piece is there. */
  art: string | null;
};

/** How many slides a home may have: one at least (the hero is never empty), six at most. */
export const SLIDES_MIN = 1;
export const SLIDES_MAX = 6;

/** Spec §9: autoplay every 5000 ms, 800 ms fade, infinite. */
export const AUTOPLAY_MS = 5000;
export const FADE_MS = 800;
/** The next slide's picture is fetched this long before autoplay shows it (issue 38: a visit pays
 * only for the pictures it shows, and the next one is ready when its fade starts). */
export const FETCH_AHEAD_MS = 2000;

/** The drawn arts the shop ships (public/images/hero), given in turn to slides the desk adds. */
export const HERO_ARTS = [
  '/images/hero/new-collection.svg',
  '/images/hero/premium-quality.svg',
  '/images/hero/limited-edition.svg',
] as const;

/**
 * What the hero shows when home_slides holds none (a database emptied by hand: the desk never
 * saves fewer than one): the migration's first slide, so the page keeps its shape and its words.
 */
export const DEFAULT_HOME_SLIDE: HomeSlide = {
  id: 0,
  title: 'New Collection',
  words: 'Kitenge tailoring, soft leather and hand-finished jewellery, new this season.',
  linkLabel: 'Shop Now',
  linkUrl: '/shop',
  imageUrl: null,
  imageWidths: [],
  art: HERO_ARTS[0],
};

/** The art a slide at this place (0-based) is given when the desk adds it. */
export const artFor = (index: number): string => HERO_ARTS[index % HERO_ARTS.length] as string;
