import { describe, expect, it } from 'vitest';
import type { Product } from '#core/catalogue.ts';
import type { Variant } from '#core/variants.ts';
import {
  absoluteUrl,
  availabilityFor,
  jsonLdScript,
  pageHead,
  productJsonLd,
  productShareImage,
} from './seo.ts';

const ORIGIN = 'https://duuka.test';

function meta(head: ReturnType<typeof pageHead>, key: string): string | undefined {
  for (const m of head.meta) {
    if ('name' in m && m.name === key) return m.content;
    if ('property' in m && m.property === key) return m.content;
  }
  return undefined;
}

function title(head: ReturnType<typeof pageHead>): string | undefined {
  for (const m of head.meta) if ('title' in m) return m.title;
  return undefined;
}

const only = (overrides: Partial<Variant> = {}): Variant => ({
  id: 17,
  sku: 'ANK-17',
  label: '',
  options: {},
  price: 185_000,
  compareAtPrice: null,
  available: 20,
  ...overrides,
});

const product = (
  overrides: Partial<Product> & { variants?: Variant[] } = {},
): Product & { variants: Variant[] } => ({
  id: 17,
  slug: 'ankara-wrap-dress',
  name: 'Ankara Wrap Dress',
  price: 185_000,
  priceTo: 185_000,
  compareAtPrice: null,
  sale: null,
  image_url: '/images/products/ankara-wrap-dress.svg',
  description: 'A wrap dress in bold Ankara print.',
  quantity: 20,
  stock: 20,
  variantId: 17,
  sizesLeft: null,
  variants: [only()],
  ...overrides,
});

describe('pageHead', () => {
  it("titles a page '{title} · duuka' and the home page with the shop's line", () => {
    const about = pageHead({ title: 'About', description: 'Who we are', path: '/about' }, ORIGIN);
    expect(title(about)).toBe('About · duuka');
    expect(meta(about, 'og:title')).toBe('About');
    const home = pageHead({ description: 'The shop', path: '/' }, ORIGIN);
    expect(title(home)).toBe('duuka — premium fashion, Kampala');
    expect(meta(home, 'og:title')).toBe('duuka — premium fashion, Kampala');
    // Only one <title>.
    expect(about.meta.filter((m) => 'title' in m)).toHaveLength(1);
  });

  it('gives an absolute canonical URL without tracking parameters', () => {
    const head = pageHead(
      {
        title: 'Dresses',
        description: 'All dresses',
        path: '/products?category=3&utm_source=ig&utm_campaign=x&fbclid=abc&page=2#top',
      },
      ORIGIN,
    );
    expect(head.links).toEqual([
      { rel: 'canonical', href: 'https://duuka.test/products?category=3&page=2' },
    ]);
    expect(meta(head, 'og:url')).toBe('https://duuka.test/products?category=3&page=2');
  });

  it('fills Open Graph and the Twitter card, with an absolute og:image', () => {
    const head = pageHead(
      {
        title: 'Ankara Wrap Dress',
        description: 'A wrap dress',
        path: '/products/ankara-wrap-dress',
        image: '/images/products/ankara-wrap-dress.svg',
        type: 'product',
      },
      ORIGIN,
    );
    expect(meta(head, 'description')).toBe('A wrap dress');
    expect(meta(head, 'og:description')).toBe('A wrap dress');
    expect(meta(head, 'og:type')).toBe('product');
    expect(meta(head, 'og:image')).toBe('https://duuka.test/images/products/ankara-wrap-dress.svg');
    expect(meta(head, 'og:site_name')).toBe('duuka');
    expect(meta(head, 'og:locale')).toBe('en_UG');
    expect(meta(head, 'twitter:card')).toBe('summary_large_image');
    const plain = pageHead(
      { title: 'Contact', description: 'Write to us', path: '/contact' },
      ORIGIN,
    );
    expect(meta(plain, 'og:type')).toBe('website');
    // The shop's own share picture: a JPEG of the size link previews want, never an SVG.
    expect(meta(plain, 'og:image')).toBe('https://duuka.test/images/hero/share.jpg');
    expect(meta(plain, 'og:image:width')).toBe('1200');
    expect(meta(plain, 'og:image:height')).toBe('630');
    expect(meta(plain, 'og:image:alt')).toBe('duuka — premium fashion, Kampala');
  });

  it('gives a product’s share picture with its size and alt text', () => {
    const head = pageHead(
      {
        title: 'Ankara Wrap Dress',
        description: 'A wrap dress',
        path: '/products/ankara-wrap-dress',
        image: {
          url: '/images/products/ankara-wrap-dress/share.jpg',
          width: 1200,
          height: 630,
          alt: 'Ankara Wrap Dress in Indigo',
        },
        type: 'product',
      },
      ORIGIN,
    );
    expect(meta(head, 'og:image')).toBe(
      'https://duuka.test/images/products/ankara-wrap-dress/share.jpg',
    );
    expect(meta(head, 'og:image:width')).toBe('1200');
    expect(meta(head, 'og:image:height')).toBe('630');
    expect(meta(head, 'og:image:alt')).toBe('Ankara Wrap Dress in Indigo');
    // A JPEG of unknown size: no width or height is claimed.
    const bare = pageHead(
      { title: 'X', description: 'X', path: '/products/x', image: '/uploads/x.jpg' },
      ORIGIN,
    );
    expect(meta(bare, 'og:image')).toBe('https://duuka.test/uploads/x.jpg');
    expect(meta(bare, 'og:image:width')).toBeUndefined();
  });
});

