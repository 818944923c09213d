/**
 * SEO helpers for each route's `head()`: title, description, canonical URL, Open Graph, Twitter
 * card and Product JSON-LD. Pure apart from `siteOrigin()`, which reads the current request on the
 * server (SSR) and `window.location` in the browser, so URLs are absolute on every host/preview.
 *
 * Usage in a route:
 *
 *   export const Route = createFileRoute('/about')({
 *     head: () => pageHead({ title: 'About', description: 'Who we are…', path: '/about' }),
 *   });
 *
 *   // home: omit the title ('duuka — premium fashion, Kampala')
 *   head: () => pageHead({ description: '…', path: '/' }),
 *
 *   // a product page: the loader's product, its image as og:image and Product JSON-LD
 *   head: ({ loaderData }) => {
 *     if (!loaderData) return {};
 *     const { product } = loaderData;
 *     const head = pageHead({
 *       title: product.name,
 *       description: product.description ?? product.name,
 *       path: `/products/${product.slug}`,
 *       image: product.image_url,
 *       type: 'product',
 *     });
 *     return { ...head, scripts: [jsonLdScript(productJsonLd(product, siteOrigin()))] };
 *   },
 *
 * `head().scripts` renders in <head> during SSR but inserts `children` raw: `jsonLdScript()` escapes
 * `<`, `>` and `&`, so a product text containing `</script>` cannot break out.
 * A route's meta with the same `name`/`property` and its title replace the root route's.
 */
import { createIsomorphicFn } from '@tanstack/react-start';
import { getRequest } from '@tanstack/react-start/server';
import { LOW_STOCK_BELOW, PLACEHOLDER_IMAGE, type ProductDetail } from '#core/catalogue.ts';

export const SITE_NAME = 'duuka';
export const HOME_TITLE = 'duuka — premium fashion, Kampala';
export const SITE_LOCALE = 'en_UG';
/** A picture for link previews (WhatsApp, Facebook, X): a JPEG or PNG, with its size when known. */
export type ShareImage = { url: string; width?: number; height?: number; alt?: string };
/** The size link previews ask for: at least 1,200 × 630. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;
/** The shop's own share picture (a 1,200 × 630 JPEG of the New Collection art). */
export const DEFAULT_OG_IMAGE: ShareImage = {
  url: '/images/hero/share.jpg',
  ...SHARE_IMAGE_SIZE,
  alt: 'duuka — premium fashion, Kampala',
};

const RASTER = /\.(jpe?g|png)$/i;

/**
 * A product page's og:image. A picture stored at `/images/products/{slug}/….jpg` with WebP copies
 * (the demo pictures and resized uploads) has a 1,200 × 630 `share.jpg` beside it; another JPEG
 * or PNG is shared as it is; anything else (an SVG) leaves the shop's own share picture.
 */
