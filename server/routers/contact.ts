import { contactInput, newsletterInput } from '#core/contact.ts';
import { CONTACT_MESSAGE_LIMIT, NEWSLETTER_LIMIT } from '#core/limits.ts';
import { saveContactMessage, subscribeToNewsletter } from '../services/contact.ts';
import { limited, publicProcedure, router } from '../trpc.ts';

export const contactRouter = router({
  /** The shop's social pages (SOCIAL_LINKS), for the footer and the Contact page. */
  channels: publicProcedure.query(({ ctx }) => ctx.social),

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
