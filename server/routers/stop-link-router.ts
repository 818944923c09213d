// The stop link's page (issue 35, decision 0085): `stopLink.read` tells the page whose link it is
// (a first name at most) and `stopLink.stop` switches Promotions off. No session needed: the
// token in the text is the key. Both are limited per address, like every form anyone may use.
import { stopTokenInput } from '#core/campaign-rules.ts';
import { STOP_LINK_LIMIT, STOP_TEXT } from '#core/stop-link.ts';
import { readStopLink, type StopProblem, stopPromotions } from '../services/stop-link-service.ts';
import { accepted, type Refusals } from '../shopper-error.ts';
import { limited, publicProcedure, router } from '../trpc.ts';

const refusals: Refusals<StopProblem> = { unknown: ['NOT_FOUND', STOP_TEXT.unknown] };

export const stopLinkRouter = router({
  read: publicProcedure
    .input(stopTokenInput)
    .use(limited('stop-link', STOP_LINK_LIMIT))
    .query(async ({ ctx, input }) => {
      const { ok, ...link } = accepted(await readStopLink(ctx.db, input.token), refusals);
      return link;
    }),
  stop: publicProcedure
    .input(stopTokenInput)
    .use(limited('stop-link', STOP_LINK_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const { ok, ...done } = accepted(await stopPromotions(ctx.db, input.token), refusals);
      return done;
    }),
});