export function productShareImage(
  product: Pick<ProductDetail, 'slug' | 'name' | 'image_url'> & {
    images?: ProductDetail['images'];
  },
): ShareImage | null {
  const first =
    product.images?.[0] ??
    (product.image_url ? { url: product.image_url, alt: product.name, widths: [] } : null);
  if (!first) return null;
  const path = first.url.split(/[?#]/)[0] ?? '';
  const folder = `/images/products/${product.slug}/`;
  if (first.widths.length > 0 && path.startsWith(folder) && /\.jpe?g$/i.test(path)) {
    return { url: `${folder}share.jpg`, ...SHARE_IMAGE_SIZE, alt: first.alt || product.name };
  }
  if (RASTER.test(path)) return { url: first.url, alt: first.alt || product.name };
  return null;
}

/** The shop's absolute origin ('https://duuka.ug'): the current request's on the server. */
export const siteOrigin: () => string = createIsomorphicFn()
  .server(() => new URL(getRequest().url).origin)
  .client(() => window.location.origin);

/** Query parameters that only track a visit; they never belong in a canonical URL. */
const TRACKING_PARAM =
  /^(utm_.*|gclid|gbraid|wbraid|dclid|fbclid|msclkid|mc_cid|mc_eid|_ga|_gl|ref)$/i;

/** origin + path (a path, or an absolute URL kept as is), without tracking parameters or hash. */
export function absoluteUrl(path: string, origin: string): string {
  const url = new URL(path, `${origin}/`);
  for (const key of [...url.searchParams.keys()]) {
    if (TRACKING_PARAM.test(key)) url.searchParams.delete(key);
  }
  url.hash = '';
  return url.toString();
}

export type PageHeadInput = {
  /** The page's own title; shown as '{title} · duuka'. Omit it on the home page. */
  title?: string;
  description: string;
  /** The page's path (with its meaningful query, e.g. '/products?category=3'). */
  path: string;
  /** og:image: a JPEG or PNG (a path or absolute URL, with its size when known); null/omitted
   * uses the shop's own share picture. */
  image?: ShareImage | string | null;
  /** og:type: 'website' (default), 'product', 'article'. */
  type?: string;
};

export type HeadMeta =
  | { title: string }
  | { name: string; content: string }
  | { property: string; content: string }
  | { charSet: string };
export type HeadLink = { rel: string; href: string; type?: string; sizes?: string };

/** A page's document title: '{title} · duuka'. */
export const pageTitle = (title: string) => `${title} · ${SITE_NAME}`;

/**
 * The head for one page. `origin` defaults to `siteOrigin()` (the current request / window); pass
 * it explicitly in tests or when it is already at hand.
 */
export function pageHead(
  { title, description, path, image, type = 'website' }: PageHeadInput,
  origin: string = siteOrigin(),
): { meta: HeadMeta[]; links: HeadLink[] } {
  const canonical = absoluteUrl(path, origin);
  const isHome = !title || new URL(canonical).pathname === '/';
  const fullTitle = isHome ? HOME_TITLE : pageTitle(title as string);
  const ogTitle = isHome ? HOME_TITLE : (title as string);
  const share: ShareImage =
    typeof image === 'string' ? { url: image } : image ? image : DEFAULT_OG_IMAGE;
  const ogImage = absoluteUrl(share.url, origin);
  return {
    meta: [
      { title: fullTitle },
      { name: 'description', content: description },
      { property: 'og:title', content: ogTitle },
      { property: 'og:description', content: description },
      { property: 'og:url', content: canonical },
      { property: 'og:type', content: type },
      { property: 'og:image', content: ogImage },
      ...(share.width && share.height
        ? [
            { property: 'og:image:width', content: String(share.width) },
            { property: 'og:image:height', content: String(share.height) },
          ]
        : []),
      ...(share.alt ? [{ property: 'og:image:alt', content: share.alt }] : []),
      { property: 'og:site_name', content: SITE_NAME },
      { property: 'og:locale', content: SITE_LOCALE },
      { name: 'twitter:card', content: 'summary_large_image' },
    ],
    links: [{ rel: 'canonical', href: canonical }],
  };
}

// JSON-LD values (structurally TanStack's LdJsonObject).
export type JsonLdValue = string | number | boolean | null | JsonLd | JsonLdValue[];
export type JsonLd = { [key: string]: JsonLdValue };

const SCHEMA = 'https://schema.org';

/** schema.org availability: none left, a few left (1–9, the 'Only N left' badge), in stock. */
export function availabilityFor(stock: number): string {
  if (stock <= 0) return `${SCHEMA}/OutOfStock`;
  if (stock < LOW_STOCK_BELOW) return `${SCHEMA}/LimitedAvailability`;
  return `${SCHEMA}/InStock`;
}

/** A schema.org Product for a product page, with one UGX Offer per variant: each its own price,
 * availability and sku, linked to the page with that variant chosen, and a struck-through price
 * (priceSpecification) only where that variant is on sale. */
export function productJsonLd(
  product: Pick<
    ProductDetail,
    'id' | 'slug' | 'name' | 'image_url' | 'description' | 'variants' | 'offerPrices'
  >,
  origin: string,
): JsonLd {
  // A running offer's price only when every visitor gets it (automatic, no minimum, no limits:
  // isForEveryone), valid until it ends (issue 35); a code's price is never a public price.
  const offer = product.offerPrices?.forEveryone ? product.offerPrices : null;
  const url = absoluteUrl(`/products/${encodeURIComponent(product.slug)}`, origin);
  const several = product.variants.length > 1;
  return {
    '@context': SCHEMA,
    '@type': 'Product',
    name: product.name,
    description: product.description || product.name,
    image: absoluteUrl(product.image_url || PLACEHOLDER_IMAGE, origin),
    sku: String(product.id),
    brand: { '@type': 'Brand', name: SITE_NAME },
    url,
    offers: product.variants.map((variant) => {
      const offerUrl = several ? `${url}?variant=${variant.id}` : url;
      const offerPrice = offer?.byVariant[variant.id];
      const price = offerPrice ?? variant.price;
      // Struck through: the variant's own price under an offer, else its compare-at price.
      const struck =
        offerPrice !== undefined
          ? variant.price
          : variant.compareAtPrice !== null && variant.compareAtPrice > variant.price
            ? variant.compareAtPrice
            : null;
      return {
        '@type': 'Offer',
        sku: variant.sku,
        ...(variant.label ? { name: variant.label } : {}),
        priceCurrency: 'UGX',
        // UGX has no minor unit: whole shillings.
        price: Math.round(price),
        ...(offerPrice !== undefined && offer?.validUntil
          ? { priceValidUntil: offer.validUntil }
          : {}),
        ...(struck !== null && struck > price
          ? {
              priceSpecification: {
                '@type': 'UnitPriceSpecification',
                priceType: `${SCHEMA}/StrikethroughPrice`,
                priceCurrency: 'UGX',
                price: Math.round(struck),
              },
            }
          : {}),
        availability: availabilityFor(variant.available),
        itemCondition: `${SCHEMA}/NewCondition`,
        url: offerUrl,
      };
    }),
  };
}

/** For `head().scripts`: JSON with <, > and & escaped, safe inside an inline <script>. */
export function jsonLdScript(data: JsonLd): { type: string; children: string } {
  const json = JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return { type: 'application/ld+json', children: json };
}