describe('productShareImage', () => {
  const picture = (url: string, widths: number[] = [400, 800, 1200]) => ({
    url,
    alt: 'Ankara Wrap Dress in Indigo',
    colour: 'Indigo',
    widths,
  });
  const dress = { slug: 'ankara-wrap-dress', name: 'Ankara Wrap Dress', image_url: null };

  it('shares the 1200 × 630 share.jpg beside a stored picture with WebP copies', () => {
    expect(
      productShareImage({
        ...dress,
        images: [picture('/images/products/ankara-wrap-dress/indigo.jpg')],
      }),
    ).toEqual({
      url: '/images/products/ankara-wrap-dress/share.jpg',
      width: 1200,
      height: 630,
      alt: 'Ankara Wrap Dress in Indigo',
    });
  });

  it('shares another JPEG or PNG as it is, without claiming a size', () => {
    expect(
      productShareImage({ ...dress, images: [picture('/images/products/old-dress.jpg', [])] }),
    ).toEqual({ url: '/images/products/old-dress.jpg', alt: 'Ankara Wrap Dress in Indigo' });
    expect(
      productShareImage({ ...dress, images: [picture('https://cdn.example/dress.PNG', [])] }),
    ).toEqual({ url: 'https://cdn.example/dress.PNG', alt: 'Ankara Wrap Dress in Indigo' });
    // A picture in another product's folder is not this one's share picture.
    expect(
      productShareImage({ ...dress, images: [picture('/images/products/other/indigo.jpg')] })?.url,
    ).toBe('/images/products/other/indigo.jpg');
  });

  it('leaves an SVG or no picture to the shop’s own share picture', () => {
    expect(
      productShareImage({
        ...dress,
        images: [picture('/images/products/ankara-wrap-dress.svg', [])],
      }),
    ).toBeNull();
    expect(productShareImage({ ...dress, images: [] })).toBeNull();
    expect(productShareImage({ ...dress, image_url: '/images/products/x.svg' })).toBeNull();
    expect(productShareImage({ ...dress, image_url: '/images/products/x.jpg' })?.url).toBe(
      '/images/products/x.jpg',
    );
  });
});

