// Campaigns on the desk (issue 35, decision 0085): desk.campaigns (the page), desk.campaignAudience
// (the count, the cost and the text before sending), desk.sendCampaign and desk.setCartReminders.
// Owner and staff; every send and switch is recorded.
import type { TRPCRouterRecord } from '@trpc/server';
import {
  CAMPAIGNS_TEXT,
  campaignAudienceInput,
  cartRemindersInput,
  sendCampaignInput,
} from '#core/campaign-rules.ts';
import {
  type CampaignProblem,
  type CampaignRefused,
  campaignAudience,
  deskCampaigns,
  sendCampaign,
  setCartReminders,
} from '../../services/campaigns-service.ts';
import { keyedAnswer } from '../../services/desk-record.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';

const refusals: Refusals<CampaignProblem, CampaignRefused> = {
  'offer-not-found': ['NOT_FOUND', CAMPAIGNS_TEXT.offerNotFound],
  'category-not-found': ['NOT_FOUND', CAMPAIGNS_TEXT.categoryNotFound],
  'too-long': ['BAD_REQUEST', (refused) => CAMPAIGNS_TEXT.messageTooLong(refused.room)],
  nobody: ['BAD_REQUEST', CAMPAIGNS_TEXT.noAudience],
};

export const campaignsDesk = {
  /** The campaigns sent, the offers one may announce, the categories, the reminder's switch. */
  campaigns: deskProcedure.query(({ ctx }) => deskCampaigns(ctx.db)),

  /** Who would get it and what it costs, before sending. */
  campaignAudience: deskProcedure.input(campaignAudienceInput).query(async ({ ctx, input }) => {
    const { ok, ...audience } = accepted(await campaignAudience(ctx, input), refusals);
    return audience;
  }),

  /** Sends it (queued in one statement); the same request key again answers the first send. */
  sendCampaign: deskProcedure.input(sendCampaignInput).mutation(async ({ ctx, input }) => {
    const sent = accepted(
      await keyedAnswer(
        ctx.db,
        input.requestKey,
        { actor: ctx.user, action: 'campaign.sent' },
        () => sendCampaign(ctx, { email: ctx.user.email }, input),
      ),
      refusals,
    );
    // A replayed send answers from its record, which names more: the same two figures.
    return { id: Number(sent.id), queued: Number(sent.queued) };
  }),

  /** Switches the cart reminder on or off. */
  setCartReminders: deskProcedure
    .input(cartRemindersInput)
    .mutation(({ ctx, input }) => setCartReminders(ctx.db, { email: ctx.user.email }, input.on)),
} satisfies TRPCRouterRecord;
