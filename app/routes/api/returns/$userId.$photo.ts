import { createFileRoute } from '@tanstack/react-router';
import { serveReturnPhoto } from '#server/http/return-photos.ts';
import { shopEnv, workerAuth, workerImages, workerPhotos } from '#server/worker-context.ts';

// A return's photo, to the shopper who took it and to the desk (server/http/return-photos.ts).
export const Route = createFileRoute('/api/returns/$userId/$photo')({
  server: {
    handlers: {
      GET: ({ request, params }) =>
        serveReturnPhoto(
          {
            auth: workerAuth(),
            ownerEmails: shopEnv().OPERATOR_EMAILS,
            photos: workerPhotos(),
            images: workerImages(),
          },
          request,
          `returns/${params.userId}/${params.photo}`,
        ),
    },
  },
});