describe('absoluteUrl', () => {
  it('keeps absolute image URLs and resolves paths against the origin', () => {
    expect(absoluteUrl('https://cdn.example/a.png', ORIGIN)).toBe('https://cdn.example/a.png');
    expect(absoluteUrl('/shop', 'http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000/shop');
  });
});

describe('productJsonLd', () => {
  it('is a schema.org Product with a UGX offer, absolute image and URL', () => {
    const ld = productJsonLd(product(), ORIGIN);
    expect(ld).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Ankara Wrap Dress',
      description: 'A wrap dress in bold Ankara print.',
      image: 'https://duuka.test/images/products/ankara-wrap-dress.svg',
      sku: '17',
      brand: { '@type': 'Brand', name: 'duuka' },
      url: 'https://duuka.test/products/ankara-wrap-dress',
      offers: [
        {
          '@type': 'Offer',
          sku: 'ANK-17',
          priceCurrency: 'UGX',
          price: 185000,
          availability: 'https://schema.org/InStock',
          itemCondition: 'https://schema.org/NewCondition',
          url: 'https://duuka.test/products/ankara-wrap-dress',
        },
      ],
    });
  });

  it('carries a running offer’s price only when it is for everyone, valid until it ends', () => {
    const endsAt = '2026-11-29T21:00:00.000Z';
    const offered = (forEveryone: boolean) =>
      productJsonLd(
        {
          ...product(),
          offerPrices: { byVariant: { 17: 148_000 }, forEveryone, validUntil: endsAt },
        },
        ORIGIN,
      ).offers as Record<string, unknown>[];
    expect(offered(true)[0]).toMatchObject({
      price: 148_000,
      priceValidUntil: endsAt,
      priceSpecification: { priceType: 'https://schema.org/StrikethroughPrice', price: 185_000 },
    });
    expect(offered(false)[0]).toMatchObject({ price: 185_000 });
    expect(offered(false)[0]).not.toHaveProperty('priceValidUntil');
    expect(offered(false)[0]).not.toHaveProperty('priceSpecification');
  });

  it('gives each variant its own offer, with a struck-through price only where it is on sale', () => {
    const variant = (id: number, label: string, available: number, compareAtPrice: number | null) =>
      only({ id, sku: `LIN-${id}`, label, price: 135_000, compareAtPrice, available });
    const ld = productJsonLd(
      product({
        variants: [variant(31, 'M · Rust', 12, null), variant(32, 'L · Rust', 1, 150_000)],
      }),
      ORIGIN,
    );
    expect(ld.offers).toEqual([
      {
        '@type': 'Offer',
        sku: 'LIN-31',
        name: 'M · Rust',
        priceCurrency: 'UGX',
        price: 135000,
        availability: 'https://schema.org/InStock',
        itemCondition: 'https://schema.org/NewCondition',
        url: 'https://duuka.test/products/ankara-wrap-dress?variant=31',
      },
      {
        '@type': 'Offer',
        sku: 'LIN-32',
        name: 'L · Rust',
        priceCurrency: 'UGX',
        price: 135000,
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          priceType: 'https://schema.org/StrikethroughPrice',
          priceCurrency: 'UGX',
          price: 150000,
        },
        availability: 'https://schema.org/LimitedAvailability',
        itemCondition: 'https://schema.org/NewCondition',
        url: 'https://duuka.test/products/ankara-wrap-dress?variant=32',
      },
    ]);
  });

  it.each([
    [0, 'https://schema.org/OutOfStock'],
    [5, 'https://schema.org/LimitedAvailability'],
    [20, 'https://schema.org/InStock'],
  ])('stock %i is %s', (stock, availability) => {
    const ld = productJsonLd(product({ variants: [only({ available: stock })] }), ORIGIN);
    expect((ld.offers as { availability: string }[])[0]?.availability).toBe(availability);
  });

  it('draws the line between a few left and in stock at the low-stock badge', () => {
    expect(availabilityFor(1)).toBe('https://schema.org/LimitedAvailability');
    expect(availabilityFor(9)).toBe('https://schema.org/LimitedAvailability');
    expect(availabilityFor(10)).toBe('https://schema.org/InStock');
  });

  it('prices in whole shillings as a JSON number', () => {
    const ld = productJsonLd(product({ variants: [only({ price: 49_999.6 })] }), ORIGIN);
    const [offer] = ld.offers as { price: number; priceCurrency: string }[];
    const { price, priceCurrency } = offer ?? { price: 0, priceCurrency: '' };
    expect(price).toBe(50_000);
    expect(Number.isInteger(price)).toBe(true);
    expect(priceCurrency).toBe('UGX');
    expect(JSON.stringify(ld)).toContain('"price":50000');
  });

  it('falls back to the placeholder image and the name as description', () => {
    const ld = productJsonLd(product({ image_url: null, description: undefined }), ORIGIN);
    expect(ld.image).toBe('https://duuka.test/images/placeholder.svg');
    expect(ld.description).toBe('Ankara Wrap Dress');
  });
});

describe('JSON-LD in the head', () => {
  it('escapes markup for an inline script', () => {
    const ld = productJsonLd(product({ name: 'Bad </script><b>&' }), ORIGIN);
    const script = jsonLdScript(ld);
    expect(script.type).toBe('application/ld+json');
    expect(script.children).not.toMatch(/[<>&]/);
    expect(JSON.parse(script.children)).toEqual(ld);
  });
});
