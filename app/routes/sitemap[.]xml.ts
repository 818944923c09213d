// /sitemap.xml: the storefront's public pages, every category listing and every product page,
// as absolute URLs on the origin the request came to.
import { createFileRoute } from '@tanstack/react-router';
import { listCategories, productSlugs } from '#server/services/catalogue-service.ts';
import { createWorkerContext } from '#server/worker-context.ts';

const STATIC_PATHS = [
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
];

function xmlEscape(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

function urlEntry(loc: string, lastmod?: Date | string | null): string {
  const date = lastmod ? new Date(lastmod) : undefined;
  const modified =
    date && !Number.isNaN(date.getTime())
      ? `<lastmod>${date.toISOString().slice(0, 10)}</lastmod>`
      : '';
  return `<url><loc>${xmlEscape(loc)}</loc>${modified}</url>`;
}

async function sitemap({ request }: { request: Request }): Promise<Response> {
  const origin = new URL(request.url).origin;
  const { db } = createWorkerContext(request.headers);
  const [categories, products] = await Promise.all([listCategories(db), productSlugs(db)]);
  const entries = [
    ...STATIC_PATHS.map((path) => urlEntry(origin + path)),
    ...categories.map((c) => urlEntry(`${origin}/products?category=${c.id}`)),
    ...products.map((p) =>
      urlEntry(`${origin}/products/${encodeURIComponent(p.slug)}`, p.createdAt),
    ),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
  return new Response(xml, {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    },
  });
}

export const Route = createFileRoute('/sitemap.xml')({
  server: { handlers: { GET: sitemap } },
});
