// /robots.txt: crawl the storefront, not the API or dev tools. The shopper's own screens (cart,
// checkout, orders, account) are not listed: a visitor's copy of them says `noindex`, and a
// crawler must be allowed to fetch a page to read that (a Disallow'd URL can still be indexed
// from links, without its content). Decision 0033.
import { createFileRoute } from '@tanstack/react-router';

const DISALLOW = ['/api/', '/dev/'];

function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOW.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

export const Route = createFileRoute('/robots.txt')({
  server: {
    handlers: {
      GET: ({ request }) =>
        new Response(robotsTxt(new URL(request.url).origin), {
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            'cache-control': 'public, max-age=3600',
          },
        }),
    },
  },
});
