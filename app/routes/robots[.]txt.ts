// /robots.txt: crawl the storefront, not the API, the shopper's own pages or dev tools.
import { createFileRoute } from '@tanstack/react-router';

const DISALLOW = [
  '/api/',
  '/cart',
  '/checkout',
  '/profile',
  '/settings',
  '/orders',
  '/order-history',
  '/change-password',
  '/dev/',
];

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
