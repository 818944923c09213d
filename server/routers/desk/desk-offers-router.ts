// The desk's offers (issue 35): desk.offers (every offer with its state and figures per code, and
// what the form picks targets from) and desk.saveOffer (a new offer or an edit). Owner and staff
// both run offers (the issue: "owner and staff may edit offers").
import type { TRPCRouterRecord } from '@trpc/server';
import { saveOfferInput, DESK_OFFERS_TEXT as T } from '#core/offer-form.ts';
import {
  deskOffers,
  type SaveOfferProblem,
  type SaveOfferRefused,
  saveOffer,
} from '../../services/desk-offers-service.ts';
import { keyedAnswer } from '../../services/desk-record.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';

const saveRefusal: Refusals<SaveOfferProblem, SaveOfferRefused> = {
  'not-found': ['NOT_FOUND', T.notFound],
  'code-taken': ['CONFLICT', (refused) => T.codeTaken(refused.code)],
  'category-gone': ['BAD_REQUEST', T.categoryGone],
  'product-gone': ['BAD_REQUEST', T.productGone],
  'limit-below-used': ['BAD_REQUEST', (refused) => T.limitBelowUsed(refused.used)],
};

export const offersDesk = {
  /** Every offer, newest first, with its state, uses, orders and sales; the form's targets. */
  offers: deskProcedure.query(({ ctx }) => deskOffers(ctx.db)),

  /** Saves an offer (no id: a new one) → { id }; the same request key again answers the first. */
  saveOffer: deskProcedure.input(saveOfferInput).mutation(async ({ ctx, input }) => {
    const saved = accepted(
      await keyedAnswer(ctx.db, input.requestKey, { actor: ctx.user, action: 'offer.saved' }, () =>
        saveOffer(ctx.db, { email: ctx.user.email }, input),
      ),
      saveRefusal,
    );
    return { id: saved.id };
  }),
} satisfies TRPCRouterRecord;
