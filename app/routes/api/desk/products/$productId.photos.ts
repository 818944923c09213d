import { createFileRoute } from '@tanstack/react-router';
import { uploadPhoto } from '#server/http/photo-upload.ts';
import {
  shopEnv,
  workerAuth,
  workerDb,
  workerImages,
  workerOwnOrigins,
  workerPhotos,
} from '#server/worker-context.ts';

// A product photo from the desk: the raw picture as the body (server/http/photo-upload.ts).
export const Route = createFileRoute('/api/desk/products/$productId/photos')({
  server: {
    handlers: {
      POST: ({ request, params }) =>
        uploadPhoto(
          {
            db: workerDb(),
            auth: workerAuth(),
            ownerEmails: shopEnv().OPERATOR_EMAILS,
            photos: workerPhotos(),
            images: workerImages(),
            ownOrigins: workerOwnOrigins(),
          },
          request,
          params.productId,
        ),
    },
  },
});
