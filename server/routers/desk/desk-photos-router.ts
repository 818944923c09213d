// Pictures: desk.photos (a product's photos for the panel), desk.setPhotos (order, alt text,
// colour, removal); uploads are POST /api/desk/products/{id}/photos (server/http/photo-upload.ts).
import type { TRPCRouterRecord } from '@trpc/server';
import * as v from 'valibot';
import { idSchema } from '#core/bounds.ts';
import { PHOTO_TEXT, setPhotosInput } from '#core/desk-photos.ts';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { productPhotos, type SetPhotosProblem, setPhotos } from '../../services/photos-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

const setPhotosRefusal: Refusals<SetPhotosProblem> = {
  'not-found': ['NOT_FOUND', DESK_TEXT.productNotFound],
  repeated: ['BAD_REQUEST', PHOTO_TEXT.repeated],
  'other-product': ['BAD_REQUEST', PHOTO_TEXT.otherProduct],
  'bad-colour': ['BAD_REQUEST', PHOTO_TEXT.badColour],
};

const productIdInput = v.strictObject(
  { productId: idSchema(DESK_TEXT.productNotFound) },
  DESK_TEXT.productNotFound,
);

export const photosDesk = {
  /** The product's photos in order, its name (the default alt text) and its colours. */
  photos: deskProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const found = await productPhotos(ctx.db, input.productId);
    if (!found) return shopperError('NOT_FOUND', DESK_TEXT.productNotFound);
    return found;
  }),

  setPhotos: deskProcedure.input(setPhotosInput).mutation(async ({ ctx, input }) => {
    const { photos } = accepted(
      await setPhotos({ db: ctx.db, photos: ctx.photos }, ctx.user, input),
      setPhotosRefusal,
    );
    return { photos };
  }),
} satisfies TRPCRouterRecord;
