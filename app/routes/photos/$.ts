import { waitUntil } from 'cloudflare:workers';
import { createFileRoute } from '@tanstack/react-router';
import { servePhoto } from '#server/http/photo-upload.ts';
import { workerImages, workerPhotos } from '#server/worker-context.ts';

// A shopper's copy of a product photo: /photos/{key}?w=800 (server/http/photo-upload.ts). Copies
// made are kept in the edge cache, so Images makes each one once per place.
export const Route = createFileRoute('/photos/$')({
  server: {
    handlers: {
      GET: ({ request, params }) =>
        servePhoto(
          {
            photos: workerPhotos(),
            images: workerImages(),
            cache: (caches as unknown as { default: Cache }).default,
            keep: waitUntil,
          },
          request,
          params._splat ?? '',
        ),
    },
  },
});
