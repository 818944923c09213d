import { contactInput, newsletterInput } from '#core/contact-rules.ts';
import { CONTACT_MESSAGE_LIMIT, NEWSLETTER_LIMIT } from '#core/limits.ts';
import { shownStoreDetails } from '#core/store-details.ts';
import { saveContactMessage, subscribeToNewsletter } from '../services/contact-service.ts';
import { shopSettings, storeDetailsOf } from '../services/shop-settings.ts';
import { limited, publicProcedure, router } from '../trpc.ts';

export const contactRouter = router({
  /**
   * The shop's social pages (SOCIAL_LINKS) and its support phone and email (the desk's settings,
   * else SUPPORT_PHONE / SUPPORT_EMAIL), for the footer and the Contact page, and the shop's own
   * details (issue 34: address, landmark, pin, hours, pickup hours; the desk's, else today's shop).
   * And the shop's WhatsApp (issue 37): its number for "Ask on WhatsApp", and `orderUpdates`
   * (the settings page offers the channel), or null unless the shop has WhatsApp (WHATSAPP_*) and
   * the owner set the number. One read of the settings; the root's loader asks for it beside the
   * page's own reads.
   */
  channels: publicProcedure.query(async ({ ctx }) => {
    const settings = await shopSettings(ctx.db, ctx);
    const details = storeDetailsOf(settings);
    const whatsapp: { number: string; orderUpdates: boolean } | null =
      ctx.sms.whatsapp && details.whatsappNumber
        ? { number: details.whatsappNumber, orderUpdates: true }
        : null;
    return {
      social: details.socialLinks,
      support: { phone: settings.supportPhone, email: settings.supportEmail },
      store: shownStoreDetails(details),
      whatsapp,
    };
  }),

  /** The footer's newsletter box. Subscribing twice is fine: `isNew` tells the two apart. */
  subscribe: publicProcedure
    .input(newsletterInput)
    .use(limited('newsletter', NEWSLETTER_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const { isNew } = await subscribeToNewsletter(ctx.db, input.email);
      return { email: input.email, isNew };
    }),

  /** The Contact page's form: stored for the shop to answer. */
  send: publicProcedure
    .input(contactInput)
    .use(limited('contact', CONTACT_MESSAGE_LIMIT))
    .mutation(async ({ ctx, input }) => {
      const { id } = await saveContactMessage(ctx.db, {
        name: input.name ?? null,
        email: input.email,
        phone: input.phone ?? null,
        comment: input.comment ?? null,
      });
      return { id };
    }),
});
