// The Contact page's form and the footer's newsletter box: their texts and the schemas both the
// forms (before sending) and the contact procedures (on arrival) check.
import * as v from 'valibot';
import { isValidPhone, normalisePhone } from './phone.ts';
import { invisibleCharacters, optionalText, typedLine, typedText } from './text.ts';

export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
export const PHONE_MAX = 32;
export const COMMENT_MAX = 2000;

export const TEXT = {
  emailRequired: 'Please enter your email address.',
  emailInvalid: 'Please enter a valid email address.',
  emailTooLong: 'Email address must be 254 characters or fewer.',
  nameTooLong: 'Name must be 100 characters or fewer.',
  nameNotText: 'Name must be text.',
  nameInvisible: invisibleCharacters('Name'),
  phoneInvalid: 'Please enter a valid phone number, e.g. 0772 123 456.',
  commentTooLong: 'Message must be 2,000 characters or fewer.',
  commentNotText: 'Message must be text.',
  commentInvisible: invisibleCharacters('Message'),
  formInvalid: 'Please fill in the form and try again.',
  sending: 'Sending…',
  sentToast: 'Message sent. Thank you for contacting us!',
  sent: (firstName: string, email: string) =>
    `Thank you${firstName ? `, ${firstName}` : ''}! Your message has been sent — we’ll reply to ${email} soon.`,
  subscribing: 'Subscribing…',
  subscribedToast: 'Thank you for subscribing!',
  subscribed: (email: string) =>
    `Thank you for subscribing! New arrivals will reach ${email} first.`,
  alreadySubscribedToast: "You're already subscribed.",
  alreadySubscribed: (email: string) =>
    `${email} is already subscribed — thank you for staying with us.`,
} as const;

const email = v.pipe(
  v.string((issue) => (issue.input == null ? TEXT.emailRequired : TEXT.emailInvalid)),
  v.trim(),
  v.nonEmpty(TEXT.emailRequired),
  v.maxLength(EMAIL_MAX, TEXT.emailTooLong),
  v.email(TEXT.emailInvalid),
  v.toLowerCase(),
);

const phone = v.pipe(
  v.nullish(
    v.pipe(
      v.string(TEXT.phoneInvalid),
      v.trim(),
      v.maxLength(PHONE_MAX, TEXT.phoneInvalid),
      v.regex(/^[+\d\s().-]*$/, TEXT.phoneInvalid),
      typedLine(TEXT.phoneInvalid),
    ),
  ),
  v.transform((text) => (text ? normalisePhone(text) : null)),
  v.check((normalised) => normalised === null || isValidPhone(normalised), TEXT.phoneInvalid),
);

/** A missing email key reads as an empty email box; anything else that is not a form is refused. */
const formMessage = (issue: v.ObjectIssue) =>
  issue.expected === '"email"' ? TEXT.emailRequired : TEXT.formInvalid;

export const newsletterInput = v.object({ email }, formMessage);

export const contactInput = v.object(
  {
    name: optionalText(
      typedText({
        notText: TEXT.nameNotText,
        max: NAME_MAX,
        tooLong: TEXT.nameTooLong,
        invisible: TEXT.nameInvisible,
      }),
    ),
    email,
    phone,
    comment: optionalText(
      typedText({
        notText: TEXT.commentNotText,
        max: COMMENT_MAX,
        tooLong: TEXT.commentTooLong,
        invisible: TEXT.commentInvisible,
        lines: true,
      }),
    ),
  },
  formMessage,
);

/** The field a message is about, so a form can show it beside that field. */
export type ContactField = 'name' | 'email' | 'phone' | 'comment';
const FIELD_OF_MESSAGE: Partial<Record<string, ContactField>> = {
  [TEXT.emailRequired]: 'email',
  [TEXT.emailInvalid]: 'email',
  [TEXT.emailTooLong]: 'email',
  [TEXT.nameTooLong]: 'name',
  [TEXT.nameNotText]: 'name',
  [TEXT.nameInvisible]: 'name',
  [TEXT.phoneInvalid]: 'phone',
  [TEXT.commentTooLong]: 'comment',
  [TEXT.commentNotText]: 'comment',
  [TEXT.commentInvisible]: 'comment',
};
export function contactFieldOf(message: string): ContactField | null {
  return FIELD_OF_MESSAGE[message] ?? null;
}
