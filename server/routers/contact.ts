import * as v from 'valibot';
import { CONTACT_MESSAGE_LIMIT, NEWSLETTER_LIMIT } from '#core/limits.ts';
import { isValidPhone, normalisePhone } from '#core/phone.ts';
import { saveContactMessage, subscribeToNewsletter } from '../services/contact.ts';
import { limited, publicProcedure, router } from '../trpc.ts';

export const EMAIL_REQUIRED = 'Please enter your email address.';
export const EMAIL_INVALID = 'Please enter a valid email address.';
export const EMAIL_TOO_LONG = 'Email address must be 254 characters or fewer.';
export const NAME_TOO_LONG = 'Name must be 100 characters or fewer.';
export const PHONE_INVALID = 'Please enter a valid phone number, e.g. 0772 123 456.';
export const COMMENT_TOO_LONG = 'Message must be 2,000 characters or fewer.';
export const FORM_INVALID = 'Please fill in the form and try again.';

/** Postgres text cannot hold NUL; nothing a person types contains one. */
const withoutNul = v.transform((text: string) => text.replaceAll('\0', ''));

const email = v.pipe(
  v.string((issue) => (issue.input == null ? EMAIL_REQUIRED : EMAIL_INVALID)),
  withoutNul,
  v.trim(),
  v.nonEmpty(EMAIL_REQUIRED),
  v.maxLength(254, EMAIL_TOO_LONG),
  v.email(EMAIL_INVALID),
  v.toLowerCase(),
);

/** An optional text field: missing, null or blank becomes null. */
function optionalText(maxLength: number, tooLong: string, notText: string) {
  return v.pipe(
    v.nullish(v.pipe(v.string(notText), withoutNul, v.trim(), v.maxLength(maxLength, tooLong))),
    v.transform((text) => text || null),
  );
}

const phone = v.pipe(
  v.nullish(
    v.pipe(
      v.string(PHONE_INVALID),
      v.trim(),
      v.maxLength(32, PHONE_INVALID),
      v.regex(/^[+\d\s().-]*$/, PHONE_INVALID),
    ),
  ),
  v.transform((text) => (text ? normalisePhone(text) : null)),
  v.check((normalised) => normalised === null || isValidPhone(normalised), PHONE_INVALID),
);

/** A missing email key reads as an empty email box; anything else that is not a form is refused. */
const formMessage = (issue: v.ObjectIssue) =>
  issue.expected === '"email"' ? EMAIL_REQUIRED : FORM_INVALID;

export const newsletterInput = v.object({ email }, formMessage);

export const contactInput = v.object(
  {
    name: optionalText(100, NAME_TOO_LONG, 'Name must be text.'),
    email,
    phone,
    comment: optionalText(2000, COMMENT_TOO_LONG, 'Message must be text.'),
  },
  formMessage,
);

export const contactRouter = router({
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
