// The home page on the desk (issue 34, decision 0078): desk.homeSlides / desk.saveHomeSlides (the
// hero's slides) and desk.categories / desk.saveCategories (the shop's categories, their order and
// pictures). Staff and the owner edit them: words and pictures of the shop window, no money.
import type { TRPCRouterRecord } from '@trpc/server';
import { DESK_HOME_TEXT, saveCategoriesInput, saveHomeSlidesInput } from '#core/desk-home.ts';
import {
  deskCategories,
  deskHomeSlides,
  type SaveCategoriesProblem,
  type SaveCategoriesRefused,
  type SaveSlidesProblem,
  saveCategories,
  saveHomeSlides,
} from '../../services/desk-home-service.ts';
import { keyedAnswer } from '../../services/desk-record.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';

const slidesRefusal: Refusals<SaveSlidesProblem> = {
  'unknown-slide': ['BAD_REQUEST', DESK_HOME_TEXT.unknownSlide],
  'unknown-picture': ['BAD_REQUEST', DESK_HOME_TEXT.pictureUnknown],
};

const categoriesRefusal: Refusals<SaveCategoriesProblem, SaveCategoriesRefused> = {
  'unknown-category': ['BAD_REQUEST', DESK_HOME_TEXT.unknownCategory],
  'unknown-picture': ['BAD_REQUEST', DESK_HOME_TEXT.pictureUnknown],
  'in-use': ['CONFLICT', (refused) => DESK_HOME_TEXT.categoryInUse(refused.name, refused.pieces)],
  clash: ['CONFLICT', DESK_HOME_TEXT.clash],
};

export const homeDesk = {
  /** The hero's slides in the home's order, and the shop's photos to pick from. */
  homeSlides: deskProcedure.query(({ ctx }) => deskHomeSlides(ctx.db)),

  /** Replaces the slides (1–6, in order) in one batch with the record and the catalogue's
   * version; the same request key again answers the first save. */
  saveHomeSlides: deskProcedure.input(saveHomeSlidesInput).mutation(async ({ ctx, input }) => {
    const { ok, ...saved } = accepted(
      await keyedAnswer(
        ctx.db,
        input.requestKey,
        { actor: ctx.user, action: 'home.slides.saved' },
        () => saveHomeSlides(ctx.db, { email: ctx.user.email }, input),
      ),
      slidesRefusal,
    );
    return saved;
  }),

  /** Every category in the shop's order, with how many pieces each holds, and the photos. */
  categories: deskProcedure.query(({ ctx }) => deskCategories(ctx.db)),

  /** Saves the categories (order, names, pictures, new ones; one left out is removed when no
   * piece is filed under it) in one batch with the record and the catalogue's version. */
  saveCategories: deskProcedure.input(saveCategoriesInput).mutation(async ({ ctx, input }) => {
    const { ok, ...saved } = accepted(
      await keyedAnswer(
        ctx.db,
        input.requestKey,
        { actor: ctx.user, action: 'categories.saved' },
        () => saveCategories(ctx.db, { email: ctx.user.email }, input),
      ),
      categoriesRefusal,
    );
    return saved;
  }),
} satisfies TRPCRouterRecord;
