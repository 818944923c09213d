import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { listCategories, productSlugs } from '#server/services/catalogue-service.ts';
import { closeBrowser, openBrowser } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { sessionCookie, verifiedShopper } from '../support/shoppers.ts';

afterAll(closeBrowser);
const db = createDb(shop().databaseUrl);

const shopUrl = () => shop().url;

/** Parses XML with the browser's own parser: the locs, or the parser's error. */
async function parseSitemap(xml: string): Promise<{ error: string | null; locs: string[] }> {
  const page = await (await openBrowser()).newPage();
  try {
    return await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const error = doc.querySelector('parsererror');
      const root = doc.documentElement;
      return {
        error: error
          ? error.textContent
          : root.localName === 'urlset' &&
              root.namespaceURI === 'http://www.sitemaps.org/schemas/sitemap/0.9'
            ? null
            : `unexpected root ${root.namespaceURI} ${root.localName}`,
        locs: [...doc.getElementsByTagNameNS(root.namespaceURI, 'loc')].map(
          (loc) => loc.textContent ?? '',
        ),
      };
    }, xml);
  } finally {
    await page.close();
  }
}

describe('sitemap.xml', () => {
  it('lists the pages, every category and every product as absolute URLs', async () => {
    const response = await fetch(`${shopUrl()}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);

    const { error, locs } = await parseSitemap(xml);
    expect(error).toBeNull();
    const origin = new URL(shopUrl()).origin;
    for (const loc of locs) expect(loc.startsWith(`${origin}/`), loc).toBe(true);
    for (const path of [
      '/',
      '/shop',
      '/search',
      '/about',
      '/contact',
      '/gift-cards',
      '/products',
      '/terms',
      '/privacy',
      '/cookies',
    ]) {
      expect(locs).toContain(`${origin}${path}`);
    }

    const [categories, products] = await Promise.all([listCategories(db), productSlugs(db)]);
    expect(categories.length).toBeGreaterThan(0);
    for (const c of categories) expect(locs).toContain(`${origin}/products?category=${c.id}`);
    const productLocs = locs.filter((loc) => loc.startsWith(`${origin}/products/`));
    expect(products.length).toBeGreaterThanOrEqual(48);
    expect(productLocs).toHaveLength(products.length);
    expect(new Set(productLocs)).toEqual(
      new Set(products.map((p) => `${origin}/products/${p.slug}`)),
    );
    // One <lastmod> (a W3C date) per product.
    const lastmods = xml.match(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/g) ?? [];
    expect(lastmods).toHaveLength(products.length);
  });
});

describe('robots.txt', () => {
  it('allows the shop and its private screens, keeps crawlers out of the API and dev tools', async () => {
    const response = await fetch(`${shopUrl()}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    expect(lines.filter((line) => line.startsWith('Disallow:'))).toEqual([
      'Disallow: /api/',
      'Disallow: /dev/',
    ]);
    expect(lines).toContain(`Sitemap: ${new URL(shopUrl()).origin}/sitemap.xml`);
  });
});

// A crawler has no session: what it can fetch of a private screen (an empty cart, a sign-in
// prompt) must say noindex; the signed-in shopper's own page carries no robots rule.
describe('private screens', () => {
  const robots = async (path: string, cookie?: string) => {
    const html = await (
      await fetch(`${shopUrl()}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' })
    ).text();
    return [...html.matchAll(/<meta name="robots" content="([^"]*)"/g)].map((m) => m[1]);
  };
  const PRIVATE = [
    '/cart',
    '/checkout',
    '/settings',
    '/profile',
    '/order-history',
    '/order-success',
  ];

  it('are noindex for a visitor', async () => {
    for (const path of PRIVATE)
      expect({ path, robots: await robots(path) }).toEqual({ path, robots: ['noindex'] });
  });

  it('carry no robots rule for the signed-in shopper', async () => {
    const cookie = await sessionCookie(await verifiedShopper(db, 'Robots Shopper'));
    for (const path of [...PRIVATE, '/orders']) {
      expect({ path, robots: await robots(path, cookie) }).toEqual({ path, robots: [] });
    }
  });
});

describe('icons and manifest', () => {
  it('serves the SVG favicon', async () => {
    const response = await fetch(`${shopUrl()}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toContain('<svg');
  });

  it('serves the apple touch icon as a PNG', async () => {
    const response = await fetch(`${shopUrl()}/apple-touch-icon.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/png/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // 'PNG'
  });

  it('serves the web app manifest', async () => {
    const response = await fetch(`${shopUrl()}/site.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; type: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'duuka',
      short_name: 'duuka',
      display: 'standalone',
      theme_color: '#faf7f2',
      background_color: '#faf7f2',
    });
    expect(manifest.icons.map((i) => i.src)).toEqual(['/favicon.svg', '/apple-touch-icon.png']);
  });
});
