// The home page's structured data (issue 34): the boutique as a schema.org ClothingStore (a
// LocalBusiness) with its address, its pin when the owner set one, its phone, email, social pages
// and its hours per day, from the details as shown (core/store-details.ts, written on the server).
// Its own file: the home's chunk carries it, not every page's.
import type { ShownStoreDetails } from './store-details.ts';

/** The boutique as schema.org sees it. */
export function localBusinessJsonLd(
  store: ShownStoreDetails,
  shop: {
    phone: string;
    email: string;
    social: readonly { url: string }[];
    /** The home page's and the share picture's absolute addresses. */
    url: string;
    image: string;
  },
): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'ClothingStore',
    name: 'duuka',
    url: shop.url,
    image: shop.image,
    telephone: shop.phone,
    email: shop.email,
    priceRange: 'UGX',
    address: {
      '@type': 'PostalAddress',
      streetAddress: store.address,
      addressLocality: 'Kampala',
      addressCountry: 'UG',
    },
    ...(store.landmark ? { description: store.place } : {}),
    ...(store.latitude !== null && store.longitude !== null && store.mapUrl
      ? {
          geo: { '@type': 'GeoCoordinates', latitude: store.latitude, longitude: store.longitude },
          hasMap: store.mapUrl,
        }
      : {}),
    openingHoursSpecification: store.openingHours,
    ...(shop.social.length > 0 ? { sameAs: shop.social.map((link) => link.url) } : {}),
  };
}
