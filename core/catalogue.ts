/** The shop's grouping rules (storefront spec §2 and §9). Pure: used by server and client. */

export const FEATURED_MIN_PRICE_EXCLUSIVE = 50_000;
export const AFFORDABLE_MAX_PRICE = 50_000;
export const PREMIUM_MIN_PRICE_EXCLUSIVE = 100_000;
export const HOME_FEATURED_COUNT = 8;
export const HOME_NEW_ARRIVALS_COUNT = 8;
export const SHOP_FEATURED_COUNT = 6;
export const SHOP_NEW_ARRIVALS_SHARE = 0.3;
export const LOW_STOCK_BELOW = 10;
/** A row never ships more cards than this; "View all" leads to the full listing. */
export const ROW_CARD_LIMIT = 24;
/** Shown when a product has no image or its image fails to load. */
export const PLACEHOLDER_IMAGE = '/images/placeholder.svg';

export type Product = {
  id: number;
  slug: string;
  name: string;
  price: number;
  image_url: string | null;
  description?: string;
  quantity: number;
  stock: number;
};

/** New Arrivals on the shop screen: the first 30 % of the list, rounded up. */
export function shopNewArrivalsCount(total: number): number {
  return Math.ceil(total * SHOP_NEW_ARRIVALS_SHARE);
}

/** 'Only N left' when stock is below 10 (and above 0). */
export function lowStockBadge(stock: number): string | null {
  return stock > 0 && stock < LOW_STOCK_BELOW ? `Only ${stock} left` : null;
}

/** The shop's groups, as shown on /shop and listed in full at /products?group=... */
export const SHOP_GROUPS = {
  new: 'New Arrivals',
  featured: 'Featured Items',
  affordable: 'Affordable Picks',
  premium: 'Premium Collection',
} as const;
export type ShopGroup = keyof typeof SHOP_GROUPS;

/** Search terms are trimmed (an empty one does nothing) and at most this long. */
export const SEARCH_TERM_MAX = 100;
export const LISTING_PAGE_SIZE = 24;
