import { createFileRoute } from '@tanstack/react-router';
import { uploadReturnPhoto } from '#server/http/return-photos.ts';
import {
  shopEnv,
  workerAuth,
  workerImages,
  workerOwnOrigins,
  workerPhotos,
} from '#server/worker-context.ts';

// A return's photo from the shopper: the raw picture as the body (server/http/return-photos.ts).
export const Route = createFileRoute('/api/returns/photos')({
  server: {
    handlers: {
      POST: ({ request }) =>
        uploadReturnPhoto(
          {
            auth: workerAuth(),
            ownerEmails: shopEnv().OPERATOR_EMAILS,
            photos: workerPhotos(),
            images: workerImages(),
            ownOrigins: workerOwnOrigins(),
          },
          request,
        ),
    },
  },
});
